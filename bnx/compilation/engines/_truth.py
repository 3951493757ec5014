"""Deciding a tail state's truth table.

A proven floating-point filter, exact integers where it cannot decide.

A state at the tail level decides ``rho A(z) >= B(z)`` (a pair of classes) or
``sum_c w[c] A_c(z) >= 0`` (class weights) for every completion ``z``, with
``A_c(z) = sum_o k[c, o, z] r[c, o, z]`` over the state's table ``k`` and the tail factor
``r`` (:mod:`._tail`). :func:`tail_truth` and :func:`weighted_truth` compute the truth
table from float sums and settle the near-ties in exact integers (:func:`exact_sums`);
:func:`tail_truth` also returns the exact interval of ``rho`` with the same table.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..._util.rounding import EPS, compare_all
from ._intervals import approx

__all__ = ["floats", "exact_sums", "tail_truth", "weighted_truth"]


_TINY = 2.0 ** -900  # no nonzero float input (or product k * r) below this
_SUB = Fraction(1, 1 << 1070)


def floats(x: np.ndarray):
    """Return ``x / 2**e`` in float64, correctly rounded (``e`` the largest entry's bit length).

    ``None`` if a nonzero entry would fall under ``2**-900`` (no filter then).
    """
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


def exact_sums(kcols, r: np.ndarray, zs) -> np.ndarray:
    """Compute the exact ``A_c(z) = sum_o k[c, o, z] r[c, o, z]`` of the completions ``zs``.

    An object array ``(classes, len(zs))``; ``kcols(zs)`` gives ``k[:, :, zs]`` (or an array
    that broadcasts to it).
    """
    return (kcols(zs) * r[:, :, zs]).sum(axis=1)


def tail_truth(rho: Fraction, kcols, sums, r, *, err: float = 0.0) -> tuple:
    """Return ``(truth, lo, hi, hi_closed)`` over the completions ``z``.

    ``truth[z]`` (a boolean array) is ``rho A(z) >= B(z)`` with ``A, B = sum_o k[c, o, z]
    r[c, o, z]`` (``kcols(zs)`` the exact integers ``k[:, :, zs]``, ``r[:, :, zs]`` the
    exact ``r``, see :func:`exact_sums`), and ``lo .. hi`` an interval of ``rho`` (closed at
    ``lo``; at ``hi`` closed when ``hi_closed``, ``hi is None`` for no bound) holding
    ``rho`` in which every ``rho`` has the same truth table: the exact interval when ``r``
    is an array, a sound part of it when ``r`` computes its columns on demand.

    A float filter decides what it can: ``sums`` are ``A`` and ``B`` summed in floating
    point from correctly rounded ``k`` and from floats of ``r`` within a relative
    ``err`` (or ``None``: everything exact). All terms are nonnegative, so a float sum
    of ``m`` products is within a relative ``(m + 4) eps + 2 err`` of the exact value
    (no underflow: every nonzero product ``k r`` at least ``2**-900``; a float sum is 0
    exactly when the exact one is); ``rho = m 2**e`` with ``1/2 < m < 2`` is compared as
    ``m A`` against ``B 2**-e``, exact scaling, for ``-990 <= e <= 100``, where both
    stay normal floats, by :func:`bnx._util.rounding.compare_all` with twice that bound;
    the comparisons it leaves unsettled are settled in exact integers, all such
    completions at once, and so are the interval's end points when ``r`` is an array.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> k = np.array([[[1]], [[1]]], dtype=object)
    >>> r = np.array([[[1, 3]], [[2, 2]]], dtype=object)  # B/A: 2 and 2/3
    >>> truth, lo, hi, _ = tail_truth(Fraction(1), lambda zs: k, None, r)
    >>> truth.tolist(), lo, hi
    ([False, True], Fraction(2, 3), Fraction(2, 1))
    """
    nz = r.shape[2]
    rn, rd = rho.numerator, rho.denominator
    # rho = m 2**e with m near 1: compare m A with B 2**-e (a power of two: exact)
    e = rn.bit_length() - rd.bit_length() if rn else 0
    if not -990 <= e <= 100:
        sums = None  # B 2**-e would leave the normal floats
    if sums is None:
        ex = exact_sums(kcols, r, np.arange(nz))
        return _truth_from_pairs(rho, zip(ex[0].tolist(), ex[1].tolist())) + (False,)
    mant = approx(Fraction(rn, rd << e) if e >= 0 else Fraction(rn << -e, rd)) if rn else 0.0
    af, bf = np.asarray(sums[0]), np.asarray(sums[1])
    rel = (r.shape[1] + 4) * EPS + 2 * err
    pos = af > 0.0  # exactly where A > 0: no underflow
    # m A within 2 rel (m and the product round once each), B 2**-e within rel
    settled, met = compare_all(mant * af, np.ldexp(bf, -e), 2 * rel)
    truth = np.where(pos, met, bf == 0.0)  # A = 0: met only by B = 0
    met &= pos
    missed = pos & settled & ~met
    amb = np.flatnonzero(pos & ~settled)
    exact_at: dict = {}
    if len(amb):
        ex = exact_sums(kcols, r, amb)
        for z, a, b in zip(amb.tolist(), ex[0].tolist(), ex[1].tolist()):
            ok = rn * a >= rd * b
            truth[z] = ok
            (met if ok else missed)[z] = True
            exact_at[z] = Fraction(b, a)
    ratio = np.divide(bf, af, out=np.zeros_like(bf), where=pos)
    if isinstance(r, np.ndarray):  # exact ends: the extreme ratios, settled exactly
        lo, hi = Fraction(0), None
        # a ratio is within 4 rel of B / A (2 rel and the division's rounding, with room)
        if met.any():  # the largest threshold met, among those the floats cannot separate
            _, below = compare_all(ratio[met].max(), ratio, 4 * rel, strict=True)
            near = np.flatnonzero(met & ~below)
            lo = _extreme(exact_sums(kcols, r, near), largest=True)
        if missed.any():  # the smallest threshold missed
            _, above = compare_all(ratio, ratio[missed].min(), 4 * rel, strict=True)
            near = np.flatnonzero(missed & ~above)
            hi = _extreme(exact_sums(kcols, r, near), largest=False)
        return truth, lo, hi, False
    return (truth, *_safe_interval(rho, ratio, met, missed, exact_at, rel))


def _safe_interval(rho: Fraction, ratio: np.ndarray, met, missed, exact_at: dict,
                   rel: float) -> tuple:
    """Return ``(lo, hi, hi_closed)``: a sound interval of ``rho`` from float ratios ``B/A``.

    The ratios are within a relative ``rel`` per sum (so within ``4 rel`` per ratio,
    division included), and ``exact_at`` holds the exact ratios of the completions settled
    exactly.
    """
    slack = Fraction(4 * rel + EPS)
    settled = list(exact_at)
    lo = Fraction(0)
    m = met.copy()
    m[settled] = False
    if m.any():  # 2**-1070: a ratio that underflowed to a subnormal
        lo = Fraction(float(ratio[m].max())) * (1 + slack) + _SUB
    for z, q in exact_at.items():
        if met[z]:
            lo = max(lo, q)
    lo = min(lo, rho)  # every ratio met is at most rho
    hi = None
    m = missed.copy()
    m[settled] = False
    if m.any():
        hi = max(Fraction(0), Fraction(float(ratio[m].min())) * (1 - slack) - _SUB)
    for z, q in exact_at.items():
        if missed[z] and (hi is None or q < hi):
            hi = q
    if hi is not None and hi <= rho:  # every ratio missed is above rho: close at rho
        return lo, rho, True
    return lo, hi, False


def _extreme(e: np.ndarray, *, largest: bool) -> Fraction:
    """Return the largest (or smallest) ``b / a`` over the columns ``(a, b)`` of ``e``.

    Every ``a`` positive; compared by cross-multiplication, equal pairs once.
    """
    pairs = set(zip(e[0].tolist(), e[1].tolist()))
    a0, b0 = pairs.pop()
    for a, b in pairs:
        if (b * a0 > b0 * a) if largest else (b * a0 < b0 * a):
            a0, b0 = a, b
    return Fraction(b0, a0)


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
    return (np.array(truth, dtype=bool), Fraction(lo_n, lo_d),
            (None if hi_n is None else Fraction(hi_n, hi_d)))


def weighted_truth(w: tuple, kcols, af, r, *, err: float = 0.0) -> np.ndarray:
    """Return ``truth[z]`` (a boolean array): ``sum_c w[c] A_c(z) >= 0``.

    With ``A_c = sum_o k[c, o, z] r[c, o, z]`` (``w`` exact Fractions with max ``|w| <= 1``,
    ``k`` and ``r`` nonnegative integers, ``kcols(zs)`` the integers ``k[:, :, zs]`` as in
    :func:`exact_sums`; ``af`` the float ``A_c(z)`` summed from the scaled floats of
    :func:`floats` and from floats of ``r`` within a relative ``err``, or ``None``).

    Float filter: each ``A_c`` is a sum of ``m`` nonnegative products of correctly
    rounded inputs (no underflow: every nonzero product of ``k`` and ``r`` at least
    ``2**-900``), so it is within a relative ``(m + 4) eps + 2 err``, and 0 exactly when
    ``A_c`` is; each weight is correctly rounded and 0 or at least ``2**-100`` in magnitude.
    The sums ``P`` of the positive weights' products and ``N`` of the negative ones'
    (normal floats or 0: no product underflows) are then each within a relative
    ``(m + k + 8) eps + 2 err``; :func:`bnx._util.rounding.compare_all` decides ``P >= N``
    with four times that bound (every ``A_c`` of a nonzero weight at 0 is ``0 >= 0``:
    true), and a completion it leaves unsettled is computed in exact integers.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> k = np.array([[[1]], [[1]]], dtype=object)
    >>> r = np.array([[[1, 3]], [[2, 2]]], dtype=object)
    >>> weighted_truth((Fraction(1), Fraction(-1)), lambda zs: k, None, r).tolist()
    [False, True]
    """
    nc, m, nz = r.shape
    den = math.lcm(*(x.denominator for x in w))
    wi = [int(x * den) for x in w]

    def exact(zs) -> np.ndarray:
        e = exact_sums(kcols, r, zs)
        total = sum(wc * e[c] for c, wc in enumerate(wi) if wc)
        return np.array([int(x) >= 0 for x in np.broadcast_to(total, (len(zs),)).tolist()],
                        dtype=bool)

    wf = np.array([float(x) for x in w], dtype=np.float64)
    if af is None or any(x != 0 and abs(f) < 2.0 ** -100 for x, f in zip(w, wf)):
        return exact(np.arange(nz))
    plus = (np.maximum(wf, 0.0)[:, None] * af).sum(axis=0)
    minus = (np.maximum(-wf, 0.0)[:, None] * af).sum(axis=0)
    settled, truth = compare_all(plus, minus, 4 * ((m + nc + 8) * EPS + 2 * err))
    amb = np.flatnonzero(~settled)
    if len(amb):
        truth[amb] = exact(amb)
    return truth
