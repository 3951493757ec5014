"""The array form of a diagram seen per feature: each node's child for each state.

Most questions branch on a feature's *states*, not on the bits that log-encode them
(:mod:`bnx.diagram.encoding`). For feature ``i`` (bits at levels ``first_level[i]`` to
``first_level[i + 1] - 1``, state ``j`` coded most significant bit first), the nodes that
test one of its bits are one contiguous range of node numbers, and following the code of
state ``j`` from each of them is a vectorised gather per bit. :func:`feature_view` does
that once per diagram and keeps the result in the arrays' cache.

A node ``u`` then reads as: it tests feature ``feature[u]`` (``n`` for the terminals) and
goes to ``kids[i][u - first_node[i]][j]`` on state ``j``; a child may skip features,
which then do not matter below it. A node in the middle of a feature's bits (its first
bits skipped) is a node of that feature too: following a state's code from it skips the
bits it does not test.

Examples
--------
>>> from bnx.diagram._arrays import Builder
>>> from bnx.diagram.encoding import Encoding
>>> enc = Encoding(("a", "b"), (("x", "y", "z"), ("0", "1")))
>>> bld = Builder(enc.nvars)
>>> b = bld.nodes(2, [0], [1])                      # b = "1"
>>> root = bld.select(0, 2, [[0, b[0], 1]])         # a = x: false, y: b, z: true
>>> fv = feature_view(bld.finish(int(root[0])), enc)
>>> fv.feature.tolist(), fv.child(fv.root, 2), decide_states(fv, [[1, 1], [0, 1]]).tolist()
([2, 2, 1, 0, 0, 0], 1, [True, False])
"""

from __future__ import annotations

from collections.abc import Sequence

import lazy_loader

from ._arrays import TRUE, DiagramArrays, cofactor
from .encoding import Encoding

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["FeatureView", "feature_view", "count_instances", "decide", "decide_states",
           "state_bits"]

_INT = "int64"  # (a dtype name: numpy is imported on first use)


class FeatureView:
    """Per feature, the nodes that test it and their child on each of its states.

    Attributes
    ----------
    arrays : DiagramArrays
    n : int
        Number of features.
    feature : numpy.ndarray
        Per node, the feature it tests (``n`` for the terminals).
    first_node, last_node : numpy.ndarray
        Per feature ``i``, the nodes testing it are ``first_node[i] .. last_node[i] - 1``
        (a contiguous range; empty for a feature the diagram never tests).
    kids : list of numpy.ndarray
        Per feature ``i``, a matrix with one row per node of the feature and one column
        per state: the child reached on that state.
    root : int
    """

    __slots__ = ("arrays", "enc", "n", "feature", "first_node", "last_node", "kids", "root",
                 "nstates")

    def __init__(self, arrays: DiagramArrays, enc: Encoding) -> None:
        self.arrays = arrays
        self.enc = enc
        self.root = arrays.root
        n = self.n = len(enc.features)
        self.nstates = [len(s) for s in enc.states]
        first = np.asarray(enc.first_level, dtype=_INT)
        # the feature of each level: the last feature whose first level is at or before it
        of_level = np.searchsorted(first, np.arange(arrays.nvars + 1), side="right") - 1
        of_level[arrays.nvars] = n
        self.feature = of_level[arrays.level]
        self.feature[:2] = n
        starts = arrays.starts
        # levels descend with node numbers: feature i's nodes lie between the start of its
        # last level's block and the end of its first level's block
        self.first_node = np.empty(n, dtype=_INT)
        self.last_node = np.empty(n, dtype=_INT)
        level, lo, hi = arrays.level, arrays.lo, arrays.hi
        self.kids = []
        for i in range(n):
            a, b = int(first[i]), int(first[i + 1])
            s0, s1 = int(starts[b]), int(starts[a])
            self.first_node[i], self.last_node[i] = s0, s1
            m = b - a
            nodes = np.arange(s0, s1, dtype=_INT)
            out = np.empty((len(nodes), self.nstates[i]), dtype=_INT)
            for j in range(self.nstates[i]):
                out[:, j] = cofactor(level, lo, hi, nodes, a, m, j)
            self.kids.append(out)

    def child(self, u: int, state: int) -> int:
        """Return the child of node ``u`` on state ``state`` of the feature it tests."""
        i = int(self.feature[u])
        return int(self.kids[i][u - self.first_node[i], state])


def feature_view(arrays: DiagramArrays, enc: Encoding) -> FeatureView:
    """Return the :class:`FeatureView` of ``arrays`` under ``enc`` (made once, then cached)."""
    key = (enc.first_level, tuple(len(s) for s in enc.states))
    got = arrays.cache.get("feature_view", key)
    if got is None:
        got = arrays.cache.put("feature_view", key, FeatureView(arrays, enc))
    return got


