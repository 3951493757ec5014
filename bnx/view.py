"""A compact, read-only integer view of a decision diagram, for fast traversals.

``dd`` hands out a new wrapper object for every node it returns, and a negated
reference must be followed by negating both children; a traversal that touches
each node a few times spends most of its time creating and dropping those
wrappers. A :class:`Graph` reads a diagram from ``dd`` once into three lists of
integers (each node's level and its low and high child, complemented edges
resolved: node 0 is false, node 1 is true, terminals sit at level ``nvars``), so
that the explanation algorithms' hot loops touch only ints. It can also make
new nodes (a unique table keeps it reduced and canonical), conjoin them, and
write a result back into a ``dd`` manager: explanation sets stay ``dd`` diagrams.

Examples
--------
>>> import dd.autoref as _dd
>>> bdd = _dd.BDD(); bdd.declare("a", "b")
>>> g = Graph(2)
>>> a, b = g.node(0, 0, 1), g.node(1, 0, 1)
>>> ab = g.conj(a, b)
>>> g.count(ab), g.to_dd(ab, bdd, ["a", "b"]) == bdd.add_expr("a /\\\\ b")
(1, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from ._types import Manager, Node

__all__ = ["Graph", "read"]


class Graph:
    """A reduced ordered BDD over ``nvars`` levels, held as integer lists.

    Attributes
    ----------
    var, lo, hi : list of int
        Per node: its level (``nvars`` for the terminals 0 and 1) and children.
    memo : dict
        Cached results of operations (:meth:`conj`, :meth:`diff`, and the
        explanation algorithms' own keys).
    cofactors : dict
        Per node, its cofactors over the feature it tests and their conjunction,
        cached by pi-inst and pi-cover (:mod:`bnx.explain.pi`).
    """

    __slots__ = ("nvars", "var", "lo", "hi", "unique", "memo", "cofactors")

    def __init__(self, nvars: int) -> None:
        self.nvars = nvars
        self.var = [nvars, nvars]
        self.lo = [0, 1]
        self.hi = [0, 1]
        self.unique: dict = {}
        self.memo: dict = {}  # operation caches: ("and", a, b) -> node, ...
        self.cofactors: dict = {}  # node -> (its cofactors over a feature, their conjunction)

    def __len__(self) -> int:
        return len(self.var)

    def node(self, v: int, lo: int, hi: int) -> int:
        """The node ``if level v then hi else lo`` (reduced: ``lo`` when equal)."""
        if lo == hi:
            return lo
        key = (v, lo, hi)
        got = self.unique.get(key)
        if got is None:
            got = self.unique[key] = len(self.var)
            self.var.append(v)
            self.lo.append(lo)
            self.hi.append(hi)
        return got

    def conj(self, a: int, b: int) -> int:
        """``a and b``."""
        if a == 0 or b == 0:
            return 0
        if a == 1 or a == b:
            return b
        if b == 1:
            return a
        if a > b:
            a, b = b, a
        return self._apply(self.conj, a, b, (a, b))

    def diff(self, a: int, b: int) -> int:
        """``a and not b``."""
        if a == 0 or b == 1 or a == b:
            return 0
        if b == 0:
            return a
        return self._apply(self.diff, a, b, (a, b, 0))

    def _apply(self, op, a: int, b: int, key: tuple) -> int:
        """``op(a, b)`` by Shannon expansion on the top level of ``a`` and ``b``, memoised."""
        memo = self.memo
        got = memo.get(key)
        if got is None:
            var, lo, hi = self.var, self.lo, self.hi
            va, vb = var[a], var[b]
            if va == vb:
                got = self.node(va, op(lo[a], lo[b]), op(hi[a], hi[b]))
            elif va < vb:
                got = self.node(va, op(lo[a], b), op(hi[a], b))
            else:
                got = self.node(vb, op(a, lo[b]), op(a, hi[b]))
            memo[key] = got
        return got

    def restrict(self, u: int, bits: Sequence[tuple[int, bool]]) -> int:
        """Follow ``u`` along ``(level, value)`` pairs in increasing level order (a
        level that ``u`` skips is stepped over)."""
        var = self.var
        for lvl, value in bits:
            if var[u] == lvl:
                u = self.hi[u] if value else self.lo[u]
        return u

    def count(self, u: int) -> int:
        """Number of assignments to all ``nvars`` levels that satisfy ``u`` (exact)."""
        return self._models(u, {0: 0, 1: 1}) << self.var[u]

    def _models(self, w: int, memo: dict) -> int:
        """Models of ``w`` over the levels from its own on."""
        got = memo.get(w)
        if got is None:
            var, a, b = self.var, self.lo[w], self.hi[w]
            got = memo[w] = ((self._models(a, memo) << (var[a] - var[w] - 1))
                             + (self._models(b, memo) << (var[b] - var[w] - 1)))
        return got

    def evaluate_many(self, root: int, bits):
        """The value of ``root`` on many complete assignments at once (numpy).

        ``bits`` is a boolean array with one row per assignment and one column per
        level; returns a boolean array with one entry per row.
        """
        import numpy as np
        var, lo, hi = np.array(self.var), np.array(self.lo), np.array(self.hi)
        n = self.nvars
        u = np.full(len(bits), root, dtype=np.int64)
        rows = np.arange(len(bits))
        for _ in range(n):  # each step goes down at least one level
            inner = var[u] < n
            if not inner.any():
                break
            b = bits[rows, np.minimum(var[u], n - 1)]
            u = np.where(inner, np.where(b, hi[u], lo[u]), u)
        return u == 1

    def trim(self, size: int) -> None:
        """Forget the nodes made after the first ``size`` ones, and every cached result."""
        if len(self.var) > size:
            del self.var[size:], self.lo[size:], self.hi[size:]
            self.unique = {k: u for k, u in self.unique.items() if u < size}
        self.memo.clear()
        self.cofactors.clear()

    def to_dd(self, root: int, bdd: Manager, names: Sequence[str]) -> Node:
        """Write the diagram below ``root`` into ``bdd`` (level ``l`` is ``names[l]``)."""
        var, lo, hi = self.var, self.lo, self.hi
        made = {0: bdd.false, 1: bdd.true}
        if root in made:
            return made[root]
        cudd = type(bdd).__module__ == "dd.cudd"
        order = []  # post-order, iteratively
        stack = [root]
        seen = {0, 1}
        while stack:
            u = stack[-1]
            if u in seen:
                stack.pop()
                continue
            a, b = lo[u], hi[u]
            if a not in seen:
                stack.append(a)
            elif b not in seen:
                stack.append(b)
            else:
                seen.add(u)
                order.append(u)
                stack.pop()
        if cudd:
            ite, varf = bdd.ite, {}
            for u in order:
                x = varf.get(var[u])
                if x is None:
                    x = varf[var[u]] = bdd.var(names[var[u]])
                made[u] = ite(x, made[hi[u]], made[lo[u]])
        else:
            fa = bdd.find_or_add
            for u in order:
                made[u] = fa(names[var[u]], made[lo[u]], made[hi[u]])
        return made[root]


def read(roots: Sequence[Node], nvars: int) -> tuple[Graph, list[int]]:
    """Read the diagrams below ``roots`` (dd nodes of one manager) into a new
    :class:`Graph`; returns it and the roots' node numbers."""
    g = Graph(nvars)
    ids: dict = {}
    out = []
    for root in roots:
        stack = [root]
        while stack:
            u = stack[-1]
            if u in ids:
                stack.pop()
                continue
            if u.var is None:
                ids[u] = 1 if u == u.bdd.true else 0
                stack.pop()
                continue
            if u.negated:
                a, b = ~u.low, ~u.high
            else:
                a, b = u.low, u.high
            ia, ib = ids.get(a), ids.get(b)
            if ia is None:
                stack.append(a)
            elif ib is None:
                stack.append(b)
            else:
                ids[u] = g.node(u.level, ia, ib)
                stack.pop()
        out.append(ids[root])
    ids.clear()
    return g, out
