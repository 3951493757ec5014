"""The decision rules of a classifier, on exact class joints.

``"threshold"``: positive iff ``(1 - T) Pr(pos, x) >= T Pr(not pos, x)`` (instances of
probability zero are positive). ``"argmax"``: positive iff the positive state is
``numpy.argmax`` of the class posterior, the first state winning ties (with
``Pr(x) = 0`` every joint is 0 and the first state wins).

Examples
--------
>>> from fractions import Fraction
>>> from bnx.classifier._rules import decides
>>> decides([1, 3], "threshold", 1, Fraction(3, 4)), decides([2, 2, 1], "argmax", 1, None)
(True, False)
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..errors import ThresholdError

__all__ = ["RULES", "argmax_pairs", "check_threshold", "decides", "decide_rows",
           "threshold_weights"]

RULES = ("threshold", "argmax")


class _Half(float):
    """The default threshold 0.5, told apart from an explicit one (argmax takes none)."""

    def __repr__(self) -> str:
        return "0.5"


_HALF = _Half(0.5)


def argmax_pairs(nclasses: int, p: int) -> list[tuple[int, int]]:
    """Write the argmax rule as comparisons ``Pr(a, x) >= Pr(b, x)``.

    One per other state ``c``, the earlier state first: the positive state ``p`` wins iff
    every pair ``(p, c)`` holds and no pair ``(c, p)`` does (so the earlier state wins
    ties).

    Examples
    --------
    >>> argmax_pairs(4, 1)
    [(0, 1), (1, 2), (1, 3)]
    """
    return [(p, c) if c > p else (c, p) for c in range(nclasses) if c != p]


def check_threshold(threshold: Any) -> Fraction:
    """Return the exact threshold (a float is the rational it denotes), or raise ThresholdError."""
    if isinstance(threshold, bool) or not isinstance(threshold, (numbers.Real, Fraction)):
        raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
    if isinstance(threshold, float) and not math.isfinite(threshold):
        raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
    if isinstance(threshold, (int, Fraction)):
        t = Fraction(threshold)
    else:  # float, numpy floats: the exact value of the float
        value = float(threshold)
        if not math.isfinite(value):
            raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
        t = Fraction(value)
    if not 0 <= t <= 1:
        raise ThresholdError(f"threshold must lie in [0, 1], got {threshold!r}")
    return t


def decides(joint: Sequence, rule: str, p: int, threshold: Fraction | None) -> bool:
    """Decide on ``joint = [Pr(c, x) for c]`` (up to a positive factor).

    ``p`` is the positive state's index.
    """
    if rule == "argmax":
        return (all(joint[p] > joint[c] for c in range(p))
                and all(joint[p] >= joint[c] for c in range(p + 1, len(joint))))
    pos = joint[p]
    neg = sum(joint, 0) - pos
    return (1 - threshold) * pos >= threshold * neg


@functools.lru_cache(maxsize=256)
def threshold_weights(t: Fraction) -> tuple[float, float] | None:
    """Return ``(1 - t, t)`` over the larger of the two, as floats: the threshold's two sides.

    ``(1 - t) Pr(p) >= t Pr(not p)`` is compared in floats as ``wp Pr(p) >= wn Pr(not p)``,
    both weights scaled so that the larger is 1 (the integers of ``t`` may not fit a
    float: a subnormal ``t`` is ``n / 2**1074``); each weight is rounded once. ``None``
    when the smaller weight is not 0 and rounds to no normal float (a threshold within
    about ``2**-1022`` of 0 or 1): the caller then compares exactly.

    Examples
    --------
    >>> threshold_weights(Fraction(1, 4)), threshold_weights(Fraction(5e-324))
    ((1.0, 0.3333333333333333), None)
    """
    from .._util.rounding import NORMAL
    n, m = t.numerator, t.denominator
    big = max(n, m - n)
    wp, wn = float(Fraction(m - n, big)), float(Fraction(n, big))
    if (m != n and wp < NORMAL) or (n and wn < NORMAL):
        return None
    return wp, wn


@functools.lru_cache(maxsize=256)
def _relative(err: float, k: int) -> float:
    """Return a float no smaller than ``(1 + err)(1 + gamma(k + 2)) - 1``.

    :func:`decide_rows`' bound, kept per ``(err, k)`` (exact rationals are slow).
    """
    from .._util.rounding import gamma
    return math.nextafter(float((1 + Fraction(err)) * (1 + gamma(k + 2)) - 1), math.inf)


def decide_rows(joint, err: float, rule: str, p: int, threshold: Fraction | None):
    """Decide many instances at once from their class joints in floats, where floats can.

    ``joint[c, r]`` is ``Pr(c, x_r)`` up to a positive factor per row ``r``, each entry
    within a relative ``err`` of the exact one. Returns ``(settled, decided)``, boolean
    arrays per row: ``decided`` is :func:`decides` where ``settled``; the caller decides
    the other rows exactly. The sums and products below add ``k + 2`` roundings (``k``
    class states); :func:`bnx._util.rounding.compare_all` compares.

    Examples
    --------
    >>> import numpy as np
    >>> joint = np.array([[1.0, 3.0, 2.0], [3.0, 1.0, 2.0]])  # the last row ties
    >>> [a.tolist() for a in decide_rows(joint, 1e-15, "threshold", 1, Fraction(1, 2))]
    [[True, True, False], [True, False, False]]
    >>> [a.tolist() for a in decide_rows(joint, 1e-15, "argmax", 1, None)]
    [[True, True, False], [True, False, False]]
    """
    import numpy as np

    from .._util.rounding import compare_all
    k = joint.shape[0]
    rel = _relative(float(err), k)
    rows = joint.shape[1]
    if rule == "argmax":  # positive: wins against every rival; negative: loses to one
        wins, loses = np.ones(rows, dtype=bool), np.zeros(rows, dtype=bool)
        for c in range(k):
            if c != p:
                s, r = compare_all(joint[p], joint[c], rel, strict=c < p)
                wins &= s & r
                loses |= s & ~r
        return wins | loses, wins
    weights = threshold_weights(threshold)
    if weights is None:
        return np.zeros(rows, dtype=bool), np.zeros(rows, dtype=bool)
    raw_pos = joint[p]
    raw_neg = joint[1 - p] if k == 2 else np.delete(joint, p, axis=0).sum(axis=0)
    pos, neg = raw_pos * weights[0], raw_neg * weights[1]
    lost = ((pos == 0) & (raw_pos != 0)) | ((neg == 0) & (raw_neg != 0))  # underflowed
    settled, decided = compare_all(pos, neg, rel)
    return settled & ~lost, decided & ~lost
