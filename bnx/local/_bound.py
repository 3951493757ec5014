"""A proof that one class beats another on every completion, without enumerating them.

For two class states ``a`` and ``b`` and the features left free ``F`` (the others fixed
to the instance), :func:`least_ratio` bounds ``min_y A(y) / B(y)`` from below, where
``A(y) = Pr(class = a, fixed, y)`` and ``B(y) = Pr(class = b, fixed, y)``:

1. the network's factors (its float CPT entries), reduced by the fixed features, have the
   hidden nodes summed out (a variable elimination that keeps the free features and the
   class), each unless its table would pass :data:`MAX_TABLE` entries;
2. each remaining factor ``phi`` that holds the class gives the ratio table
   ``phi(a, .) / phi(b, .)`` (factors without the class cancel); a hidden node still left
   is minimised over like a free feature, which only lowers the bound (the ratio of two
   sums is a mediant of the terms' ratios);
3. ``min`` over all those variables of the product of the ratio tables, by min-product
   elimination (the tables are non-negative, so the minimum distributes over products);
   a step whose table would pass :data:`MAX_TABLE` takes each table's own minimum
   instead, which again only lowers the bound.

When every hidden node was summed out and no step was relaxed, the bound is the minimum
itself, and the setting read back through the elimination attains it.

Zeros follow the rule's ties: ``0/0`` is a tie, and so is a product of an infinite ratio
(``b = 0``) with a zero one; a tie passes when it goes to ``a`` (``ties=True``) and
fails otherwise. Everything is in floats with non-negative operands: every product and
sum of the elimination is counted (``k``), a ratio adds the roundings of both its sides
and its own, and the min-product adds those of its products, so the computed minimum is
within a factor ``1 ± gamma(k)`` of the exact one (Higham's Lemma 3.1 and 3.3;
:mod:`bnx._util.rounding`); the comparison with the rule's bound allows for it, and a
table entry or value outside the normal range of binary64 (where that argument fails)
proves nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .._util.rounding import gamma
from ..classifier._inference import align, eliminate, elimination_order, observe

__all__ = ["least_ratio", "passes", "branch_on", "MAX_TABLE"]

#: The most entries one table of the bound may hold.
MAX_TABLE = 1 << 20

_TINY, _HUGE = 2.0 ** -1000, 2.0 ** 1000  # the range where the rounding argument holds


def _ratios(ta: np.ndarray, tb: np.ndarray, ties: bool) -> np.ndarray:
    """``ta / tb`` elementwise (one rounding), ``inf`` for ``x / 0`` and the tie's value
    for ``0 / 0``.
    """
    ta, tb = np.asarray(ta, dtype=float), np.asarray(tb, dtype=float)
    safe = np.where(tb > 0, tb, 1.0)
    out = ta / safe  # over- or underflow raises (see least_ratio)
    return np.where(tb > 0, out, np.where(ta > 0, math.inf, math.inf if ties else 0.0))


def _tie(t: np.ndarray, ties: bool) -> np.ndarray:
    """``inf * 0`` (both sides zero: a tie) made the tie's value."""
    bad = np.isnan(t)
    if bad.any():
        t = np.where(bad, math.inf if ties else 0.0, t)
    return t


def least_ratio(clf: Any, fixed: Mapping, free: Sequence, pair: tuple[int, int],
                ties: bool, cache: dict) -> tuple[float, int, bool, dict]:
    """``(value, roundings, exact, where)``: the computed bound on ``min_y A(y) /
    B(y)`` over the settings ``y`` of ``free``, the roundings on its longest chain (see
    :func:`passes`), whether it is the minimum itself, and a setting
    ``{feature: state index}`` of the free features that attains the computed value
    (a candidate worth checking, proving nothing by itself).
    """
    c, card = clf.class_var, clf._card
    a, b = pair
    keep = set(free)
    key = ("bound", frozenset(fixed.items()), tuple(free))
    hit = cache.get(key)
    if hit is None:
        try:
            with np.errstate(over="raise", under="raise"):
                hit = _reduced(clf, fixed, keep)
        except FloatingPointError:
            hit = (None, False, 0)
        cache[key] = hit
    pool, exact, chain = hit
    if pool is None:
        return 0.0, 1, False, {}  # out of the range of the rounding argument
    try:
        with np.errstate(over="raise", under="raise", invalid="ignore"):
            return _least(pool, exact, chain, c, card, keep, a, b, ties)
    except FloatingPointError:  # a value left the range where the rounding argument holds
        return 0.0, 1, False, {}


