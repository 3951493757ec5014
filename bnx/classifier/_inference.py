"""Exact inference on networks: the one elimination order, contraction and answer code.

Every probability bnx computes on a network goes through this module. A *factor* is a pair
``(scope, table)``: a tuple of variables and a numpy array with one axis per variable, in
scope order. A contraction (:func:`plan`) sums the product of factors down to some kept
variables along an elimination order (:func:`elimination_order`: greedy weighted min-fill
or min-size, whichever makes the smaller tables), each step one batched matrix product;
:func:`contract` runs it with one body for both arithmetics: exact (object arrays of
Python integers or fractions) or float64, where the result comes with a proven relative
error bound (``gamma(k)`` of :mod:`bnx._util.rounding`, ``k`` the roundings on the longest
chain; products and sums of nonnegative numbers, no cancellation) and the tables' range is
tracked so that no product underflows or overflows (:class:`FloatRange` otherwise); and in
the Boolean semiring (``and`` for the product, ``or`` for the sum: whether the exact sum is
positive, from the tables' zero patterns; :mod:`bnx.classifier._possible`).

:class:`Inference` answers on a whole network: a plan per pattern of observed nodes,
cached, after dropping what cannot matter (barren nodes, parts the evidence separates
from the query), the evidence entering as fixed indices. The small helpers
(:func:`product`, :func:`observe`, ...) multiply and condition exact factors; evidence
enters a factor only through :func:`observe` or as an index.

Examples
--------
>>> import numpy as np
>>> from bnx.classifier._inference import as_table, product, sum_out
>>> f = (("A",), as_table([1, 2]))
>>> g = (("A", "B"), as_table([[1, 0], [3, 4]]))
>>> scope, table = sum_out(product([f, g]), "A")
>>> scope, table.tolist()
(('B',), [7, 8])
>>> p = plan([("A",), ("A", "B")], ("B",), {"A": 2, "B": 2})
>>> contract(p, [f[1], g[1]], exact=True)[0].tolist()
[7, 8]
>>> table, e, err = contract(p, [np.array([1.0, 2.0]), np.array([[1.0, 0], [3, 4]])])
>>> (table * 2.0 ** e).tolist(), err < 1e-15
([7.0, 8.0], True)
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from .._util.disjoint import DisjointSets
from .._util.rounding import float_gamma, gamma

__all__ = ["as_table", "align", "product", "sum_out", "indicator", "observe",
           "elimination_order", "plan", "contract", "Contraction", "FloatRange", "eliminate",
           "integer_factor", "table_gcd", "Inference", "Answer", "EXACT_FLOPS"]

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

    ``tick`` (optional) is called after each multiplication, and within one every
    :data:`TICK_ENTRIES` entries (a compilation's budget check: one product of large exact
    tables can take seconds).
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
        out = a if out is None else _times(out, a, tick)
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


#: The most entries one exact product makes between two budget checks (:func:`product`).
TICK_ENTRIES = 1 << 16


def _matmul(a: np.ndarray, b: np.ndarray, tick: Callable[[], None] | None) -> np.ndarray:
    """Return ``a @ b`` (batched: ``(n, m, k) @ (n, k, l)``), ``tick`` between slices.

    Slices of about :data:`TICK_ENTRIES` multiply-adds along ``m`` (the same entries: each
    row is its own sum), each of exact integers counted once per 64-bit word of each
    operand (:func:`_words`): a product of 23,000 multiply-adds of integers of thousands
    of digits (diabetes' tail table) takes more than a second.
    """
    n, m, k = a.shape
    per_row = n * k * b.shape[2]
    if tick is not None and a.dtype == object:
        per_row *= _words(a) * _words(b)
    if tick is None or m < 2 or m * per_row <= TICK_ENTRIES:
        out = np.matmul(a, b)
        if tick is not None:
            tick()
        return out
    rows = max(1, TICK_ENTRIES // max(1, per_row))
    out = np.empty((n, m, b.shape[2]), dtype=np.result_type(a, b))
    for i in range(0, m, rows):
        out[:, i:i + rows] = np.matmul(a[:, i:i + rows], b)
        tick()
    return out


def _words(t: np.ndarray) -> int:
    """Return the 64-bit words of the longest of up to 64 entries of an exact table, spread out."""
    flat = t.reshape(-1)
    if not flat.size:
        return 1
    bits = 0
    for v in flat[::max(1, flat.size // 64)].tolist():
        if isinstance(v, Fraction):
            bits = max(bits, v.numerator.bit_length() + v.denominator.bit_length())
        elif isinstance(v, int):
            bits = max(bits, v.bit_length())
    return bits // 64 + 1


def _times(x: np.ndarray, y: np.ndarray, tick: Callable[[], None] | None) -> np.ndarray:
    """``x * y`` (broadcast), in slices of :data:`TICK_ENTRIES` entries with ``tick`` between."""
    shape = np.broadcast_shapes(x.shape, y.shape)
    n = math.prod(shape)
    if tick is None or n <= TICK_ENTRIES:
        return x * y
    xs = np.broadcast_to(x, shape).reshape(-1)
    ys = np.broadcast_to(y, shape).reshape(-1)
    out = np.empty(n, dtype=np.result_type(x, y))
    for j in range(0, n, TICK_ENTRIES):
        out[j:j + TICK_ENTRIES] = xs[j:j + TICK_ENTRIES] * ys[j:j + TICK_ENTRIES]
        tick()
    return out.reshape(shape)


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


# ---------------------------------------------------------------- the elimination order
def elimination_order(scopes: Iterable[Sequence], variables: Iterable, card: Mapping, *,
                      tick: Callable[[], None] | None = None) -> list:
    """Order ``variables`` for elimination from factors with these ``scopes``.

    The order is greedy weighted min-fill (the variable whose elimination adds the fewest
    fill-in edges, each weighted by the product of its two ends' states; the smaller table
    breaking ties, then the given order), or greedy min-size (the smallest table, the fewest
    fill-in edges breaking ties) where that makes smaller tables in all (tried past
    ``SMALL_COST``). ``tick`` (optional) is called every few dozen variables (a caller's
    deadline: on munin's thousand nodes one order takes a second or two).

    Examples
    --------
    >>> elimination_order([("A", "B"), ("B", "C")], ["B", "A"], {"A": 2, "B": 3, "C": 2})
    ['A', 'B']
    """
    scopes = [tuple(s) for s in scopes]
    todo = list(dict.fromkeys(variables))
    if len(todo) <= 1:
        return todo
    best, best_cost = _greedy(scopes, todo, card, "fill", tick)
    if best_cost > SMALL_COST:  # worth a second try
        order, cost = _greedy(scopes, todo, card, "size", tick)
        if cost < best_cost:
            best = order
    return best


#: Below this many table entries in all, min-fill's order is taken without trying min-size.
SMALL_COST = 1 << 16


def _greedy(scopes: list, todo: list, card: Mapping, rule: str,
            tick: Callable[[], None] | None = None) -> tuple[list, int]:
    """Return one greedy order (``rule``: ``"fill"`` or ``"size"``) and its cost.

    The cost is the sum of the sizes of the tables the order makes; scores are updated only
    within two steps of the variable eliminated.
    """
    adj: dict = {}
    for s in scopes:
        for v in s:
            adj.setdefault(v, set()).update(w for w in s if w != v)
    rank = {v: j for j, v in enumerate(todo)}
    left = set(todo)
    for v in todo:
        adj.setdefault(v, set())

    def score(v):
        nb = adj[v]
        size = card[v] * math.prod(card[w] for w in nb)
        fill = 0
        nbl = list(nb)
        for a in range(len(nbl)):
            na, ca = adj[nbl[a]], card[nbl[a]]
            for b in range(a + 1, len(nbl)):
                if nbl[b] not in na:
                    fill += ca * card[nbl[b]] if rule == "fill" else 1
        return (fill, size, rank[v]) if rule == "fill" else (size, fill, rank[v])

    scores = {v: score(v) for v in left}
    order, cost = [], 0
    while left:
        if tick is not None and not len(order) % 32:
            tick()
        v = min(left, key=scores.__getitem__)
        order.append(v)
        cost += scores[v][1 if rule == "fill" else 0]
        left.discard(v)
        nb = adj.pop(v)
        touched = set(nb)
        for w in nb:
            adj[w].discard(v)
            adj[w].update(x for x in nb if x != w)
        for w in nb:
            touched.update(adj[w])
        for w in touched:
            if w in left:
                scores[w] = score(w)
    return order, cost


# ------------------------------------------------------------ the one contraction code
class FloatRange(ArithmeticError):
    """A float contraction would leave the range where its error bound is proven.

    An entry could underflow or overflow: the caller computes exactly instead.
    """


#: Bounds of the float range in which every nonzero product stays a normal number.
_TINY, _HUGE = 2.0 ** -1000, 2.0 ** 1000


@dataclass(frozen=True)
class Contraction:
    """A planned contraction of tables with ``scopes`` down to the variables ``keep``.

    The variables ``keep`` come in that order. The plan holds pairwise ``steps``, each a
    batched matrix product, made from an elimination order, then one broadcast product of
    the tables left (each over kept variables only); the ``largest`` table made,
    ``flops`` multiply-adds and ``depth``, the roundings on the longest chain from an input
    to an entry of the result when every input is exact (a float result is within a
    relative ``gamma(depth)`` of the exact value: :func:`contract`).
    """

    scopes: tuple
    keep: tuple
    steps: tuple
    final: tuple
    largest: int
    flops: int
    depth: int


def plan(scopes: Sequence[Sequence], keep: Sequence, card: Mapping,
         order: Sequence | None = None, depths: Sequence[int] | None = None, *,
         tick: Callable[[], None] | None = None) -> Contraction:
    """Plan the contraction of tables over ``scopes`` down to ``keep``, along ``order``.

    The order is by default :func:`elimination_order`: each variable's tables are multiplied
    pairwise, the two smallest first, and each variable summed out as soon as no other table
    holds it. ``depths``: the roundings already in each input (0: exact). ``tick``: as
    for :func:`elimination_order`.
    """
    scopes = [tuple(s) for s in scopes]
    keep = tuple(keep)
    hidden = list(dict.fromkeys(v for s in scopes for v in s if v not in keep))
    if order is None:
        order = elimination_order(scopes, hidden, card, tick=tick)
    hidden_set = set(hidden)
    order = [v for v in dict.fromkeys(order) if v in hidden_set]
    ordered = set(order)
    order += [v for v in hidden if v not in ordered]
    live = {j: s for j, s in enumerate(scopes)}
    depth = {j: (depths[j] if depths is not None else 0) for j in live}
    sizes = {j: math.prod([card[v] for v in s]) for j, s in live.items()}
    count = collections.Counter(v for s in scopes for v in set(s))  # live tables holding v
    steps, largest = [], max(sizes.values(), default=1)
    flops, nxt = 0, len(scopes)
    kset = set(keep)

    def needed(*ids) -> set:
        """Return the variables of tables ``ids`` that are kept or held by another live table."""
        mine: dict = {}
        for j in ids:
            for v in set(live[j]):
                mine[v] = mine.get(v, 0) + 1
        return {v for v, k in mine.items() if v in kset or count[v] > k}

    def replace(ids, out) -> None:
        nonlocal nxt
        for j in ids:
            for v in set(live[j]):
                count[v] -= 1
            del live[j], sizes[j]
        for v in set(out):
            count[v] = count.get(v, 0) + 1
        live[nxt], sizes[nxt] = out, math.prod(card[v] for v in out)
        nxt += 1

    def pair(a: int, b: int) -> None:
        nonlocal largest, flops
        step, out, n, d = _pair_step(a, live[a], b, live[b], needed(a, b), card, depth[a],
                                     depth[b])
        steps.append(step)
        depth[nxt] = d
        replace((a, b), out)
        largest, flops = max(largest, sizes[nxt - 1]), flops + n

    for v in order:
        bucket = [j for j, s in live.items() if v in s]
        while len(bucket) > 1:
            bucket.sort(key=sizes.__getitem__)
            a, b = bucket[0], bucket[1]
            pair(a, b)
            bucket = bucket[2:] + ([nxt - 1] if v in live[nxt - 1] else [])
        if bucket and v in live[bucket[0]]:
            a = bucket[0]
            need = needed(a)
            axes = tuple(i for i, w in enumerate(live[a]) if w not in need)
            out = tuple(w for w in live[a] if w in need)
            summed = math.prod(card[live[a][i]] for i in axes)
            steps.append((a, None, axes, None, None, None, None, None, None))
            flops += sizes[a]
            depth[nxt] = depth[a] + summed - 1
            replace((a,), out)
    if len(live) > 1:  # tables over kept variables only: one broadcast product
        ids = tuple(sorted(live, key=sizes.__getitem__))
        held = {v for j in ids for v in live[j]}
        out = tuple([v for v in keep if v in held])
        at = {v: i for i, v in enumerate(out)}
        perms, shapes = [], []  # each table's axes in the order of ``out`` (None: as is)
        for j in ids:
            s = live[j]
            key = [at[v] for v in s]
            perms.append(None if key == sorted(key) else tuple(sorted(range(len(s)),
                                                                      key=key.__getitem__)))
            shape = [1] * len(out)
            for v in s:
                shape[at[v]] = card[v]
            shapes.append(None if len(s) == len(out) else tuple(shape))
        steps.append(("product", ids, tuple(perms), tuple(shapes)))
        depth[nxt] = sum([depth[j] for j in ids]) + len(ids) - 1
        flops += len(ids) * math.prod([card[v] for v in out])
        replace(ids, out)
        largest = max(largest, sizes[nxt - 1])
    if live:
        (last, scope), = live.items()
        total = depth[last]
    else:
        last, scope, total = None, (), 0
    missing = tuple(v for v in keep if v not in scope)
    final = (last, scope, tuple(card[v] for v in missing), missing)
    return Contraction(tuple(scopes), keep, tuple(steps), final, largest, flops, total)


def _pair_step(a: int, sa: tuple, b: int, sb: tuple, need: set, card: Mapping, da: int,
               db: int) -> tuple:
    """Plan one pairwise step: ``(step, out scope, multiply-adds, depth)``.

    Variables of one table only that are not needed are summed out of it first; then the
    batched matrix product ``(batch, left, shared) @ (batch, shared, right)`` sums the shared
    ones.
    """
    a_sum = tuple(i for i, v in enumerate(sa) if v not in need and v not in sb)
    b_sum = tuple(i for i, v in enumerate(sb) if v not in need and v not in sa)
    da += math.prod(card[sa[i]] for i in a_sum) - 1
    db += math.prod(card[sb[i]] for i in b_sum) - 1
    sa = tuple(v for i, v in enumerate(sa) if i not in a_sum)
    sb = tuple(v for i, v in enumerate(sb) if i not in b_sum)
    batch = tuple(v for v in sa if v in sb and v in need)
    left = tuple(v for v in sa if v not in sb)
    right = tuple(v for v in sb if v not in sa)
    shared = tuple(v for v in sa if v in sb and v not in need)
    nb, nl, nr, ns = (math.prod(card[v] for v in g) for g in (batch, left, right, shared))
    a_perm = tuple(sa.index(v) for v in (*batch, *left, *shared))
    b_perm = tuple(sb.index(v) for v in (*batch, *shared, *right))
    out = (*batch, *left, *right)
    step = (a, b, a_sum, b_sum, a_perm if a_perm != tuple(range(len(sa))) else None,
            b_perm if b_perm != tuple(range(len(sb))) else None,
            (nb, nl, ns), (nb, ns, nr), tuple(card[v] for v in out))
    return step, out, nb * nl * nr * ns, da + db + 1 + ns - 1


def contract(p: Contraction, tables: Sequence, *, exact: bool = False,
             ranges: Sequence | None = None, boolean: bool = False,
             tick: Callable[[], None] | None = None) -> tuple:
    """Run the contraction ``p`` on ``tables`` (one per planned scope, axes in its order).

    One body for both arithmetics. ``exact=True``: object arrays of Python integers or
    fractions, the result exact; returns ``(table, 0, 0.0)``. ``boolean=True``: bool arrays
    (which entries are positive), the sums ``or`` and the products ``and``, so the result
    says exactly which entries of the contraction of nonnegative tables with those zero
    patterns are positive; returns ``(table, 0, 0.0)``. Otherwise float64 arrays of
    nonnegative numbers: returns ``(table, e, err)``, the result being ``table * 2**e``
    within a relative ``err`` of the exact contraction of the inputs in every entry
    (``err = gamma(p.depth)`` rounded up; 0 exactly where the exact value is 0). The bound
    assumes no product underflows or overflows: each table's least nonzero entry and
    largest entry are tracked (``ranges``: ``(least, largest)`` of each input, measured
    when not given) and its scale moved by powers of two (exact) when a product could
    leave ``[2**-1000, 2**1000]``; :class:`FloatRange` when it still could. ``tick``
    (optional) is called between slices of :data:`TICK_ENTRIES` multiply-adds of each
    matrix product (a compilation's budget check: one product of large exact tables runs
    for minutes).
    """
    live = dict(enumerate(tables))
    exact = exact or boolean  # no range to track
    add = np.any if boolean else np.sum
    if not exact:
        scale = dict.fromkeys(live, 0)
        rng = dict(enumerate(ranges if ranges is not None else _measure_all(tables)))
    nxt = len(live)
    for step in p.steps:
        if tick is not None:
            tick()
        if step[0] == "product":  # tables over kept variables: broadcast and multiplied
            _, ids, perms, shapes = step
            ts = [live.pop(j) for j in ids]
            if not exact:
                rs, es = [rng.pop(j) for j in ids], [scale.pop(j) for j in ids]
                if not _product_in_range(rs):
                    again = [_rescale(t, e) for t, e in zip(ts, es)]
                    ts, rs, es = ([g[0] for g in again], [g[1:3] for g in again],
                                  [g[3] for g in again])
                    if not _product_in_range(rs):
                        raise FloatRange("a product of the contraction could underflow "
                                         "or overflow")
                lo = hi = 1.0
                for la, ha in rs:
                    lo, hi = lo * la * _DOWN, hi * ha * _UP
                rng[nxt], scale[nxt] = (lo, hi), sum(es)
            out = None
            for t, perm, shape in zip(ts, perms, shapes):
                t = np.asarray(t)
                if perm is not None:
                    t = t.transpose(perm)
                if shape is not None:
                    t = t.reshape(shape)
                out = t if out is None else np.multiply(out, t)
            live[nxt] = out
            nxt += 1
            continue
        a, b, a_sum, b_sum, a_perm, b_perm, a_shape, b_shape, out_shape = step
        ta = live.pop(a)
        if b is None:  # one table: sum the axes no other table needs
            live[nxt] = np.asarray(add(ta, axis=a_sum)) if a_sum else ta  # (0-d: an array)
            if not exact:
                lo, hi = rng.pop(a)
                rng[nxt] = (lo, hi * max(1, ta.size // max(1, live[nxt].size)))
                scale[nxt] = scale.pop(a)
            nxt += 1
            continue
        tb = live.pop(b)
        if not exact:
            (la, ha), (lb, hb) = rng.pop(a), rng.pop(b)
            ea, eb = scale.pop(a), scale.pop(b)
            terms = a_shape[2] * max(1, ta.size // max(1, math.prod(a_shape))) * max(
                1, tb.size // max(1, math.prod(b_shape)))
            if (la > 0 and lb > 0 and la * lb < _TINY) or ha * hb * terms > _HUGE:
                ta, la, ha, ea = _rescale(ta, ea)
                tb, lb, hb, eb = _rescale(tb, eb)
                if (la > 0 and lb > 0 and la * lb < _TINY) or ha * hb * terms > _HUGE:
                    raise FloatRange("a product of the contraction could underflow "
                                     "or overflow")
        if a_sum:  # an exact table summed whole is a number: keep it an array
            ta = np.asarray(add(ta, axis=a_sum))
        if b_sum:
            tb = np.asarray(add(tb, axis=b_sum))
        if a_perm is not None:
            ta = ta.transpose(a_perm)
        if b_perm is not None:
            tb = tb.transpose(b_perm)
        live[nxt] = _matmul(ta.reshape(a_shape), tb.reshape(b_shape), tick).reshape(out_shape)
        if not exact:
            rng[nxt] = (la * lb * _DOWN, ha * hb * terms * _UP)
            scale[nxt] = ea + eb
        nxt += 1
    last, scope, extra, missing = p.final
    kind = bool if boolean else object if exact else np.float64
    if last is None:
        out = np.ones((), dtype=kind)
        e = 0
    else:
        out = live[last]
        e = 0 if exact else scale[last]
    if missing:  # kept variables no table holds: the result is constant along them
        out = np.broadcast_to(out.reshape(out.shape + (1,) * len(missing)),
                              out.shape + extra)
        scope = (*scope, *missing)
    if scope != p.keep:
        out = out.transpose([scope.index(v) for v in p.keep])
    out = np.array(out, dtype=kind, order="C")
    return out, e, 0.0 if exact else float_gamma(p.depth)


_DOWN, _UP = 1 - 2.0 ** -50, 1 + 2.0 ** -50


def _product_in_range(ranges) -> bool:
    """Whether the products of entries of tables with these ranges stay in range.

    ``ranges``: each table's ``(least nonzero, largest)`` entry. Every nonzero product of
    one entry of each table, and of each prefix of the tables, must stay within
    ``[2**-1000, 2**1000]``.
    """
    lo = hi = 1.0
    for la, ha in ranges:
        if ha == 0:  # an all-zero table: every product is exactly 0
            return True
        lo, hi = lo * la * _DOWN, hi * ha * _UP
        if lo < _TINY or hi > _HUGE:
            return False
    return True


def _measure(table) -> tuple[float, float]:
    """``(least nonzero entry, largest entry)`` of a float table (``(0, 0)``: all zero)."""
    if table.size == 0:
        return 0.0, 0.0
    hi = float(table.max())
    if hi == 0:
        return 0.0, 0.0
    return float(table[table > 0].min()), hi


def _measure_all(tables: Sequence) -> list[tuple[float, float]]:
    """:func:`_measure` of each table, the float tables measured together (one pass)."""
    out = [None] * len(tables)
    flat = [(j, np.ravel(t)) for j, t in enumerate(tables)
            if getattr(t, "dtype", None) == np.float64 and t.size]
    if len(flat) > 1:
        cut = np.cumsum([0] + [f.size for _, f in flat[:-1]])
        whole = np.concatenate([f for _, f in flat])
        his = np.maximum.reduceat(whole, cut)
        los = np.minimum.reduceat(np.where(whole > 0, whole, np.inf), cut)
        for (j, _), lo, hi in zip(flat, los.tolist(), his.tolist()):
            out[j] = (0.0, 0.0) if hi == 0 else (lo, hi)
    return [_measure(t) if r is None else r for t, r in zip(tables, out)]


def _rescale(table, e: int) -> tuple:
    """Scale ``table`` by a power of two so that its largest entry is in ``[1/2, 1)``.

    The scaling is exact; the table's range is measured too.
    """
    lo, hi = _measure(table)
    if hi == 0:
        return table, lo, hi, e
    k = math.frexp(hi)[1]
    if k:  # ldexp: 2.0 ** -k overflows for the exponent of a subnormal entry (k < -1023)
        table = np.ldexp(table, -k)
    # a least entry scaled below the normal range (lost, or rounded) stays positive and
    # below _TINY, so that the caller's range check refuses the table (FloatRange)
    least = math.ldexp(lo, -k)
    if lo and least < _TINY:
        least = min(least, _TINY / 2) or math.ulp(0.0)
    return table, least, math.ldexp(hi, -k), e + k


def eliminate(factors: Iterable[Factor], order: Iterable, *,
              tick: Callable[[], None] | None = None) -> list:
    """Sum the variables of ``order`` out of the product of exact ``factors``.

    The sums go through :func:`plan` and :func:`contract`; ``tick`` (optional) is called
    within and after each contraction (a compilation's budget check).

    Returns the factors no variable of ``order`` touches, unchanged, and one factor per
    group of the others that share such variables (their product is the result).
    """
    factors = list(factors)
    order = list(dict.fromkeys(order))
    gone = set(order)
    parts = DisjointSets()
    for j, (s, _) in enumerate(factors):
        for v in s:
            if v in gone:
                parts.join(("f", j), ("v", v))
    groups: dict = {}
    out = []
    for j, f in enumerate(factors):
        if any(v in gone for v in f[0]):
            groups.setdefault(parts.find(("f", j)), []).append(f)
        else:
            out.append(f)
    for group in groups.values():
        card: dict = {}
        for s, t in group:
            for v, d in zip(s, np.shape(t)):
                card[v] = d
        keep = tuple(dict.fromkeys(v for s, _ in group for v in s if v not in gone))
        p = plan([s for s, _ in group], keep, card, order=order)
        table, _, _ = contract(p, [np.asarray(t, dtype=object) for _, t in group], exact=True,
                               tick=tick)
        out.append((keep, table if keep else as_table(table.reshape(()).item())))
        if tick is not None:
            tick()
    return out


def table_gcd(table: np.ndarray, tick: Callable[[], None] | None = None) -> int:
    """Return the gcd of an integer table's entries (0 for an all-zero table).

    Read in chunks, it stops at the first chunk that brings it to 1 (a table of a
    million entries then often costs one chunk, not a million gcds); ``tick`` (optional)
    is called between chunks (a compilation's budget check).

    Examples
    --------
    >>> table_gcd(np.array([6, 9, 0, 15], dtype=object)), table_gcd(np.zeros(3, dtype=object))
    (3, 0)
    """
    flat = table.reshape(-1)
    g = 0
    for j in range(0, len(flat), _GCD_CHUNK):
        g = math.gcd(g, *(int(x) for x in flat[j:j + _GCD_CHUNK]))
        if g == 1:
            break
        if tick is not None:
            tick()
    return g


_GCD_CHUNK = 4096


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


# ------------------------------------------------------------------- networks' answers
class Answer:
    """A contraction's answer: ``values`` are ``table * 2**exponent``.

    There is one value per joint state of the kept variables, in their order. Exact
    (``exact``): integers or fractions.
    In floats: computed through at most ``depth`` roundings on any chain, from a network
    whose dropped nodes' columns sum to 1 within a relative ``dropped``; every value is
    then within the relative :attr:`err` of the exact one.

    Attributes
    ----------
    table : numpy.ndarray
    exponent : int
    depth : int
    dropped : fractions.Fraction
    exact : bool
    """

    __slots__ = ("depth", "dropped", "exact", "exponent", "table")

    def __init__(self, table, exponent: int, depth: int, dropped: Fraction,
                 exact: bool) -> None:
        self.table, self.exponent, self.depth = table, exponent, depth
        self.dropped, self.exact = dropped, exact

    @property
    def err(self) -> float:
        """The relative error bound of every value, rounded up (0 when exact).

        It is ``(1 + gamma(depth)) / (1 - dropped) - 1``.
        """
        if self.exact:
            return 0.0
        return _up((1 + gamma(self.depth)) / (1 - self.dropped) - 1)

    def probabilities(self) -> tuple[list, float]:
        """Normalise the values: return ``(probabilities, err)``.

        Each probability is within the relative ``err`` of the exact one; exact fractions
        when exact, else floats clipped into ``[0, 1]``. The quotient of a value (``depth``
        roundings) by the sum of ``n`` values (``depth + n - 1``), rounded once, is within
        ``gamma(2 depth + n)`` of the dropped-free quotient (Higham, Lemma 3.3), and the
        dropped nodes move it by a factor within ``[(1 - d) / (1 + d), (1 + d) / (1 - d)]``.
        ``ZeroDivisionError`` when every value is 0.
        """
        flat = self.table.reshape(-1)
        if self.exact:
            total = sum(flat.tolist(), 0)
            if total == 0:
                raise ZeroDivisionError("every value is 0")
            return [Fraction(v) / total for v in flat.tolist()], 0.0
        total = float(flat.sum())
        if total == 0:
            raise ZeroDivisionError("every value is 0")
        d = self.dropped
        err = _up((1 + gamma(2 * self.depth + len(flat))) * (1 + d) / (1 - d) - 1)
        return [min(1.0, max(0.0, float(v) / total)) for v in flat.tolist()], err


def _up(x: Fraction) -> float:
    """Return a float no smaller than the exact ``x``."""
    return math.nextafter(float(x), math.inf)


class Inference:
    """Exact inference on a network, in floats with a proven bound or in exact rationals.

    Built from every node's CPT (``factors[v] = ((v, *parents), table)``, exact
    fractions, parents' axes in their states' order). An answer for some kept variables
    under evidence (:meth:`joint`) is planned once per pattern of observed variables and
    cached: the nodes that cannot matter dropped (in floats, the barren ones, whose
    columns sum to 1 within ``BARREN`` — their deviation added to the bound; exactly,
    only those whose columns sum to exactly 1), the evidence entering as fixed indices,
    the rest split into the parts it leaves connected, and each part contracted along an
    elimination order (:func:`plan`, :func:`contract`).
    """

    def __init__(self, card: Mapping, parents: Mapping, factors: Mapping) -> None:
        self.card = dict(card)
        self.parents = {v: tuple(parents[v]) for v in factors}
        self.factors = dict(factors)
        self.plans: dict = {}
        self._topo = None

    # per node, made once on demand
    @cached_property
    def floats(self) -> dict:
        return {v: np.asarray(t, dtype=np.float64) for v, (_, t) in self.factors.items()}

    @cached_property
    def ranges(self) -> dict:
        return {v: _measure(t) for v, t in self.floats.items()}

    @cached_property
    def integers(self) -> dict:
        """``{node: (int table, den)}``: each CPT times its entries' common denominator."""
        out = {}
        for v, f in self.factors.items():
            (_, table), den = integer_factor(f)
            out[v] = (table, den)
        return out

    @cached_property
    def deviation(self) -> dict:
        """``{node: max over parent states |sum of the column - 1|}``, exact."""
        out = {}
        for v, (_, t) in self.factors.items():
            sums = np.asarray(t, dtype=object).sum(axis=0)
            out[v] = max((abs(s - 1) for s in np.asarray(sums, dtype=object).reshape(-1)),
                         default=Fraction(0))
        return out

    @cached_property
    def unnormalised(self) -> tuple[frozenset, frozenset]:
        """The nodes whose columns do not sum to 1: exactly, and within ``BARREN``."""
        dev = self.deviation
        return (frozenset(v for v, d in dev.items() if d != 0),
                frozenset(v for v, d in dev.items() if d > BARREN))

    @cached_property
    def positive(self) -> dict:
        return {v: bool((t > 0).all()) for v, t in self.floats.items()}

    def _ancestors(self, roots) -> set:
        seen: set = set()
        stack = list(roots)
        while stack:
            v = stack.pop()
            if v not in seen:
                seen.add(v)
                stack.extend(self.parents[v])
        return seen

    def _plan(self, keep: tuple, observed: frozenset, exact: bool, whole: bool,
              tick: Callable[[], None] | None = None):
        key = (keep, observed, exact, whole)
        got = self.plans.get(key)
        if got is None:
            got = self.plans[key] = _NetPlan(self, keep, observed, exact, whole, tick)
        return got

    def flops(self, keep: Sequence, evidence: Mapping, *, exact: bool = False,
              whole: bool = True, tick: Callable[[], None] | None = None) -> int:
        """Return the multiply-adds :meth:`joint` with these arguments would take (planned once).

        What a caller sizes a call by before it starts (an exact joint of big integers can
        take minutes). ``tick`` as for :meth:`joint`.
        """
        return self._plan(tuple(keep), frozenset(evidence), exact, whole, tick).flops

    def affordable(self, keep: Sequence, evidence: Mapping, *, whole: bool = True,
                   tick: Callable[[], None] | None = None) -> bool:
        """Whether the exact :meth:`joint` takes at most :data:`EXACT_FLOPS` multiply-adds.

        Sized by its plan (made once, ``tick`` as for :meth:`joint`): what a bounded
        caller asks before an exact joint, which cannot be interrupted, starts.
        """
        return self.flops(keep, evidence, exact=True, whole=whole, tick=tick) <= EXACT_FLOPS

    def joint(self, keep: Sequence, evidence: Mapping, *, exact: bool = False,
              whole: bool = True, tick: Callable[[], None] | None = None) -> Answer:
        """Return ``Pr(keep, evidence)`` for every joint state of ``keep``.

        ``evidence``: ``{node: state index}``, no kept node observed. ``whole=False``: up to
        one positive factor that does not depend on the kept states (the parts the evidence
        separates from them left out; 0 everywhere when ``Pr(evidence) = 0``), which is all
        a posterior needs. In floats, :class:`FloatRange` when the bound cannot be proven.
        ``tick`` (optional) is called while the pattern's plan is made (its elimination
        order: a second or two on munin) and between the contraction's steps: a caller's
        deadline, raising to stop it (nothing is cached then).
        """
        p = self._plan(tuple(keep), frozenset(evidence), exact, whole, tick)
        return p.run(evidence, tick)


#: The most multiply-adds a bounded call computes one exact joint with (in big integers,
#: about a second; munin1's class joint with its 31 findings needs 2.3e8, four minutes),
#: sized by :meth:`Inference.flops` before it starts: past it such a call works in floats
#: within a proven bound, or says it could not.
EXACT_FLOPS = 1 << 21

BARREN = 2.0 ** -40  # a barren node is dropped in floats when its columns sum to 1 within


class _NetPlan:
    """One pattern's plan (see :class:`Inference`)."""

    def __init__(self, net: Inference, keep: tuple, observed: frozenset, exact: bool,
                 whole: bool, tick: Callable[[], None] | None = None) -> None:
        self.exact, self.whole, self.keep = exact, whole, keep
        dev = net.deviation
        roots = set(keep) | set(observed) | net.unnormalised[0 if exact else 1]
        used = net._ancestors(roots)
        self.dropped = Fraction(1)
        for v in net.factors:
            if v not in used and dev[v]:
                self.dropped *= 1 + dev[v]
        self.dropped -= 1  # the dropped nodes' sum lies within this relative distance of 1
        self.den = 1
        # each used node's factor with the evidence as indices, grouped by connected part
        refs = []
        for v in net.factors:
            if v not in used:
                continue
            scope = net.factors[v][0]
            index = tuple(w if w in observed else None for w in scope)
            rest = tuple(w for w in scope if w not in observed)
            refs.append((v, index, rest))
        linked = DisjointSets()
        for _, _, rest in refs:
            if rest:
                linked.join(*rest)
        find = linked.find
        main = {find(v) for v in keep}
        parts: dict = {}
        self.scalars = []
        for ref in refs:
            rest = ref[2]
            if not rest:
                self.scalars.append(ref)
            else:
                parts.setdefault("main" if find(rest[0]) in main else find(rest[0]),
                                 []).append(ref)
        self.parts = []
        for name, group in parts.items():
            if name != "main" and not whole and all(net.positive[v] for v, _, _ in group):
                continue  # a positive constant: it cancels
            p = plan([rest for _, _, rest in group], keep if name == "main" else (),
                     net.card, tick=tick)
            self.parts.append((name == "main", group, p))
        if not any(is_main for is_main, _, _ in self.parts):  # kept nodes in no table
            self.parts.append((True, [], plan([], keep, net.card)))
        self.net = net
        self.largest = max(p.largest for _, _, p in self.parts)
        self.flops = sum(p.flops for _, _, p in self.parts)

    def _tables(self, group: list, evidence: Mapping):
        net = self.net
        if self.exact:
            source = {v: net.integers[v][0] for v, _, _ in group}
        else:
            source = net.floats
        out = []
        for v, index, _ in group:
            t = source[v]
            if any(w is not None for w in index):
                t = t[tuple(slice(None) if w is None else evidence[w] for w in index)]
            out.append(t)
        return out

    def run(self, evidence: Mapping, tick: Callable[[], None] | None = None) -> Answer:
        net, exact = self.net, self.exact
        result, e, depth = None, 0, 0
        zero = False
        for v, index, _ in self.scalars:
            t = net.integers[v][0] if exact else net.floats[v]
            x = t[tuple(evidence[w] for w in index)]
            if x == 0:
                zero = True
        consts = []
        for is_main, group, p in self.parts:
            tables = self._tables(group, evidence)
            ranges = None if exact else [net.ranges[v] for v, _, _ in group]
            table, te, err = contract(p, tables, exact=exact, ranges=ranges, tick=tick)
            if is_main:
                result, e, depth = table, te, p.depth
            else:
                consts.append((table.reshape(()).item(), te, p.depth))
        if exact:
            for c, _, _ in consts:
                result = result * c
            if self.whole:
                den = 1
                for v, index, _ in self.scalars:
                    result = result * net.integers[v][0][tuple(evidence[w] for w in index)]
                for _, group, _ in self.parts:
                    for v, _, _ in group:
                        den *= net.integers[v][1]
                for v, _, _ in self.scalars:
                    den *= net.integers[v][1]
                if den != 1:
                    result = np.array([Fraction(x, den) for x in result.reshape(-1)],
                                      dtype=object).reshape(result.shape)
            elif zero:
                result = result * 0
            return Answer(result, 0, 0, Fraction(0), True)
        if zero or any(c == 0 for c, _, _ in consts):
            return Answer(np.zeros_like(result), 0, 0, Fraction(0), False)
        if self.whole:  # the constants' product, as a mantissa and an exponent
            for v, index, _ in self.scalars:
                consts.append((float(net.floats[v][tuple(evidence[w] for w in index)]), 0, 0))
            if consts:
                mant = 1.0
                for c, ce, cd in consts:
                    m, k = math.frexp(c)
                    mant, k2 = math.frexp(mant * m)
                    e += ce + k + k2
                    depth += cd + 1
                depth += 1  # the table times the mantissa
                result, lo, _, e = _rescale(result, e)
                if 0 < lo < _TINY:
                    raise FloatRange("the joint could underflow")
                result = result * mant
        return Answer(result, e, depth, self.dropped, False)
