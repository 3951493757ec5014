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

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..errors import ThresholdError

__all__ = ["RULES", "argmax_pairs", "check_threshold", "decides"]

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
