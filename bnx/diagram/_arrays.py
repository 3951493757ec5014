"""The array form of a decision diagram: per node its level and two children, in numpy.

Every question bnx asks of a compiled decision function is a pass over its nodes. ``dd``
hands out a wrapper object per node and leaves complemented edges to the reader, which
costs microseconds a node in Python; a :class:`DiagramArrays` holds the same reduced,
ordered diagram as three integer arrays instead, so that a pass is a loop over levels
with vectorised gathers:

* node ``0`` is false and node ``1`` is true, both at level ``nvars``;
* complemented edges are resolved (a function and its negation are distinct nodes);
* nodes are numbered children first and grouped by level, deepest level first, so the
  nodes of level ``L`` are one contiguous block (:meth:`DiagramArrays.block`): a bottom-up
  pass visits the blocks in increasing node order, a top-down pass in decreasing order.

The three columns are held once, as ``array('q')`` (Python reads a node's entries
there, as the passes that go one node at a time do), and every pass over whole levels
(count, dd size, negation) is one numpy body over views of the same memory, whatever the
diagram's size. The arrays are made once per diagram: by a compiler from the
levels it builds
(:class:`Builder`), by the file loader from its stored arrays, or from any ``dd``
function by one walk (:func:`bnx.diagram._dd.from_dd`); :func:`bnx.diagram._dd.to_dd` writes
them back into a ``dd`` manager. Derived data (per-feature children, layouts, cached results
of questions) is
kept in :attr:`DiagramArrays.cache` (a :class:`~bnx.diagram._memo.Caches`), since the arrays
never change.

The passes that read bare columns (:func:`cofactor`, :func:`dd_nodes`, also on a store's or
a node table's columns) and :func:`unique` are in :mod:`bnx.diagram._columns`, and imported
from here with the rest.

Examples
--------
>>> b = Builder(2)
>>> x1 = b.nodes(1, [FALSE], [TRUE])            # the node "x1"
>>> f = b.nodes(0, x1, [TRUE])                 # "x0 or x1"
>>> a = b.finish(f[0])
>>> a.size, count(a), dd_size(a), a.columns[2].tolist()   # (per node, its high child)
(4, 3, 3, [0, 1, 1, 1])
"""

from __future__ import annotations

import bisect
import operator
from array import array
from collections.abc import Sequence

import numpy as np

from ._columns import _INT, cofactor, dd_nodes, unique
from ._memo import Caches

__all__ = ["FALSE", "TRUE", "DiagramArrays", "Builder", "canonical", "cofactor",
           "count", "dd_nodes", "dd_size", "level_order", "negate", "negations", "unique"]

FALSE, TRUE = 0, 1


def _column(x) -> array:
    """``x`` (a sequence of ints, or an integer numpy array) as an ``array('q')``."""
    if isinstance(x, array) and x.typecode == "q":
        return x
    if isinstance(x, np.ndarray):
        out = array("q")
        out.frombytes(memoryview(np.ascontiguousarray(x, dtype=_INT)).cast("B"))
        return out
    return array("q", x)


