"""The passes of the contrastive explanations of one instance (:mod:`.reasons`).

One bottom-up pass over the ODD builds, for every node, the diagram ``W`` of the sets of
features (one "freed" variable per feature) under which some completion reaches the
other decision: ``W(u) = ite(k_i, OR_v W(u|v), W(u|x_i))``, a feature the diagram
skips being free either way (:func:`flippable`). The pass runs on the ODD's array form,
one feature at a time: nodes whose children have the same ``W`` have the same ``W``, so
one ``dd`` node is made per distinct row of children, not per ODD node. ``W`` is upward
closed; its minimal members are kept by the classical recursion
``min(W) = ite(k_i, min(W|k_i) AND NOT W|!k_i, min(W|!k_i))`` (:func:`minimal`, one
depth-first pass with an explicit stack: no Python recursion per feature).
"""

from __future__ import annotations

import numpy as np

from ..diagram import _setops as sets
from ..diagram._feature_view import FeatureView
from ..diagram._passes import restrict
from ..diagram.backends import node_maker
from ..odd._odd import ODD
from . import _cache
from ._depth_first import depth_first
from ._instances import memo
from ._passes import FALSE, TRUE, decide, distinct_rows, view
from .explanations import DROPPED, Layout
from .store import Store
from .walks import feature_uses

__all__ = ["contrastive", "flippable", "minimal", "roles", "ROW_BY_ROW"]


def contrastive(odd: ODD, x: list[int]) -> tuple:
    """Return ``(manager, root, layout, decision)`` of the contrastive explanations of ``x``.

    Kept in the instance's memo.
    """
    m = memo(odd, x)
    got = m.get("contrastive")
    if got is None:
        got = m["contrastive"] = _make(odd, x)
    return got


def _make(odd: ODD, x: list[int]) -> tuple:
    fv = view(odd)
    decision = decide(fv, x)
    layout = Layout("keep", odd.encoding, instance=x)
    out = _cache.aux_manager(odd, layout.variables)
    w = flippable(fv, x, FALSE if decision else TRUE, layout, out)
    root = minimal(w, layout, out)
    del w
    _cache.tidy(odd, out)
    return out, root, layout, decision


#: The widest block of one feature's nodes whose rows of children :func:`flippable` tells
#: apart row by row in Python (a tuple and a dict look-up a row, about half a microsecond);
#: a wider block is told apart by one vectorised :func:`~._passes.distinct_rows` (tens of
#: microseconds a call, whatever the width). Not a second diagram-size limit: the pass works
#: on numpy arrays whatever the diagram's size (:data:`bnx.diagram._arrays.SMALL` chooses
#: whether a diagram's passes run in Python at all); this is the break-even width of one
#: numpy call, chosen per feature. Measured (contrastive explanations per instance): on
#: votes and SPECT (363 and 533 nodes, blocks of up to 64 rows) row by row throughout is
#: as fast, numpy throughout 1.3 to 1.6 times slower; on a 30-feature naive Bayes of 50,018
#: nodes (blocks of up to 9,145 rows) row by row throughout is 4.5 times slower.
ROW_BY_ROW = 48


def flippable(fv: FeatureView, x: list[int], target: int, layout: Layout, out):
    """Build the diagram ``W`` of the feature sets whose change can reach ``target`` (one pass).

    Bottom-up over the features, each node's ``W`` as a number of a distinct ``dd``
    node: the nodes of a feature whose children have the same numbers have the same
    ``W``, so ``dd`` makes one node per distinct row of children, not per node.
    """
    made = [sets.false(out), sets.true(out)]  # number -> dd node
    number = {made[0]: FALSE, made[1]: TRUE}
    w = np.zeros(fv.arrays.size, dtype=np.int64)
    w[target] = TRUE
    maker: list = [None]  # the node maker of the feature at hand (made on first use)

    def make(row: list[int], i: int) -> int:
        """Make the node of ``W`` at a node of feature ``i`` whose children's numbers are ``row``.

        The instance's state first.
        """
        stay = row[0]
        if stay == TRUE or row.count(stay) == len(row):
            return stay
        stay = free = made[stay]
        for j in set(row[1:]):
            free = sets.union(free, made[j])
        if maker[0] is None:
            maker[0] = node_maker(out, layout.variables[i])
        g = maker[0](stay, free)
        k = number.get(g)
        if k is None:
            k = number[g] = len(made)
            made.append(g)
        return k

    for i in range(fv.n - 1, -1, -1):
        lo, hi = int(fv.first_node[i]), int(fv.last_node[i])
        if lo == hi:
            continue
        kids = fv.kids[i]
        xi = x[i]
        maker[0] = None
        # the instance's state first
        wk = w[kids[:, [xi, *(v for v in range(kids.shape[1]) if v != xi)]]]
        if hi - lo <= ROW_BY_ROW:
            seen: dict = {}
            small = []
            for t in map(tuple, wk.tolist()):
                k = seen.get(t)
                if k is None:
                    k = seen[t] = make(list(t), i)
                small.append(k)
            w[lo:hi] = small
            continue
        rows, inverse = distinct_rows(wk, len(made))
        got = rows[:, 0].copy()  # where W(u|x_i) is TRUE, or every child has the same W
        todo = np.flatnonzero((got != TRUE) & (rows != got[:, None]).any(axis=1))
        for r, row in zip(todo.tolist(), rows[todo].tolist()):
            got[r] = make(row, i)
        w[lo:hi] = got[inverse]
    return made[w[fv.root]]


def minimal(w, layout: Layout, out):
    """Return the minimal members of the upward-closed set ``w`` in the ``keep`` layout.

    ``w`` and the answer are nodes of ``out`` (one depth-first pass,
    :func:`._depth_first.depth_first`).
    """
    nvars, x, build = layout.nvars, layout.instance, layout.build_dd
    false, true = sets.false(out), sets.true(out)

    def kids(v, i: int) -> tuple:  # the cofactors on feature i's variable: dropped, kept
        lvl = layout.first_level[i]
        return restrict(v, [(lvl, False)], nvars), restrict(v, [(lvl, True)], nvars)

    def combine(i: int, ks: tuple, outs: list):
        w0, kept = ks[0], outs[1]
        if w0 == true:  # (dd.autoref's ``&`` would walk all of ``kept`` to say so)
            kept = false
        elif w0 != false:
            kept = sets.difference(kept, w0)
        return build(out, i, {DROPPED: outs[0], x[i]: kept})

    return depth_first(w, layout.n, false, kids, combine)


def roles(root, layout: Layout) -> list[str]:
    """Read per feature ``"necessary"``, ``"relevant"`` or ``"irrelevant"`` off the explanations.

    Off the contrastive explanations ``root`` (a ``dd`` node in the ``keep`` layout), in one
    pass over its nodes: a feature is irrelevant when no explanation keeps it, necessary
    when it is an explanation on its own (the path that keeps it alone reaches true).
    """
    n = layout.n
    g = Store(layout.nvars)
    r = g.read_dd(root)
    kept, _ = feature_uses(g, r, layout)
    var, lo, hi = g.var, g.lo, g.hi
    alone = [False, True]  # per node: whether dropping every feature below it reaches true
    for u in range(2, len(var)):  # (children first)
        alone.append(alone[lo[u]])
    out = []
    p = r  # the node reached by dropping the features before i
    for i in range(n):
        if not kept[i]:
            out.append("irrelevant")
        else:
            only = alone[hi[p]] if var[p] == i else alone[p]  # (a skipped feature: kept or not)
            out.append("necessary" if only else "relevant")
        if var[p] == i:
            p = lo[p]
    return out