def _least(pool: list, exact: bool, chain: int, c: Any, card: Mapping, keep: set, a: int,
           b: int, ties: bool) -> tuple[float, int, bool, dict]:
    tables = []
    for scope, t in pool:
        if c not in scope:
            if not ties and (t == 0).any():
                return 0.0, 1, False, {}  # a zero here is a tie on both sides, lost
            continue
        ax = scope.index(c)
        rest = scope[:ax] + scope[ax + 1:]
        tables.append((rest, _ratios(np.take(t, a, axis=ax), np.take(t, b, axis=ax), ties)))
    value, roundings, relaxed, where = _min_product(tables, card, ties, 2 * chain + 1)
    return value, roundings, exact and not relaxed, {v: s for v, s in where.items()
                                                     if v in keep}


def branch_on(clf: Any, fixed: Mapping, free: Sequence, cache: dict) -> Any:
    """The free feature to fix next when the bound is not exact: the one that shares the
    most remaining tables with a hidden node left unsummed (else the one in the largest
    table), so that fixing it lets the elimination go further.
    """
    pool = cache.get(("bound", frozenset(fixed.items()), tuple(free)), (None,))[0]
    if not pool:
        return free[0]
    keep, c, card = set(free), clf.class_var, clf._card
    score: dict = {}
    for scope, _ in pool:
        if any(v != c and v not in keep for v in scope):
            for v in scope:
                if v in keep:
                    score[v] = score.get(v, 0) + 1
    if not score:
        for scope, _ in pool:
            size = math.prod(card[v] for v in scope)
            for v in scope:
                if v in keep:
                    score[v] = max(score.get(v, 0), size)
    return max(free, key=lambda v: (score.get(v, 0), -free.index(v)))


def _reduced(clf: Any, fixed: Mapping, keep: set) -> tuple:
    """``(factors, exact, roundings)``: the network's factors in floats, reduced by the
    evidence, with the hidden nodes summed out where the tables stay small (``exact``:
    all of them), and a bound on the roundings behind any entry (every product and sum
    of every step counted); ``factors`` is ``None`` when an entry left the normal
    range (the rounding argument would not hold).
    """
    c, card = clf.class_var, clf._card
    pool, chain = [], 1  # 1: a CPT entry that is not a float already
    for scope, t in clf._main:
        f = (scope, np.asarray(t, dtype=float))
        for v in scope:
            if v in fixed and v not in keep:
                f = observe(f, v, np.eye(card[v])[fixed[v]])  # an index: no rounding
        pool.append(f)
    hidden = {v for s, _ in pool for v in s if v != c and v not in keep}
    order = elimination_order([s for s, _ in pool], sorted(hidden, key=str), card)
    exact = True
    for h in order:
        hit = [s for s, _ in pool if h in s]
        size = math.prod(card[v] for v in {v for s in hit for v in s if v != h})
        if size > MAX_TABLE:
            exact = False
            continue
        pool = eliminate(pool, [h])
        chain += len(hit) - 1 + card[h] - 1
        new = pool[-1][1]
        if ((new > 0) & (new < _TINY)).any():
            return None, False, chain
    return pool, exact, chain


def _min_product(tables: list, card: Mapping, ties: bool, start: int
                 ) -> tuple[float, int, bool, dict]:
    """``min`` over all variables of the product of the tables (float), the roundings on
    the longest chain, whether a step was relaxed, and where the minimum is.
    """
    variables = list(dict.fromkeys(v for s, _ in tables for v in s))
    order = elimination_order([s for s, _ in tables], variables, card)
    # each table with the roundings on its longest chain (1: the quotient)
    pool = [(s, t, start) for s, t in tables]
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
    """Whether a computed minimum ``value`` (within ``1 ± gamma(roundings)`` of the
    exact one) proves ``min >= kappa`` (``> kappa`` when ``strict``).
    """
    if value == math.inf:
        return True
    if not _TINY <= value <= _HUGE:
        return False
    low = Fraction(value) / (1 + gamma(roundings))  # the exact minimum is at least this
    return low > kappa if strict else low >= kappa