class DiagramArrays:
    """A reduced ordered BDD over ``nvars`` levels: per node its level and two children.

    The three columns are held once, as ``array('q')`` (:attr:`columns`: what a pass that
    goes one node at a time indexes); :attr:`level`, :attr:`lo` and :attr:`hi` are
    read-only numpy views of the same memory, made on first use.

    Attributes
    ----------
    nvars : int
        Number of levels (``dd`` variables).
    columns : tuple of array.array
        ``(level, lo, hi)``: per node, its level (``nvars`` for the terminals ``0`` and
        ``1``), its low and its high child.
    level, lo, hi : numpy.ndarray of int64
        The columns as read-only numpy arrays (views, made on first use).
    root : int
        The node of the function.
    starts : tuple of int
        ``starts[L]`` is 2 + the number of inner nodes at level ``L`` or deeper.
    cache : Caches
        Data derived from the arrays, made once by the passes that need it (named,
        bounded kinds: :mod:`bnx.diagram._memo`).
    """

    __slots__ = ("nvars", "columns", "starts", "root", "cache", "_views", "__weakref__")

    def __init__(self, nvars: int, level, lo, hi, root: int) -> None:
        self.nvars = int(nvars)
        self.root = int(root)
        self.columns = tuple(_column(c) for c in (level, lo, hi))
        self._views = None
        # the nodes of level L are starts[L + 1] .. starts[L] - 1; levels descend with node
        # numbers, so starts[L] is the first inner node above level L (a bisection)
        lv, n = self.columns[0], len(self.columns[0])
        self.starts = tuple(bisect.bisect_right(lv, -L, 2, n, key=operator.neg)
                            for L in range(self.nvars + 1))
        self.cache = Caches()

    def _view(self, k: int):
        views = self._views
        if views is None:
            views = []
            for c in self.columns:
                v = np.frombuffer(c, dtype=_INT) if len(c) else np.zeros(0, dtype=_INT)
                v.setflags(write=False)
                views.append(v)
            views = self._views = tuple(views)
        return views[k]

    level = property(lambda self: self._view(0), doc="Per node, its level (numpy view).")
    lo = property(lambda self: self._view(1), doc="Per node, its low child (numpy view).")
    hi = property(lambda self: self._view(2), doc="Per node, its high child (numpy view).")

    def lists(self) -> tuple[list[int], list[int], list[int]]:
        """``(level, lo, hi)`` as new Python lists (to grow, e.g. a node table)."""
        return tuple(c.tolist() for c in self.columns)

    @property
    def size(self) -> int:
        """Number of nodes, both terminals included."""
        return len(self.columns[0])

    def __len__(self) -> int:
        return self.size

    def block(self, lvl: int) -> slice:
        """Return the nodes of level ``lvl``, as a slice of the node numbers."""
        return slice(self.starts[lvl + 1], self.starts[lvl])

    def __repr__(self) -> str:
        return f"DiagramArrays(nvars={self.nvars}, size={self.size}, root={self.root})"

    def __getstate__(self):
        return (self.nvars, *self.columns, self.root)

    def __setstate__(self, state) -> None:
        self.__init__(*state)


def canonical(nvars: int, level, lo, hi, roots: Sequence[int]) -> tuple[DiagramArrays, list[int]]:
    """Make the reduced, canonical :class:`DiagramArrays` of the functions ``roots``.

    ``roots`` are functions of any ordered diagram given as arrays (node 0 false, node 1
    true, children at deeper levels than their parents; duplicates and redundant tests
    allowed).

    Returns the arrays (rooted at the first root) and the new numbers of all roots.
    Only the nodes below the roots are kept.
    """
    level = np.asarray(level, dtype=_INT)
    lo = np.asarray(lo, dtype=_INT)
    hi = np.asarray(hi, dtype=_INT)
    n = len(level)
    roots = [int(r) for r in roots]
    # reachable nodes, top-down, one level at a time
    order = np.argsort(level, kind="stable")  # shallowest first
    bounds = np.searchsorted(level[order], np.arange(nvars + 2), side="left")
    seen = np.zeros(n, dtype=bool)
    seen[roots] = True
    seen[:2] = True
    for lvl in range(nvars):
        idx = order[bounds[lvl]:bounds[lvl + 1]]
        idx = idx[seen[idx]]
        seen[lo[idx]] = True
        seen[hi[idx]] = True
    # bottom-up: children renumbered first, redundant tests dropped, duplicates merged
    new = np.full(n, -1, dtype=_INT)
    new[FALSE], new[TRUE] = FALSE, TRUE
    out_lo, out_hi, out_lv = [], [], []
    nxt = 2
    for lvl in range(nvars - 1, -1, -1):
        idx = order[bounds[lvl]:bounds[lvl + 1]]
        idx = idx[seen[idx]]
        if not len(idx):
            continue
        a, b = new[lo[idx]], new[hi[idx]]
        same = a == b
        new[idx[same]] = a[same]
        keep = ~same
        idx, a, b = idx[keep], a[keep], b[keep]
        if not len(idx):
            continue
        key = a * (nxt + 1) + b
        uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
        new[idx] = nxt + inv.ravel()
        out_lo.append(a[first])
        out_hi.append(b[first])
        out_lv.append(np.full(len(uniq), lvl, dtype=_INT))
        nxt += len(uniq)
    cat = (lambda parts, head: np.concatenate([np.array(head, dtype=_INT), *parts]))
    arrays = DiagramArrays(nvars, cat(out_lv, [nvars, nvars]), cat(out_lo, [0, 1]),
                           cat(out_hi, [0, 1]), int(new[roots[0]]))
    return arrays, [int(new[r]) for r in roots]


