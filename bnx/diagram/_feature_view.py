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
>>> fv.feature.tolist(), fv.child(fv.root, 2)
([2, 2, 1, 0, 0, 0], 1)
>>> decide_states(fv.arrays, enc, [[1, 1], [0, 1]]).tolist()
[True, False]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._arrays import TRUE, DiagramArrays, cofactor, unique
from ._memo import register
from .encoding import Encoding

register("feature_view", 4, "each node's child per feature state, per encoding")
register("level_bits", 1, "per level, its feature and bit (deciding instances)")
register("paired_children", 1, "each node's two children side by side (deciding instances)")

__all__ = ["BIG", "Counts", "Features", "FeatureView", "feature_view", "count_instances",
           "decide", "decide_states", "state_bits"]

_INT = np.int64


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
    """Return the function's value on one complete instance given as state indices.

    The indices are one per feature, in the ODD's order; one walk down the feature view,
    a feature per step. Many instances at once: :func:`decide_states`.

    Examples
    --------
    >>> enc = Encoding(("a",), (("x", "y", "z"),))
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z
    >>> [decide(a, enc, [j]) for j in range(3)]
    [True, False, True]
    """
    u = arrays.root if root is None else int(root)
    fv = feature_view(arrays, enc)
    feature, first, kids = fv.feature, fv.first_node, fv.kids
    while u > TRUE:
        i = feature[u]
        u = int(kids[i][u - first[i], x[i]])
    return u == TRUE


