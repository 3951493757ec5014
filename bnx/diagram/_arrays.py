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

The arrays are made once per diagram: by a compiler from the levels it builds
(:class:`Builder`), by the file loader from its stored arrays, or from any ``dd``
function by one walk (:func:`bnx.diagram._dd.from_dd`); :func:`bnx.diagram._dd.to_dd` writes
them back into a ``dd`` manager. Derived data (per-feature children, layouts, cached results of
questions) is kept in :attr:`DiagramArrays.cache` (a :class:`~bnx.diagram._memo.Caches`), since the
arrays never change.

Examples
--------
>>> b = Builder(2)
>>> x1 = b.nodes(1, [FALSE], [TRUE])            # the node "x1"
>>> f = b.nodes(0, x1, [TRUE])                 # "x0 or x1"
>>> a = b.finish(f[0])
>>> a.size, count(a), decide(a, [[0, 0], [0, 1], [1, 0]]).tolist()
(4, 3, [False, True, True])
"""

from __future__ import annotations

from collections.abc import Sequence

from .._lazy import numpy_on_first_use
from . import _array_lists as array_lists
from ._memo import Caches

np = numpy_on_first_use(globals())


__all__ = ["FALSE", "TRUE", "DiagramArrays", "Builder", "canonical",
           "count", "decide", "dd_size", "negate", "negations", "unique"]

FALSE, TRUE = 0, 1
_INT = "int64"  # (a dtype name: numpy is imported on first use)


class DiagramArrays:
    """A reduced ordered BDD over ``nvars`` levels, held as numpy arrays.

    Attributes
    ----------
    nvars : int
        Number of levels (``dd`` variables).
    level, lo, hi : numpy.ndarray of int64
        Per node: its level (``nvars`` for the terminals ``0`` and ``1``), its low
        and its high child. Read-only.
    root : int
        The node of the function.
    starts : numpy.ndarray or list
        ``starts[L]`` is 2 + the number of inner nodes at level ``L`` or deeper (a list
        while the arrays are held as lists).
    cache : Caches
        Data derived from the arrays, made once by the passes that need it (named,
        bounded kinds: :mod:`bnx.diagram._memo`).

    A small diagram read from a file is held as Python lists
    (:meth:`from_lists`); its numpy arrays are made when first read.
    """

    __slots__ = ("nvars", "_level", "_lo", "_hi", "_lists", "_starts", "root", "cache",
                 "__weakref__")

    def __init__(self, nvars: int, level, lo, hi, root: int) -> None:
        self.nvars = int(nvars)
        self.root = int(root)
        self._lists = None
        self._set(level, lo, hi)
        self.cache = Caches()

    def _set(self, level, lo, hi) -> None:
        self._level, self._lo, self._hi = (np.ascontiguousarray(a, dtype=_INT)
                                           for a in (level, lo, hi))
        for a in (self._level, self._lo, self._hi):
            a.setflags(write=False)
        # starts[L] is 2 + the number of inner nodes at level L or deeper, so the nodes of
        # level L are starts[L + 1] .. starts[L] - 1
        lv = self._level[2:]
        if len(lv) and np.any(np.diff(lv) > 0):
            raise ValueError("nodes must be grouped by level, deepest first")
        self._starts = 2 + len(lv) - np.searchsorted(lv[::-1], np.arange(self.nvars + 1),
                                                     side="left")

    @classmethod
    def from_lists(cls, nvars: int, level: list[int], lo: list[int], hi: list[int],
                   root: int) -> DiagramArrays:
        """The arrays of a small diagram given as Python lists (a valid array form, as
        :func:`bnx.diagram._array_lists.problem` checks): kept as the lists, with the numpy
        arrays made on first use, so that loading a small file needs no numpy."""
        self = cls.__new__(cls)
        self.nvars, self.root, self.cache = int(nvars), int(root), Caches()
        self._lists = (level, lo, hi)
        self._level = self._lo = self._hi = None
        self._starts = array_lists.starts(self.nvars, level)
        return self

    def _arrays(self) -> None:
        # (read once: another thread may have made the arrays and dropped the lists)
        held = self._lists
        if held is not None:
            self._set(*held)
            self._lists = None

    def _column(k: int, what: str):
        def get(self) -> np.ndarray:
            got = (self._level, self._lo, self._hi)[k]
            if got is None:
                self._arrays()
                got = (self._level, self._lo, self._hi)[k]
            return got
        return property(get, doc=f"Per node, {what} (numpy, made on first use from lists).")

    level = _column(0, "its level")
    lo = _column(1, "its low child")
    hi = _column(2, "its high child")
    del _column

    @property
    def starts(self):
        """``starts[L]``: 2 + the number of inner nodes at level ``L`` or deeper (a list
        while the arrays are held as lists, then numpy)."""
        return self._starts

    @property
    def as_lists(self) -> bool:
        """Whether the arrays are still held as Python lists (no numpy array made)."""
        return self._lists is not None

    def lists(self, *, copy: bool = True) -> tuple[list[int], list[int], list[int]]:
        """``(level, lo, hi)`` as Python lists, for the passes over small diagrams that
        read single entries; with ``copy=False``, the lists held (not to be changed)."""
        held = self._lists
        if held is not None:
            return tuple(list(a) for a in held) if copy else held
        return self._level.tolist(), self._lo.tolist(), self._hi.tolist()

    @property
    def size(self) -> int:
        """Number of nodes, both terminals included."""
        held = self._lists
        return len(held[0]) if held is not None else len(self._level)

    def __len__(self) -> int:
        return self.size

    def block(self, lvl: int) -> slice:
        """The nodes of level ``lvl``, as a slice of the node numbers."""
        return slice(int(self._starts[lvl + 1]), int(self._starts[lvl]))

    def __repr__(self) -> str:
        return f"DiagramArrays(nvars={self.nvars}, size={self.size}, root={self.root})"

    def __getstate__(self):
        return (self.nvars, np.asarray(self.level), np.asarray(self.lo),
                np.asarray(self.hi), self.root)

    def __setstate__(self, state) -> None:
        self.__init__(*state)


def unique(x: np.ndarray, inverse: bool = False):
    """The sorted distinct values of the integer array ``x`` (and, with ``inverse``, the
    position of each entry of ``x`` among them): ``numpy.unique`` by one sort, several
    times faster than numpy 2's hashing ``unique`` on the arrays of millions of keys that
    the passes over diagrams make.

    Examples
    --------
    >>> keys, inv = unique(np.array([7, 2, 7, 5]), inverse=True)
    >>> keys.tolist(), inv.tolist()
    ([2, 5, 7], [2, 0, 2, 1])
    """
    if inverse:
        order = np.argsort(x)
        s = x[order]
    else:
        s = np.sort(x)
    keep = np.empty(len(s), dtype=bool)
    keep[:1] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    if not inverse:
        return s[keep]
    inv = np.empty(len(x), dtype=_INT)
    inv[order] = np.cumsum(keep) - 1
    return s[keep], inv


def canonical(nvars: int, level, lo, hi, roots: Sequence[int]) -> tuple[DiagramArrays, list[int]]:
    """The reduced, canonical :class:`DiagramArrays` of the functions ``roots`` of any
    ordered diagram given as arrays (node 0 false, node 1 true, children at deeper
    levels than their parents; duplicates and redundant tests allowed).

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

    def nodes(self, lvl: int, lo, hi) -> np.ndarray:
        """New nodes testing level ``lvl`` with children ``lo`` and ``hi`` (arrays of node
        numbers); returns their numbers."""
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
        """Nodes that branch on a log-encoded feature: ``kids`` has one row per node and
        one column per state (state ``j`` has the ``nbits``-bit code ``j``, most
        significant bit at level ``first``); codes that name no state lead to false."""
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
        """The canonical arrays below ``root`` (and the new numbers of ``more`` roots,
        when given: then ``(arrays, [root, *more])`` is returned)."""
        parts = [np.concatenate(p) for p in (self._lv, self._lo, self._hi)]
        self._lv = self._lo = self._hi = []  # freed before the reduction (peak memory)
        arrays, ids = canonical(self.nvars, *parts, [root, *more])
        return (arrays, ids) if more else arrays