class Builder:
    """Collects nodes bottom-up for :func:`canonical`: a compiler's way to make arrays.

    Nodes are appended as given (no reduction while building); :meth:`finish` reduces
    them and keeps what lies below the root. ``FALSE`` and ``TRUE`` are nodes ``0``
    and ``1``.
    """

    def __init__(self, nvars: int) -> None:
        self.nvars = nvars
        self._lv: list = [np.array([nvars, nvars], dtype=_INT)]
        self._lo: list = [np.array([0, 1], dtype=_INT)]
        self._hi: list = [np.array([0, 1], dtype=_INT)]
        self._n = 2

    #: The bytes per node added that :meth:`finish` adds at its peak (the nodes' three
    #: columns joined, sorted by level, renumbered: measured 53 on 26.8 million nodes).
    FINISH_BYTES = 56

    @property
    def size(self) -> int:
        """The nodes added so far, the two terminals included."""
        return self._n

    def nodes(self, lvl: int, lo, hi) -> np.ndarray:
        """Add nodes testing level ``lvl`` with children ``lo`` and ``hi``; return their numbers.

        ``lo`` and ``hi`` are arrays of node numbers.
        """
        lo = np.asarray(lo, dtype=_INT)
        hi = np.asarray(hi, dtype=_INT)
        k = len(lo)
        self._lv.append(np.full(k, lvl, dtype=_INT))
        self._lo.append(lo)
        self._hi.append(hi)
        ids = np.arange(self._n, self._n + k, dtype=_INT)
        self._n += k
        return ids

    def select(self, first: int, nbits: int, kids) -> np.ndarray:
        """Add nodes that branch on a log-encoded feature.

        ``kids`` has one row per node and one column per state (state ``j`` has the
        ``nbits``-bit code ``j``, most significant bit at level ``first``); codes that name
        no state lead to false.
        """
        kids = np.asarray(kids, dtype=_INT)
        if nbits == 0:
            return kids[:, 0].copy()
        width = 1 << nbits
        cur = np.zeros((len(kids), width), dtype=_INT)
        cur[:, :kids.shape[1]] = kids
        for b in range(nbits - 1, -1, -1):
            cur = self.nodes(first + b, cur[:, 0::2].ravel(), cur[:, 1::2].ravel()
                             ).reshape(len(kids), 1 << b)
        return cur[:, 0]

    def finish(self, root: int, *more: int):
        """Return the canonical arrays below ``root``.

        With ``more`` roots, their new numbers too: then ``(arrays, [root, *more])`` is
        returned.
        """
        parts = [np.concatenate(p) for p in (self._lv, self._lo, self._hi)]
        self._lv = self._lo = self._hi = []  # freed before the reduction (peak memory)
        arrays, ids = canonical(self.nvars, *parts, [root, *more])
        return (arrays, ids) if more else arrays