def decide_states(arrays: DiagramArrays, enc: Encoding, indices,
                  root: int | None = None) -> np.ndarray:
    """Evaluate the function on complete instances given as state indices; one bool per row.

    One row per instance, one column per feature in the ODD's order. All rows walk down
    the levels at once (a level per step, at most ``nvars`` steps: the terminals are their
    own children), reading each row's bit of the level it is at (:func:`state_bits`).

    Examples
    --------
    >>> enc = Encoding(("a",), (("x", "y", "z"),))
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z
    >>> decide_states(a, enc, [[0], [1], [2]]).tolist()
    [True, False, True]
    """
    idx = np.asarray(indices, dtype=_INT)
    if idx.ndim == 1:
        idx = idx[None, :]
    root = arrays.root if root is None else int(root)
    level, n = arrays.level, arrays.nvars
    kids = arrays.cache.make("paired_children", (), lambda: np.stack(
        [arrays.lo, arrays.hi], axis=1).reshape(-1))  # node u's child on bit b: 2 u + b
    out = np.empty(len(idx), dtype=bool)
    step = max(1, _CHUNK // (n + 1))
    for a in range(0, len(idx), step):  # in parts: the bits of a part are one small table
        bits = state_bits(enc, idx[a:a + step], arrays).reshape(-1)
        base = np.arange(0, bits.size, n + 1, dtype=_INT)
        u = np.full(len(base), root, dtype=_INT)
        for i in range(n):  # (take: cheaper than indexing, on small arrays)
            at = level.take(u)
            if i % 8 == 7 and at.min() == n:
                break
            u = kids.take(2 * u + bits.take(base + at))
        out[a:a + step] = u == TRUE
    return out


#: Instances times levels decided in one part (:func:`decide_states`' bits table).
_CHUNK = 1 << 20


def state_bits(enc: Encoding, indices: Sequence[Sequence[int]],
               arrays: DiagramArrays | None = None) -> np.ndarray:
    """Return the bits of complete instances given as state indices: one row each.

    One column per level and a last one of zeros (the terminals' level): the bit of the
    state's code that the level tests, most significant first (:mod:`bnx.diagram.encoding`).
    ``arrays``: a diagram under ``enc``, whose cache keeps each level's feature and bit.

    Examples
    --------
    >>> enc = Encoding(("a", "b"), (("x", "y", "z"), ("0", "1")))
    >>> state_bits(enc, [[2, 1], [1, 0]]).astype(int).tolist()
    [[1, 0, 1, 0], [0, 1, 0, 0]]
    """
    idx = np.asarray(indices, dtype=_INT)
    if idx.ndim == 1:
        idx = idx[None, :]
    key = (enc.first_level, tuple(len(b) for b in enc.bits))
    got = None if arrays is None else arrays.cache.get("level_bits", key)
    if got is None:  # per level its feature (Features.level_feature) and its bit's shift
        f = Features(enc.nvars, enc)
        feature = f.level_feature.copy()
        n = len(f.nbits)
        inner = feature < n
        feature[~inner] = 0  # the terminals' level: any column, masked to 0 below
        last = np.asarray(f.first[1:], dtype=_INT)[feature] - 1
        shift = np.where(inner, last - np.arange(enc.nvars + 1), 0)
        got = feature, shift, inner
        if arrays is not None:
            got = arrays.cache.put("level_bits", key, got)
    feature, shift, inner = got
    if not idx.shape[1]:
        return np.zeros((len(idx), enc.nvars + 1), dtype=bool)
    return ((idx[:, feature] >> shift) & 1).astype(bool) & inner


def count_instances(arrays: DiagramArrays, enc: Encoding, root: int | None = None) -> int:
    """Count, exactly, the complete instances on which ``arrays`` (or its node ``root``) is true.

    One state per feature, under ``enc``. Equal to
    :func:`bnx.diagram._arrays.count` exactly when the function is false on every code
    that names no state. One pass a feature at a time bottom-up (:meth:`Features.count`,
    the one count over valid codes, a store's too).

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
    return Features(arrays.nvars, enc).count(arrays.level, arrays.lo, arrays.hi, root)


class Features:
    """The features of a diagram's levels, for the passes that go a whole feature at a time.

    They serve any diagram in the array form (a :class:`DiagramArrays`' columns or a
    store's): per feature its first level, bits and states, per level its feature, and
    ``skip[i]``, the number of joint states of the features from ``i`` on. Without an
    encoding, each level is a two-state feature of its own.

    Examples
    --------
    >>> f = Features(2, Encoding(("a",), (("x", "y", "z"),)))
    >>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 1], 3)   # x or z
    >>> f.count(a.level, a.lo, a.hi, a.root), f.skip
    (2, [3, 1])
    """

    __slots__ = ("first", "nbits", "nstates", "level_feature", "skip")

    def __init__(self, nvars: int, enc: Encoding | None = None) -> None:
        if enc is None:
            self.first, self.nbits, self.nstates = tuple(range(nvars + 1)), [1] * nvars, \
                [2] * nvars
        else:
            self.first = enc.first_level
            self.nbits = [len(b) for b in enc.bits]
            self.nstates = [len(s) for s in enc.states]
        n = len(self.nbits)
        self.level_feature = np.array(
            [i for i in range(n) for _ in range(self.first[i + 1] - self.first[i])] + [n],
            dtype=_INT)
        skip = [1] * (n + 1)
        for i in range(n - 1, -1, -1):
            skip[i] = skip[i + 1] * self.nstates[i]
        self.skip = skip

    def cofactors(self, level, lo, hi, us: np.ndarray, i: int) -> np.ndarray:
        """Return the cofactors of nodes ``us`` over the states of feature ``i``.

        Each node tests or skips feature ``i``; one row per node, one column per state.
        """
        out = np.empty((len(us), self.nstates[i]), dtype=_INT)
        for j in range(self.nstates[i]):
            out[:, j] = cofactor(level, lo, hi, us, self.first[i], self.nbits[i], j)
        return out

    def reached(self, level, lo, hi, root: int, known: np.ndarray) -> list:
        """List the nodes below ``root`` that ``known`` does not mark, top-down.

        The nodes are reached at feature boundaries, valid codes only: a list of
        ``(feature, nodes, cofactors)``, the cofactors one row per node and one column per
        state.
        """
        out = []
        if known[root]:
            return out
        of = self.level_feature
        pending: dict = {int(of[level[root]]): [np.array([root], dtype=_INT)]}
        while pending:
            i = min(pending)
            parts = pending.pop(i)
            us = unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]
            kids = self.cofactors(level, lo, hi, us, i)
            out.append((i, us, kids))
            nxt = unique(kids.ravel())
            nxt = nxt[~known[nxt]]
            if not len(nxt):
                continue
            feats = of[level[nxt]]
            for j in np.unique(feats).tolist():
                pending.setdefault(j, []).append(nxt[feats == j])
        return out

    def count(self, level, lo, hi, root: int, memo: Counts | None = None) -> int:
        """Count the complete instances on which node ``root`` is true.

        One state per feature, valid codes only; one feature's nodes at a time, bottom-up;
        ``memo`` keeps each node's count across calls (the nodes never change).
        """
        if memo is None:
            memo = Counts(self)
        memo.fit(len(level))
        counts, skip, of = memo.counts, memo.skip, self.level_feature
        for i, us, kids in reversed(self.reached(level, lo, hi, root, memo.known)):
            counts[us] = (counts[kids] * (skip[i + 1] // skip[of[level[kids]]])).sum(axis=1)
            memo.known[us] = True
        return int(counts[root]) * int(skip[0] // skip[int(of[level[root]])])


#: Counts reach this (a number of instances) and are then kept as Python integers.
BIG = 1 << 62


class Counts:
    """Per node, the count of :meth:`Features.count` and whether it is counted yet.

    The count is the number of joint states of the features from the node's own on where
    the node is true.
    """

    __slots__ = ("counts", "known", "skip")

    def __init__(self, features: Features) -> None:
        dtype = object if features.skip[0] >= BIG else _INT
        self.skip = np.array(features.skip, dtype=dtype)
        self.counts = np.array([0, 1], dtype=dtype)
        self.known = np.array([True, True])

    def fit(self, n: int) -> None:
        """Room for ``n`` nodes."""
        have = len(self.counts)
        if n > have:
            more = max(n, 2 * have) - have
            self.counts = np.concatenate([self.counts, np.zeros(more, dtype=self.counts.dtype)])
            self.known = np.concatenate([self.known, np.zeros(more, dtype=bool)])

    def __len__(self) -> int:
        return int(np.count_nonzero(self.known))