# ---------------------------------------------------------------------- passes
def negate(arrays: DiagramArrays) -> DiagramArrays:
    """The negation: the same nodes with the terminals' roles swapped."""
    if arrays.as_lists:
        return DiagramArrays.from_lists(arrays.nvars, *array_lists.negate(
            *arrays.lists(), arrays.root))
    swap = np.array([TRUE, FALSE], dtype=_INT)
    lo = np.where(arrays.lo <= TRUE, swap[np.minimum(arrays.lo, 1)], arrays.lo)
    hi = np.where(arrays.hi <= TRUE, swap[np.minimum(arrays.hi, 1)], arrays.hi)
    lo[:2], hi[:2] = (0, 1), (0, 1)
    root = arrays.root if arrays.root > TRUE else 1 - arrays.root
    return DiagramArrays(arrays.nvars, arrays.level, lo, hi, root)


def negations(arrays: DiagramArrays) -> np.ndarray:
    """Per node, the node of its negation, or ``-1`` where the arrays do not hold it."""
    neg = np.full(arrays.size, -1, dtype=_INT)
    neg[FALSE], neg[TRUE] = TRUE, FALSE
    lo, hi = arrays.lo, arrays.hi
    for lvl in range(arrays.nvars - 1, -1, -1):
        s = arrays.block(lvl)
        if s.start == s.stop:
            continue
        m = s.stop + 1  # keys of (low, high) pairs of this level
        key = lo[s] * m + hi[s]
        order = np.argsort(key)
        a, b = neg[lo[s]], neg[hi[s]]
        want = np.where((a >= 0) & (b >= 0), a * m + b, -1)
        at = np.minimum(np.searchsorted(key[order], want), len(order) - 1)
        found = (want >= 0) & (key[order][at] == want)
        neg[s] = np.where(found, s.start + order[at], -1)
    return neg


