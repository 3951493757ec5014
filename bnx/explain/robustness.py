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

from .._types import Instance
from ..diagram import count as _count_models
from ..diagram import deep
from ..backends import make_node
from .explanations import Explanations, Layout
from ._flat import FALSE, TRUE, Flat, decide_flat, flat, instance_indices, layout_for
from .mc import _features_arg
from ..odd import ODD, check_odd

__all__ = ["robustness", "counterfactuals", "robustness_profile"]

INF = 1 << 62


def distances(fl: Flat, x: list[int], target: int, mutable: list[bool]) -> list[int]:
    """Every node's fewest changes of ``x`` to reach the terminal ``target`` (``INF``: none).

    One bottom-up pass: following ``x``'s state costs 0, another state of a mutable
    feature costs 1.
    """
    d = [INF, INF]
    d[target] = 0
    push = d.append  # nodes are numbered children first: d[u] is appended in order
    if fl.binary is not None and all(mutable):  # the common case, twice as fast
        for i, lo, hi in fl.binary:
            a, b = d[lo], d[hi]
            if x[i]:
                push(b if b <= a else a + 1)
            else:
                push(a if a <= b else b + 1)
        return d
    for i, c in fl.items:
        xi = x[i]
        best = d[c[xi]]
        if best and mutable[i]:
            for v, w in enumerate(c):
                if v != xi:
                    alt = d[w] + 1
                    if alt < best:
                        best = alt
        push(best)
    return d


def _setup(odd: ODD, instance: Instance, immutable: Iterable) -> tuple:
    check_odd(odd)
    x = instance_indices(odd, instance)
    fixed = _features_arg(odd, immutable, "immutable")
    mutable = [f not in fixed for f in odd.encoding.features]
    fl = flat(odd)
    decision = decide_flat(fl, x)
    return fl, x, mutable, decision


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
    fl, x, mutable, decision = _setup(odd, instance, immutable)
    d = distances(fl, x, FALSE if decision else TRUE, mutable)[fl.root]
    return None if d >= INF else d


@deep
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
    fl, x, mutable, decision = _setup(odd, instance, immutable)
    target = FALSE if decision else TRUE
    d = distances(fl, x, target, mutable)
    enc = odd.encoding
    layout = layout_for(odd, "partial")
    out = odd.aux_manager(layout.variables)
    if d[fl.root] >= INF:
        root = out.false
    else:
        root = _Paths(fl, x, mutable, d, layout, out).run(fl.root, 0)
    odd.tidy(out)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return Explanations(out, root, layout, kind="counterfactual", decision=decision,
                        instance=named, feature_order=odd.display_order)


class _Paths:
    """The shortest paths to the other decision, as a diagram of changes (pass two).

    Built directly in the ``partial`` layout: "unchanged" is the kept bit and the
    value bits all 0, a change to state ``v`` is the kept bit 1 and ``v``'s code.
    Below a node at distance 0 nothing changes, so it is the "all unchanged" chain.
    """

    def __init__(self, fl: Flat, x: list[int], mutable: list[bool], d: list[int],
                 layout: Layout, out) -> None:
        self.fl, self.x, self.mutable, self.d = fl, x, mutable, d
        self.layout, self.out = layout, out
        self.memo: dict = {}
        self.unchanged: dict = {fl.n: out.true}
        self.node = _node_maker(out)

    def _keep_state(self, i: int, child):
        """The node of feature ``i``: unchanged, then ``child``."""
        out, layout, node = self.out, self.layout, self.node
        first, end = layout.first_level[i], layout.first_level[i + 1]
        for lvl in range(end - 1, first, -1):
            child = node(layout.variables[lvl], child, out.false)
        return node(layout.variables[first], child, out.false)

    def chain(self, i: int):
        """Features ``i..`` all unchanged."""
        got = self.unchanged.get(i)
        if got is None:
            got = self.unchanged[i] = self._keep_state(i, self.chain(i + 1))
        return got

    def run(self, u: int, i: int):
        fl, out, d = self.fl, self.out, self.d
        if d[u] >= INF:
            return out.false
        if d[u] == 0:
            return self.chain(i)
        key = (u, i)
        got = self.memo.get(key)
        if got is not None:
            return got
        if fl.feature[u] > i:  # feature i does not matter here: it keeps its state
            got = self._keep_state(i, self.run(u, i + 1))
        else:
            xi = self.x[i]
            best = d[u]
            kept = out.false
            changed = {}
            for v, w in enumerate(fl.kids[u]):
                if v == xi:
                    if d[w] == best:
                        kept = self._keep_state(i, self.run(w, i + 1))
                elif self.mutable[i] and d[w] + 1 == best:
                    changed[v] = self.run(w, i + 1)
            got = kept
            if changed:
                got = self.layout.build_dd(out, i, changed) | kept
        self.memo[key] = got
        return got


def _node_maker(out):
    """``node(var, low, high)`` for ``out``'s backend; CUDD variables fetched once."""
    if type(out).__module__ != "dd.cudd":
        return lambda var, low, high: make_node(out, var, low, high)
    cache: dict = {}

    def node(var, low, high):
        if low == high:
            return low
        v = cache.get(var)
        if v is None:
            v = cache[var] = out.var(var)
        return out.ite(v, high, low)
    return node


def closest_flip(fl: Flat, x: list[int], mutable: list[bool]) -> list[int] | None:
    """One closest instance (state indices) with the other decision, or ``None``.

    Follows a shortest path, keeping the instance's state whenever that is as short.
    """
    target = FALSE if decide_flat(fl, x) else TRUE
    d = distances(fl, x, target, mutable)
    u = fl.root
    if d[u] >= INF:
        return None
    y = list(x)
    while u > TRUE:
        i = fl.feature[u]
        c = fl.kids[u]
        if d[c[x[i]]] == d[u]:
            u = c[x[i]]
            continue
        for v, w in enumerate(c):
            if v != x[i] and d[w] + 1 == d[u]:
                y[i] = v
                u = w
                break
    return y


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
    odd.tidy(bdd)
    return out
