"""Exact truth tables of a state's last features, with a proven floating-point filter.

At the tail level of the general engine a state's remaining decision is
``rho A(z) >= B(z)`` for every completion ``z``, with ``A, B = sum_o k[c, o] r[c, o, z]``
(sums of nonnegative products). :func:`tail_truth` returns the truth table and the
exact interval of ``rho`` that has the same table.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .intervals import approx

__all__ = ["floats", "tail_truth"]


_TINY = 2.0 ** -900
_EPS = 2.0 ** -52


def floats(x: np.ndarray):
    """``x / 2**e`` in float64, correctly rounded (``e`` the largest entry's bit length),
    or ``None`` if a nonzero entry would fall under ``2**-900`` (no filter then)."""
    flat = [int(v) for v in x.reshape(-1)]
    e = max((v.bit_length() for v in flat), default=0)
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
