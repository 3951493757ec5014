"""The naive Bayes level engine's weights: log-likelihood ratios with a bound on their error.

A state of the level engine (:mod:`._levels`) is a log-odds ``s``; observing state ``v``
of feature ``i`` adds ``w_i(v) = log p_v - log q_v``. :func:`log_weights` computes the
prior log-odds and every ``w_i(v)`` in floating point, with a proven bound on the error
of each term, or refuses (``None``) when some probability is not a normal double, in
which case the exact engine (:mod:`.naive_bayes`) compiles instead.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ...classifier._classifier import Classifier
from ._intervals import INF, prior_odds

__all__ = ["log_weights"]

_U = 2.0 ** -53  # unit roundoff of a double


def _log(x: Fraction) -> float | None:
    """``log x`` for ``x > 0``, or ``None`` when ``x`` is not a normal double."""
    f = float(x)
    if not (f >= 2.2250738585072014e-308) or math.isinf(f):
        return None
    return math.log(f)


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
        a, b = _log((1 - t) * prior[pos]), _log(t * prior[neg])
        if a is None or b is None:
            return None
        s0, err = a - b, 8 * _U * (1 + abs(a) + abs(b))
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
                a, b = _log(p), _log(q)
                if a is None or b is None:
                    return None
                row.append(a - b)
                err += 8 * _U * (1 + abs(a) + abs(b))
        ws.append(np.array(row, dtype=np.float64))
    return s0, ws, err
