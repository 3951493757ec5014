"""The tail of the general engine: exact truth tables of a state's last features.

At the tail level (:func:`tail_level`) the untouched factors are eliminated once into a
table ``R[c, o, z]`` (:class:`Tail`); a state's remaining decision is then
``rho A(z) >= B(z)`` for every completion ``z``, with ``A, B = sum_o k[c, o] r[c, o, z]``
(sums of nonnegative products), or a sign of class-weighted sums. :func:`tail_truth`
and :func:`weighted_truth` return the truth table (and the exact interval of ``rho``
that has the same table), decided by a proven floating-point filter with exact integers
where it cannot.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..inference import align, eliminate, elimination_order, product, table_gcd
from .execution import ones
from .intervals import approx
from .plan import elimination_width

__all__ = ["Tail", "tail_level", "floats", "exact_sums", "tail_truth", "weighted_truth"]


_TINY = 2.0 ** -900  # no nonzero float input (or product k * r) below this
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


def exact_sums(kcols, r: np.ndarray, zs) -> np.ndarray:
    """The exact ``A_c(z) = sum_o k[c, o, z] r[c, o, z]`` of the completions ``zs``,
    an object array ``(classes, len(zs))``; ``kcols(zs)`` gives ``k[:, :, zs]`` (or an
    array that broadcasts to it)."""
    return (kcols(zs) * r[:, :, zs]).sum(axis=1)


def tail_truth(rho: Fraction, kcols, sums, r: np.ndarray) -> tuple:
    """``(truth, lo, hi)`` over the completions ``z``: ``truth[z]`` (a boolean array) is
    ``rho A(z) >= B(z)`` with ``A, B = sum_o k[c, o, z] r[c, o, z]`` (``kcols(zs)`` the
    exact integers ``k[:, :, zs]``, see :func:`exact_sums`), and ``[lo, hi)`` the exact
    ``rho`` interval with the same truth table.

    A float filter decides what it can: ``sums`` are ``A`` and ``B`` summed in floating
    point from correctly rounded inputs (or ``None``: everything exact). All terms are
    nonnegative, so a float sum of ``m`` products is within a relative ``(m + 4) eps``
    of the exact value (no underflow: every nonzero product ``k r`` at least
    ``2**-900``); ``rho = m 2**e`` with ``1/2 < m < 2`` is compared as ``m A`` against
    ``B 2**-e``, exact scaling, for ``-990 <= e <= 100``, where both stay normal floats;
    comparisons and the interval's end points inside eight times that margin are
    settled in exact integers, all such completions at once.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> k = np.array([[[1]], [[1]]], dtype=object)
    >>> r = np.array([[[1, 3]], [[2, 2]]], dtype=object)  # B/A: 2 and 2/3
    >>> truth, lo, hi = tail_truth(Fraction(1), lambda zs: k, None, r)
    >>> truth.tolist(), lo, hi
    ([False, True], Fraction(2, 3), Fraction(2, 1))
    """
    nz = r.shape[2]
    rn, rd = rho.numerator, rho.denominator
    # rho = m 2**e with m near 1: compare m A with B 2**-e (a power of two: exact)
    e = rn.bit_length() - rd.bit_length() if rn else 0
    if rn == 0 or not -990 <= e <= 100:
        sums = None  # B 2**-e would leave the normal floats
    if sums is None:
        ex = exact_sums(kcols, r, np.arange(nz))
        return _truth_from_pairs(rho, zip(ex[0].tolist(), ex[1].tolist()))
    mant = approx(Fraction(rn, rd << e) if e >= 0 else Fraction(rn << -e, rd))
    af, bf = np.asarray(sums[0]), np.asarray(sums[1])
    delta = 8 * (r.shape[1] + 4) * _EPS
    pos = af > 0.0  # exactly where A > 0: no underflow
    lhs = mant * af
    rhs = np.ldexp(bf, -e)
    met = pos & (lhs > rhs * (1 + delta))
    missed = pos & (lhs < rhs * (1 - delta))
    truth = np.where(pos, met, bf == 0.0)
    amb = np.flatnonzero(pos & ~met & ~missed)
    if len(amb):
        ex = exact_sums(kcols, r, amb)
        for z, a, b in zip(amb.tolist(), ex[0].tolist(), ex[1].tolist()):
            ok = rn * a >= rd * b
            truth[z] = ok
            (met if ok else missed)[z] = True
    ratio = np.divide(bf, af, out=np.zeros_like(bf), where=pos)
    lo, hi = Fraction(0), None
    if met.any():  # the largest threshold met, among those the floats cannot separate
        top = ratio[met].max()
        near = np.flatnonzero(met & (ratio >= top * (1 - 2 * delta)))
        lo = _extreme(exact_sums(kcols, r, near), largest=True)
    if missed.any():  # the smallest threshold missed
        bottom = ratio[missed].min()
        near = np.flatnonzero(missed & (ratio <= bottom * (1 + 2 * delta)))
        hi = _extreme(exact_sums(kcols, r, near), largest=False)
    return truth, lo, hi


def _extreme(e: np.ndarray, *, largest: bool) -> Fraction:
    """The largest (or smallest) ``b / a`` over the columns ``(a, b)`` of ``e``
    (every ``a`` positive), compared by cross-multiplication, equal pairs once."""
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


def weighted_truth(w: tuple, kcols, af, r: np.ndarray) -> np.ndarray:
    """``truth[z]`` (a boolean array): ``sum_c w[c] A_c(z) >= 0`` with
    ``A_c = sum_o k[c, o, z] r[c, o, z]`` (``w`` exact Fractions with max ``|w| <= 1``,
    ``k`` and ``r`` nonnegative integers, ``kcols(zs)`` the integers ``k[:, :, zs]`` as in
    :func:`exact_sums`; ``af`` the float ``A_c(z)`` summed from the scaled floats of
    :func:`floats`, or ``None``).

    Float filter: each ``A_c`` is a sum of ``m`` nonnegative products of correctly
    rounded inputs (no underflow: every nonzero product of ``k`` and ``r`` at least
    ``2**-900``), so it is within a relative ``(m + 4) eps``, and 0 exactly when ``A_c``
    is; each weight is correctly rounded and 0 or at least ``2**-100`` in magnitude. The
    signed sum of the ``k`` products is then within ``(m + k + 8) eps T`` plus ``k``
    subnormal roundings of the exact value, ``T = sum_c |w_c| A_c``; every ``A_c``
    of a nonzero weight at 0 means a sum of exactly 0 (true); a sum inside eight
    times the margin is computed in exact integers.

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
    s = (wf[:, None] * af).sum(axis=0)
    t = (np.abs(wf)[:, None] * af).sum(axis=0)
    margin = 8 * ((m + nc + 8) * _EPS * t + nc * 2.0 ** -1074)
    zero = ~(af[wf != 0] > 0).any(axis=0)  # every weighted A_c exactly 0: a sum of 0
    truth = (s > margin) | zero
    amb = np.flatnonzero((np.abs(s) <= margin) & ~zero)
    if len(amb):
        truth[amb] = exact(amb)
    return truth


