"""One decision of any classifier explained without compiling its decision function.

A network too large to compile (hepar2 with its 41 findings, pathfinder with 77) still
decides one instance in milliseconds; :func:`bnx.explain` on such a
:class:`~bnx.Classifier` answers for that one instance by search over the network:

- :mod:`._table`: the decision with a few features left open, as one exact table (one
  variable elimination that keeps them), read by the classifier's rule;
- :mod:`._bound`: a proof that one class beats another on every setting of many free
  features, by a min-product over the network's reduced factors (floats with a proven
  error bound);
- :mod:`._search`: the questions on one complete instance (is a part of it sufficient,
  a subset-minimal reason, the counterfactuals by distance, the shortest reasons);
- :mod:`._answer`: all of them under one deadline, and a partial instance's
  same-decision probability and what to observe next (the restricted classifier
  compiled, or a best-first branch and bound over the missing features: a proven
  interval, exact when it closes in time).

The report (:mod:`bnx.report`) says how each part was obtained and how far each search
went.
"""

from ._answer import (
    METHODS,
    Answer,
    Interval,
    answer,
    next_interval,
    partial_answer,
    sdp_interval,
)
from ._search import OutOfTime, Search

__all__ = ["Answer", "answer", "partial_answer", "sdp_interval", "next_interval", "Interval",
           "Search", "OutOfTime", "METHODS"]
