"""Exact factors and variable elimination (the arithmetic of general networks).

A *factor* is a pair ``(scope, table)``: a tuple of variables and a numpy object array
with one axis per variable, in scope order, holding exact numbers (Python ints or
:class:`fractions.Fraction`). Products broadcast over the union of the scopes, sums
are exact, and evidence enters in one place only, :func:`observe`, as a contraction
with an indicator vector over the variable's states (one-hot for an observed state,
all ones for an unobserved one), so nothing is ever rounded.

Elimination orders are greedy (:func:`elimination_order`): repeatedly the variable
whose elimination makes the smallest table, fewest fill-in edges breaking ties. They
never enumerate the hidden variables' joint states.

Examples
--------
>>> import numpy as np
>>> from bnx.classifier._inference import as_table, product, sum_out
>>> f = (("A",), as_table([1, 2]))
>>> g = (("A", "B"), as_table([[1, 0], [3, 4]]))
>>> scope, table = sum_out(product([f, g]), "A")
>>> scope, table.tolist()
(('B',), [7, 8])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import lazy_loader

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["as_table", "align", "product", "sum_out", "indicator", "observe",
           "elimination_order", "eliminate", "integer_factor", "table_gcd", "class_marginal"]

Factor = tuple  # (scope: tuple, table: numpy object array)


def as_table(values: Any) -> np.ndarray:
    """Make a numpy object array of exact numbers from nested lists (or an array)."""
    arr = np.asarray(values, dtype=object)
    if arr.ndim == 0:
        out = np.empty((), dtype=object)
        out[()] = arr.item()
        return out
    return arr


def align(table: np.ndarray, scope: Sequence, out: Sequence) -> np.ndarray:
    """``table`` (axes in ``scope`` order) as a view broadcastable over ``out``."""
    scope = tuple(scope)
    present = [v for v in out if v in scope]
    if present != list(scope):
        table = table.transpose([scope.index(v) for v in present])
    shape = [table.shape[present.index(v)] if v in scope else 1 for v in out]
    return table.reshape(shape)


def product(factors: Iterable[Factor], scope: Sequence | None = None, *,
            tick: Callable[[], None] | None = None) -> Factor:
    """Multiply factors exactly, over the union of their scopes (first-seen order).

    ``tick`` (optional) is called after each multiplication (a compilation's budget check:
    one product of large exact tables can take seconds).
    """
    factors = list(factors)
    if scope is None:
        seen: dict = {}
        for s, _ in factors:
            for v in s:
                seen.setdefault(v, None)
        scope = tuple(seen)
    scope = tuple(scope)
    if not factors:
        return scope, as_table(1)
    if len(factors) == 1 and tuple(factors[0][0]) == scope:
        return factors[0]
    out = None
    for s, t in factors:
        a = align(t, s, scope)
        out = a if out is None else out * a
        if tick is not None:
            tick()
    full = tuple(out.shape)
    if any(d == 1 for d in full) and len(scope):
        # broadcast to the full shape (a variable met only in size-1 form keeps its size)
        sizes = {}
        for s, t in factors:
            for v, d in zip(s, t.shape):
                sizes[v] = d
        target = tuple(sizes[v] for v in scope)
        if target != full:
            out = np.broadcast_to(out, target).copy()
    return scope, out


def sum_out(factor: Factor, var: Any) -> Factor:
    """Sum ``var`` out of ``factor`` (exactly)."""
    scope, table = factor
    ax = scope.index(var)
    rest = scope[:ax] + scope[ax + 1:]
    out = table.sum(axis=ax)
    if not rest:
        return rest, as_table(out)
    return rest, out


def indicator(card: int, state) -> np.ndarray:
    """Make the evidence vector of a variable with ``card`` states.

    One-hot at ``state``, all ones when ``state`` is ``None`` (unobserved), or ones at the
    states of a collection (the variable known to be one of them).
    """
    vec = np.zeros(card, dtype=object)
    if state is None:
        vec[:] = 1
    elif isinstance(state, (int, np.integer)):
        vec[state] = 1
    else:
        vec[list(state)] = 1
    return vec


def observe(factor: Factor, var: Any, vec: np.ndarray) -> Factor:
    """Contract ``var``'s axis of ``factor`` with the evidence vector ``vec``.

    This is the one place where evidence enters a factor: the result is
    ``sum_s factor[..., s, ...] * vec[s]`` (a plain index for a one-hot vector).
    """
    scope, table = factor
    ax = scope.index(var)
    rest = scope[:ax] + scope[ax + 1:]
    nz = [j for j, w in enumerate(vec) if w != 0]
    if len(nz) == 1 and vec[nz[0]] == 1:
        out = np.take(table, nz[0], axis=ax)
    else:
        shape = [1] * table.ndim
        shape[ax] = len(vec)
        out = (table * vec.reshape(shape)).sum(axis=ax)
    if not rest:
        return rest, as_table(out)
    return rest, out


def elimination_order(scopes: Iterable[Sequence], variables: Iterable, card: Mapping) -> list:
    """Choose a greedy order to eliminate ``variables`` from factors with these ``scopes``.

    At each step, the variable whose elimination makes the smallest table (product of
    its neighbours' cardinalities), fewest fill-in edges breaking ties, then the
    given order.
    """
    adj: dict = {}
    for s in scopes:
        for v in s:
            adj.setdefault(v, set()).update(w for w in s if w != v)
    todo = list(dict.fromkeys(variables))
    rank = {v: j for j, v in enumerate(todo)}
    left = set(todo)
    order = []
    while left:
        best, best_key = None, None
        for v in left:
            nb = adj.get(v, set())
            size = math.prod(card[w] for w in nb)
            fill = 0
            nbl = list(nb)
            for a in range(len(nbl)):
                na = adj[nbl[a]]
                for b in range(a + 1, len(nbl)):
                    if nbl[b] not in na:
                        fill += 1
            key = (size, fill, rank[v])
            if best_key is None or key < best_key:
                best, best_key = v, key
        order.append(best)
        left.discard(best)
        nb = adj.pop(best, set())
        for w in nb:
            adj[w].discard(best)
            adj[w].update(x for x in nb if x != w)
    return order


def eliminate(factors: Iterable[Factor], order: Iterable, *,
              tick: Callable[[], None] | None = None) -> list:
    """Sum the variables of ``order`` out of the product of ``factors``, one at a time.

    ``tick``, optional: called as :func:`product` calls it.

    Returns the remaining factors (their product is the result).
    """
    pool = list(factors)
    for v in order:
        hit = [f for f in pool if v in f[0]]
        if not hit:
            continue
        pool = [f for f in pool if v not in f[0]]
        pool.append(sum_out(product(hit, tick=tick), v))
    return pool


def table_gcd(table: np.ndarray) -> int:
    """Return the gcd of an integer table's entries (0 for an all-zero table)."""
    return math.gcd(*(int(x) for x in table.reshape(-1)))


def integer_factor(factor: Factor) -> tuple[Factor, int]:
    """``(scope, ints), den``: the factor's Fraction entries times their common denominator."""
    scope, table = factor
    flat = table.reshape(-1)
    den = 1
    for v in flat:
        d = v.denominator
        den = den * d // math.gcd(den, d)
    out = np.empty(table.shape, dtype=object)
    oflat = out.reshape(-1)
    for j, v in enumerate(flat):
        oflat[j] = v.numerator * (den // v.denominator)
    return (scope, out), den


def class_marginal(factors: list, idx: Mapping, class_var: Any, card: Mapping, cache: dict,
                   key: Any) -> list:
    """Multiply ``factors`` with evidence ``idx`` and sum out everything but ``class_var``.

    ``idx`` is ``{variable: state index}``; the answer is a list over the class states (one
    item if the class is in no factor). Orders are cached in ``cache`` under ``(key,
    observed)``.
    """
    pool = []
    for f in factors:
        for v in f[0]:
            if v in idx:
                f = observe(f, v, indicator(card[v], idx[v]))
        pool.append(f)
    okey = (key, frozenset(idx))
    order = cache.get(okey)
    if order is None:
        hidden = {v for s, _ in pool for v in s if v != class_var}
        order = cache[okey] = elimination_order([s for s, _ in pool],
                                                sorted(hidden, key=str), card)
    rest = eliminate(pool, order)
    scope = (class_var,) if any(s for s, _ in rest) else ()
    _, table = product(rest, scope=scope)
    return list(table.reshape(-1))
