"""Traversals of explanation sets, feature by feature, on integer views of diagrams.

Each walks a :class:`bnx.view.Graph` along a :class:`~bnx.explain.explanations.Layout`:
at feature ``i`` it follows each valid choice's bits (so codes that name no state
never come out), memoised per ``(node, feature)``, so it is linear in the diagram.
They are module-level recursions with explicit memos over plain integers.
"""

from __future__ import annotations

import math

from ..view import Graph

__all__ = ["count_members", "length_counts", "minimum", "keep_minimal"]


def count_members(g: Graph, u: int, i: int, layout, memo: dict) -> int:
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


def length_counts(g: Graph, u: int, i: int, layout, memo: dict) -> dict[int, int]:
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


def minimum(g: Graph, u: int, i: int, layout, memo: dict) -> float:
    """Minimum length of a member of ``u`` (``inf`` when empty); pass one of minimize."""
    if u <= 1:
        return layout.tail[i] if u else math.inf
    key = (u, i)
    got = memo.get(key)
    if got is None:
        var, lo, hi = g.var, g.lo, g.hi
        got = math.inf
        i1 = i + 1
        for _, cost, bits in layout.steps[i]:
            w = u
            for lvl, value in bits:  # restrict, inlined
                if var[w] == lvl:
                    w = hi[w] if value else lo[w]
            if w == 0:
                continue
            if w == 1:  # terminals and memo hits without a call
                c = layout.tail[i1]
            else:
                c = memo.get((w, i1))
                if c is None:
                    c = minimum(g, w, i1, layout, memo)
            c += cost
            if c < got:
                got = c
        memo[key] = got
    return got


def keep_minimal(g: Graph, u: int, i: int, layout, mins: dict, memo: dict,
                 out: Graph) -> int:
    """Pass two of minimize: the members of ``u`` of minimum length, built in ``out``."""
    if u == 0:
        return 0
    if i == layout.n:
        return 1
    key = (u, i)
    got = memo.get(key)
    if got is None:
        best = minimum(g, u, i, layout, mins)
        children = {}
        for label, cost, bits in layout.steps[i]:
            child = g.restrict(u, bits)
            if child > 1:  # minimum() has seen it: read its memo
                rest = mins.get((child, i + 1))
                if rest is None:
                    rest = minimum(g, child, i + 1, layout, mins)
            else:
                rest = layout.tail[i + 1] if child else math.inf
            if cost + rest == best:
                children[label] = keep_minimal(g, child, i + 1, layout, mins, memo, out)
        got = memo[key] = layout.build(out, i, children)
    return got
