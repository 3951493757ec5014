"""The one store of explanation sets: reduced ordered diagrams as Python lists, made node
by node, with a unique table and memoised operations.

The explanation algorithms build a set bottom-up, one node per feature: pi-inst (:mod:`.pi`)
builds each PI-explanation set ("dropped" low, "kept" high) and takes set differences of
the sets it has built (``a and not b``); MC (:mod:`.mc`) keeps the minimal ones; the
robustness profile on small diagrams (:mod:`._erosion`) conjoins the ODD's functions. A
:class:`NodeTable` holds those nodes: per node its level and two children in plain lists,
a unique table so that a node number names one function, and the memos of its operations,
all kept across calls, so that what one instance built serves the next. It does what a
``dd.bdd.BDD`` would do, without its bookkeeping (reference counts, complemented edges, a
general ``ite``). A set is a node of a table: it is counted (:meth:`NodeTable.count`),
sized, restricted and walked (:mod:`.walks`) where it was built, and becomes a ``dd``
diagram only when its ``root`` is asked for, one ``find_or_add`` per node
(:meth:`NodeTable.to_dd`); a set given as a ``dd`` function is read into a table once
(:meth:`NodeTable.read_dd`).

Node ``0`` is false (the empty set), node ``1`` true; both sit at level ``nvars``.
Diagrams are reduced (no node has equal children) and ordered (children at deeper levels),
and nodes are numbered children first.

Examples
--------
>>> s = NodeTable(2)                        # two levels, k0 and k1
>>> a = s.node(0, s.node(1, 1, 0), 1)       # k0 or not k1
>>> s.count(a), s.size(a)                   # 3 of the 4 assignments; 2 nodes and a terminal
(3, 3)
>>> s.count(s.diff(a, s.node(0, 0, 1)))     # (k0 or not k1) and not k0
1
>>> s.conj(a, s.node(1, 0, 1)) == s.node(0, 0, s.node(1, 0, 1))   # ... and k1: k0 and k1
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .._types import Manager, Node
from ..diagram._arrays import DiagramArrays, dd_nodes

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
        self._counts: dict = {0: 0, 1: 1}  # node -> models over the levels from its own
        self._memos: dict = {}  # id(owner) -> (owner, memo of a walk keyed by node)

    @classmethod
    def from_arrays(cls, arrays: DiagramArrays) -> NodeTable:
        """A table that starts with the nodes of ``arrays`` (same numbers)."""
        return cls.of(arrays.nvars, *arrays.lists())

    @classmethod
    def of(cls, nvars: int, var, lo, hi) -> NodeTable:
        """A table that starts with the given nodes (a reduced ordered diagram numbered
        children first: nodes ``0`` and ``1`` the terminals; sequences of int, lists to
        grow); their unique table is made when a node is first added."""
        t = cls(nvars)
        t.var, t.lo, t.hi = var, lo, hi
        t._unique = _Index(t)
        return t

    def __len__(self) -> int:
        return len(self.var)

    def entries(self) -> int:
        """Nodes plus memo entries: what the table holds (bounded by its owner, who
        replaces a table grown too large)."""
        return (len(self.var) + len(self._diffs) + len(self._ands) + len(self._counts)
                + sum(len(m) for _, m in self._memos.values()))

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
        v = min(vb, va)
        a0, a1 = (lo[a], hi[a]) if va == v else (a, a)
        b0, b1 = (lo[b], hi[b]) if vb == v else (b, b)
        return v, a0, a1, b0, b1

    def size(self, u: int) -> int:
        """Number of nodes of the function ``u`` as ``dd`` counts them: with complemented
        edges, a function and its negation share one node, and the one terminal is
        counted once."""
        return dd_nodes(self.var, self.lo, self.hi, sorted(self._below(u)))

    def count(self, u: int) -> int:
        """Number of assignments to the ``nvars`` levels on which ``u`` is true (exact;
        memoised across calls, as nodes never change)."""
        var, lo, hi, memo = self.var, self.lo, self.hi, self._counts
        got = memo.get(u)
        if got is None:
            stack = [u]
            while stack:
                w = stack[-1]
                if w in memo:
                    stack.pop()
                    continue
                a, b = lo[w], hi[w]
                ca, cb = memo.get(a), memo.get(b)
                if ca is None:
                    stack.append(a)
                elif cb is None:
                    stack.append(b)
                else:
                    stack.pop()
                    v = var[w]
                    memo[w] = (ca << (var[a] - v - 1)) + (cb << (var[b] - v - 1))
            got = memo[u]
        return got << var[u]

    def memo(self, owner) -> dict:
        """A memo kept with the table for a walk over its nodes whose results depend only
        on the node and ``owner`` (e.g. the choices of a layout: the walks of
        :mod:`.walks`), so that later sets of the table reuse it; ``owner`` is kept alive
        with it."""
        got = self._memos.get(id(owner))
        if got is None:
            got = self._memos[id(owner)] = (owner, {})
        return got[1]

    def restrict(self, u: int, bits: Sequence[tuple[int, bool]]) -> int:
        """Follow ``u`` along ``(level, value)`` pairs in increasing level order (a level
        that ``u`` skips is stepped over)."""
        var = self.var
        for lvl, value in bits:
            if var[u] == lvl:
                u = self.hi[u] if value else self.lo[u]
        return u

    # ------------------------------------------------------------------ dd
    def read(self, root, false, true, node) -> int:
        """Add the function ``root`` of another diagram, read depth first, children
        before parents, one step per node (``node(u)`` is ``(level, low, high)`` with
        negations resolved; ``false`` and ``true`` its terminals); returns its node."""
        ids = {false: 0, true: 1}
        make = self.node
        stack = [root]
        while stack:
            u = stack[-1]
            if u in ids:
                stack.pop()
                continue
            lvl, a, b = node(u)
            ia, ib = ids.get(a), ids.get(b)
            if ia is None:
                stack.append(a)
            elif ib is None:
                stack.append(b)
            else:
                stack.pop()
                ids[u] = make(lvl, ia, ib)
        return ids[root]

    def read_dd(self, root: Node) -> int:
        """Add the function ``root`` of a ``dd.autoref`` or ``dd.cudd`` manager whose level
        ``l`` is the table's level ``l``; returns its node."""
        bdd = root.bdd
        if type(bdd).__module__ != "dd.cudd":
            return self.read_core(bdd._bdd, root.node)

        def node(u):
            return (u.level, ~u.low, ~u.high) if u.negated else (u.level, u.low, u.high)

        return self.read(root, bdd.false, bdd.true, node)

    def read_core(self, core, ref: int) -> int:
        """Add the function ``ref`` of a ``dd.bdd.BDD`` (levels ``0 .. nvars - 1``; ``1``
        true, ``-1`` false, a negative reference the negation); returns its node."""
        succ = core._succ

        def node(r):
            lvl, a, b = succ[r if r > 0 else -r]
            return (lvl, -a, -b) if r < 0 else (lvl, a, b)

        return self.read(ref, -1, 1, node)

    def to_dd(self, bdd: Manager, names: Sequence[str], root: int) -> Node:
        """Write the function ``root`` into ``bdd``, whose variable at level ``l`` is
        ``names[l]``: one ``ite`` (CUDD) or ``find_or_add`` (autoref) per node, children
        first."""
        if root <= 1:
            return bdd.true if root else bdd.false
        var, lo, hi = self.var, self.lo, self.hi
        below = sorted(self._below(root))
        if type(bdd).__module__ == "dd.cudd":
            made: dict = {0: bdd.false, 1: bdd.true}
            ite = bdd.ite
            vs = [bdd.var(v) for v in names]
            for u in below:
                made[u] = ite(vs[var[u]], made[hi[u]], made[lo[u]])
            return made[root]
        core = bdd._bdd
        mlevel = [core.vars[v] for v in names]
        fa = core.find_or_add
        ref = {0: -1, 1: 1}
        for u in below:
            ref[u] = fa(mlevel[var[u]], ref[lo[u]], ref[hi[u]])
        return bdd._wrap(ref[root])

    def _below(self, u: int) -> set:
        """The inner nodes of the function ``u``."""
        lo, hi = self.lo, self.hi
        seen = set()
        stack = [u]
        while stack:
            w = stack.pop()
            if w > 1 and w not in seen:
                seen.add(w)
                stack.append(lo[w])
                stack.append(hi[w])
        return seen

    def nodes_of(self, u: int) -> int:
        """Number of nodes of the function ``u`` as held here (terminals included)."""
        return len(self._below(u)) + 2


class _Index:
    """The unique table of the nodes a table started with, made on the first look-up."""

    __slots__ = ("table",)

    def __init__(self, table: NodeTable) -> None:
        self.table = table

    def get(self, key, default=None):
        t = self.table
        t._unique = {k: u for u, k in enumerate(zip(t.var, t.lo, t.hi)) if u > 1}
        return t._unique.get(key, default)
