"""The one store of the explanation code.

Reduced ordered diagrams made node by node, with a unique table and memoised operations.

The explanation algorithms build a set bottom-up, one node per feature: pi-inst (:mod:`.pi`)
builds each PI-explanation set ("dropped" low, "kept" high) and takes set differences of
the sets it has built (``a and not b``); MC (:mod:`.mc`) keeps the minimal ones; the
robustness profile (:mod:`._erosion`) conjoins the ODD's functions. pi-inst and pi-cover
also follow, below a node that tests feature ``i``, its *star*: the conjunction of its
cofactors over the states of ``i`` (the function left when ``i`` is dropped), a function
the ODD may not hold. A :class:`Store` holds all of these: per node its level and two
children, a unique table so that a node number names one function, and the memos of its
operations (:meth:`~Store.conj`, :meth:`~Store.diff`, :meth:`~Store.count`,
:meth:`~Store.star_of`; :meth:`~Store.size` is the size ``dd`` reports), all kept across
calls, so that what one instance built serves the next. It does what a ``dd.bdd.BDD``
would do, without its bookkeeping (reference counts, complemented edges, a general
``ite``). A set is counted, sized, restricted and walked (:mod:`.walks`) where it was
built, and becomes a ``dd`` diagram only when asked (:meth:`~Store.to_dd`); a set given as
a ``dd`` function is read in once (:meth:`~Store.read_dd`). Every operation is a loop over
an explicit stack (no recursion, however deep the diagram).

A store made from an ODD's arrays (:meth:`Store.from_arrays`) knows its encoding's
features (:mod:`._store_features`: cofactors follow state codes, counts are over valid
codes). Its strategy is chosen by the one size limit of the diagram's passes
(:data:`bnx.diagram._arrays.SMALL`, in Python steps: :func:`in_python`): up to it, Python
lists, one node at a time (a small saved naive Bayes explains a decision with no numpy
import); past it, numpy buffers and conjunctions breadth first (:mod:`._store_numpy`).

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

from .._util.types import Manager, Node
from ..diagram import _arrays
from ..diagram import _table_dd as _dd
from ..diagram._arrays import DiagramArrays, cofactor, dd_nodes
from ..diagram.encoding import Encoding
from . import _store_features as _feat
from . import _store_numpy as _wide

__all__ = ["Store", "in_python", "store_for"]

#: About how many Python steps a node's star costs where it is a conjunction (in Python,
#: one pair at a time), against one where it is a cofactor (a unate feature).
CONJ_STEPS = 8


def _and_leaf(a: int, b: int):
    """Decide ``a and b`` where a terminal case does, else return the ordered pair to expand."""
    if a == 0 or b == 0:
        return 0
    if a == 1 or a == b:
        return b
    if b == 1:
        return a
    return (a, b) if a < b else (b, a)


def in_python(size: int, unate: bool) -> bool:
    """Tell whether work over a diagram of ``size`` nodes is done in Python rather than by numpy.

    One node at a time: its Python steps (one per node, :data:`CONJ_STEPS` where stars are
    conjunctions) within the one limit :data:`bnx.diagram._arrays.SMALL`.
    """
    return size * (1 if unate else CONJ_STEPS) <= _arrays.SMALL


class Store:
    """Reduced ordered diagrams over ``nvars`` levels, built node by node and kept.

    Attributes
    ----------
    var, lo, hi : list of int, or numpy.ndarray
        Per node: its level and children (nodes ``0`` and ``1`` are the terminals); numpy
        buffers in a store held in numpy (only the first :attr:`n` entries in use).
        ``level`` is ``var``.
    py : tuple of list or None
        ``(level, lo, hi, star)`` in a store held in Python; ``None`` in one held in numpy.
    star : list of int or numpy.ndarray
        Per node whose star is made, its star (``-1``: not made yet).
    closed : bool
        Whether every node's star is made.
    root : int or None
        The ODD's root, in a store made from its arrays.
    """

    def __init__(self, nvars: int, enc: Encoding | None = None, *,
                 least: tuple | None = None) -> None:
        self.nvars = nvars
        self.var = self.level = [nvars, nvars]
        self.lo, self.hi, self.star = [0, 1], [0, 1], [0, 1]
        self.py = (self.var, self.lo, self.hi, self.star)
        self.root = None
        self.closed = False
        self._unique: dict | _Index = {}  # (level, low, high) -> node
        self._diffs: dict = {}  # (a, b) -> a and not b
        self._ands: dict = {}  # (a, b), a < b -> a and b
        self._counts: dict = {0: 0, 1: 1}  # node -> models (see count)
        self._memos: dict = {}  # id(owner) -> (owner, memo of a walk keyed by node)
        _feat.setup(self, enc, least)

    @classmethod
    def of(cls, nvars: int, var, lo, hi) -> Store:
        """Make a store that starts with the given nodes.

        A reduced ordered diagram numbered children first: nodes ``0`` and ``1`` the
        terminals; sequences of int, lists to grow; their unique table is made when a node
        is first added.
        """
        t = cls(nvars)
        t._columns(var, lo, hi)
        return t

    def _columns(self, var, lo, hi) -> None:
        self.var = self.level = var
        self.lo, self.hi = lo, hi
        self.star = [0, 1] + [-1] * (len(var) - 2)
        self.py = (var, lo, hi, self.star)
        self._unique = _Index(self)

    @classmethod
    def from_arrays(cls, arrays: DiagramArrays, enc: Encoding | None = None, *,
                    least: tuple | None = None, python: bool | None = None) -> Store:
        """Make a store that starts with the nodes of ``arrays`` (same numbers).

        Its features are ``enc``'s; held in Python or in numpy as :func:`in_python` says (or
        as ``python`` says: a caller that conjoins many nodes at once asks for numpy).
        """
        t = cls(arrays.nvars, enc, least=least)
        t.root = arrays.root
        if python if python is not None else in_python(arrays.size, least is not None):
            t._columns(*arrays.lists())
        else:
            _wide.start(t, arrays)
        return t

    @property
    def n(self) -> int:
        """The number of nodes."""
        return len(self.var) if self.py is not None else self._n

    __len__ = n.fget

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
        return u

    def nodes(self, level: int, lo, hi):
        """Do :meth:`node` for each pair ``lo[k], hi[k]``.

        A numpy array in a store held in numpy, else a list.
        """
        if self.py is None:
            return _wide.nodes(self, level, lo, hi)
        return [self.node(level, a, b) for a, b in zip(lo, hi)]

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

        ``u`` tests or skips feature ``i``; ``u`` is an int, or in a store held in numpy a
        numpy array of nodes.
        """
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
        """Return ``a and b`` (memoised across calls), on an explicit stack as :meth:`diff`."""
        key = _and_leaf(a, b)
        if type(key) is not tuple:
            return key
        if self.py is None:
            return int(_wide.conj(self, [a], [b])[0])
        memo = self._ands
        a, b = key
        got = memo.get(key)
        if got is not None:
            return got
        stack = [(a, b)]
        while stack:
            key = stack[-1]
            v, kids = self._split(*key)
            leaves = [_and_leaf(p, q) for p, q in kids]
            r = [memo.get(k) if type(k) is tuple else k for k in leaves]
            if None in r:
                stack.extend(k for k, got in zip(leaves, r) if got is None)
                continue
            stack.pop()
            memo[key] = self.node(v, r[0], r[1])
        return memo[(a, b)]

    def _split(self, a: int, b: int) -> tuple:
        """Split ``a`` and ``b`` on their top level: ``(level, ((a0, b0), (a1, b1)))``.

        Their cofactors on it, paired.
        """
        var, lo, hi = self.var, self.lo, self.hi
        va, vb = var[a], var[b]
        v = min(vb, va)
        a0, a1 = (lo[a], hi[a]) if va == v else (a, a)
        b0, b1 = (lo[b], hi[b]) if vb == v else (b, b)
        return v, ((a0, b0), (a1, b1))

    def conj_many(self, a, b):
        """Conjoin ``a[k] and b[k]`` for every ``k``.

        A numpy array in a store held in numpy, where many pairs are conjoined breadth first
        at once; else a list.
        """
        if self.py is None:
            return _wide.conj(self, a, b)
        return [self.conj(x, y) for x, y in zip(a, b)]

    def count(self, u: int) -> int:
        """Count the complete assignments on which ``u`` is true.

        Each feature takes one of its states (valid codes only; without an encoding, every
        level is a two-state feature): exact, memoised across calls, as nodes never change.
        """
        if self.py is None:
            return _wide.count(self, u)
        var, memo = self.var, self._counts
        if not self.plain:
            return _feat.count(self, u)
        got = memo.get(u)
        if got is None:
            lo, hi = self.lo, self.hi
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

    def upward(self, root: int, memo: dict, make) -> int:
        """Compute ``memo[root]`` bottom-up over whole features.

        By :func:`._store_features.upward`.
        """
        return _feat.upward(self, root, memo, make)

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
        """Return the star of node ``u``: the conjunction of its cofactors over its states.

        Its cofactors over the states of the feature it tests, made on first use; where the
        function is unate (``least``), the cofactor on that feature's least state.
        """
        if self.py is None:
            return _wide.star_of(self, u)
        star = self.star
        return star[u] if u < len(star) and star[u] >= 0 else _feat.star(self, u)

    def make_stars(self, us, i: int) -> None:
        """Make the stars of nodes ``us`` of feature ``i``.

        At once, in numpy, in a store held there.
        """
        if self.py is None:
            _wide.make_stars(self, us, i)
            return
        for u in us:
            self.star_of(int(u))

    def close(self) -> None:
        """Make the star of every node (the nodes the conjunctions make get theirs in turn).

        A store held in numpy with at most :data:`~bnx.diagram._arrays.SMALL` nodes then
        moves to Python lists, read one node at a time.
        """
        if self.py is None:
            _wide.close(self)
            n = self._n
            if n <= _arrays.SMALL:
                star = self.star[:n].tolist()
                self._columns(*(x[:n].tolist() for x in (self.level, self.lo, self.hi)))
                self.star[:] = star
                self.feature_of = self.feature_of.tolist()
        else:
            u = 2
            while u < len(self.var):  # grows while conjunctions make nodes
                self.star_of(u)
                u += 1
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

    With every star made when the diagram has at most :data:`bnx.diagram._arrays.SMALL`
    nodes; ``least``: per feature, the state whose cofactor is the star, where the function
    is known to be unate (:func:`bnx.explanation._cache.least_states`).
    """
    key = (enc.first_level, tuple(len(s) for s in enc.states), least)
    got = arrays.cache.get("conj_store", key)
    if got is None:
        got = arrays.cache.put("conj_store", key, Store.from_arrays(arrays, enc, least=least))
        if arrays.size <= _arrays.SMALL:
            got.close()
    return got