# ---------------------------------------------------------------------- the tail level
TAIL_COMPLETIONS = 8192  # the tail's truth tables have at most this many entries
TAIL_ENTRIES = 1 << 22  # and its factor at most this many
TAIL_WIDTH = 1 << 20  # and computing it makes no table larger than this
STATE_COST = 1 << 19  # a state's fixed cost at the tail, in tail-factor entries
BUILD_COST = 2000  # building one exact entry of the tail factor, in the same units


def tail_level(plan, features: tuple, card: dict, c, k: int) -> tuple[int, int]:
    """``(level, width)``: the tail level of a plan (``len(features)``: none) and the
    largest table computing its factor makes. Among the levels whose remaining features
    have at most ``TAIL_COMPLETIONS`` joint states, whose tail factor has at most
    ``TAIL_ENTRIES`` entries and takes no table over ``TAIL_WIDTH`` to compute, the one
    with the least estimated work: ``prefixes * (entries + STATE_COST)`` for the states,
    ``BUILD_COST * entries`` for the factor."""
    n = len(features)
    cards = [card[f] for f in features]
    best, best_cost, best_width = n, None, 0
    for i in range(n):
        rest = math.prod(cards[i:])
        if rest > TAIL_COMPLETIONS or TAIL_COMPLETIONS < 2:
            continue
        opened = {v for _, sc in (plan.levels[i - 1][2] if i else ()) for v in sc}
        opened.discard(c)
        entries = k * rest * math.prod(card[v] for v in opened)
        if entries > TAIL_ENTRIES:
            continue
        keep = {c, *opened, *features[i:]}
        scopes = [sc for _, sc in plan.levels[i][3]] + [(v,) for v in keep]
        hidden = {v for sc in scopes for v in sc} - keep
        order = elimination_order(scopes, sorted(hidden, key=str), card)
        width = elimination_width(scopes, order, card)
        if width > TAIL_WIDTH:
            continue
        cost = math.prod(cards[:i]) * (entries + STATE_COST) + BUILD_COST * entries
        if best_cost is None or cost < best_cost:
            best, best_cost, best_width = i, cost, width
    return best, best_width


