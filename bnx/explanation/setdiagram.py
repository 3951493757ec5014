"""The diagram of an explanation set as three integer lists, for the walks over it.

Explanation sets are built in node tables (:mod:`.nodetable`), as arrays
(:mod:`bnx.diagram._arrays`) or read from ``dd`` (:meth:`SetDiagram.from_dd`); their walks
(counting, lengths, minimisation, listing, :mod:`.walks`) read each node's level and children many
times, so they read them from plain lists: node ``0`` is false, node ``1`` true (both at level
``nvars``), complemented edges resolved, children numbered before their parents. A set's diagram is
small next to the ODD it explains, and read once per set.

Examples
--------
>>> from dd.bdd import BDD                                    # dd's integer-level manager
>>> core = BDD()
>>> core.declare("a", "b")
>>> u = core.find_or_add(0, -1, core.find_or_add(1, -1, 1))   # a and b
>>> d = SetDiagram.from_core(core, -u, 2)                      # not (a and b)
>>> d.var, d.lo, d.hi, d.root
([2, 2, 1, 0], [0, 1, 1, 1], [0, 1, 0, 2], 3)
"""

from __future__ import annotations

from collections.abc import Sequence

from .._types import Manager, Node
from ..diagram._arrays import DiagramArrays
from ..diagram.backends import autoref_table, is_cudd, write_nodes

__all__ = ["SetDiagram"]


class SetDiagram:
    """A reduced ordered BDD over ``nvars`` levels as lists, rooted at :attr:`root`.

    Attributes
    ----------
    var, lo, hi : list of int
        Per node: its level (``nvars`` for the terminals 0 and 1) and children.
    root : int
    """

    __slots__ = ("nvars", "var", "lo", "hi", "root")

    def __init__(self, nvars: int, var: list, lo: list, hi: list, root: int) -> None:
        self.nvars, self.var, self.lo, self.hi, self.root = nvars, var, lo, hi, root

    def __len__(self) -> int:
        return len(self.var)

    @classmethod
    def from_arrays(cls, arrays: DiagramArrays) -> SetDiagram:
        """The lists of ``arrays`` (rooted at its root)."""
        return cls(arrays.nvars, *arrays.lists(), arrays.root)

    @classmethod
    def from_core(cls, core, ref: int, nvars: int) -> SetDiagram:
        """The function ``ref`` of a ``dd.bdd.BDD`` (levels ``0 .. nvars - 1``; ``1`` true,
        ``-1`` false, a negative reference the negation), one step per node."""
        return cls._from_table(core.succ, ref, nvars)

    @classmethod
    def _from_table(cls, succ, ref: int, nvars: int) -> SetDiagram:
        """The same, ``succ(u)`` giving ``(level, low, high)`` of node ``u > 0``."""
        def node(r):
            lvl, a, b = succ(r if r > 0 else -r)
            return (lvl, -a, -b) if r < 0 else (lvl, a, b)

        return cls.walk(nvars, ref, -1, 1, node)

    @classmethod
    def from_dd(cls, root: Node, nvars: int) -> SetDiagram:
        """The function ``root`` of a ``dd.autoref`` or ``dd.cudd`` manager whose level
        ``l`` is the set's level ``l``."""
        bdd = root.bdd
        if not is_cudd(bdd):
            ref, table = autoref_table(root)
            return cls._from_table(table.__getitem__, ref, nvars)

        def node(u):
            return (u.level, ~u.low, ~u.high) if u.negated else (u.level, u.low, u.high)

        return cls.walk(nvars, root, bdd.false, bdd.true, node)

    @classmethod
    def walk(cls, nvars: int, root, false, true, node) -> SetDiagram:
        """The diagram below ``root``, read depth first, children before parents, one
        step per node; ``node(u)`` is ``(level, low, high)`` with negations resolved."""
        var, lo, hi = [nvars, nvars], [0, 1], [0, 1]
        ids = {false: 0, true: 1}
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
                ids[u] = len(var)
                var.append(lvl)
                lo.append(ia)
                hi.append(ib)
        return cls(nvars, var, lo, hi, ids[root])

    def count(self) -> int:
        """Number of assignments to the ``nvars`` levels that satisfy the function (exact)."""
        var, lo, hi = self.var, self.lo, self.hi
        c = [0, 1]
        for u in range(2, self.root + 1):
            v, a, b = var[u], lo[u], hi[u]
            c.append((c[a] << (var[a] - v - 1)) + (c[b] << (var[b] - v - 1)))
        return c[self.root] << var[self.root]

    def restrict(self, u: int, bits: Sequence[tuple[int, bool]]) -> int:
        """Follow ``u`` along ``(level, value)`` pairs in increasing level order (a level
        that ``u`` skips is stepped over)."""
        var = self.var
        for lvl, value in bits:
            if var[u] == lvl:
                u = self.hi[u] if value else self.lo[u]
        return u

    def to_dd(self, bdd: Manager, names: Sequence[str], root: int | None = None) -> Node:
        """Write the function below ``root`` (default :attr:`root`) into ``bdd``, whose
        variable at level ``l`` is ``names[l]``: one ``ite`` (CUDD) or ``find_or_add``
        (autoref) per node, children first."""
        root = self.root if root is None else root
        return write_nodes(bdd, names, self.var, self.lo, self.hi, root)
