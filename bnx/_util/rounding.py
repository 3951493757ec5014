"""Floating point with a proven bound, written once.

The unit roundoff, ``gamma(k)``, the comparison that defers to exact arithmetic, blocked
sums and logs of ratios.

Every float answer bnx gives comes with an argument that it is close enough to the
exact value, or is redone in exact arithmetic. The argument is always the same
(Higham, *Accuracy and Stability of Numerical Algorithms*, Lemma 3.1 and 3.3): with
nonnegative operands, a value computed through ``k`` roundings on its longest chain from
the inputs is ``v (1 + theta)`` with ``|theta| <= gamma(k) = k u / (1 - k u)``, where
``u = 2**-53`` is the unit roundoff of binary64. The chains add up: a float converted
from an exact number is one rounding; a product adds its operands' roundings plus one;
a sum of ``m`` terms (in any order) adds ``m - 1`` to its largest term's; a ratio adds
its two operands' roundings plus one (``(1 + theta_j) / (1 + theta_k)`` is a
``1 + theta_{j + k}``). The model holds while no operation underflows (every nonzero
intermediate value a normal float): callers check a lower bound on their values.

- :data:`UNIT`, :func:`gamma` (exact) and :func:`float_gamma` (a float rounded up);
- :func:`compare_all`: decide ``A >= B`` (or ``A > B``) entry by entry from computed
  values within a relative bound of the exact ``A`` and ``B``, or leave the entry
  unsettled so the caller computes it exactly: the one compare-or-defer of every
  engine and question (:func:`compare` is the same body on two numbers);
- :func:`probability`: a probability from a ratio of computed sums with its proven
  absolute bound, or ``None`` when that bound exceeds :data:`BOUND`;
- :func:`total`: a sum in blocks, so that ``m`` terms cost about ``2 sqrt(m)``
  roundings instead of ``m - 1``;
- :func:`log_ratio`: ``log(a / b)`` of two positive rationals with a bound on its
  absolute error (the naive Bayes log-weights of the compiler and of :mod:`bnx.linear`).

Examples
--------
>>> from bnx._util.rounding import UNIT, compare, gamma
>>> UNIT == 2.0 ** -53
True
>>> gamma(1) > UNIT
True
>>> compare(0.75, 0.25, 1e-12), compare(0.25, 0.75, 1e-12), compare(0.5, 0.5, 1e-12)
(True, False, None)
"""

from __future__ import annotations

import functools
import math
import sys
from fractions import Fraction

__all__ = ["BOUND", "EPS", "NORMAL", "U", "UNIT", "Unsafe", "compare", "compare_all",
           "float_gamma", "gamma", "log_ratio", "probability", "total"]

#: The unit roundoff of binary64.
UNIT = Fraction(1, 1 << 53)

#: The same, as a float.
U = 2.0 ** -53

#: Machine epsilon, ``2 u``: the gap from 1 to the next double.
EPS = 2.0 ** -52

#: The smallest positive normal double: below it relative rounding bounds fail.
NORMAL = sys.float_info.min

_LARGEST = sys.float_info.max

#: The bound promised on every float probability a question returns (``1e-9``).
BOUND = Fraction(1, 10 ** 9)


class Unsafe(Exception):
    """A float pass whose values could underflow (or overflow).

    Its caller answers in exact arithmetic instead.
    """


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


@functools.lru_cache(maxsize=1024)
def float_gamma(k: int) -> float:
    """:func:`gamma` as a float no smaller than it (for float comparisons).

    Examples
    --------
    >>> float_gamma(10) >= gamma(10)
    True
    """
    return math.nextafter(float(gamma(k)), math.inf)


def compare(a, b, rel, *, strict: bool = False, err=0) -> bool | None:
    """Whether ``A >= B`` (``A > B`` when ``strict``), or ``None`` when unsure.

    One pair of :func:`compare_all`: the same body, on two numbers.

    Parameters
    ----------
    a, b : float, int or fractions.Fraction
        Computed nonnegative values of the exact ``A`` and ``B``: ``|a - A| <= rel A``
        and ``|b - B| <= rel B``.
    rel : float or fractions.Fraction
        The relative bound (``gamma(k)`` of the roundings on the longest chain).
    strict : bool, default False
        Decide ``A > B`` instead of ``A >= B``.
    err : int, float or fractions.Fraction, default 0
        With ``rel`` 0, an absolute bound on ``|(a - b) - (A - B)|`` instead, ``a`` and
        ``b`` of any sign: logs, say (see :func:`compare_all`).

    Returns
    -------
    bool or None
        The exact answer when the bounds settle it; ``None`` when ``a`` and ``b`` are too
        close (or a float is subnormal or not finite, where relative bounds fail): the
        caller then compares the exact values.

    See Also
    --------
    compare_all : the same for arrays of values.

    Examples
    --------
    >>> compare(0.75, 0.25, 1e-12), compare(0.5, 0.5, 1e-12), compare(0.5, 0.5, Fraction(0))
    (True, None, True)
    >>> compare(7, 0, 0, err=5), compare(3, 0, 0, err=5)
    (True, None)
    """
    settled, result = _settle(a, b, rel, strict, err)
    return bool(result) if settled else None


