"""Reduced ordered diagrams as Python lists, made node by node: a unique table and
memoised ``and`` and ``and not``, for the passes that build small diagrams one node at a
time.

pi-inst (:mod:`.pi`) builds each PI-explanation set bottom-up, one node per feature
("dropped" low, "kept" high), and takes set differences of the sets it has built
(``a and not b``); the robustness profile on small diagrams (:mod:`._erosion`) conjoins
the ODD's functions. A :class:`NodeTable` holds those nodes: per node its level and two
children in plain lists, a unique table so that a node number names one function, and the
memos of its operations, all kept across calls, so that what one instance built serves the
next. It does what a ``dd.bdd.BDD`` would do, without its bookkeeping (reference counts,
complemented edges, a general ``ite``): pi-inst per new instance is about twice as fast.
A set leaves the table as a :class:`~.setdiagram.SetDiagram` (its own nodes, renumbered),
and becomes a ``dd`` diagram only when its ``root`` is asked for, one ``find_or_add`` per
node (:meth:`.SetDiagram.to_dd`).

Node ``0`` is false (the empty set), node ``1`` true; both sit at level ``nvars``.
Diagrams are reduced (no node has equal children) and ordered (children at deeper levels),
and nodes are numbered children first.

Examples
--------
>>> s = NodeTable(2)                        # two levels, k0 and k1
>>> a = s.node(0, s.node(1, 1, 0), 1)       # k0 or not k1
>>> s.diagram(a).count(), s.size(a)         # 3 of the 4 assignments; 2 nodes and a terminal
(3, 3)
>>> s.diagram(s.diff(a, s.node(0, 0, 1))).count()   # (k0 or not k1) and not k0
1
>>> s.conj(a, s.node(1, 0, 1)) == s.node(0, 0, s.node(1, 0, 1))   # ... and k1: k0 and k1
True
"""

from __future__ import annotations

from ..diagram._arrays import DiagramArrays
from .setdiagram import SetDiagram

__all__ = ["NodeTable"]


class NodeTable:
    """Reduced ordered diagrams over ``nvars`` levels, built node by node and kept.

    Attributes
    ----------
    var, lo, hi : list of int
        Per node: its level and children (nodes ``0`` and ``1`` are the terminals).
    """

    def __init__(self, nvars: int) -> None:
        self.nvars = nvars
        self.var, self.lo, self.hi = [nvars, nvars], [0, 1], [0, 1]
        self._unique: dict = {}  # (level, low, high) -> node
        self._diffs: dict = {}  # (a, b) -> a and not b
        self._ands: dict = {}  # (a, b), a < b -> a and b

    @classmethod
    def from_arrays(cls, arrays: DiagramArrays) -> NodeTable:
        """A table that starts with the nodes of ``arrays`` (same numbers)."""
        t = cls(arrays.nvars)
        t.var, t.lo, t.hi = arrays.lists()
        t._unique = {key: u for u, key in enumerate(zip(t.var, t.lo, t.hi)) if u > 1}
        return t

    def __len__(self) -> int:
        return len(self.var)

    def entries(self) -> int:
        """Nodes plus memo entries: what the table holds (bounded by its owner, who
        replaces a table grown too large)."""
        return len(self.var) + len(self._diffs) + len(self._ands)

    def node(self, level: int, lo: int, hi: int) -> int:
        """The node testing ``level`` with children ``lo`` (false branch) and ``hi``
        (both at deeper levels): an existing one if the table holds it."""
        if lo == hi:
            return lo
        key = (level, lo, hi)
        u = self._unique.get(key)
        if u is None:
            u = self._unique[key] = len(self.var)
            self.var.append(level)
            self.lo.append(lo)
            self.hi.append(hi)
        return u

    def diff(self, a: int, b: int) -> int:
        """``a and not b`` (memoised across calls)."""
        if a == 0 or a == b or b == 1:
            return 0
        if b == 0:
            return a
        key = (a, b)
        got = self._diffs.get(key)
        if got is None:
            v, a0, a1, b0, b1 = self._split(a, b)
            got = self._diffs[key] = self.node(v, self.diff(a0, b0), self.diff(a1, b1))
        return got

    def conj(self, a: int, b: int) -> int:
        """``a and b`` (memoised across calls)."""
        if a == 0 or b == 0:
            return 0
        if a == 1 or a == b:
            return b
        if b == 1:
            return a
        if a > b:
            a, b = b, a
        got = self._ands.get((a, b))
        if got is None:
            v, a0, a1, b0, b1 = self._split(a, b)
            got = self._ands[(a, b)] = self.node(v, self.conj(a0, b0), self.conj(a1, b1))
        return got

    def _split(self, a: int, b: int) -> tuple:
        """``(level, a0, a1, b0, b1)``: the top level of ``a`` and ``b`` and their
        cofactors on it."""
        var, lo, hi = self.var, self.lo, self.hi
        va, vb = var[a], var[b]
        v = va if va < vb else vb
        a0, a1 = (lo[a], hi[a]) if va == v else (a, a)
        b0, b1 = (lo[b], hi[b]) if vb == v else (b, b)
        return v, a0, a1, b0, b1

    def size(self, u: int) -> int:
        """Number of nodes of the function ``u`` as ``dd`` counts them: with complemented
        edges, a function and its negation share one node, and the one terminal is
        counted once."""
        lo, hi, var = self.lo, self.hi, self.var
        seen = set()
        stack = [u]
        while stack:
            w = stack.pop()
            if w > 1 and w not in seen:
                seen.add(w)
                stack.append(lo[w])
                stack.append(hi[w])
        # children are numbered before their parents: name each node's class {f, not f}
        # bottom-up, as a manager whose high edges are never complemented would
        rep = {0: (0, False), 1: (0, True)}  # node -> (class, positive?)
        classes: dict = {}
        for w in sorted(seen):
            cl, pl = rep[lo[w]]
            ch, ph = rep[hi[w]]
            key = (var[w], cl, pl if ph else not pl, ch)
            c = classes.get(key)
            if c is None:
                c = classes[key] = len(classes) + 1
            rep[w] = (c, ph)
        return len(classes) + 1

    def diagram(self, u: int) -> SetDiagram:
        """The function ``u`` as a :class:`~.setdiagram.SetDiagram` of its own nodes."""
        var, lo, hi = self.var, self.lo, self.hi
        return SetDiagram.walk(self.nvars, u, 0, 1, lambda w: (var[w], lo[w], hi[w]))
