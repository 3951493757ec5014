"""A proof that one class beats another on every completion, without enumerating them.

For two class states ``a`` and ``b`` and the features left free ``F`` (the others fixed
to the instance), :func:`least_ratio` bounds ``min_y A(y) / B(y)`` from below, where
``A(y) = Pr(class = a, fixed, y)`` and ``B(y) = Pr(class = b, fixed, y)``:

1. the network's factors (its CPT entries rounded once to floats), reduced by the fixed
   features, have the hidden nodes summed out (a variable elimination that keeps the free
   features and the class, each step a float contraction of
   :mod:`bnx.classifier._inference`), each unless its table would pass :data:`MAX_TABLE`
   entries: a :class:`Pool`, made by :func:`reduce`. A branch that fixes one more free
   feature (:func:`refine`) starts from its parent's pool: that feature's axis is taken at
   its state, and the hidden nodes still left are tried again, so a branch costs what the
   fixing lets the elimination do, not a new elimination;
2. each factor ``phi`` of the pool that holds the class gives the ratio table
   ``phi(a, .) / phi(b, .)`` (factors without the class cancel, as does any scale of a
   factor); a hidden node still left is minimised over like a free feature, which only
   lowers the bound (the ratio of two sums is a mediant of the terms' ratios);
3. ``min`` over all those variables of the product of the ratio tables, by min-product
   elimination (the tables are non-negative, so the minimum distributes over products);
   a step whose table would pass :data:`MAX_TABLE` takes each table's own minimum
   instead, which again only lowers the bound.

When every hidden node was summed out and no step was relaxed, the bound is the minimum
itself, and the setting read back through the elimination attains it.

Zeros follow the rule's ties: ``0/0`` is a tie, and so is a product of an infinite ratio
(``b = 0``) with a zero one; a tie passes when it goes to ``a`` (``ties=True``) and
fails otherwise. Everything is in floats with non-negative operands. Each factor of a
pool carries the roundings on its longest chain (the contraction's ``depth``, its inputs'
included: one for a CPT entry rounded to a float); a ratio adds the roundings of both its
sides and its own, and the min-product adds those of its products, so the computed
minimum is within a factor ``1 ± gamma(k)`` of the exact one (Higham's Lemma 3.1 and 3.3;
:mod:`bnx._util.rounding`); the comparison with the rule's bound allows for it, and a
table entry or value outside the normal range of binary64 (where that argument fails)
proves nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .._util.rounding import gamma
from ..classifier._inference import (
    FloatRange,
    align,
    contract,
    elimination_order,
    observe,
    plan,
)

__all__ = ["Pool", "excluded", "floats", "reduce", "refine", "least_ratio", "passes",
           "branch_on", "MAX_TABLE"]

#: The most entries one table of the bound may hold.
MAX_TABLE = 1 << 20

_TINY, _HUGE = 2.0 ** -1000, 2.0 ** 1000  # the range where the rounding argument holds


@dataclass
class Pool:
    """The factors of ``Pr(class, fixed, free)`` with the hidden nodes summed out where small.

    ``factors``: ``(scope, float table, roundings)`` each, a positive constant times the
    exact factor within ``1 ± gamma(roundings)`` in every entry; ``left``: the hidden
    nodes not summed out (the bound is then not the minimum itself).
    """

    factors: list
    left: frozenset
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # see excluded

    @property
    def exact(self) -> bool:
        return not self.left


def excluded(pool: Pool, c: Any) -> frozenset:
    """Return the class states that a zero pattern of ``pool`` excludes.

    A class state ``b`` whose slice of one factor (holding the class ``c``) is all zero
    has ``Pr(class = b, fixed, y) = 0`` on every setting ``y``: within the support it is
    no competitor (each ratio to it is ``x / 0`` or the ``0 / 0`` of no instance). The
    float zeros are exact ones (the contraction keeps them, :func:`floats` refuses an
    entry that rounds to zero).

    Returns
    -------
    frozenset
        Class state indices.
    """
    got = pool.memo.get("excluded")
    if got is None:
        out: set = set()
        for scope, t, _ in pool.factors:
            if c in scope:
                ax = scope.index(c)
                live = np.moveaxis(t, ax, 0).reshape(t.shape[ax], -1).any(axis=1)
                out.update(np.flatnonzero(~live).tolist())
        got = pool.memo["excluded"] = frozenset(out)
    return got


def floats(clf: Any) -> list | None:
    """Return the classifier's factors as ``(scope, float table, 1)``: each entry rounded once.

    ``None`` when a positive entry rounds below the normal range (to 0 perhaps: a zero
    that is not one, which would read as an impossible setting).
    """
    out = []
    for scope, t in clf._main:
        ft = np.asarray(t, dtype=np.float64)
        if ((ft < _TINY) & (np.asarray(t != 0, dtype=bool))).any():
            return None
        out.append((scope, ft, 1))
    return out


def reduce(clf: Any, fixed: Mapping, free: Sequence, factors: list | None = None, *,
           tick: Any = None) -> Pool | None:
    """Reduce the network's factors by the fixed features and sum out what stays small.

    ``factors``: :func:`floats` of ``clf``, when made already. ``None`` when an entry
    left the normal range (the rounding argument would not hold). ``tick`` (optional) is
    called between the eliminations (a caller's deadline, raising to stop).

    Returns
    -------
    Pool or None
        The reduced factors.
    """
    card, keep = clf._card, set(free)
    pool = []
    if factors is None:
        factors = floats(clf)
        if factors is None:
            return None
    for scope, t, k in factors:
        f = (scope, t)
        for v in scope:
            if v in fixed and v not in keep:
                f = observe(f, v, np.eye(card[v])[fixed[v]])  # an index: no rounding
        pool.append((*f, k))
    c = clf.class_var
    hidden = {v for s, _, _ in pool for v in s if v != c and v not in keep}
    return _sum_out(pool, hidden, card, tick)


def refine(pool: Pool, clf: Any, g: Any, state: int, *, tick: Any = None) -> Pool | None:
    """Return the pool of a branch that fixes the free feature ``g`` to ``state``.

    Returns
    -------
    Pool or None
        The parent's factors taken at ``g = state``, the hidden nodes left tried again.
    """
    out = []
    for scope, t, k in pool.factors:
        if g in scope:
            scope, t = observe((scope, t), g, np.eye(clf._card[g])[state])
        out.append((scope, t, k))
    return _sum_out(out, pool.left, clf._card, tick)


def _sum_out(pool: list, hidden: set, card: Mapping, tick: Any = None) -> Pool | None:
    """Sum the ``hidden`` nodes out of ``pool`` where the tables stay within MAX_TABLE."""
    order = elimination_order([s for s, _, _ in pool], sorted(hidden, key=str), card,
                              tick=tick)
    left = set()
    try:
        for h in order:
            if tick is not None:
                tick()
            hit = [f for f in pool if h in f[0]]
            if not hit:
                continue
            rest = tuple(dict.fromkeys(v for s, _, _ in hit for v in s if v != h))
            if math.prod(card[v] for v in rest) > MAX_TABLE:
                left.add(h)
                continue
            p = plan([s for s, _, _ in hit], rest, card, order=[h],
                     depths=[k for _, _, k in hit])
            table, _, _ = contract(p, [t for _, t, _ in hit])  # its scale cancels
            pool = [f for f in pool if h not in f[0]] + [(rest, table, p.depth)]
    except FloatRange:
        return None
    for _, t, _ in pool:
        if ((t > 0) & (t < _TINY)).any() or (t > _HUGE).any():
            return None
    return Pool(pool, frozenset(left))


def _ratios(ta: np.ndarray, tb: np.ndarray, ties: bool) -> np.ndarray:
    """Divide ``ta / tb`` elementwise (one rounding).

    The quotient is ``inf`` for ``x / 0`` and the tie's value for ``0 / 0``.
    """
    safe = np.where(tb > 0, tb, 1.0)
    out = ta / safe  # over- or underflow raises (see least_ratio)
    return np.where(tb > 0, out, np.where(ta > 0, math.inf, math.inf if ties else 0.0))


def _tie(t: np.ndarray, ties: bool) -> np.ndarray:
    """``inf * 0`` (both sides zero: a tie) made the tie's value."""
    bad = np.isnan(t)
    if bad.any():
        t = np.where(bad, math.inf if ties else 0.0, t)
    return t


def least_ratio(pool: Pool, clf: Any, free: Sequence, pair: tuple[int, int], ties: bool
                ) -> tuple[float, int, bool, dict]:
    """Bound ``min_y A(y) / B(y)`` over the settings ``y`` of ``free``.

    Return ``(value, roundings, exact, where)``: the computed bound, the roundings on its
    longest chain (see :func:`passes`), whether it is the minimum itself, and a setting
    ``{feature: state index}`` of the free features that attains the computed value (a
    candidate worth checking, proving nothing by itself).

    Returns
    -------
    tuple
        ``(value, roundings, exact, where)``.
    """
    try:
        with np.errstate(over="raise", under="raise", invalid="ignore"):
            return _least(pool, clf.class_var, clf._card, set(free), *pair, ties)
    except FloatingPointError:  # a value left the range where the rounding argument holds
        return 0.0, 1, False, {}


def _least(pool: Pool, c: Any, card: Mapping, keep: set, a: int, b: int, ties: bool
           ) -> tuple[float, int, bool, dict]:
    tables = []
    for scope, t, k in pool.factors:
        if c not in scope:
            if not ties and (t == 0).any():
                return 0.0, 1, False, {}  # a zero here is a tie on both sides, lost
            continue
        ax = scope.index(c)
        rest = scope[:ax] + scope[ax + 1:]
        tables.append((rest, _ratios(np.take(t, a, axis=ax), np.take(t, b, axis=ax), ties),
                       2 * k + 1))
    order = pool.memo.get("order")  # the same scopes for every pair of classes
    if order is None:
        order = pool.memo["order"] = elimination_order(
            [s for s, _, _ in tables], list(dict.fromkeys(v for s, _, _ in tables for v in s)),
            card)
    value, roundings, relaxed, where = _min_product(tables, card, ties, order)
    return value, roundings, pool.exact and not relaxed, {v: s for v, s in where.items()
                                                          if v in keep}


def branch_on(pool: Pool, clf: Any, free: Sequence) -> Any:
    """Choose the free feature to fix next when the bound is not exact.

    It is the one that shares the most remaining tables with a hidden node left unsummed
    (else the one in the largest table), so that fixing it lets the elimination go further.

    Returns
    -------
    object
        A feature of ``free``.
    """
    keep, card = set(free), clf._card
    score: dict = {}
    for scope, _, _ in pool.factors:
        if any(v in pool.left for v in scope):
            for v in scope:
                if v in keep:
                    score[v] = score.get(v, 0) + 1
    if not score:
        for scope, _, _ in pool.factors:
            size = math.prod(card[v] for v in scope)
            for v in scope:
                if v in keep:
                    score[v] = max(score.get(v, 0), size)
    return max(free, key=lambda v: (score.get(v, 0), -free.index(v)))


def _min_product(tables: list, card: Mapping, ties: bool, order: list
                 ) -> tuple[float, int, bool, dict]:
    """Minimise the product of the tables ``(scope, float table, roundings)`` (float).

    ``order``: the variables' elimination order. Return the ``min``, the roundings on the
    longest chain, whether a step was relaxed, and where the minimum is.
    """
    pool = list(tables)
    steps = []
    relaxed = False
    for v in order:
        hit = [p for p in pool if v in p[0]]
        pool = [p for p in pool if v not in p[0]]
        scope = tuple(dict.fromkeys(w for s, _, _ in hit for w in s))
        if math.prod(card[w] for w in scope) > MAX_TABLE:
            relaxed = True  # each table's own minimum: a lower bound
            for s, t, k in hit:
                ax = s.index(v)
                pool.append((s[:ax] + s[ax + 1:], t.min(axis=ax), k))
            continue
        prod = None
        chain = 0
        for s, t, k in hit:
            x = align(t, s, scope)
            prod = x if prod is None else _tie(prod * x, ties)
            chain = k if prod is x else chain + k + 1  # and the product's rounding
        prod = np.broadcast_to(prod, tuple(card[w] for w in scope))
        ax = scope.index(v)
        steps.append((v, scope, prod))
        pool.append((scope[:ax] + scope[ax + 1:], prod.min(axis=ax), chain))
    value, chain = 1.0, 0
    for _, t, k in pool:
        value = float(_tie(np.array(value * float(t)), ties))
        chain += k + 1
    where: dict = {}
    for v, scope, prod in reversed(steps):
        ix = tuple(where.get(w, 0) if w != v else slice(None) for w in scope)
        where[v] = int(np.argmin(prod[ix]))
    return value, chain, relaxed, where


def passes(value: float, roundings: int, kappa: Fraction, strict: bool) -> bool:
    """Tell whether a computed minimum ``value`` proves ``min >= kappa``.

    ``value`` is within ``1 ± gamma(roundings)`` of the exact one; the bound is
    ``> kappa`` when ``strict``.

    Returns
    -------
    bool
        Whether the bound is proven.
    """
    if value == math.inf:
        return True
    if not _TINY <= value <= _HUGE:
        return False
    low = Fraction(value) / (1 + gamma(roundings))  # the exact minimum is at least this
    return low > kappa if strict else low >= kappa
