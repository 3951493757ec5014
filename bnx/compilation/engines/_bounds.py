"""Exact bounds on the odds of what remains, which settle some states early.

Examples
--------
>>> import numpy as np
>>> from fractions import Fraction
>>> from bnx.compilation.engines._bounds import bounds
>>> t = np.array([[1, 3], [2, 1]], dtype=object)  # class-first: phi(a, .), phi(b, .)
>>> bounds([(("C", "H"), t)], "C")
(Fraction(1, 2), Fraction(3, 1), True)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ._intervals import INF

__all__ = ["bounds"]


def _ratio_bounds(t: np.ndarray) -> tuple:
    """Return ``(L, U, b_positive)`` of a class-first factor.

    The least and greatest ``t[0] / t[1]`` over entries with ``t[1] > 0`` (``L = INF``: no
    such entry; ``U = INF``: some entry has ``t[0] > 0 = t[1]``), and whether ``t[1] > 0``
    everywhere.
    """
    a, b = t[0].reshape(-1), t[1].reshape(-1)
    ratios = [Fraction(int(x), int(y)) for x, y in zip(a, b) if y > 0]
    lo = min(ratios) if ratios else INF
    hi = INF if any(x > 0 and y == 0 for x, y in zip(a, b)) else max(ratios, default=Fraction(0))
    return lo, hi, len(ratios) == len(b)


def bounds(factors: list, c, start: tuple = (Fraction(1), Fraction(1), True)) -> tuple:
    """Exact bounds ``L <= A(z) / B(z) <= U`` from the class-first factors that remain.

    Every term of ``A`` and ``B`` (an assignment of the remaining variables) has the ratio
    ``prod_phi phi(a, .) / phi(b, .)`` over the factors that hold the class (the others
    cancel); ``A / B`` is a mediant of those ratios, so it lies between the products of
    the factors' least and greatest ratios. Terms with ``phi(b, .) = 0`` only add to
    ``A``. Also whether every factor's ``b`` part is positive (then ``B(z) > 0``).
    """
    lo, hi, positive = start
    for scope, t in factors:
        if scope and scope[0] == c:
            l2, h2, p2 = _ratio_bounds(t)
        else:
            l2, h2, p2 = Fraction(1), Fraction(1), all(x > 0 for x in t.reshape(-1))
        lo = lo * l2 if lo is not INF and l2 is not INF else INF
        hi = INF if hi is INF or h2 is INF else hi * h2
        positive = positive and p2
    return lo, hi, positive
