"""Floating point with a proven bound: the unit roundoff and ``gamma(k)``, written once.

Every float answer bnx gives comes with an argument that it is close enough to the
exact value, or is redone in exact arithmetic. The argument is always the same
(Higham, *Accuracy and Stability of Numerical Algorithms*, Lemma 3.1 and 3.3): with
nonnegative operands, a value computed through ``k`` roundings on its longest chain from
the inputs is ``v (1 + theta)`` with ``|theta| <= gamma(k) = k u / (1 - k u)``, where
``u = 2**-53`` is the unit roundoff of binary64.

Examples
--------
>>> from bnx._util.rounding import UNIT, gamma
>>> UNIT == 2.0 ** -53
True
>>> gamma(1) > UNIT
True
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["UNIT", "gamma"]

#: The unit roundoff of binary64.
UNIT = Fraction(1, 1 << 53)


def gamma(k: int) -> Fraction:
    """Return ``k u / (1 - k u)``, the bound on ``|theta|`` after ``k`` roundings.

    Parameters
    ----------
    k : int
        The number of roundings on the longest chain to a value (``k u < 1``).

    Returns
    -------
    fractions.Fraction
        The exact bound.
    """
    ku = k * UNIT
    return ku / (1 - ku)
