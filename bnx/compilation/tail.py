"""Exact truth tables of a state's last features, with a proven floating-point filter.

At the tail level of the general engine a state's remaining decision is
``rho A(z) >= B(z)`` for every completion ``z``, with ``A, B = sum_o k[c, o] r[c, o, z]``
(sums of nonnegative products). :func:`tail_truth` returns the truth table and the
exact interval of ``rho`` that has the same table.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .intervals import approx

__all__ = ["floats", "tail_truth", "weighted_truth"]


_TINY = 2.0 ** -900
_EPS = 2.0 ** -52


def floats(x: np.ndarray):
    """``x / 2**e`` in float64, correctly rounded (``e`` the largest entry's bit length),
    or ``None`` if a nonzero entry would fall under ``2**-900`` (no filter then)."""
    flat = [int(v) for v in x.reshape(-1)]
    e = max((v.bit_length() for v in flat), default=0)
    if e <= 1000:  # float(v) is correctly rounded and finite; scaling by 2**-e is exact
        out = np.array(flat, dtype=np.float64).reshape(x.shape) * 2.0 ** -e
    else:
        scale = 1 << e
        out = np.array([v / scale for v in flat], dtype=np.float64).reshape(x.shape)
    nz = out[out > 0]
    if len(nz) != sum(1 for v in flat if v) or (len(nz) and nz.min() < _TINY):
        return None
    return out


def tail_truth(rho: Fraction, k: np.ndarray, kf, r: np.ndarray, rf) -> tuple:
    """``(truth, lo, hi)`` over the completions ``z``: ``truth[z]`` is
    ``rho A(z) >= B(z)`` with ``A, B = sum_o k[c, o] r[c, o, z]`` (``k`` broadcasts over
    ``z``), and ``[lo, hi)`` the exact ``rho`` interval with the same truth table.

    A float filter decides what it can: all terms are nonnegative, so a float sum of
    ``m`` products of correctly rounded inputs is within a relative ``(m + 4) eps`` of
    the exact value (no underflow: nonzero inputs of ``r`` at least ``2**-900``, of ``k``
    at least ``2**-100``, ``rho`` within ``2**+-60``);
    comparisons and the interval's end points inside eight times that margin are
    settled in exact integers.
    """
    nz = r.shape[2]

    def exact(z):
        kz = k[:, :, z]
        return (sum(x * y for x, y in zip(kz[0], r[0, :, z])),
                sum(x * y for x, y in zip(kz[1], r[1, :, z])))

    rfl = approx(rho) if kf is not None and rf is not None else 0.0
    if not 2.0 ** -60 <= rfl <= 2.0 ** 60 or (kf[kf > 0].min() if (kf > 0).any()
                                              else 1.0) < 2.0 ** -100:
        kf = None  # keep every product and comparison far from underflow
    if kf is None:
        pairs = [exact(z) for z in range(nz)]
        return _truth_from_pairs(rho, pairs)
    s = (kf * rf).sum(axis=1)
    af, bf = s[0], s[1]
    delta = 8 * (r.shape[1] + 4) * _EPS
    truth = []
    met, missed = [], []
    for z in range(nz):
        a, b = af[z], bf[z]
        if a == 0.0:
            truth.append(b == 0.0)
            continue
        lhs = rfl * a
        if lhs > b * (1 + delta):
            truth.append(True)
            met.append(z)
        elif lhs < b * (1 - delta):
            truth.append(False)
            missed.append(z)
        else:
            ea, eb = exact(z)
            ok = rho.numerator * ea >= rho.denominator * eb
            truth.append(ok)
            (met if ok else missed).append(z)
    lo, hi = Fraction(0), None
    if met:
        top = max(bf[z] / af[z] for z in met)
        for z in met:
            if bf[z] / af[z] >= top * (1 - 2 * delta):
                ea, eb = exact(z)
                lo = max(lo, Fraction(eb, ea))
    if missed:
        bottom = min(bf[z] / af[z] for z in missed)
        for z in missed:
            if bf[z] / af[z] <= bottom * (1 + 2 * delta):
                ea, eb = exact(z)
                t = Fraction(eb, ea)
                hi = t if hi is None else min(hi, t)
    return truth, lo, hi


def _truth_from_pairs(rho: Fraction, pairs) -> tuple:
    rn, rd = rho.numerator, rho.denominator
    lo_n, lo_d, hi_n, hi_d = 0, 1, None, 1  # thresholds b / a met and missed
    truth = []
    for a, b in pairs:
        if a == 0:
            truth.append(b == 0)
        elif rn * a >= rd * b:  # rho >= b / a
            truth.append(True)
            if b * lo_d > lo_n * a:
                lo_n, lo_d = b, a
        else:
            truth.append(False)
            if hi_n is None or b * hi_d < hi_n * a:
                hi_n, hi_d = b, a
    return truth, Fraction(lo_n, lo_d), (None if hi_n is None else Fraction(hi_n, hi_d))


def weighted_truth(w: tuple, column, af, r: np.ndarray) -> list:
    """``truth[z]``: ``sum_c w[c] A_c(z) >= 0`` with ``A_c = sum_o k[c, o] r[c, o, z]``
    (``w`` exact Fractions with max ``|w| <= 1``, ``k`` and ``r`` nonnegative integers,
    ``column(z)`` the ``(classes, o)`` integers ``k[:, :, z]``; ``af`` the float
    ``A_c(z)`` summed from the scaled floats of :func:`floats`, or ``None``).

    Float filter: each ``A_c`` is a sum of ``m`` nonnegative products of correctly
    rounded inputs (no underflow: nonzero inputs at least ``2**-100`` and ``2**-900``),
    so it is within a relative ``(m + 4) eps``, and 0 exactly when ``A_c`` is; each
    weight is correctly rounded and 0 or at least ``2**-100`` in magnitude. The signed
    sum of the ``k`` products is then within ``(m + k + 8) eps T`` plus ``k``
    subnormal roundings of the exact value, ``T = sum_c |w_c| A_c``; every ``A_c``
    of a nonzero weight at 0 means a sum of exactly 0 (true); a sum inside eight
    times the margin is computed in exact integers.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> k = np.array([[1], [1]], dtype=object)
    >>> r = np.array([[[1, 3]], [[2, 2]]], dtype=object)
    >>> weighted_truth((Fraction(1), Fraction(-1)), lambda z: k, None, r)
    [False, True]
    """
    nc, m, nz = r.shape
    den = math.lcm(*(x.denominator for x in w))
    wi = [int(x * den) for x in w]

    def exact(z):
        kz = column(z)
        return sum(wc * sum(int(x) * int(y) for x, y in zip(kz[c], r[c, :, z]))
                   for c, wc in enumerate(wi) if wc) >= 0

    wf = np.array([float(x) for x in w], dtype=np.float64)
    if af is None or any(x != 0 and abs(f) < 2.0 ** -100 for x, f in zip(w, wf)):
        return [exact(z) for z in range(nz)]
    s = (wf[:, None] * af).sum(axis=0)
    t = (np.abs(wf)[:, None] * af).sum(axis=0)
    margin = 8 * ((m + nc + 8) * _EPS * t + nc * 2.0 ** -1074)
    zero = ~(af[wf != 0] > 0).any(axis=0)  # every weighted A_c exactly 0: a sum of 0
    truth = ((s > margin) | zero).tolist()
    for z in np.flatnonzero((np.abs(s) <= margin) & ~zero).tolist():
        truth[z] = exact(z)
    return truth