class Tail:
    """The tail of the general engine at ``level``: the untouched factors alive there,
    with every other hidden variable summed out once, as the exact table ``R[c, o, z]``
    over the class, the variables ``o`` of the state's factors and the remaining features
    ``z`` (and its floats); a state's remaining function is then a truth table over the
    completions ``z`` (:meth:`entry` for a pair of classes, :meth:`weighted` for class
    weights), whose node is built once per table."""

    def __init__(self, plan, level: int, static: dict, before: list, card: dict, c, k: int,
                 enc, bdd):
        self.plan, self.level, self.card, self.c, self.k = plan, level, card, c, k
        self.enc, self.bdd, self.n = enc, bdd, len(enc.features)
        opened = tuple(dict.fromkeys(v for _, sc in (plan.levels[level - 1][2] if level else ())
                                     for v in sc if v != c))
        rest = tuple(enc.features[level:])
        opened = tuple(v for v in opened if v not in rest)  # hidden ones: summed per state
        keep = (c, *opened, *rest)
        factors = [static[j] for j in before]
        factors += [((v,), ones(card[v])) for v in keep]
        hidden = {v for sc, _ in factors for v in sc} - set(keep)
        order = elimination_order([sc for sc, _ in factors], sorted(hidden, key=str), card)
        _, table = product(eliminate(factors, order), scope=keep)
        g = table_gcd(table)
        if g > 1:  # a positive constant: it cancels
            table = table // g
        self.opened, self.shape = opened, table.shape
        self.nodes: dict = {}  # (level, truth table as bytes) -> node
        self.o = math.prod(table.shape[1:1 + len(opened)])
        # (class, opened, completions), laid out once: reshaping a transposed object
        # array copies (and later frees) every entry
        self.exact = np.ascontiguousarray(table.reshape(k, self.o, -1))
        self.floats = rf = floats(self.exact)
        self.min = float(rf[rf > 0].min()) if rf is not None and (rf > 0).any() else 1.0

    def entry(self, rho: Fraction, state: tuple) -> tuple:
        """The node and exact ``rho`` interval of a state at the tail level: for each
        completion ``z`` the decision is ``rho A(z) >= B(z)``, i.e. ``rho >= B(z) / A(z)``
        (``A(z) = 0``: ``B(z) = 0``), so the states with the same truth table form the
        interval between the largest threshold met and the smallest one missed."""
        kcols, sums = self._columns(state)
        truth, lo, hi = tail_truth(rho, kcols, sums, self.exact)
        node = self.node(self.level, truth)
        return (node, lo, True, hi, False, approx(lo), math.inf if hi is None else approx(hi))

    def weighted(self, w: tuple, state: tuple):
        """The node of a state at the tail level in the weight-vector mode: the truth
        table of ``sum_c w[c] Pr'(c, z) >= 0`` over the completions (exact; see
        :func:`weighted_truth` for the float filter)."""
        kcols, sums = self._columns(state)
        return self.node(self.level, weighted_truth(w, kcols, sums, self.exact))

    def _state(self, state: tuple) -> np.ndarray:
        """The product of a tail-level state's factors, laid out over the tail factor's
        axes (size 1 on the completions it does not mention)."""
        i = self.level
        prev = self.plan.levels[i - 1][2] if i else ()
        kscope, k = product([(sc, t) for (_, sc), t in zip(prev, state)]
                            + [((self.c,), ones(self.k))])
        return align(k, kscope, (self.c, *self.opened, *self.enc.features[i:]))

    def _columns(self, state: tuple):
        """``(kcols, sums)`` of a tail-level state with factors ``K``: ``kcols(zs)`` the
        exact ``K[:, :, zs]`` over the class and the opened variables, and ``sums`` the
        float ``A_c(z) = sum_o K[c, o, z] R[c, o, z]`` (``None``: no float filter, when
        ``R`` or ``K`` has no usable floats, see :func:`floats`). A ``K`` that mentions
        none of the remaining features (the common case) is one matrix for every ``z``,
        and the sums one batched matrix product."""
        k = self._state(state)
        o, nk, head_n = self.o, self.k, 1 + len(self.opened)
        flat = all(d == 1 for d in k.shape[head_n:])
        kf = floats(k) if self.floats is not None else None
        if kf is not None and (kf > 0).any() and kf[kf > 0].min() * self.min < _TINY:
            kf = None  # keep every product, and rho times a sum, far from underflow
        sums = None
        if kf is not None:
            if flat:
                sums = np.matmul(kf.reshape(nk, 1, o), self.floats)[:, 0, :]
            else:
                rf = self.floats.reshape(self.shape)
                sums = (kf * rf).reshape(nk, o, -1).sum(axis=1)
        if flat:
            kc = k.reshape(nk, o, 1)
            return (lambda zs: kc), sums
        kb = np.broadcast_to(k, self.shape)  # a view: only the exact columns are read
        head = (slice(None),) * head_n
        rest = self.shape[head_n:]
        return (lambda zs: kb[head + np.unravel_index(zs, rest)].reshape(nk, o, -1)), sums

    def node(self, i: int, truth) -> Any:
        """The node of the truth table ``truth`` (booleans) over the completions of
        features ``i..``, the last feature varying fastest."""
        return self._sub(i, np.asarray(truth, dtype=np.uint8).tobytes())

    def _sub(self, i: int, table: bytes) -> Any:
        """:meth:`node` on the table as bytes, memoised by level and bytes (fast to
        slice and hash), so equal sub-tables of any state are one node."""
        if i == self.n:
            return self.bdd.true if table[0] else self.bdd.false
        key = (i, table)
        node = self.nodes.get(key)
        if node is None:
            k = self.card[self.enc.features[i]]
            m = len(table) // k
            children = [self._sub(i + 1, table[j * m:(j + 1) * m]) for j in range(k)]
            node = self.nodes[key] = self.enc.select(self.bdd, i, children, self.bdd.false)
        return node