def compare_all(a, b, rel, *, strict: bool = False, err=0):
    """Decide ``A >= B`` (``A > B`` when ``strict``) entry by entry, where the bounds can.

    The one compare-or-defer of every engine and question: each caller computes exactly
    only the entries left unsettled.

    Parameters
    ----------
    a, b : array_like
        Computed nonnegative values of the exact ``A`` and ``B`` (broadcast together):
        ``|a - A| <= rel A`` and ``|b - B| <= rel B``. Floats, or exact numbers (ints,
        fractions, an object array of them).
    rel : float or fractions.Fraction
        The relative bound (``gamma(k)`` of the roundings on the longest chain). A
        :class:`~fractions.Fraction` compares in exact arithmetic, floats included (a
        float is the exact rational it holds).
    strict : bool, default False
        Decide ``A > B`` instead of ``A >= B``.
    err : int, float or fractions.Fraction, default 0
        With ``rel`` 0, an absolute bound on ``|(a - b) - (A - B)|`` instead, ``a`` and
        ``b`` of any sign: exact numbers (the rounded log sums of :mod:`bnx.linear`), or
        floats (logs, an infinite one exact: the log of 0).

    Returns
    -------
    settled, result : numpy.ndarray of bool
        ``settled`` where the bounds decide; ``result`` the exact answer there (False
        elsewhere). Left unsettled: values too close, and floats where relative bounds
        fail (subnormal, infinite, NaN).

    See Also
    --------
    compare : the same for two numbers.

    Notes
    -----
    With floats the comparison runs in floats, its margins doubled and at least four
    unit roundoffs: the comparison's own roundings (at most three per side, of
    ``1 -+ 2 rel`` and the two products) are each one unit roundoff, so a sure float
    answer is a sure answer of the exact comparison. Otherwise it runs on the exact
    rationals of the values: ``A >= B`` is sure when ``a (1 - rel) >= b (1 + rel) + err``,
    ``A < B`` when ``a (1 + rel) + err < b (1 - rel)``. Exact zeros settle: ``0 >= 0``.
    With an absolute ``err`` on floats, ``A > B`` is sure when ``a > fl(b + err)`` and
    ``A < B`` when ``fl(a + err) < b`` (rounding is monotone, so these strict float
    inequalities hold of the exact sums too), and two equal infinities are equal.

    Examples
    --------
    >>> settled, result = compare_all([0.75, 0.5, 0.0, 0.0], [0.25, 0.5, 0.0, 0.5], 1e-12)
    >>> settled.tolist(), result.tolist()
    ([True, False, True, True], [True, False, True, False])
    >>> import math
    >>> compare_all([-1.0, -math.inf, -0.5], [-2.0, -math.inf, -0.25], 0.0, err=0.5)[0].tolist()
    [True, True, False]
    """
    import numpy as np
    a, b = np.asarray(a), np.asarray(b)
    if not _floating(a, b, rel):
        a, b = _exact(a), _exact(b)
    settled, result = _settle(a, b, rel, strict, err)
    settled = np.asarray(settled, dtype=bool)
    return settled, np.asarray(result, dtype=bool) & settled


def _floating(a, b, rel) -> bool:
    """Whether :func:`_settle` compares ``a`` and ``b`` in floats."""
    return (not isinstance(rel, Fraction)
            and (isinstance(a, float) or (not isinstance(a, int)
                                          and getattr(a, "dtype", _NONE).kind == "f"))
            and (isinstance(b, float) or (not isinstance(b, int)
                                          and getattr(b, "dtype", _NONE).kind == "f")))


class _NONE:  # the dtype of a value that has none
    kind = ""


def _exact(x):
    """Return the exact rationals of a float array as an object array (others as they are)."""
    if x.dtype.kind != "f":
        return x
    import numpy as np
    return np.array([Fraction(v) for v in x.reshape(-1).tolist()],
                    dtype=object).reshape(x.shape)


def _rational(x):
    """Return a lone number as an int or a fraction (arrays as they are)."""
    if isinstance(x, (int, Fraction)) or getattr(x, "ndim", 0):
        return x
    if hasattr(x, "item"):  # a numpy number (or a 0-d array): its Python number
        x = x.item()
    return x if isinstance(x, (int, Fraction)) else Fraction(x)


