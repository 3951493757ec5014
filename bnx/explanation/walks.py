"""Traversals of explanation sets, feature by feature, on the lists of their diagrams.

Each walks a :class:`~bnx.explanation.store.Store` (the store of explanation
sets, or one over an ODD's nodes) from one of its nodes along a
:class:`~bnx.explanation.layout.Layout`:
at feature ``i`` it follows each valid choice's bits (so codes that name no state
never come out), memoised per ``(node, feature)``, so it is linear in the diagram.
They are module-level loops (no recursion: see the note above :func:`count_members`)
with explicit memos over plain integers; the minimisation builds its result in a
:class:`~bnx.explanation.store.Store` (``1`` true, ``0`` false) with the layout's
:meth:`~bnx.explanation.layout.Layout.build_table`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from .store import Store

__all__ = ["count_members", "feature_uses", "length_counts", "members", "minimum",
           "keep_minimal", "suffix_minimum", "suffix_keep_minimal"]


# Each walk is a depth-first recursion run as a loop: a pair ``(node, feature)`` missing
# from the memo suspends the loop over its parent's choices (the parent's state and
# iterator go on an explicit stack) and is walked at once; when it is done its value goes
# back to the parent, whose loop resumes where it stopped. So the memos fill (and the
# minimisation builds its nodes) in the order of the recursion, and a diagram of any
# depth is walked under Python's default recursion limit.

def count_members(g: Store, u: int, i: int, layout, memo: dict) -> int:
    """Count the members of ``u`` over features ``i..``."""
    if u == 0:
        return 0
    n = layout.n
    if i == n:
        return 1
    got = memo.get((u, i))
    if got is not None:
        return got
    var, lo, hi, choices = g.var, g.lo, g.hi, layout.choices
    stack: list = []  # the suspended parents: (node, feature, total so far, iterator)
    total = 0
    it = iter(choices[i])
    while True:
        i1 = i + 1
        for _, bits in it:
            w = u
            for lvl, value in bits:  # restrict, inlined
                if var[w] == lvl:
                    w = hi[w] if value else lo[w]
            if w == 0:
                continue
            if i1 == n:
                total += 1
                continue
            c = memo.get((w, i1))
            if c is None:  # walk the child first
                stack.append((u, i, total, it))
                u, i, total, it = w, i1, 0, iter(choices[i1])
                break
            total += c
        else:
            memo[(u, i)] = c = total
            if not stack:
                return c
            u, i, total, it = stack.pop()
            total += c


def length_counts(g: Store, u: int, i: int, layout, memo: dict) -> dict[int, int]:
    """``{length: number of members}`` of ``u`` over features ``i..``."""
    if u == 0:
        return {}
    n = layout.n
    if i == n:
        return {0: 1}
    got = memo.get((u, i))
    if got is not None:
        return got
    restrict, choices, weights = g.restrict, layout.choices, layout.weights
    stack: list = []  # the suspended parents: (node, feature, counts so far, iterator, shift)
    got = {}
    it = iter(choices[i])
    while True:
        i1 = i + 1
        for label, bits in it:
            w = restrict(u, bits)
            if w == 0:
                continue
            shift = 1 if label in weights[i] else 0
            if i1 == n:
                got[shift] = got.get(shift, 0) + 1
                continue
            part = memo.get((w, i1))
            if part is None:  # walk the child first
                stack.append((u, i, got, it, shift))
                u, i, got, it = w, i1, {}, iter(choices[i1])
                break
            _shifted(got, part, shift)
        else:
            memo[(u, i)] = part = got
            if not stack:
                return part
            u, i, got, it, shift = stack.pop()
            _shifted(got, part, shift)


def _shifted(into: dict, part: dict, shift: int) -> None:
    """Add the counts ``part``, each length plus ``shift``, to ``into``."""
    for k, v in part.items():
        into[k + shift] = into.get(k + shift, 0) + v


def feature_uses(g: Store, root: int, layout) -> tuple[list[bool], list[bool]]:
    """Return ``(kept, dropped)`` per feature of a ``keep`` layout.

    Level ``i`` is feature ``i``, high "kept": whether some member of the set ``root`` of
    the node table ``g`` keeps it and whether some member drops it.

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
    """Return the minimum length of a member of ``u`` (``inf`` when empty).

    Pass one of minimize (memoised by ``(node, feature)``).
    """
    return suffix_minimum(g, u, i, layout.steps, layout.tail, range(layout.n + 1), memo)