def decide(arrays: DiagramArrays, enc: Encoding, x: Sequence[int],
           root: int | None = None) -> bool:
    """Evaluate the function on one complete instance given as state indices.

    One index per feature, in the ODD's order; by one walk down the diagram: over its
    columns in Python on a small diagram (no numpy), feature by feature on the feature view
    of a large one. Many instances at once: :func:`decide_states`.

    Examples
    --------
    >>> enc = Encoding(("a",), (("x", "y", "z"),))
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z
    >>> [decide(a, enc, [j]) for j in range(3)]
    [True, False, True]
    """
    u = arrays.root if root is None else int(root)
    if arrays.small:
        key = enc.first_level
        got = arrays.cache.get("level_bits", key)
        if got is None:  # per level, its feature and the shift of its bit in the code
            feat, shift = [], []
            for i, bs in enumerate(enc.bits):
                for b in range(len(bs)):
                    feat.append(i)
                    shift.append(len(bs) - 1 - b)
            got = arrays.cache.put("level_bits", key, (feat, shift))
        feat, shift = got
        level, lo, hi = arrays.columns
        while u > TRUE:
            lv = level[u]
            u = hi[u] if (x[feat[lv]] >> shift[lv]) & 1 else lo[u]
        return u == TRUE
    fv = feature_view(arrays, enc)
    feature, first, kids = fv.feature, fv.first_node, fv.kids
    while u > TRUE:
        i = feature[u]
        u = int(kids[i][u - first[i], x[i]])
    return u == TRUE


def decide_states(fv: FeatureView, indices, root: int | None = None) -> np.ndarray:
    """Evaluate the function on complete instances given as state indices; one bool per row.

    One row per instance, one column per feature in the ODD's order.

    Examples
    --------
    >>> enc = Encoding(("a",), (("x", "y", "z"),))
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z
    >>> decide_states(feature_view(a, enc), [[0], [1], [2]]).tolist()
    [True, False, True]
    """
    idx = np.asarray(indices, dtype=_INT)
    if idx.ndim == 1:
        idx = idx[None, :]
    root = fv.root if root is None else int(root)
    u = np.full(len(idx), root, dtype=_INT)
    active = np.flatnonzero(u > TRUE)
    while len(active):
        w = u[active]
        f = fv.feature[w]
        nxt = np.empty_like(w)
        for i in np.unique(f).tolist():
            sel = f == i
            ws = w[sel]
            nxt[sel] = fv.kids[i][ws - fv.first_node[i], idx[active[sel], i]]
        u[active] = nxt
        active = active[nxt > TRUE]
    return u == TRUE


def count_instances(arrays: DiagramArrays, enc: Encoding, root: int | None = None) -> int:
    """Count the complete instances on which the function ``arrays`` is true, under ``enc``.

    Or those on which its node ``root`` is; one state per feature; exact. Equal to
    :func:`bnx.diagram._arrays.count` exactly when the function is false on every code that
    names no state. In Python on a small diagram, by the feature view on a large one.

    Examples
    --------
    >>> from bnx.diagram.encoding import Encoding
    >>> from bnx.diagram._arrays import count
    >>> enc = Encoding(("a",), (("x", "y", "z"),))        # codes 00, 01, 10 (11 unused)
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z (11: true)
    >>> count(a), count_instances(a, enc)
    (3, 2)
    """
    root = arrays.root if root is None else int(root)
    n = len(enc.features)
    nstates = [len(s) for s in enc.states]
    skip = [1] * (n + 1)  # skip[i]: the number of instances of features i .. n - 1
    for i in range(n - 1, -1, -1):
        skip[i] = skip[i + 1] * nstates[i]
    if root <= TRUE:
        return skip[0] if root == TRUE else 0
    first = enc.first_level
    if not arrays.small:
        fv = feature_view(arrays, enc)
        return _count_vectorised(fv, skip, root) * (skip[0] // skip[int(fv.feature[root])])
    level, lo, hi = arrays.columns
    feature_of = [i for i in range(n) for _ in range(first[i + 1] - first[i])] + [n]
    c = [0, 1]
    for u in range(2, root + 1):
        i = feature_of[level[u]]
        a, m = first[i], first[i + 1] - first[i]
        total = 0
        for j in range(nstates[i]):
            v = cofactor(level, lo, hi, u, a, m, j)
            total += c[v] * (skip[i + 1] // skip[feature_of[level[v]]])
        c.append(total)
    return c[root] * (skip[0] // skip[feature_of[level[root]]])


def _count_vectorised(fv: FeatureView, skip: list[int], root: int) -> int:
    """Count the instances of node ``root`` over the features from its own.

    By one pass over the feature view.
    """
    n = fv.n
    exact = skip[0] >= 1 << 62
    c = np.zeros(fv.arrays.size, dtype=object if exact else _INT)
    skip = np.array(skip, dtype=object if exact else _INT)
    c[TRUE] = 1
    for i in range(n - 1, -1, -1):
        s0, s1 = int(fv.first_node[i]), int(fv.last_node[i])
        if s0 == s1:
            continue
        kids = fv.kids[i]
        f = fv.feature[kids]  # the feature each child tests (n for the terminals)
        # a child testing feature k leaves features i + 1 .. k - 1 free
        c[s0:s1] = (c[kids] * (skip[i + 1] // skip[f])).sum(axis=1)
    return int(c[root])


def state_bits(enc: Encoding, indices: Sequence[Sequence[int]]) -> np.ndarray:
    """Return the bits (one column per level) of complete instances given as state indices."""
    idx = np.asarray(indices, dtype=_INT)
    if idx.ndim == 1:
        idx = idx[None, :]
    out = np.zeros((len(idx), enc.nvars), dtype=bool)
    for i, bs in enumerate(enc.bits):
        m = len(bs)
        for b in range(m):
            out[:, enc.first_level[i] + b] = (idx[:, i] >> (m - 1 - b)) & 1
    return out


