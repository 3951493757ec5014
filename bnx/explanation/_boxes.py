"""The passes of the general reasons: boxes of states, checked and made maximal on the ODD.

A *box* around an instance ``x`` allows, per feature ``i``, a set ``S_i`` of its states
with ``x_i`` among them; it holds every instance whose state of each feature is allowed.
A box is held as bits: one level per feature ``i`` and state ``j`` (in the ODD's feature
order, then state order), set when ``j`` is allowed (:class:`Space`).

The boxes on which every instance reaches one terminal of the ODD (its *valid* boxes) are
one function of these bits, made bottom-up over the ODD's nodes seen per feature
(:mod:`bnx.diagram._feature_view`): a node ``u`` of feature ``i`` whose child on state
``j`` is ``c_j`` has ``V(u) = V(c_{x_i}) and (for every j != x_i) (not z_ij or V(c_j))``.
Only what a box can reach is visited: a node whose child on ``x_i`` is invalid is
invalid, whatever its other children, and a state ``j`` with which ``x`` itself (``x_i``
changed to ``j``) gets another decision is never allowed (every box allowing it holds
that instance), so its child is not followed. An ordinal feature's set must be an
interval of its order: each node's boxes are cut to the intervals that hold ``x_i``. The
maximal valid boxes are then the valid ones on which setting any one unset bit gives an
invalid box (growing a set by one state, or an interval by one neighbour, is enough: a box
under a valid box is valid), in one pass over the valid boxes' nodes (:func:`maximal`).
All of it is built in one :class:`~bnx.diagram.store.Store` per diagram and decision, kept with the
diagram (:func:`space_for`): the work is the size of the boxes' diagrams, not their
number, and a node's valid boxes serve every later instance that agrees with this one
from the node's feature down.

In the maximal boxes no level is skipped on a path to ``true`` (a skipped bit would make
one member contain another), so each path is one box: the boxes are counted on the
diagram, and listed fewest constrained features first by a best-first walk whose
estimate, the fewest constrained features below a node, is exact (work per box listed:
one path).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence

from ..diagram._arrays import FALSE, TRUE
from ..diagram._feature_view import FeatureView, decide_states, feature_view
from ..diagram._memo import register
from ..diagram._table_dd import below as inner_nodes
from ..diagram._traversals import unwind
from ..diagram.store import Store

register("general_boxes", 4, "the general reasons' boxes per decision "
         "and ordinal features: their store and memos")

__all__ = ["Space", "space_for", "candidates", "maximal", "fewest", "by_fewest", "member",
           "LIMIT"]

_NONE = 1 << 60  # "no path to true": larger than any number of features


#: A space whose store holds more nodes and memo entries than this is replaced by a new one
#: at the next question (the reasons already returned keep the old one).
LIMIT = 2_000_000


class Space:
    """The boxes of one diagram and terminal, as bits, and what questions keep.

    One level per feature ``i`` and state ``j`` (``start[i] + j``, in the diagram's
    feature order, then state order), set when ``j`` is allowed. The boxes are built in
    :attr:`store`; the valid boxes of a node are kept per node and *suffix* (the
    instance's states and the states some box may allow, of the node's feature and those
    below it: all they depend on), so a question whose instance agrees with an earlier
    one's from some feature down finds those nodes' boxes made.

    Attributes
    ----------
    fv : FeatureView
    target : int
        ``TRUE`` or ``FALSE``: the terminal every instance of a valid box reaches.
    ranks : dict
        Per ordinal feature (position), each state's place in its order.
    nstates, start : list of int
    nvars : int
    feature_of : list of int
        Per level, its feature.
    ends : list of bool
        Per level, whether it is its feature's last.
    store : Store
    """

    def __init__(self, fv: FeatureView, target: int, ranks: Mapping[int, Sequence[int]]):
        self.fv, self.target, self.ranks = fv, target, dict(ranks)
        self.nstates = list(fv.nstates)
        self.start = [0]
        for k in self.nstates:
            self.start.append(self.start[-1] + k)
        self.nvars = self.start[-1]
        self.feature_of = [i for i, k in enumerate(self.nstates) for _ in range(k)]
        self.ends = [lvl + 1 == self.start[self.feature_of[lvl] + 1]
                     for lvl in range(self.nvars)]
        self.store = Store(self.nvars)
        self._valid: dict = {}  # (node, suffix) -> its valid boxes
        self._same: dict = {}  # (suffix, the children's boxes per group of levels) -> boxes
        self._suffixes: dict = {}  # (x_i, allowed states of i, suffix of i + 1) -> suffix
        self._cuts: dict = {}  # (i, x_i, allowed states) -> the intervals over their levels

    def entries(self) -> int:
        """Count what the space holds: its store's entries and its memos'."""
        return self.store.entries() + len(self._valid) + len(self._same)

    def decode(self, bits: Sequence[int]) -> list[tuple[int, ...]]:
        """Per feature, the allowed states (in state order) of the box ``bits``."""
        return [tuple(j for j in range(k) if bits[a + j])
                for a, k in zip(self.start, self.nstates)]

    def boxes(self, x: Sequence[int]) -> int:
        """Return the maximal valid boxes around ``x``: their node in :attr:`store`."""
        fv, st = self.fv, self.store
        allowed = candidates(fv, x, self.target)
        suffix = [0] * (fv.n + 1)
        for i in range(fv.n - 1, -1, -1):
            key = (x[i], tuple(allowed[i]), suffix[i + 1])
            suffix[i] = self._suffixes.setdefault(key, len(self._suffixes) + 1)
        w = st.conj(self._valid_boxes(x, allowed, suffix), self._fixed(x, allowed))
        return maximal(st, w, self.nvars)

    def _cut(self, i: int, xi: int, allowed: Sequence[int]) -> int:
        """Cut ordinal feature ``i`` to its intervals that hold ``xi`` and only ``allowed`` states.

        Only ``allowed`` states besides ``xi``, over the levels of ``allowed`` (``TRUE`` for
        another feature).
        """
        r = self.ranks.get(i)
        if r is None or not allowed:
            return TRUE
        key = (i, xi, tuple(allowed))
        got = self._cuts.get(key)
        if got is None:
            vectors = {tuple(int(j in box) for j in allowed) for box in _intervals(r, xi, allowed)}
            got = self._cuts[key] = _from_vectors(
                self.store, [self.start[i] + j for j in allowed], vectors, TRUE)
        return got

    def _fixed(self, x: Sequence[int], allowed: Sequence[Sequence[int]]) -> int:
        """Return the boxes that allow each feature's instance state and forbid what no box allows.

        None of the states no box may allow, and an interval of each ordinal feature: one
        chain, last feature up.
        """
        st, below = self.store, TRUE
        for i in range(len(self.nstates) - 1, -1, -1):
            a, k, r = self.start[i], self.nstates[i], self.ranks.get(i)
            if r is not None:
                vectors = {tuple(int(j in box) for j in range(k))
                           for box in _intervals(r, x[i], allowed[i])}
                below = _from_vectors(st, list(range(a, a + k)), vectors, below)
                continue
            ok = set(allowed[i])
            for j in range(k - 1, -1, -1):
                if j == x[i]:
                    below = st.node(a + j, FALSE, below)
                elif j not in ok:
                    below = st.node(a + j, below, FALSE)
        return below

    def _valid_boxes(self, x: Sequence[int], allowed: Sequence[Sequence[int]],
                     suffix: Sequence[int]) -> int:
        """Return the boxes around ``x`` on which every instance reaches :attr:`target`.

        Over the levels of the ``allowed`` states (the others and the instance's own are
        left free: :meth:`_fixed` sets them); ordinal features cut to their intervals.

        Memoised per ODD node and suffix, children first, a recursion run by
        :func:`~bnx.diagram._traversals.unwind`; a node
        whose child on the instance's state is invalid is invalid without visiting its
        other children, and a state no box allows is not followed. A node's boxes are
        cut to its feature's intervals at once, which keeps the diagrams above it small
        (a feature that a path skips is cut by :meth:`_fixed`).
        """
        fv, st = self.fv, self.store
        feature, first, kids, start = fv.feature, fv.first_node, fv.kids, self.start
        memo, same = self._valid, self._same
        ends = {TRUE: int(self.target == TRUE), FALSE: int(self.target == FALSE)}
        node, conj = st.node, st.conj

        def get(c: int):
            got = ends.get(c)
            if got is not None:
                return got
            return memo.get((c, suffix[feature[c]]))

        root = fv.root
        if root <= TRUE:
            return ends[root]

        def visit(u: int):  # a step of unwind: the boxes of u, its children's first
            i = int(feature[u])
            key_u = (u, suffix[i])
            row = kids[i][u - first[i]].tolist()
            own = get(row[x[i]])
            if own is None:
                own = yield visit(row[x[i]])
            if own == FALSE:
                memo[key_u] = FALSE
                return FALSE
            for j in reversed(allowed[i]):
                if get(row[j]) is None:
                    yield visit(row[j])
            groups: dict = {}  # the allowed states whose children share their boxes
            for j in reversed(allowed[i]):  # deepest level first
                g = get(row[j])
                if g != own and g != TRUE:
                    groups.setdefault(g, []).append(start[i] + j)
            key = (suffix[i], own, *(v for g, lvls in groups.items() for v in (g, *lvls, -1)))
            acc = same.get(key)
            if acc is None:  # (else another node of feature i whose children have these)
                acc = conj(own, self._cut(i, x[i], allowed[i]))  # the cut first: fewer cases
                for g, lvls in groups.items():
                    if not acc:
                        break
                    term = g  # g, or every state of the group left out
                    for k, lv in enumerate(lvls):
                        term = node(lv, TRUE if k == 0 else term, g)
                    acc = conj(acc, term)
                same[key] = acc
            memo[key_u] = acc
            return acc

        got = get(root)
        return unwind(visit(root)) if got is None else got


def space_for(arrays, enc, target: int, ranks: Mapping[int, Sequence[int]]) -> Space:
    """Return the :class:`Space` of ``arrays`` (under ``enc``) and ``target``.

    Kept in the arrays' cache and replaced once it holds more than :data:`LIMIT` entries.
    """
    key = (target, tuple(sorted((i, tuple(r)) for i, r in ranks.items())))
    got = arrays.cache.get("general_boxes", key)
    if got is None or got.entries() > LIMIT:
        got = arrays.cache.put("general_boxes", key, Space(feature_view(arrays, enc), target,
                                                           ranks))
    return got


def candidates(fv: FeatureView, x: Sequence[int], target: int) -> list[list[int]]:
    """Find per feature ``i`` the states ``j != x_i`` some valid box may allow.

    Those with which ``x`` (``x_i`` changed to ``j``) reaches ``target`` (every box around
    ``x`` that allows ``j`` holds that instance).
    """
    rows, where = [], []
    for i, k in enumerate(fv.nstates):
        for j in range(k):
            if j != x[i]:
                y = list(x)
                y[i] = j
                rows.append(y)
                where.append((i, j))
    out: list[list[int]] = [[] for _ in fv.nstates]
    if rows:
        got = decide_states(fv.arrays, fv.enc, rows)
        for (i, j), d in zip(where, got.tolist()):
            if (TRUE if d else FALSE) == target:
                out[i].append(j)
    return out


def _intervals(r: Sequence[int], xi: int, allowed: Sequence[int]) -> list[set]:
    """List the intervals of the order ``r`` that hold ``xi`` and only ``allowed`` states besides.

    ``r`` is each state's place; the intervals are sets of states.
    """
    at = {p: j for j, p in enumerate(r)}
    ok = {r[j] for j in allowed} | {r[xi]}
    p, k = r[xi], len(r)
    lows = [a for a in range(p, -1, -1) if all(b in ok for b in range(a, p + 1))]
    highs = [b for b in range(p, k) if all(c in ok for c in range(p, b + 1))]
    return [{at[q] for q in range(a, b + 1)} for a in lows for b in highs]


def _from_vectors(st: Store, levels: Sequence[int], vectors, below: int) -> int:
    """Build the function true on exactly ``vectors`` (bit tuples over ``levels``).

    Continued by ``below`` after the last level: built from the longest prefixes up.
    """
    made = {v: below for v in vectors}
    for d in range(len(levels) - 1, -1, -1):
        up: dict = {}
        for v in made:
            p = v[:d]
            if p not in up:
                up[p] = st.node(levels[d], made.get(p + (0,), FALSE), made.get(p + (1,), FALSE))
        made = up
    return made[()]


def maximal(st: Store, w: int, nvars: int) -> int:
    """Keep the members of ``w`` (a set of boxes) that no one-bit growth keeps in ``w``.

    One pass over ``w``'s nodes, children first: where ``w`` is ``f0`` on bit ``z``
    unset and ``f1`` on it set, a box with ``z`` set is maximal iff its rest is maximal
    in ``f1``, and one with ``z`` unset iff its rest is maximal in ``f0`` and not in
    ``f1`` (else setting ``z`` grows it). A level ``w`` skips is set in every maximal box.
    """
    var, lo, hi, node, diff = st.var, st.lo, st.hi, st.node, st.diff

    def lift(m: int, top: int, below: int) -> int:  # levels top .. below - 1 set
        for lvl in range(below - 1, top - 1, -1):
            m = node(lvl, FALSE, m)
        return m

    done = {FALSE: FALSE, TRUE: TRUE}
    for u in sorted(inner_nodes(st, w)):
        lvl, a, b = var[u], lo[u], hi[u]
        m0 = lift(done[a], lvl + 1, var[a])
        m1 = lift(done[b], lvl + 1, var[b])
        done[u] = node(lvl, diff(m0, b), m1)
    return lift(done[w], 0, var[w]) if w != FALSE else FALSE


def fewest(st: Store, m: int, space: Space) -> dict:
    """Count per node the boxes below by the number of features they constrain.

    Per node ``u`` of the maximal boxes ``m`` and flag ``a`` (every bit of the current
    feature set so far on the path), how many boxes below constrain each number of the
    features from ``u``'s down: ``{(u, a): {constrained: count}}``.
    """
    var, lo, hi = st.var, st.lo, st.hi
    ends = space.ends
    memo: dict = {(TRUE, True): {0: 1}}
    nodes = sorted(inner_nodes(st, m))
    for u in nodes:
        lvl = var[u]
        for a in (True, False):
            acc: dict = {}
            for child, bit in ((lo[u], 0), (hi[u], 1)):
                if child == FALSE:
                    continue
                on = a and bit == 1
                if ends[lvl]:
                    sub, add = memo[(child, True)], 0 if on else 1
                else:
                    sub, add = memo[(child, on)], 0
                for k, c in sub.items():
                    acc[k + add] = acc.get(k + add, 0) + c
            memo[(u, a)] = acc
    return memo


def by_fewest(st: Store, m: int, space: Space, counts: dict) -> Iterator[list[int]]:
    """List the boxes of ``m`` as bit lists, fewest constrained features first.

    Ties in the order of their bits, set bits first: larger sets on the first features
    first; one path each: a best-first walk (deepest first among equals) whose estimate, the
    fewest features constrained below a node (``counts`` from :func:`fewest`), is exact.
    """
    if m == FALSE:
        return
    var, lo, hi = st.var, st.lo, st.hi
    ends = space.ends

    def best(u: int, a: bool) -> int:
        got = counts.get((u, a))
        return min(got) if got else _NONE

    heap = [(best(m, True), 0, 0, 0, m, True, None)]
    seq = 1
    while heap:
        _, depth, _, g, u, a, path = heapq.heappop(heap)
        if u == TRUE:
            bits = []
            while path is not None:
                bit, path = path
                bits.append(bit)
            yield bits[::-1]
            continue
        lvl = var[u]
        for child, bit in ((hi[u], 1), (lo[u], 0)):
            if child == FALSE:
                continue
            on = a and bit == 1
            if ends[lvl]:
                g2, a2 = g + (0 if on else 1), True
            else:
                g2, a2 = g, on
            h = best(child, a2)
            if h >= _NONE:
                continue
            heapq.heappush(heap, (g2 + h, depth - 1, seq, g2, child, a2, (bit, path)))
            seq += 1


def member(st: Store, m: int, bits: Sequence[int]) -> bool:
    """Whether the box ``bits`` (one per level) is in ``m``."""
    var, lo, hi = st.var, st.lo, st.hi
    u = m
    while u > TRUE:
        u = hi[u] if bits[var[u]] else lo[u]
    return u == TRUE