def _settle(a, b, rel, strict: bool, err):
    """``(settled, result)`` of ``A >= B`` (``A > B``): the body of :func:`compare_all`.

    Numbers or arrays alike (only operators that both have).
    """
    rounds = _floating(a, b, rel)
    logs = rounds and bool(err)
    if logs:  # an infinity is exact (the log of 0); NaN compares false: unsettled
        lo, hi, usable = 1.0, 1.0, True
    elif rounds:
        m = max(float(rel), 4 * U)
        lo, hi = 1.0 - 2.0 * m, 1.0 + 2.0 * m
        # relative bounds hold for 0 and for normal finite floats only (NaN is neither)
        usable = (((a == 0) | ((a >= NORMAL) & (a <= _LARGEST)))
                  & ((b == 0) | ((b >= NORMAL) & (b <= _LARGEST))))
    else:
        if not isinstance(a, (int, Fraction)):
            a = _rational(a)
        if not isinstance(b, (int, Fraction)):
            b = _rational(b)
        g = Fraction(rel) if rel else 0
        lo, hi = (1 - g, 1 + g) if g else (1, 1)
        usable = True
    if lo == 1 and hi == 1:  # exact values, or logs: no relative margin to apply
        a_lo = a_hi = a
        b_lo = b_hi = b
    else:
        a_lo, a_hi, b_lo, b_hi = a * lo, a * hi, b * lo, b * hi
    if err:
        a_hi, b_hi = a_hi + err, b_hi + err
    # a float sum rounds (monotonically): then only a strict inequality is sure
    yes = a_lo > b_hi if strict or logs else a_lo >= b_hi
    no = a_hi <= b_lo if strict and not logs else a_hi < b_lo
    if logs:  # two equal infinite logs are equal exactly
        tie = (a == b) & ((a == math.inf) | (a == -math.inf))
        yes, no = (yes, no | tie) if strict else (yes | tie, no)
    return (yes | no) & usable, yes


def probability(num, den, k: int) -> tuple[float, Fraction] | None:
    """``num / den`` as a probability with its proven absolute bound.

    Parameters
    ----------
    num, den : float
        Computed nonnegative sums (``num <= den`` exactly, ``den > 0``).
    k : int
        The roundings on both operands' chains together (the division adds one).

    Returns
    -------
    (float, fractions.Fraction) or None
        The ratio clipped into ``[0, 1]`` (a ratio of rounded sums may step just
        outside; the exact value is within the bound of the clipped float too) and a
        bound on its distance to the exact ratio; ``None`` when the relative bound
        ``gamma(k + 1)`` exceeds :data:`BOUND` (the caller computes exactly).

    Examples
    --------
    >>> value, bound = probability(1.0, 3.0, 4)
    >>> round(value, 6), bound < 1e-15
    (0.333333, True)
    >>> probability(1.0, 3.0, 10 ** 9) is None
    True
    """
    g = gamma(k + 1)
    if g > BOUND:
        return None
    value = min(1.0, max(0.0, float(num / den)))
    # |value - P| <= g P and P <= 1: within g, and within g value / (1 - g) when value < 1
    return value, min(g, g * Fraction(value) / (1 - g))


def total(x, axis: int = -1):
    """``(sum of x along axis, roundings it adds)``: nonnegative floats summed in blocks.

    A sum of ``m`` terms in one go adds up to ``m - 1`` roundings to its largest term's;
    summed in ``ceil(m / b)`` blocks of ``b = ceil(sqrt(m))`` terms, then the block sums,
    it adds at most ``(b - 1) + (ceil(m / b) - 1)``. Exact numbers (an object array) are
    summed as they are and add none.

    Examples
    --------
    >>> import numpy as np
    >>> s, k = total(np.ones((2, 10000)))
    >>> s.tolist(), k
    ([10000.0, 10000.0], 198)
    """
    import numpy as np
    x = np.moveaxis(np.asarray(x), axis, -1)
    m = x.shape[-1]
    if x.dtype == object or m <= 2:
        return x.sum(axis=-1), (0 if x.dtype == object else max(m - 1, 0))
    b = math.isqrt(m - 1) + 1
    blocks = -(-m // b)
    pad = blocks * b - m
    if pad:
        x = np.concatenate([x, np.zeros((*x.shape[:-1], pad), dtype=x.dtype)], axis=-1)
    return x.reshape(*x.shape[:-1], blocks, b).sum(axis=-1).sum(axis=-1), (b - 1) + (blocks - 1)


def log_ratio(a: Fraction, b: Fraction) -> tuple[float, float]:
    """``(lg, err)`` with ``|lg - log(a / b)| <= err``, for positive rationals.

    Through floats when ``a``, ``b`` and ``a / b`` are normal floats (``float(a)``, the
    division and the log each err by at most one rounding), else through the integer
    parts (no underflow, an error proportional to their logs). The one log-weight of
    naive Bayes and TAN classifiers: the compiler's (``compilation/engines/_weights.py``,
    ``_tan_model.py``) and :mod:`bnx.linear`'s.

    Examples
    --------
    >>> import math
    >>> lg, err = log_ratio(Fraction(3, 4), Fraction(1, 4))
    >>> abs(lg - math.log(3)) <= err < 1e-14
    True
    """
    try:
        fa, fb = a.numerator / a.denominator, b.numerator / b.denominator
        r = fa / fb if fa >= NORMAL and fb >= NORMAL else 0.0
    except (OverflowError, ZeroDivisionError):  # beyond the doubles
        r = 0.0
    if NORMAL <= r < math.inf:
        lg = math.log(r)
        return lg, 2.0 ** -50 * (1.0 + abs(lg))
    parts = (math.log(a.numerator), math.log(a.denominator),
             math.log(b.numerator), math.log(b.denominator))
    lg = parts[0] - parts[1] - parts[2] + parts[3]
    return lg, 2.0 ** -49 * (1.0 + sum(map(abs, parts)))
