"""The conjunction of decision functions in array form, without ``dd``.

The argmax rule over more than two classes is a conjunction of pairwise comparisons
(``Pr(pos, x) >= Pr(c, x)`` for the later classes ``c``, ``>`` for the earlier ones); on a
TAN each comparison compiles to :class:`~bnx.diagram._arrays.DiagramArrays` (:mod:`.tan`), and
:func:`conjoin` conjoins them as arrays, so that the ODD, like every level engine's, gets
no ``dd`` node at compile time.

:func:`conjoin` is the product construction of two ordered diagrams over the same
levels, a level at a time with numpy: top-down the reachable pairs ``(u, v)`` (a pair
sits at the shallower of its nodes' levels; a node deeper than the pair's level is its
own child on both branches), bottom-up one node per pair, then one reduction
(:func:`bnx.diagram._arrays.canonical`). Pairs with a false node are false and ``(true, true)`` is
true; a pair ``(true, v)`` copies ``v``. The work is linear in the reachable pairs (times
a sort per level), at most the product of the two sizes.

Examples
--------
>>> from bnx.diagram._arrays import Builder, FALSE, TRUE, count, negate
>>> b = Builder(2)
>>> x0 = b.finish(b.nodes(0, [FALSE], [TRUE])[0])
>>> b = Builder(2)
>>> x1 = b.finish(b.nodes(1, [FALSE], [TRUE])[0])
>>> count(conjoin(x0, x1)), count(conjoin(x0, negate(x0)))
(1, 0)
"""

from __future__ import annotations

import numpy as np

from ..diagram._arrays import FALSE, TRUE, Builder, DiagramArrays, unique

__all__ = ["conjoin", "domain", "valid_chain"]


def valid_chain(b: Builder, enc) -> list[int]:
    """Make ``valid[i]``: the node of builder ``b`` true on the valid codes of features ``i..``.

    The valid codes are those that name states; ``valid[n]`` is true.
    """
    valid = [TRUE] * (len(enc.features) + 1)
    for i in reversed(range(len(enc.features))):
        valid[i] = int(b.select(enc.first_level[i], len(enc.bits[i]),
                                [[valid[i + 1]] * len(enc.states[i])])[0])
    return valid


def domain(enc) -> DiagramArrays:
    """Make the arrays of the constraint that every feature's code names one of its states.

    As :meth:`bnx.Encoding.domain`.
    """
    b = Builder(enc.nvars)
    return b.finish(valid_chain(b, enc)[0])


def conjoin(a: DiagramArrays, b: DiagramArrays, *, budget=None) -> DiagramArrays:
    """Conjoin two functions over the same levels, as canonical arrays.

    ``budget`` (a compiler's :class:`~.budget.Budget`, optional) is checked for each level's
    pairs before they are expanded and charged one unit per node made.
    """
    if a.nvars != b.nvars:
        raise ValueError("conjoin needs two diagrams over the same levels")
    n, nb = a.nvars, b.size
    out = Builder(n)
    if a.root == FALSE or b.root == FALSE:
        return out.finish(FALSE)
    if a.root == TRUE or b.root == TRUE:  # (arrays are reduced: the other one as it is)
        return b if a.root == TRUE else a

    def children(keys, lvl):
        """Return the low and high child pairs ``(x, y)`` of the pairs ``keys`` at level ``lvl``."""
        u, v = keys // nb, keys % nb
        on_a, on_b = a.level[u] == lvl, b.level[v] == lvl
        return [(np.where(on_a, side_a[u], u), np.where(on_b, side_b[v], v))
                for side_a, side_b in ((a.lo, b.lo), (a.hi, b.hi))]

    def inner(x, y):
        """Which pairs are neither false nor ``(true, true)``."""
        return (x != FALSE) & (y != FALSE) & ((x != TRUE) | (y != TRUE))

    def by_level(x, y, lvl):
        """Group the inner pairs ``(x, y)`` by their level below ``lvl``.

        Yields the level, the positions and the keys of each group.
        """
        where = np.minimum(a.level[x], b.level[y])
        order = np.argsort(where.astype(np.int16) if n < 1 << 15 else where, kind="stable")
        cut = np.searchsorted(where[order], np.arange(lvl + 1, n + 1), "left").tolist()
        keys = x * nb + y
        for d, (s, e) in enumerate(zip(cut, cut[1:])):
            if s < e:
                yield lvl + 1 + d, order[s:e], keys[order[s:e]]

    # top-down: the reachable pairs, one sorted array of keys u * nb + v per level
    todo: list = [[] for _ in range(n)]
    todo[min(a.level[a.root], b.level[b.root])].append(np.array([a.root * nb + b.root]))
    pairs: list = [None] * n
    for lvl in range(n):
        if not todo[lvl]:
            continue
        keys = pairs[lvl] = unique(np.concatenate(todo[lvl]))
        if budget is not None:
            budget.check(len(keys))
        todo[lvl] = None
        for x, y in children(keys, lvl):
            live = inner(x, y)
            for d, _, ck in by_level(x[live], y[live], lvl):
                todo[d].append(ck)
    # bottom-up: one node per pair, its children looked up among their level's pairs
    node: list = [None] * n
    for lvl in reversed(range(n)):
        if pairs[lvl] is None:
            continue
        kids = []
        for x, y in children(pairs[lvl], lvl):
            live = np.flatnonzero(inner(x, y))
            got = np.where((x == TRUE) & (y == TRUE), TRUE, FALSE)
            for d, at, ck in by_level(x[live], y[live], lvl):
                got[live[at]] = node[d][np.searchsorted(pairs[d], ck)]
            kids.append(got)
        node[lvl] = out.nodes(lvl, kids[0], kids[1])
        if budget is not None:
            budget.spend(len(pairs[lvl]))
    root_level = min(a.level[a.root], b.level[b.root])
    return out.finish(int(node[root_level][0]))
