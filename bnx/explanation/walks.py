"""Traversals of explanation sets, feature by feature, on the lists of their diagrams.

Each walks a :class:`~bnx.explanation.store.Store` (the store of explanation
sets, or one over an ODD's nodes) from one of its nodes along a
:class:`~bnx.explanation.layout.Layout`:
at feature ``i`` it follows each valid choice's bits (so codes that name no state
never come out), memoised per ``(node, feature)``, so it is linear in the diagram.
They are module-level recursions with explicit memos over plain integers; the
minimisation builds its result in a :class:`~bnx.explanation.store.Store` (``1`` true,
``0`` false) with the layout's :meth:`~bnx.explanation.layout.Layout.build_table`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from .store import Store

__all__ = ["count_members", "feature_uses", "length_counts", "members", "minimum",
           "keep_minimal", "suffix_minimum", "suffix_keep_minimal"]


def count_members(g: Store, u: int, i: int, layout, memo: dict) -> int:
    """Number of members of ``u`` over features ``i..``."""
    if u == 0:
        return 0
    if i == layout.n:
        return 1
    key = (u, i)
    got = memo.get(key)
    if got is None:
        restrict = g.restrict
        got = sum(count_members(g, restrict(u, bits), i + 1, layout, memo)
                  for _, bits in layout.choices[i])
        memo[key] = got
    return got


def length_counts(g: Store, u: int, i: int, layout, memo: dict) -> dict[int, int]:
    """``{length: number of members}`` of ``u`` over features ``i..``."""
    if u == 0:
        return {}
    if i == layout.n:
        return {0: 1}
    key = (u, i)
    got = memo.get(key)
    if got is None:
        got = {}
        w = layout.weights[i]
        for label, bits in layout.choices[i]:
            shift = 1 if label in w else 0
            for k, v in length_counts(g, g.restrict(u, bits), i + 1, layout, memo).items():
                got[k + shift] = got.get(k + shift, 0) + v
        memo[key] = got
    return got


def feature_uses(g: Store, root: int, layout) -> tuple[list[bool], list[bool]]:
    """``(kept, dropped)``: per feature of a ``keep`` layout (level ``i`` is feature
    ``i``, high "kept"), whether some member of the set ``root`` of the node table ``g``
    keeps it and whether some member drops it.

    One pass over the nodes below the root (not the whole table, which holds other sets
    too): every such node (but false) lies on a path to true, so a member keeps feature
    ``i`` exactly when a node at level ``i`` has a high child other than false, or an edge
    to a node other than false skips level ``i`` (either choice is then a member);
    likewise for dropping it.

    Examples
    --------
    >>> from bnx.diagram.encoding import Encoding
    >>> from bnx.explanation.layout import Layout
    >>> lay = Layout("keep", Encoding(("a", "b", "c"), (("0", "1"),) * 3), instance=[1, 1, 1])
    >>> g = Store.of(3, [3, 3, 0], [0, 1, 0], [0, 1, 1])   # node 2: a kept; b, c anything
    >>> feature_uses(g, 2, lay)
    ([True, True, True], [False, True, True])
    """
    n = layout.n
    var, lo, hi = g.var, g.lo, g.hi
    kept, dropped = [False] * n, [False] * n
    if root == 0:
        return kept, dropped
    skip = [0] * (n + 1)  # +1 at the first skipped level of an edge, -1 after its last
    skip[0] += 1
    skip[min(var[root], n)] -= 1
    seen = {root}
    stack = [root]  # the nodes below the root only (the table holds other sets too)
    while stack:
        u = stack.pop()
        if u <= 1:
            continue
        v = var[u]
        for c, used in ((lo[u], dropped), (hi[u], kept)):
            if c:
                used[v] = True
                skip[v + 1] += 1
                skip[min(var[c], n)] -= 1
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
    depth = 0
    for i in range(n):
        depth += skip[i]
        if depth > 0:
            kept[i] = dropped[i] = True
    return kept, dropped


def minimum(g: Store, u: int, i: int, layout, memo: dict) -> float:
    """Minimum length of a member of ``u`` (``inf`` when empty); pass one of minimize
    (memoised by ``(node, feature)``)."""
    return suffix_minimum(g, u, i, layout.steps, layout.tail, range(layout.n + 1), memo)


def keep_minimal(g: Store, u: int, i: int, layout, mins: dict, memo: dict, table) -> int:
    """Pass two of minimize: the members of ``u`` of minimum length, built in the
    :class:`~bnx.explanation.store.Store` ``table`` (returns its node)."""
    return suffix_keep_minimal(g, u, i, layout.steps, layout.tail, range(layout.n + 1), mins,
                               memo, table, layout.build_table)


# The two passes with the layout given per feature (``steps[i]``, ``tail[i]``) and memos
# keyed by ``(node, sids[i])``, ``sids[i]`` naming the choices of features ``i..``: the
# minimum below a node depends only on those, so the memos stay valid across calls whose
# layouts share a suffix (mc_explanations keeps them per ODD; with ``sids[i] == i`` they
# are minimum and keep_minimal's memos).

def suffix_minimum(g: Store, u: int, i: int, steps: list, tail: list, sids: list,
                   memo: dict) -> float:
    """:func:`minimum` over ``steps`` and ``tail``, memoised by ``(node, sids[i])``."""
    if u <= 1:
        return tail[i] if u else math.inf
    key = (u, sids[i])
    got = memo.get(key)
    if got is None:
        var, lo, hi = g.var, g.lo, g.hi
        got = math.inf
        i1 = i + 1
        s1 = sids[i1]
        for _, cost, bits in steps[i]:
            w = u
            for lvl, value in bits:  # restrict, inlined
                if var[w] == lvl:
                    w = hi[w] if value else lo[w]
            if w == 0:
                continue
            if w == 1:
                c = tail[i1]
            else:
                c = memo.get((w, s1))
                if c is None:
                    c = suffix_minimum(g, w, i1, steps, tail, sids, memo)
            c += cost
            if c < got:
                got = c
        memo[key] = got
    return got


def suffix_keep_minimal(g: Store, u: int, i: int, steps: list, tail: list, sids: list,
                        mins: dict, memo: dict, out, build) -> int:
    """:func:`keep_minimal` over ``steps`` and ``tail`` (``build(out, i, children)``
    makes the output nodes, in the :class:`~bnx.explanation.store.Store` ``out``),
    memoised by ``(node, sids[i])``."""
    if u == 0:
        return 0
    if i == len(steps):
        return 1
    key = (u, sids[i])
    got = memo.get(key)
    if got is None:
        best = suffix_minimum(g, u, i, steps, tail, sids, mins)
        children = {}
        restrict = g.restrict
        i1 = i + 1
        for label, cost, bits in steps[i]:
            child = restrict(u, bits)
            if child > 1:
                rest = mins.get((child, sids[i1]))
                if rest is None:
                    rest = suffix_minimum(g, child, i1, steps, tail, sids, mins)
            else:
                rest = tail[i1] if child else math.inf
            if cost + rest == best:
                children[label] = suffix_keep_minimal(g, child, i1, steps, tail, sids, mins,
                                                      memo, out, build)
        got = memo[key] = build(out, i, children)
    return got


def members(g: Store, root: int, layout, rank: list) -> Iterator[dict]:
    """The members of ``root`` (in ``layout``) as dicts, depth first in the diagram's
    variable order, "dropped" before the states; ``rank[i]`` is feature ``i``'s
    position among the dict's keys. Levels with one choice are followed at once, once
    per node and depth (:func:`_chains`), so a member costs about a microsecond."""
    n = layout.n
    stride = n + 1
    memo: dict = {}
    run = _chains_keep(g, layout, rank) if layout.kind == "keep" else _chains(g, layout, rank)
    items: list = [None] * n  # the current explanation's items, in display order
    # depth first; an entry (node, depth, item) sets the item of feature depth - 1,
    # whose ancestors' items stay in place until their subtree is done
    stack: list[tuple] = [(root, 0, None)] if root else []
    pop, push = stack.pop, stack.append
    while stack:
        u, d, item = pop()
        if d:
            items[rank[d - 1]] = item
        key = u * stride + d
        got = memo.get(key)
        if got is None:
            got = memo[key] = run(u, d)
        sets, branches, done = got
        for r, it in sets:
            items[r] = it
        if done:
            yield dict(filter(None, items))
        else:
            for b in branches:
                push(b)


def _chains(g: Store, layout, rank: list):
    """The walk of :func:`members` below ``(u, d)``: the levels with one choice are
    followed at once (once per node and depth); returns ``(items set on the way,
    branches at the first level with several choices, whether the path ended at
    an explanation)``."""
    var, lo, hi, restrict = g.var, g.lo, g.hi, g.restrict
    n = layout.n
    choices = layout.items  # per feature, last first (popped first)

    def run(u: int, d: int) -> tuple:
        sets = []
        while d < n:
            opts = []
            for item, lvl, value in choices[d]:
                if value is None:
                    w = restrict(u, lvl)
                elif var[u] == lvl:
                    w = hi[u] if value else lo[u]
                else:
                    w = u
                if w:
                    opts.append((w, item))
            if len(opts) != 1:
                return tuple(sets), tuple((w, d + 1, item) for w, item in opts), False
            u, item = opts[0]
            sets.append((rank[d], item))
            d += 1
        return tuple(sets), (), True
    return run


def _chains_keep(g: Store, layout, rank: list):
    """:func:`_chains` for the keep layout (PI-explanations): feature ``d`` is the
    one variable at level ``d``, low "dropped" and high "kept", so each step is a
    test of two children; same walk, same order."""
    var, lo, hi = g.var, g.lo, g.hi
    n = layout.n
    enc = layout.encoding
    x = layout.instance
    item = [(enc.features[d], enc.states[d][x[d]]) for d in range(n)]
    kept = [(rank[d], item[d]) for d in range(n)]
    dropped = [(rank[d], None) for d in range(n)]

    def run(u: int, d: int) -> tuple:
        sets = []
        while d < n:
            if var[u] != d:  # u does not test feature d: both choices
                return tuple(sets), ((u, d + 1, item[d]), (u, d + 1, None)), False
            a, b = lo[u], hi[u]
            if a and b:
                return tuple(sets), ((b, d + 1, item[d]), (a, d + 1, None)), False
            if b:
                sets.append(kept[d])
                u = b
            else:
                sets.append(dropped[d])
                u = a
            d += 1
        return tuple(sets), (), True
    return run
