"""The one store of the explanation code.

Reduced ordered diagrams made node by node, with a unique table and memoised operations.

The explanation algorithms build a set bottom-up, one node per feature: pi-inst
(:mod:`bnx.explanation.pi`)
builds each PI-explanation set ("dropped" low, "kept" high) and takes set differences of
the sets it has built (``a and not b``); MC (:mod:`bnx.explanation.mc`) keeps the minimal ones; the
robustness profile (:mod:`bnx.changes._erosion`) conjoins the ODD's functions. pi-inst and pi-cover
also follow, below a node that tests feature ``i``, its *star*: the conjunction of its
cofactors over the states of ``i`` (the function left when ``i`` is dropped), a function
the ODD may not hold. A :class:`Store` holds all of these: per node its level, two
children and star, a unique table so that a node number names one function, and the memos of its
operations (:meth:`~Store.conj`, :meth:`~Store.diff`, :meth:`~Store.count`,
:meth:`~Store.star_of`; :meth:`~Store.size` is the size ``dd`` reports), all kept across
calls, so that what one instance built serves the next. It does what a ``dd.bdd.BDD``
would do, without its bookkeeping (reference counts, complemented edges, a general
``ite``). A set is counted, sized, restricted and walked (:mod:`.walks`) where it was
built, and becomes a ``dd`` diagram only when asked (:meth:`~Store.to_dd`); a set given as
a ``dd`` function is read in once (:meth:`~Store.read_dd`). No operation recurses (however
deep the diagram): a set difference is a loop over an explicit stack, a conjunction is
computed breadth first, level by level (:meth:`~Store.conj_many`, the one conjunction: one
pair or millions), stars and counts a whole feature at a time.

One representation, whatever the size: the columns are Python lists, read and grown one
node at a time by the passes that go node by node (a list is read about twice as fast as
an ``array('q')``, and appended to four times as fast); the passes over many nodes at once
read the level and children columns through :meth:`~Store.view`, a numpy copy kept up to
date as nodes are added (nodes never change, so only the new ones are copied).
A store made from an ODD's arrays (:meth:`Store.from_arrays`) knows its encoding's
features (:class:`bnx.diagram._feature_view.Features`: cofactors follow state codes,
counts are over valid codes).

Node ``0`` is false (the empty set), node ``1`` true, both at level ``nvars``; diagrams are
reduced, ordered (children at deeper levels) and numbered children first.

Examples
--------
>>> s = Store(2)                            # two levels, k0 and k1
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

import numpy as np

from .._util.types import Manager, Node
from . import _store_features as _feat
from . import _table_dd as _dd
from ._arrays import DiagramArrays, cofactor, dd_nodes
from ._conjunction import conjoin_pairs
from ._memo import register
from .encoding import Encoding

__all__ = ["Store", "store_for"]

register("conj_store", 4, "the store of conjunction sets per encoding and unate states")

_INT = np.int64
_B = 1 << 31  # pair keys: a * _B + b, a < b (node numbers stay below 2 ** 31)

#: :func:`store_for` makes every star of a diagram of at most this many nodes at once
#: (breadth first, a few numpy calls per level); a larger one's stars are made as the
#: questions reach them.
CLOSE_ALL = 1 << 14


def _and_leaf(a: int, b: int):
    """Decide ``a and b`` where a terminal case does, else return the ordered pair to expand."""
    if a == 0 or b == 0:
        return 0
    if a == 1 or a == b:
        return b
    if b == 1:
        return a
    return (a, b) if a < b else (b, a)


def _column(values) -> list:
    """``values`` (ints, an ``array('q')`` or an integer numpy array) as a new list."""
    return values.tolist() if hasattr(values, "tolist") else list(values)


class Store:
    """Reduced ordered diagrams over ``nvars`` levels, built node by node and kept.

    Attributes
    ----------
    var, lo, hi, star : list of int
        Per node: its level, its children (nodes ``0`` and ``1`` are the terminals) and
        its star (``-1``: not made yet); ``level`` is ``var``. As numpy arrays:
        :meth:`view` and :meth:`stars`.
    closed : bool
        Whether every node's star is made.
    root : int or None
        The ODD's root, in a store made from its arrays.
    """

    def __init__(self, nvars: int, enc: Encoding | None = None, *,
                 least: tuple | None = None) -> None:
        self.nvars = nvars
        self.root = None
        self.closed = False
        self._columns([nvars, nvars], [0, 1], [0, 1])
        self._unique = {}  # (level, low, high) -> node
        self._diffs: dict = {}  # (a, b) -> a and not b
        self._ands: dict = {}  # a * _B + b, a < b -> a and b
        self._memos: dict = {}  # id(owner) -> (owner, memo of a walk keyed by node)
        _feat.setup(self, enc, least)

    @classmethod
    def of(cls, nvars: int, var, lo, hi) -> Store:
        """Make a store that starts with the given nodes.

        The nodes are a reduced ordered diagram numbered children first (nodes ``0`` and
        ``1`` the terminals; sequences of int or numpy arrays); their unique table is made
        when a node is first added.
        """
        t = cls(nvars)
        t._columns(var, lo, hi)
        t._unique = _Index(t)
        return t

    def _columns(self, var, lo, hi) -> None:
        self.var = self.level = _column(var)
        self.lo, self.hi = _column(lo), _column(hi)
        self.star = [0, 1] + [-1] * (len(self.var) - 2)
        self._copies: dict = {}  # column name -> (numpy buffer, nodes copied)

    @classmethod
    def from_arrays(cls, arrays: DiagramArrays, enc: Encoding | None = None, *,
                    least: tuple | None = None) -> Store:
        """Make a store that starts with the nodes of ``arrays`` (same numbers).

        Its features are ``enc``'s.
        """
        t = cls(arrays.nvars, enc, least=least)
        t.root = arrays.root
        t._columns(*arrays.columns)
        t._copies = {name: (col.copy(), arrays.size)
                     for name, col in (("var", arrays.level), ("lo", arrays.lo),
                                       ("hi", arrays.hi))}
        t._unique = _Index(t)
        return t

    @property
    def n(self) -> int:
        """The number of nodes."""
        return len(self.var)

    __len__ = n.fget

    def view(self, name: str) -> np.ndarray:
        """Return the column ``name`` (``"var"``, ``"lo"`` or ``"hi"``) as a numpy array.

        It is for a pass over many nodes at once: a copy kept with the store, to which only
        the nodes added since the last call are copied (a node never changes); read-only.
        """
        col = getattr(self, name)
        n = len(col)
        buf, done = self._copies.get(name, (None, 0))
        if done < n:
            if buf is None or len(buf) < n:
                new = np.empty(max(n, 2 * done), dtype=_INT)
                new[:done] = buf[:done] if buf is not None else ()
                buf = new
            buf[done:n] = col[done:n]
            self._copies[name] = (buf, n)
        out = buf[:n]
        out.flags.writeable = False
        return out

    def stars(self, us: np.ndarray) -> np.ndarray:
        """Return the stars of nodes ``us`` (``-1`` where not made yet), as a numpy array."""
        star = self.star
        return np.fromiter((star[u] for u in us.tolist()), dtype=_INT, count=len(us))

    def entries(self) -> int:
        """Count nodes plus memo entries: what the store holds.

        Bounded by its owner, who replaces a store grown too large.
        """
        return (self.n + len(self._diffs) + len(self._ands) + len(self._counts)
                + sum(len(m) for _, m in self._memos.values()))

    # ------------------------------------------------------------------ nodes
    def node(self, level: int, lo: int, hi: int) -> int:
        """Make the node testing ``level`` with children ``lo`` (false branch) and ``hi``.

        Both children are at deeper levels; the node is an existing one if the store holds
        it.
        """
        if lo == hi:
            return lo
        key = (level, lo, hi)
        u = self._unique.get(key)
        if u is None:
            u = self._unique[key] = len(self.var)
            self.var.append(level)
            self.lo.append(lo)
            self.hi.append(hi)
            self.star.append(-1)
        return u

    def nodes(self, level: int, lo, hi) -> np.ndarray:
        """:meth:`node` for each pair ``lo[k], hi[k]`` (arrays of nodes)."""
        node = self.node
        lo, hi = np.asarray(lo, dtype=_INT), np.asarray(hi, dtype=_INT)
        return np.fromiter((node(level, a, b) for a, b in zip(lo.tolist(), hi.tolist())),
                           dtype=_INT, count=len(lo))

    def restrict(self, u: int, bits: Sequence[tuple[int, bool]]) -> int:
        """Follow ``u`` along ``(level, value)`` pairs in increasing level order.

        A level that ``u`` skips is stepped over.
        """
        var = self.var
        for lvl, value in bits:
            if var[u] == lvl:
                u = self.hi[u] if value else self.lo[u]
        return u

    def cofactor(self, u, i: int, j: int):
        """Return the cofactor of node ``u`` on state ``j`` of feature ``i``.

        ``u`` is an int, or a numpy array of nodes, that tests or skips feature ``i``.
        """
        if isinstance(u, np.ndarray):
            return cofactor(self.view("var"), self.view("lo"), self.view("hi"), u,
                            self.first[i], self.nbits[i], j)
        return cofactor(self.var, self.lo, self.hi, u, self.first[i], self.nbits[i], j)

    # ------------------------------------------------------------------ operations
    def diff(self, a: int, b: int) -> int:
        """Return ``a and not b`` (memoised across calls), on an explicit stack.

        A pair is expanded, its open subpairs pushed, and made once both are in the memo.
        """
        if a == 0 or a == b or b == 1:
            return 0
        if b == 0:
            return a
        memo = self._diffs
        got = memo.get((a, b))
        if got is not None:
            return got
        var, lo, hi, node = self.var, self.lo, self.hi, self.node
        stack = [(a, b)]
        while stack:
            key = x, y = stack[-1]
            vx, vy = var[x], var[y]
            if vx <= vy:
                v, x0, x1 = vx, lo[x], hi[x]
            else:
                v, x0, x1 = vy, x, x
            y0, y1 = (lo[y], hi[y]) if vy == v else (y, y)
            r0 = 0 if x0 == 0 or x0 == y0 or y0 == 1 else x0 if y0 == 0 else memo.get((x0, y0))
            r1 = 0 if x1 == 0 or x1 == y1 or y1 == 1 else x1 if y1 == 0 else memo.get((x1, y1))
            if r0 is None:
                stack.append((x0, y0))
            if r1 is None:
                stack.append((x1, y1))
            if r0 is not None and r1 is not None:
                stack.pop()
                memo[key] = node(v, r0, r1)
        return memo[(a, b)]

    def conj(self, a: int, b: int) -> int:
        """Return ``a and b`` (memoised across calls): :meth:`conj_many` of one pair."""
        key = _and_leaf(a, b)
        if type(key) is not tuple:
            return key
        got = self._ands.get(key[0] * _B + key[1])
        return got if got is not None else int(self.conj_many([a], [b])[0])

    def conj_many(self, a, b) -> np.ndarray:
        """Return ``a[k] and b[k]`` for every ``k``, as node numbers (new nodes made as needed).

        Breadth first (:func:`bnx.diagram._conjunction.conjoin_pairs`, the one
        conjunction; pairs conjoined before are read from the store's memo).
        """
        return conjoin_pairs(self, a, b, self._ands)

    def count(self, u: int) -> int:
        """Count the complete assignments on which ``u`` is true, exactly.

        Each feature takes one of its states (valid codes only; without an encoding, every
        level is a two-state feature); memoised across calls, as nodes never change
        (:meth:`bnx.diagram._feature_view.Features.count`, the one count over valid
        codes).
        """
        return self.features.count(self.view("var"), self.view("lo"), self.view("hi"),
                                   int(u), self._counts)

    def memo(self, owner) -> dict:
        """Return a memo kept with the store for a walk over its nodes.

        The walk's results depend only on the node and ``owner`` (e.g. the choices of a
        layout: the walks of :mod:`.walks`), so that later sets of the store reuse it;
        ``owner`` is kept alive with it.
        """
        got = self._memos.get(id(owner))
        if got is None:
            got = self._memos[id(owner)] = (owner, {})
        return got[1]

    # ------------------------------------------------------------------ stars
    def star_of(self, u: int) -> int:
        """Return the star of node ``u``, made on first use.

        The star is the conjunction of its cofactors over the states of the feature it
        tests (where the function is unate, ``least``, the cofactor on that feature's
        least state).
        """
        s = self.star[u]
        if s < 0:
            self.make_stars(np.array([u], dtype=_INT), int(self.feature_of[self.var[u]]))
            s = self.star[u]
        return s

    def make_stars(self, us, i: int) -> None:
        """Make the stars of nodes ``us`` of feature ``i``, all at once."""
        us = np.asarray(us, dtype=_INT)
        if len(us):
            star = self.star
            for u, s in zip(us.tolist(), _feat.stars(self, us, i).tolist()):
                star[u] = s

    def close(self) -> None:
        """Make the star of every node.

        The stars of all the nodes without one are made in one breadth-first conjunction (one
        per further state), then those of the nodes that made, until none is left.
        """
        _feat.close(self)
        self.closed = True

    # ------------------------------------------------------------------ size and dd
    def size(self, u: int) -> int:
        """Count the nodes of the function ``u`` as ``dd`` counts them.

        With complemented edges, a function and its negation share one node, and the one
        terminal is counted once.
        """
        return dd_nodes(self.var, self.lo, self.hi, sorted(_dd.below(self, u)))

    def nodes_of(self, u: int) -> int:
        """Count the nodes of the function ``u`` as held here (terminals included)."""
        return len(_dd.below(self, u)) + 2

    def read_dd(self, root: Node) -> int:
        """Add the function ``root`` of a ``dd`` manager, and return its node.

        A ``dd.autoref`` or ``dd.cudd`` manager whose level ``l`` is the store's level
        ``l``.
        """
        return _dd.read_dd(self, root)

    def to_dd(self, bdd: Manager, names: Sequence[str], root: int) -> Node:
        """Write the function ``root`` into ``bdd``, whose variable at level ``l`` is ``names[l]``.

        One node per node of ``root``, children first.
        """
        return _dd.to_dd(self, bdd, names, root)


class _Index:
    """The unique table of the nodes a store started with, made on the first look-up."""

    __slots__ = ("store",)

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key, default=None):
        t = self.store
        t._unique = {k: u for u, k in enumerate(zip(t.var, t.lo, t.hi)) if u > 1}
        return t._unique.get(key, default)


def store_for(arrays: DiagramArrays, enc: Encoding, least: tuple | None = None) -> Store:
    """Return the :class:`Store` of the function ``arrays`` (kept in ``arrays.cache``).

    Every star is made when the diagram has at most :data:`CLOSE_ALL` nodes; ``least``:
    per feature, the state whose cofactor is the star, where the function is known to be
    unate (:func:`bnx.question._cache.least_states`).
    """
    key = (enc.first_level, tuple(len(s) for s in enc.states), least)
    got = arrays.cache.get("conj_store", key)
    if got is None:
        got = arrays.cache.put("conj_store", key, Store.from_arrays(arrays, enc, least=least))
        if arrays.size <= CLOSE_ALL:
            got.close()
    return got