# ---------------------------------------------------------------------- passes
def negate(arrays: DiagramArrays) -> DiagramArrays:
    """Negate the function: the same nodes with the terminals' roles swapped."""
    root = arrays.root if arrays.root > TRUE else 1 - arrays.root
    swap = np.array([TRUE, FALSE], dtype=_INT)
    lo = np.where(arrays.lo <= TRUE, swap[np.minimum(arrays.lo, 1)], arrays.lo)
    hi = np.where(arrays.hi <= TRUE, swap[np.minimum(arrays.hi, 1)], arrays.hi)
    lo[:2], hi[:2] = (0, 1), (0, 1)
    return DiagramArrays(arrays.nvars, arrays.columns[0], lo, hi, root)


def level_order(arrays: DiagramArrays) -> tuple[np.ndarray, np.ndarray]:
    """Each level's nodes in increasing order of their children: ``(nodes, keys)``.

    ``keys`` are ``low * size + high`` (below ``2**62``), ``nodes`` the node numbers in
    that order within each level's block (the blocks stay in place). bnx makes each level
    in this order (:func:`canonical`), which one pass over all nodes confirms; only arrays
    made otherwise are sorted.
    """
    level, lo, hi = arrays.level, arrays.lo, arrays.hi
    key = lo * arrays.size + hi
    if not ((np.diff(key[2:]) <= 0) & (np.diff(level[2:]) == 0)).any():
        return np.arange(arrays.size, dtype=_INT), key
    order = np.lexsort((key, -level))
    return order, key[order]


def negations(arrays: DiagramArrays) -> np.ndarray:
    """Per node, the node of its negation, or ``-1`` where the arrays do not hold it."""
    neg = np.full(arrays.size, -1, dtype=_INT)
    neg[FALSE], neg[TRUE] = TRUE, FALSE
    lo, hi, m = arrays.lo, arrays.hi, arrays.size
    nodes, keys = level_order(arrays)
    for lvl in range(arrays.nvars - 1, -1, -1):
        s = arrays.block(lvl)
        if s.start == s.stop:
            continue
        # the key of the node with the children's negations; no node has it when a
        # child's negation is missing (then it is negative, or its high part is m - 1)
        want = neg[lo[s]] * m + neg[hi[s]]
        k = keys[s]
        at = np.minimum(np.searchsorted(k, want), len(k) - 1)
        neg[s] = np.where(k[at] == want, nodes[s][at], -1)
    return neg


def dd_size(arrays: DiagramArrays) -> int:
    """Count the nodes ``dd`` counts for the function (``dag_size``).

    A node and its negation are one node there (complemented edges), and there is one
    terminal.
    """
    if arrays.root <= TRUE:
        return 1
    paired = int(np.count_nonzero(negations(arrays)[2:] >= 0))
    return 1 + arrays.size - 2 - paired // 2


def count(arrays: DiagramArrays, root: int | None = None) -> int:
    """Count the assignments to all ``nvars`` levels on which the function is true (exact)."""
    root = arrays.root if root is None else int(root)
    n = arrays.nvars
    if root <= TRUE:
        return (1 << n) if root == TRUE else 0
    exact = n >= 62
    c = np.zeros(root + 1, dtype=object if exact else _INT)
    c[TRUE] = 1
    level, lo, hi = arrays.level[:root + 1], arrays.lo[:root + 1], arrays.hi[:root + 1]
    pow2 = (np.array([1 << k for k in range(n + 1)], dtype=object) if exact
            else (np.int64(1) << np.arange(n + 1, dtype=_INT)))
    # per node, the weight of each child: 2 ** (the levels skipped below the node)
    skip = -1 - level
    wlo, whi = pow2[level[lo] + skip], pow2[level[hi] + skip]
    for lvl in range(n - 1, -1, -1):
        s = arrays.block(lvl)
        if s.start > root:
            break
        s = slice(s.start, min(s.stop, root + 1))
        if s.start < s.stop:
            c[s] = c[lo[s]] * wlo[s] + c[hi[s]] * whi[s]
    return int(c[root]) * (1 << int(level[root]))
