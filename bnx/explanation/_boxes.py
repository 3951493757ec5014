"""The passes of the general reasons: boxes of states, checked and made maximal on the ODD.

A *box* around an instance ``x`` allows, per feature ``i``, a set ``S_i`` of its states
with ``x_i`` among them; it holds every instance whose state of each feature is allowed.
A box is held as bits: one level per feature ``i`` and state ``j != x_i`` (in the ODD's
feature order, then state order), set when ``j`` is allowed (:class:`Boxes`). Features
with one state have no level.

The boxes on which every instance reaches one terminal of the ODD (its *valid* boxes) are
one function of these bits, made bottom-up over the ODD's nodes seen per feature
(:mod:`bnx.diagram._feature_view`): a node ``u`` of feature ``i`` whose child on state
``j`` is ``c_j`` has ``V(u) = V(c_{x_i}) and (for every j != x_i) (not z_ij or V(c_j))``.
Only nodes the box can reach from the root are visited: a node whose child on ``x_i``
is already invalid is invalid, whatever its other children. An ordinal feature's set
must be an interval of its order: its bits are conjoined with the intervals that hold
``x_i``. The maximal valid boxes are then the valid ``z`` on which setting any one unset
bit gives an invalid box (growing a set by one state, or an interval by one neighbour,
is enough: a box under a valid box is valid). All of it is built in one
:class:`~.store.Store` per question, in Python; its size is the size of the valid boxes'
diagram, not of their number.

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
from ..diagram._feature_view import FeatureView, decide_states
from .store import Store

__all__ = ["Boxes", "candidates", "valid", "shapes", "always", "maximal", "fewest", "by_fewest",
           "member"]

_NONE = 1 << 60  # "no path to true": larger than any number of features


class Boxes:
    """The bit levels of the boxes around instance ``x``: one per feature ``i`` and state
    ``j`` in ``states[i]`` (states other than ``x_i`` that some box may allow).

    Attributes
    ----------
    x : list of int
        The instance's state per feature (ODD order).
    nstates : list of int
    start : list of int
        Per feature ``i``, its levels are ``start[i] .. start[i + 1] - 1``.
    states : list of list of int
        Per feature, the state of each of its levels (in state order).
    nvars : int
    feature_of : list of int
        Per level, its feature.
    """

    def __init__(self, x: Sequence[int], nstates: Sequence[int],
                 states: Sequence[Sequence[int]]) -> None:
        self.x = list(x)
        self.nstates = list(nstates)
        self.states = [list(s) for s in states]
        self.start = [0]
        for s in self.states:
            self.start.append(self.start[-1] + len(s))
        self.nvars = self.start[-1]
        self.feature_of = [i for i, s in enumerate(self.states) for _ in s]
        self._level = [{j: a + k for k, j in enumerate(s)}
                       for a, s in zip(self.start, self.states)]

    def level(self, i: int, j: int) -> int:
        """The level of state ``j`` of feature ``i`` (``None``: no box allows ``j``)."""
        return self._level[i].get(j)

    def decode(self, bits: Sequence[int]) -> list[tuple[int, ...]]:
        """Per feature, the allowed states (in state order) of the box ``bits``."""
        out = []
        for i, s in enumerate(self.states):
            a = self.start[i]
            out.append(tuple(sorted([self.x[i]] + [j for k, j in enumerate(s) if bits[a + k]])))
        return out


def candidates(fv: FeatureView, x: Sequence[int], target: int) -> list[list[int]]:
    """Per feature ``i``, the states ``j != x_i`` some valid box may allow: those with
    which ``x`` (``x_i`` changed to ``j``) reaches ``target`` (every box around ``x``
    that allows ``j`` holds that instance)."""
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
        got = decide_states(fv, rows)
        for (i, j), d in zip(where, got.tolist()):
            if (TRUE if d else FALSE) == target:
                out[i].append(j)
    return out


def valid(fv: FeatureView, boxes: Boxes, target: int, st: Store,
          shape: Sequence[int] | None = None) -> int:
    """The boxes around ``boxes.x`` on which every instance reaches terminal ``target``
    (``TRUE`` or ``FALSE``) of the diagram ``fv``, within ``shape`` (per feature, the
    sets of its states allowed, from :func:`shapes`): their node in ``st``.

    Memoised per ODD node, children first, on an explicit stack; a node whose child on
    the instance's state is invalid is invalid without visiting its other children, and
    a state no box allows (not in ``boxes.states``) is not followed. A node's boxes are
    cut to its feature's shape at once, which keeps the diagrams above it small; a
    feature that a path skips is not cut there (conjoin the result with every shape)."""
    x, levels = boxes.x, boxes._level
    feature, first, kids = fv.feature, fv.first_node, fv.kids
    memo = {TRUE: int(target == TRUE), FALSE: int(target == FALSE)}
    same: dict = {}  # (feature, the children's boxes per group of states) -> boxes
    node, conj = st.node, st.conj
    stack = [fv.root]
    while stack:
        u = stack[-1]
        if u in memo:
            stack.pop()
            continue
        i = int(feature[u])
        row = kids[i][u - first[i]].tolist()
        own = memo.get(row[x[i]])
        if own is None:
            stack.append(row[x[i]])
            continue
        if own == 0:
            memo[u] = 0
            stack.pop()
            continue
        at = levels[i]
        todo = [row[j] for j in at if row[j] not in memo]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        groups: dict = {}  # the allowed states whose children share a validity
        for j in reversed(at):  # deepest level first
            g = memo[row[j]]
            if g != own and g != TRUE:
                groups.setdefault(g, []).append(at[j])
        key = (i, own, *(v for g, lvls in groups.items() for v in (g, *lvls, -1)))
        got = same.get(key)
        if got is not None:  # another node of feature i whose children have these boxes
            memo[u] = got
            continue
        acc = own if shape is None else conj(own, shape[i])  # the shape first: fewer cases
        for g, lvls in groups.items():
            if not acc:
                break
            term = g  # g, or every state of the group left out
            for k, lv in enumerate(lvls):
                term = node(lv, TRUE if k == 0 else term, g)
            acc = conj(acc, term)
        memo[u] = same[key] = acc
    return memo[fv.root]


def shapes(boxes: Boxes, ranks: Mapping[int, Sequence[int]], st: Store) -> list[int]:
    """Per feature, the boxes whose set of its states is an interval of its order, if it
    is ordinal (``ranks``: per ordinal feature, each state's place in its order), else
    ``TRUE``: each a small diagram over the feature's levels, the union of the intervals
    that hold the instance's state and only states some box may allow."""
    out = [TRUE] * len(boxes.states)
    for i, r in ranks.items():
        if not boxes.states[i]:
            continue
        k, p = boxes.nstates[i], r[boxes.x[i]]
        ok = {r[j] for j in boxes.states[i]} | {p}
        lows = [a for a in range(p, -1, -1) if all(b in ok for b in range(a, p + 1))]
        highs = [b for b in range(p, k) if all(c in ok for c in range(p, b + 1))]
        levels = [boxes.level(i, j) for j in boxes.states[i]]
        vectors = {tuple(int(a <= r[j] <= b) for j in boxes.states[i])
                   for a in lows for b in highs}
        out[i] = _from_vectors(st, levels, vectors, TRUE)
    return out


def _from_vectors(st: Store, levels: Sequence[int], vectors, below: int) -> int:
    """The function true on exactly ``vectors`` (bit tuples over ``levels``), continued
    by ``below`` after the last level: built from the longest prefixes up."""
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
    """The members of ``w`` (a set of boxes) that no one-bit growth keeps in ``w``.

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
    for u in sorted(_dd_below(st, w)):
        lvl, a, b = var[u], lo[u], hi[u]
        m0 = lift(done[a], lvl + 1, var[a])
        m1 = lift(done[b], lvl + 1, var[b])
        done[u] = node(lvl, diff(m0, b), m1)
    return lift(done[w], 0, var[w]) if w != FALSE else FALSE


def _ends(boxes: Boxes) -> list[int]:
    """Per level: ``0`` if it is not its feature's last; else ``1`` if the feature is
    left free when all its levels are set (every state but the instance's has a level),
    ``2`` if it is constrained whatever they are."""
    out = []
    for lvl in range(boxes.nvars):
        i = boxes.feature_of[lvl]
        if lvl + 1 < boxes.start[i + 1]:
            out.append(0)
        else:
            out.append(1 if len(boxes.states[i]) == boxes.nstates[i] - 1 else 2)
    return out


def always(boxes: Boxes) -> int:
    """The number of features every box constrains though they have no level (every
    state but the instance's is left out)."""
    return sum(1 for s, k in zip(boxes.states, boxes.nstates) if not s and k > 1)


def fewest(st: Store, m: int, boxes: Boxes) -> dict:
    """Per node ``u`` of the maximal boxes ``m`` and flag ``a`` (every bit of the current
    feature set so far on the path), how many boxes below constrain each number of the
    features from ``u``'s down (those with levels: add :func:`always`):
    ``{(u, a): {constrained: count}}``."""
    var, lo, hi = st.var, st.lo, st.hi
    ends = _ends(boxes)
    memo: dict = {(TRUE, True): {0: 1}}
    nodes = sorted(_dd_below(st, m))
    for u in nodes:
        lvl = var[u]
        for a in (True, False):
            acc: dict = {}
            for child, bit in ((lo[u], 0), (hi[u], 1)):
                if child == FALSE:
                    continue
                on = a and bit == 1
                if ends[lvl]:
                    sub, add = memo[(child, True)], 0 if on and ends[lvl] == 1 else 1
                else:
                    sub, add = memo[(child, on)], 0
                for k, c in sub.items():
                    acc[k + add] = acc.get(k + add, 0) + c
            memo[(u, a)] = acc
    return memo


def _dd_below(st: Store, u: int) -> set:
    lo, hi = st.lo, st.hi
    seen, stack = set(), [u]
    while stack:
        w = stack.pop()
        if w > TRUE and w not in seen:
            seen.add(w)
            stack.append(lo[w])
            stack.append(hi[w])
    return seen


def by_fewest(st: Store, m: int, boxes: Boxes, counts: dict) -> Iterator[list[int]]:
    """The boxes of ``m`` as bit lists, fewest constrained features first (ties in the
    order of their bits, set bits first: larger sets on the first features first), one
    path each: a best-first walk (deepest first among equals) whose estimate,
    the fewest features constrained below a node (``counts`` from :func:`fewest`), is
    exact."""
    if m == FALSE:
        return
    var, lo, hi = st.var, st.lo, st.hi
    ends = _ends(boxes)

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
                g2, a2 = g + (0 if on and ends[lvl] == 1 else 1), True
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
