"""Robustness, counterfactuals and the robustness profile (Shih, Choi and Darwiche, PGM 2018).

The robustness of a decision is the fewest features of the instance that must change
(each to any other state) for the classifier to decide otherwise. It is a shortest
path in the decision diagram: following the instance's state costs 0, any other
state costs 1, a feature the diagram skips costs nothing, and the path must end in
the other decision. One bottom-up pass over the diagram gives every node's distance
to the other decision (:func:`robustness`); a second pass keeps only the edges on
shortest paths, which is the set of closest counterfactual instances as a diagram
(:func:`counterfactuals`).

The robustness profile of a classifier counts the instances by their robustness
without visiting them: with ``B_k`` the instances within ``k`` changes of a negative
instance (``B_0`` the negatives, ``B_{k+1}`` adds to ``B_k`` its existential
quantification over each feature's bits), ``|positives AND B_k|`` counts the
positive instances of robustness at most ``k``; likewise with the roles swapped.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .._types import Instance
from ..arrays import Builder, to_dd
from ..diagram import count as _count_models
from ..diagram import deep
from ..feature_arrays import FeatureView
from . import _cache
from ._instances import instance_indices
from ._passes import FALSE, INF, TRUE, decide, instance_distances, view
from .explanations import Explanations, Layout
from .mc import _features_arg
from ..odd import ODD, check_odd

__all__ = ["robustness", "counterfactuals", "robustness_profile"]


def _setup(odd: ODD, instance: Instance, immutable: Iterable) -> tuple:
    check_odd(odd)
    x = instance_indices(odd, instance)
    fixed = _features_arg(odd, immutable, "immutable")
    mutable = [f not in fixed for f in odd.encoding.features]
    fv = view(odd)
    return fv, x, mutable, decide(fv, x)


def robustness(odd: ODD, instance: Instance, *, immutable: Iterable = ()) -> int | None:
    """The fewest features of ``instance`` to change for the other decision.

    Changing a feature means giving it any other of its states; ``immutable``
    features keep theirs. ``None`` when no such change flips the decision.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    immutable : iterable of features
        Features that may not change.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.robustness(odd, x), bnx.robustness(odd, x, immutable=["GPA", "WorkExperience"])
    (2, None)
    """
    fv, x, mutable, decision = _setup(odd, instance, immutable)
    d = int(instance_distances(odd, fv, x, FALSE if decision else TRUE, mutable)[fv.root])
    return None if d >= INF else d


def counterfactuals(odd: ODD, instance: Instance, *, immutable: Iterable = ()) -> Explanations:
    """Every closest instance with the other decision, as the changes that lead to it.

    Each member is a partial instance ``{feature: new state}`` naming the features
    that change and their new states (the others keep the instance's); all have
    :func:`robustness` many changes. Empty when no change flips the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> cfs = bnx.counterfactuals(odd, x)
    >>> cfs.count, cfs.lengths()
    (5, {2: 5})
    >>> sorted(sorted(c.items()) for c in cfs)[0]
    [('EntranceExam', '-'), ('GPA', '-')]
    """
    fv, x, mutable, decision = _setup(odd, instance, immutable)
    d = instance_distances(odd, fv, x, FALSE if decision else TRUE, mutable)
    enc = odd.encoding
    layout = _cache.layout(odd, "partial")
    out = _cache.aux_manager(odd, layout.variables)
    if d[fv.root] >= INF:
        root = out.false
    else:
        arrays = _shortest_paths(fv, x, mutable, d, layout)
        root = to_dd(arrays, out, layout.variables)
        _cache.tidy(odd, out)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return Explanations(out, root, layout, kind="counterfactual", decision=decision,
                        instance=named, feature_order=odd.display_order)


def _shortest_paths(fv: FeatureView, x: list[int], mutable: list[bool], d: np.ndarray,
                    layout: Layout):
    """The shortest paths from the root to the other decision, as the array form of a
    diagram of changes in the ``partial`` layout ("unchanged": the kept bit and the
    value bits 0; a change to state ``v``: the kept bit 1 and ``v``'s code).

    Top-down, the nodes on shortest paths at each feature (a node the paths skip a
    feature at stays, and a node at distance 0 becomes the true terminal: nothing
    changes below it); bottom-up, one output node per such node and feature, made by a
    :class:`~bnx.arrays.Builder` that reduces them at the end.
    """
    n = fv.n
    active = [np.array([fv.root], dtype=np.int64)]
    tight = []  # per feature: (its nodes among the active, their children on shortest paths)
    for i in range(n):
        a = active[i]
        at = fv.feature[a] == i
        here = a[at]
        kids = fv.kids[i][here - fv.first_node[i]]
        dk = d[kids]
        du = d[here][:, None]
        ok = dk + 1 == du if mutable[i] else np.zeros(dk.shape, dtype=bool)
        ok[:, x[i]] = dk[:, x[i]] == du[:, 0]
        child = np.where(ok, np.where(dk == 0, TRUE, kids), FALSE)
        tight.append((at, child))
        active.append(np.unique(np.concatenate([a[~at], child[child > TRUE]])))
    bld = Builder(layout.nvars)
    val = np.zeros(fv.arrays.size, dtype=np.int64)  # output node of each active node
    chain = TRUE  # features i.. all unchanged
    for i in range(n - 1, -1, -1):
        a = active[i]
        at, child = tight[i]
        k = fv.nstates[i]
        got = np.where(child > TRUE, val[child], child)
        got[child == TRUE] = chain
        changed = np.zeros((len(a) + 1, k), dtype=np.int64)
        changed[:len(a)][at] = got
        changed[:len(a)][at, x[i]] = FALSE
        drop = np.empty(len(a) + 1, dtype=np.int64)
        drop[:len(a)][at] = got[:, x[i]]
        drop[:len(a)][~at] = val[a[~at]]
        drop[-1] = chain
        lvl, end = layout.first_level[i], layout.first_level[i + 1]
        for v in range(end - 1, lvl, -1):  # the value bits of "unchanged": all 0
            drop = bld.nodes(v, drop, np.zeros_like(drop))
        keep = bld.select(lvl + 1, end - lvl - 1, changed)
        made = bld.nodes(lvl, drop, keep)
        val[a] = made[:-1]
        chain = int(made[-1])
    return bld.finish(int(val[fv.root]))


@deep
def robustness_profile(odd: ODD, *, immutable: Iterable = ()) -> dict:
    """``{k: number of complete instances whose robustness is k}``, over all instances.

    Counted on the diagram, never by visiting instances: ``k`` runs over the
    robustness values that occur, in increasing order; instances that no change of
    the mutable features can flip are counted under the key ``None`` (last).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.robustness_profile(odd)
    {1: 12, 2: 4}
    """
    check_odd(odd)
    fixed = _features_arg(odd, immutable, "immutable")
    enc = odd.encoding
    bdd = odd.bdd
    dom = odd.domain
    pos = odd.root & dom
    neg = ~odd.root & dom
    groups = [list(enc.bits[i]) for i, f in enumerate(enc.features)
              if f not in fixed and enc.bits[i]]
    nvars = enc.nvars
    counts: dict = {}
    flippable = 0
    for inside, other in ((pos, neg), (neg, pos)):
        ball = other
        before = 0
        k = 0
        while True:
            got = _count_models(inside & ball, nvars)
            if got > before:
                counts[k] = counts.get(k, 0) + got - before
                before = got
            grown = ball
            for bits in groups:
                grown = grown | (bdd.exist(bits, ball) & dom)
            if grown == ball:
                break
            ball = grown
            k += 1
        flippable += before
    out = {k: counts[k] for k in sorted(counts)}
    rest = odd.total() - flippable
    if rest:
        out[None] = rest
    _cache.tidy(odd, bdd)
    return out
