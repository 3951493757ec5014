"""The robustness profile on the diagram's arrays: erosion of a function, counted per node.

With ``P`` the positive instances, let ``F_0 = P`` and ``F_{k+1} = E(F_k)``, where the
*erosion* of a function is ``E(f) = f AND AND_i FORALL_i f`` over the mutable features
``i`` (``FORALL_i f`` holds at ``x`` when ``f`` holds whatever state ``i`` takes). Then
``x`` is in ``F_k`` exactly when every instance within ``k`` changes of mutable features of
``x`` is positive (by induction: an instance within ``k + 1`` changes of ``x`` is within
``k`` changes of an instance within one change of ``x``, and that instance is ``x`` itself
or some ``x[i := s]``). So a positive instance has robustness exactly ``k`` when it lies
in ``F_{k-1}`` but not in ``F_k``, and ``|F_{k-1}| - |F_k|`` counts them. ``F_k`` only
shrinks; once it stops, it stays, and what is left can never be flipped. The negative
instances are counted the same way on the negation.

The erosion is one bottom-up pass over the nodes of ``f``, feature by feature. At a node
``u`` whose feature is ``i``, with cofactors ``f_s`` over ``i``'s states: for a later
feature ``j``, ``FORALL_j`` commutes with the cofactor; ``FORALL_i f`` is the *star* of
``u``, the conjunction of its cofactors (:mod:`._conj`), which does not test ``i``; an
earlier feature is not tested at all. So ``E(u)`` is the node of feature ``i`` whose child
on ``s`` is ``E(f_s) AND star(u)`` (``E(f_s)`` alone when ``i`` is immutable). ``E`` is
memoised per node, and so is the number of instances (over the node's features, valid
state codes only) that a node accepts: each round only visits the nodes it has not met.

Where the decision is unate (every binary-class naive Bayes, :mod:`bnx.classifier._unate`) the star
of ``u`` is its cofactor on the least state ``l`` of ``i``, one gather, and the child on
``l`` is ``E(f_l)`` (which implies ``f_l``): no conjunction for it. The erosions stay unate
in the same state orders, so the shortcut holds in every round. Proof: order the
instances componentwise by the states' keys, so the positive set ``P`` is upward closed
(``x <= y`` and ``x`` positive give ``y`` positive). Let ``x <= y`` with every instance
within ``k`` changes of ``x`` positive, and ``z`` within ``k`` changes of ``y``, on the
features ``S``. The instance ``z'`` equal to ``z`` on ``S`` and to ``x`` elsewhere is
within ``k`` changes of ``x`` (the same features, so immutable ones keep their states),
hence positive, and ``z' <= z``; so ``z`` is positive: ``F_k`` is upward closed too. The
negatives are upward closed in the reversed orders, and so are their erosions.

Multi-valued features are log-encoded: a node may sit inside its feature's bits (a parent
skipped the first ones); its cofactors follow each state's code from there
(:meth:`Store.cofactor`). Only valid codes are ever followed or counted, so what a node
says about the codes that name no state does not matter.

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> counts, stuck = eroded_counts(odd.arrays, odd.encoding, [True] * 4)
>>> counts, stuck                    # positives of robustness 1 and 2; none stuck
({1: 5, 2: 1}, 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .._lazy import numpy_on_first_use
from ..diagram._arrays import DiagramArrays, unique
from ..diagram._passes import recursion_for
from ..diagram.encoding import Encoding
from ._conj import Store
from .nodetable import NodeTable

np = numpy_on_first_use(globals())

__all__ = ["Erosion", "SmallErosion", "eroded_counts", "SMALL"]

#: Diagrams with at most this many nodes are eroded by :class:`SmallErosion` (Python
#: lists and dicts: no per-level numpy calls, which cost more there than the nodes).
SMALL = 2_000

_INT = "int64"  # (a dtype name: numpy is imported on first use)


class Erosion:
    """Erosions and counts of the functions of a :class:`Store`, memoised per node.

    Parameters
    ----------
    store : Store
        The nodes (its ``least`` states, if any, must hold for every function eroded).
    enc : Encoding
    mutable : sequence of bool
        Per feature, whether it may change.
    """

    #: Counts reach this (the number of instances) and are kept as Python integers.
    BIG = 1 << 62

    def __init__(self, store: Store, enc: Encoding, mutable: Sequence[bool]) -> None:
        self.st = store
        self.n = n = len(enc.features)
        self.nstates = [len(s) for s in enc.states]
        self.nbits = [len(b) for b in enc.bits]
        self.first = list(enc.first_level)
        self.mutable = [bool(m) and k > 1 for m, k in zip(mutable, self.nstates)]
        dtype = object if math.prod(self.nstates) >= self.BIG else _INT
        skip = [1] * (n + 1)  # skip[i]: the number of joint states of features i ..
        for i in range(n - 1, -1, -1):
            skip[i] = skip[i + 1] * self.nstates[i]
        self.skip = np.array(skip, dtype=dtype)
        self.eroded = np.array([0, 1], dtype=_INT)  # per node: its erosion (-1: not yet)
        self.counts = np.array([0, 1], dtype=dtype)  # per node: its count
        self.counted = np.array([True, True])

    def _fit(self) -> None:
        """Grow the per-node memos to the store's size."""
        n, have = self.st.n, len(self.eroded)
        if n <= have:
            return
        cap = max(n, 2 * have)
        more = cap - have
        self.eroded = np.concatenate([self.eroded, np.full(more, -1, dtype=_INT)])
        self.counts = np.concatenate([self.counts, np.zeros(more, dtype=self.counts.dtype)])
        self.counted = np.concatenate([self.counted, np.zeros(more, dtype=bool)])

    def _feature(self, us: np.ndarray) -> np.ndarray:
        return self.st.feature_of[self.st.level[us]]

    def _work(self, root: int, known: np.ndarray) -> list:
        """The nodes below ``root`` (reached at feature boundaries) that ``known`` does
        not mark, top-down: a list of ``(feature, nodes, cofactors)``, the cofactors one
        row per node and one column per state."""
        out = []
        if known[root]:
            return out
        pending: dict = {int(self._feature(np.array([root]))[0]): [np.array([root], dtype=_INT)]}
        while pending:
            i = min(pending)
            parts = pending.pop(i)
            us = unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]
            kids = self.st.cofactors(us, i)
            out.append((i, us, kids))
            nxt = unique(kids.ravel())
            nxt = nxt[~known[nxt]]
            if not len(nxt):
                continue
            feats = self._feature(nxt)
            for j in np.unique(feats).tolist():
                pending.setdefault(j, []).append(nxt[feats == j])
        return out

    def count(self, root: int) -> int:
        """The number of complete instances (valid codes) on which ``root`` is true."""
        self._fit()
        counts, skip = self.counts, self.skip
        for i, us, kids in reversed(self._work(root, self.counted)):
            width = skip[i + 1] // skip[self._feature(kids)]
            counts[us] = (counts[kids] * width).sum(axis=1)
            self.counted[us] = True
        return int(counts[root]) * int(skip[0] // skip[int(self._feature(np.array([root]))[0])])

    def erode(self, root: int) -> int:
        """The node of ``E(root)``."""
        self._fit()
        st = self.st
        least = st.least
        for i, us, kids in reversed(self._work(root, self.eroded >= 0)):
            rows = self.eroded[kids]
            if self.mutable[i]:
                todo = np.flatnonzero(st.star[us] < 0)
                if len(todo):
                    st.make_stars(us[todo], i)
                star = st.star[us]
                cols = [s for s in range(self.nstates[i]) if least is None or s != least[i]]
                got = st.conj(rows[:, cols].ravel(), np.repeat(star, len(cols)))
                rows[:, cols] = got.reshape(len(us), len(cols))
            made = self._select(i, rows)
            self._fit()
            self.eroded[us] = made
        return int(self.eroded[root])

    def _select(self, i: int, rows: np.ndarray) -> np.ndarray:
        """The nodes of feature ``i`` going to ``rows[:, s]`` on state ``s`` (codes that
        name no state lead to false)."""
        m, a = self.nbits[i], self.first[i]
        cur = np.zeros((len(rows), 1 << m), dtype=_INT)
        cur[:, :rows.shape[1]] = rows
        for b in range(m - 1, -1, -1):
            cur = self.st.nodes(a + b, cur[:, 0::2].ravel(), cur[:, 1::2].ravel()
                                ).reshape(len(rows), 1 << b)
        return cur[:, 0]


class SmallErosion:
    """:class:`Erosion` on Python lists, one node at a time (memoised recursions): for
    small diagrams, where a numpy call per level and feature costs more than the nodes.

    Its nodes are the diagram's, then the new ones, in a :class:`~.nodetable.NodeTable`
    (reduced and canonical, conjunctions memoised); ``least`` as for
    :class:`~._conj.Store`.
    """

    def __init__(self, arrays: DiagramArrays, enc: Encoding, mutable: Sequence[bool],
                 least: tuple | None = None) -> None:
        t = NodeTable.from_arrays(arrays)  # its lists grow in place: the aliases stay
        self.level, self.lo, self.hi, self.node, self.conj = t.var, t.lo, t.hi, t.node, t.conj
        self.n = n = len(enc.features)
        self.first = list(enc.first_level)
        self.nbits = [len(b) for b in enc.bits]
        self.nstates = [len(s) for s in enc.states]
        self.mutable = [bool(m) and k > 1 for m, k in zip(mutable, self.nstates)]
        self.least = least
        self.feature_of = [0] * (arrays.nvars + 1)
        for i in range(n):
            for lv in range(self.first[i], self.first[i + 1]):
                self.feature_of[lv] = i
        self.feature_of[arrays.nvars] = n
        skip = [1] * (n + 1)
        for i in range(n - 1, -1, -1):
            skip[i] = skip[i + 1] * self.nstates[i]
        self.skip = skip
        self.eroded = {0: 0, 1: 1}
        self.counts = {0: 0, 1: 1}

    def cofactor(self, u: int, i: int, j: int) -> int:
        a, m = self.first[i], self.nbits[i]
        for bit in range(m):
            if self.level[u] == a + bit:
                u = self.hi[u] if (j >> (m - 1 - bit)) & 1 else self.lo[u]
        return u

    def erode(self, u: int) -> int:
        got = self.eroded.get(u)
        if got is not None:
            return got
        i = self.feature_of[self.level[u]]
        kids = [self.cofactor(u, i, j) for j in range(self.nstates[i])]
        rows = [self.erode(k) for k in kids]
        if self.mutable[i]:
            least = None if self.least is None else self.least[i]
            if least is None:
                star = kids[0]
                for k in kids[1:]:
                    star = self.conj(star, k)
            else:
                star = kids[least]
            rows = [r if j == least else self.conj(r, star) for j, r in enumerate(rows)]
        rows += [0] * ((1 << self.nbits[i]) - len(rows))
        for b in range(self.nbits[i] - 1, -1, -1):
            rows = [self.node(self.first[i] + b, rows[k], rows[k + 1])
                    for k in range(0, len(rows), 2)]
        got = self.eroded[u] = rows[0]
        return got

    def _count(self, u: int) -> int:
        got = self.counts.get(u)
        if got is None:
            i = self.feature_of[self.level[u]]
            skip, feat, level = self.skip, self.feature_of, self.level
            got = self.counts[u] = sum(
                self._count(k) * (skip[i + 1] // skip[feat[level[k]]])
                for k in (self.cofactor(u, i, j) for j in range(self.nstates[i])))
        return got

    def count(self, u: int) -> int:
        return self._count(u) * (self.skip[0] // self.skip[self.feature_of[self.level[u]]])


def eroded_counts(arrays: DiagramArrays, enc: Encoding, mutable: Sequence[bool],
                  least: tuple | None = None, *, small: int | None = None) -> tuple[dict, int]:
    """``({k: instances of the function at robustness k}, instances never flipped)``:
    the instances on which ``arrays``' function is true (valid codes only), by the
    fewest changes of ``mutable`` features that make it false; ``least``: per feature,
    the state whose cofactor implies the others, where the function is unate. Diagrams
    of at most ``small`` nodes (default :data:`SMALL`) go through :class:`SmallErosion`."""
    if arrays.size <= (SMALL if small is None else small):
        er = SmallErosion(arrays, enc, mutable, least)
        with recursion_for(arrays.nvars):
            return _rounds(er, arrays.root)
    return _rounds(Erosion(Store(arrays, enc, least=least), enc, mutable), arrays.root)


def _rounds(er, root: int) -> tuple[dict, int]:
    """Erode until nothing changes, counting what each round takes away."""
    size = er.count(root)
    out: dict = {}
    k = 0
    while size and any(er.mutable):
        nxt = er.erode(root)
        got = er.count(nxt)
        if got == size:
            break
        k += 1
        out[k] = size - got
        root, size = nxt, got
    return out, size