def dd_size(arrays: DiagramArrays) -> int:
    """The number of nodes ``dd`` counts for the function (``dag_size``): a node and
    its negation are one node there (complemented edges), and there is one terminal."""
    if arrays.root <= TRUE:
        return 1
    if arrays.as_lists:
        return array_lists.dd_size(arrays.nvars, *arrays.lists(copy=False), arrays.root)
    neg = negations(arrays)
    inner = np.arange(2, arrays.size)
    paired = int(np.count_nonzero(neg[2:] >= 0))
    return 1 + len(inner) - paired // 2


def count(arrays: DiagramArrays, root: int | None = None) -> int:
    """Number of assignments to all ``nvars`` levels on which the function is true (exact)."""
    root = arrays.root if root is None else int(root)
    n = arrays.nvars
    if arrays.as_lists:
        return array_lists.count(n, *arrays.lists(copy=False), root)
    exact = n >= 62
    dtype = object if exact else _INT
    c = np.zeros(root + 1, dtype=dtype)
    if root >= TRUE:
        c[TRUE] = 1
    level, lo, hi = arrays.level, arrays.lo, arrays.hi
    pow2 = (np.array([1 << k for k in range(n + 1)], dtype=object) if exact
            else (np.int64(1) << np.arange(n + 1, dtype=_INT)))
    for lvl in range(n - 1, -1, -1):
        s = arrays.block(lvl)
        if s.start > root:
            break
        s = slice(s.start, min(s.stop, root + 1))
        if s.start >= s.stop:
            continue
        a, b = lo[s], hi[s]
        c[s] = c[a] * pow2[level[a] - lvl - 1] + c[b] * pow2[level[b] - lvl - 1]
    return int(c[root]) * (1 << int(level[root])) if root > TRUE else (
        (1 << n) if root == TRUE else 0)


def decide(arrays: DiagramArrays, bits, root: int | None = None) -> np.ndarray:
    """The function's value on many complete assignments: ``bits`` has one row per
    assignment and one column per level; returns one bool per row."""
    bits = np.asarray(bits, dtype=bool)
    if bits.ndim == 1:
        bits = bits[None, :]
    root = arrays.root if root is None else int(root)
    u = np.full(len(bits), root, dtype=_INT)
    rows = np.arange(len(bits))
    level, lo, hi = arrays.level, arrays.lo, arrays.hi
    active = rows[u > TRUE]
    while len(active):
        w = u[active]
        lv = level[w]
        b = bits[active, lv]
        u[active] = np.where(b, hi[w], lo[w])
        active = active[u[active] > TRUE]
    return u == TRUE
