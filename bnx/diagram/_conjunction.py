"""The one conjunction of decision diagrams in the array form.

It conjoins many pairs at once, breadth first, level by level.

:func:`conjoin_pairs` conjoins pairs of nodes of one node space (a *table*): top-down, the
pairs of operands are expanded a level at a time (a pair sits at the shallower of its
nodes' levels; a node deeper than the pair's level is its own child on both branches;
numpy gathers and one sort per level), pairs with a false node are false, ``(true, v)``
and ``(v, v)`` are ``v``; then bottom-up the results are made a level at a time by the
table. The work is linear in the reachable pairs (times a sort per level).

A table is any object with ``view(name)`` (the columns ``"var"``, ``"lo"`` and ``"hi"`` as
numpy arrays) and ``nodes(level, lo, hi)`` (the nodes with those children, made where
needed: numbers in the same space). Two tables use it: the explanation code's store
(:class:`bnx.diagram.store.Store`, reduced as it goes, with a memo of the pairs
conjoined before) and the compiler's conjunction of two diagrams
(:func:`bnx.compilation.conjunction.conjoin`, reduced once at the end).

Examples
--------
>>> class Table:                                   # nodes appended, never reduced
...     def __init__(self):
...         self.cols = {"var": [2, 2, 1, 0], "lo": [0, 1, 0, 0], "hi": [0, 1, 1, 1]}
...     def view(self, name):
...         return np.array(self.cols[name])
...     def nodes(self, level, lo, hi):
...         start = len(self.cols["var"])
...         for name, col in (("var", [level] * len(lo)), ("lo", lo), ("hi", hi)):
...             self.cols[name] += [int(c) for c in col]
...         return np.arange(start, start + len(lo))
>>> t = Table()                                    # node 2 = x1, node 3 = x0
>>> conjoin_pairs(t, [2, 3, 2], [3, 0, 1]).tolist()   # x1 and x0 (new node 4), 0, x1
[4, 0, 2]
>>> t.cols["var"][4], t.cols["lo"][4], t.cols["hi"][4]
(0, 0, 2)
"""

from __future__ import annotations

import numpy as np

from ._columns import unique

__all__ = ["conjoin_pairs"]

_INT = np.int64
_B = 1 << 31  # pair keys: a * _B + b, a < b (node numbers stay below 2 ** 31)


def _terminal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the conjunction of ``a[k]`` and ``b[k]`` where a terminal case decides it.

    Elsewhere ``-1``.
    """
    r = np.full(len(a), -1, dtype=_INT)
    r = np.where((a == 1) & (r < 0), b, r)
    r = np.where(((b == 1) | (a == b)) & (r < 0), a, r)
    return np.where((a == 0) | (b == 0), 0, r)


def conjoin_pairs(table, a, b, memo: dict | None = None, budget=None) -> np.ndarray:
    """Return ``a[k] and b[k]`` for every ``k``, as node numbers of ``table``.

    New nodes are made by ``table.nodes``.

    ``memo`` (optional) maps the key ``x * 2**31 + y`` of a pair ``x < y`` conjoined
    before to its result: read while expanding, and given the pairs made here.
    ``budget`` (a compiler's :class:`~bnx.compilation.budget.Budget`, optional) is
    checked for each level's pairs before they are expanded and charged one unit per
    pair made.
    """
    a = np.asarray(a, dtype=_INT)
    b = np.asarray(b, dtype=_INT)
    res = _terminal(a, b)
    todo = res < 0
    if not todo.any():
        return res
    level, lo, hi = table.view("var"), table.view("lo"), table.view("hi")
    x, y = np.minimum(a[todo], b[todo]), np.maximum(a[todo], b[todo])
    # Every distinct pair gets a number (its index in ``made``, level by level top-down
    # in the order met); a pair's children refer to their pairs by -2 - that number,
    # written in when their level is reached, so no search is needed to resolve them.
    buckets: dict = {}  # level -> [(pair keys, parent entry or -1, side, positions)]

    def push(keys, x, y, parent, side, pos):
        top = np.minimum(level[x], level[y])
        t0, t1 = int(top.min()), int(top.max())
        if t0 == t1:
            buckets.setdefault(t0, []).append((keys, parent, side, pos))
            return
        order = np.argsort(top, kind="stable")
        top, keys, pos = top[order], keys[order], pos[order]
        cuts = np.flatnonzero(np.diff(top)) + 1
        for s0, s1 in zip(np.r_[0, cuts].tolist(), np.r_[cuts, len(top)].tolist()):
            buckets.setdefault(int(top[s0]), []).append(
                (keys[s0:s1], parent, side, pos[s0:s1]))

    first = np.empty(len(x), dtype=_INT)  # the number of each first pair
    push(x * _B + y, x, y, -1, 0, np.arange(len(x)))
    done = []  # per level top-down: (level, numbers, keys, child 0, child 1)
    hits = []  # (numbers, results) of the pairs the memo answers
    numbered = 0
    while buckets:
        lv = min(buckets)
        parts = buckets.pop(lv)
        keys, inv = unique(np.concatenate([p[0] for p in parts]) if len(parts) > 1
                           else parts[0][0], inverse=True)
        inv += numbered
        at = 0
        for k, parent, side, pos in parts:
            ids = inv[at:at + len(k)]
            at += len(k)
            if parent < 0:
                first[pos] = ids
            else:
                done[parent][3 + side][pos] = -2 - ids
        ids = np.arange(numbered, numbered + len(keys), dtype=_INT)
        numbered += len(keys)
        if memo:
            got = np.fromiter((memo.get(k, -1) for k in keys.tolist()), dtype=_INT,
                              count=len(keys))
            hit = got >= 0
            if hit.any():
                hits.append((ids[hit], got[hit]))
                keys, ids = keys[~hit], ids[~hit]
                if not len(keys):
                    continue
        if budget is not None:
            budget.check(len(keys))
        p, q = keys // _B, keys % _B
        lp, lq = level[p] == lv, level[q] == lv
        entry = [lv, ids, keys]
        for side, arr in enumerate((lo, hi)):
            u = np.where(lp, arr[p], p)
            v = np.where(lq, arr[q], q)
            r = _terminal(u, v)
            pend = np.flatnonzero(r < 0)
            if len(pend):
                u2, v2 = np.minimum(u[pend], v[pend]), np.maximum(u[pend], v[pend])
                push(u2 * _B + v2, u2, v2, len(done), side, pend)
            entry.append(r)
        done.append(entry)
    made = np.empty(numbered, dtype=_INT)
    for ids, r in hits:
        made[ids] = r

    def resolve(v):
        pend = v < 0
        if pend.any():
            v = v.copy()
            v[pend] = made[-2 - v[pend]]
        return v

    for lv, ids, keys, c0, c1 in reversed(done):
        out = made[ids] = table.nodes(lv, resolve(c0), resolve(c1))
        if memo is not None:
            memo.update(zip(keys.tolist(), out.tolist()))
        if budget is not None:
            budget.spend(len(ids))
    res[todo] = made[first]
    return res