def keep_minimal(g: Store, u: int, i: int, layout, mins: dict, memo: dict, table) -> int:
    """Keep the members of ``u`` of minimum length (pass two of minimize).

    Built in the :class:`~bnx.explanation.store.Store` ``table`` (returns its node).
    """
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
    s = sids[i]
    got = memo.get((u, s))
    if got is not None:
        return got
    var, lo, hi = g.var, g.lo, g.hi
    inf = math.inf
    stack: list = []  # the suspended parents: (node, sid, feature, best, iterator, cost)
    best = inf
    it = iter(steps[i])
    while True:
        i1 = i + 1
        s1, t1 = sids[i1], tail[i1]
        for _, cost, bits in it:
            w = u
            for lvl, value in bits:  # restrict, inlined
                if var[w] == lvl:
                    w = hi[w] if value else lo[w]
            if w == 0:
                continue
            if w == 1:
                c = t1
            else:
                c = memo.get((w, s1))
                if c is None:  # walk the child first
                    stack.append((u, s, i, best, it, cost))
                    u, s, i, best, it = w, s1, i1, inf, iter(steps[i1])
                    break
            c += cost
            if c < best:
                best = c
        else:
            memo[(u, s)] = c = best
            if not stack:
                return c
            u, s, i, best, it, cost = stack.pop()
            c += cost
            if c < best:
                best = c


def suffix_keep_minimal(g: Store, u: int, i: int, steps: list, tail: list, sids: list,
                        mins: dict, memo: dict, out, build) -> int:
    """Do :func:`keep_minimal` over ``steps`` and ``tail``, memoised by ``(node, sids[i])``.

    ``build(out, i, children)`` makes the output nodes, in the
    :class:`~bnx.explanation.store.Store` ``out``.
    """
    if u == 0:
        return 0
    n = len(steps)
    if i == n:
        return 1
    s = sids[i]
    got = memo.get((u, s))
    if got is not None:
        return got
    restrict = g.restrict
    inf = math.inf
    stack: list = []  # the suspended parents: (node, sid, feature, best, children, iterator,
    #                    label)
    best = suffix_minimum(g, u, i, steps, tail, sids, mins)
    children: dict = {}
    it = iter(steps[i])
    while True:
        i1 = i + 1
        s1 = sids[i1]
        for label, cost, bits in it:
            child = restrict(u, bits)
            if child > 1:
                rest = mins.get((child, s1))
                if rest is None:
                    rest = suffix_minimum(g, child, i1, steps, tail, sids, mins)
            else:
                rest = tail[i1] if child else inf
            if cost + rest != best:
                continue
            if child == 0 or i1 == n:
                children[label] = 1 if child else 0
                continue
            got = memo.get((child, s1))
            if got is None:  # walk the child first
                stack.append((u, s, i, best, children, it, label))
                u, s, i, children, it = child, s1, i1, {}, iter(steps[i1])
                best = suffix_minimum(g, u, i, steps, tail, sids, mins)
                break
            children[label] = got
        else:
            memo[(u, s)] = got = build(out, i, children)
            if not stack:
                return got
            u, s, i, best, children, it, label = stack.pop()
            children[label] = got


def members(g: Store, root: int, layout, rank: list) -> Iterator[dict]:
    """List the members of ``root`` (in ``layout``) as dicts, depth first in the variable order.

    The diagram's variable order, "dropped" before the states; ``rank[i]`` is feature
    ``i``'s position among the dict's keys. Levels with one choice are followed at once,
    once per node and depth (:func:`_chains`), so a member costs about a microsecond.
    """
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
    """Walk as :func:`members` below ``(u, d)``, the levels with one choice followed at once.

    Once per node and depth; returns ``(items set on the way, branches at the first level
    with several choices, whether the path ended at an explanation)``.
    """
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
    """Do :func:`_chains` for the keep layout (PI-explanations).

    Feature ``d`` is the one variable at level ``d``, low "dropped" and high "kept", so each
    step is a test of two children; same walk, same order.
    """
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
