"""The naive Bayes level engine's weights: log-likelihood ratios with a bound on their error.

A state of the level engine (:mod:`.naive_bayes_levels`) is a log-odds ``s``; observing state ``v``
of feature ``i`` adds ``w_i(v) = log p_v - log q_v``. :func:`log_weights` computes the
prior log-odds and every ``w_i(v)`` in floating point, with a proven bound on the error
of each term (:func:`bnx._util.rounding.log_ratio`, the log-weight :mod:`bnx.linear`
takes too), or refuses (``None``) when some probability is not a normal double, in
which case the exact engine (:mod:`.naive_bayes`) compiles instead.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..._util.rounding import NORMAL, log_ratio
from ...classifier._classifier import Classifier
from ._intervals import INF, prior_odds

__all__ = ["log_weights"]


def _normal(x: Fraction) -> bool:
    """Whether ``x`` is a normal double (its float neither subnormal nor infinite)."""
    f = float(x)
    return f >= NORMAL and not math.isinf(f)


def log_weights(clf: Classifier, features) -> tuple | None:
    """Return ``(s0, w, err)``: the prior log-odds, the feature weights and their error bound.

    Per feature the array of ``w_i(v)`` (``+inf`` for ``q_v = 0``, ``-inf`` for ``p_v =
    0``), and a bound on the error of every float term; ``None`` when some probability is
    not a normal double.
    """
    import numpy as np
    pos, neg, rho = prior_odds(clf)
    t = clf.threshold
    prior = clf.table(clf.class_var)[0]
    if rho is INF:
        s0, err = math.inf, 0.0
    elif rho == 0:
        s0, err = -math.inf, 0.0
    else:
        a, b = (1 - t) * prior[pos], t * prior[neg]
        if not (_normal(a) and _normal(b)):
            return None
        s0, err = log_ratio(a, b)
    ws = []
    for f in features:
        table = clf.table(f)
        row = []
        for p, q in zip(table[pos], table[neg]):
            if q == 0:
                row.append(math.inf)
            elif p == 0:
                row.append(-math.inf)
            else:
                if not (_normal(p) and _normal(q)):
                    return None
                lg, e = log_ratio(p, q)
                row.append(lg)
                err += e
        ws.append(np.array(row, dtype=np.float64))
    return s0, ws, err
