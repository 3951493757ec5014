"""PI-explanations and prime implicants (Definition 5, Algorithms 4 and 5).

A PI-explanation of a decision is a minimal subset of the instance's
feature=state pairs that makes every other feature irrelevant to the decision.
Prime implicants of the whole decision function are computed by pi-cover
(Algorithm 4, after Coudert and Madre); the PI-explanations of one instance by
pi-inst (Algorithm 5), which follows only the instance's branch, or by pi-cover
followed by restriction to the instance. Both are memoised recursions over the
ODD, feature by feature: a multi-valued feature is kept or dropped whole, and
its "dropped" branch is the conjunction of the cofactors of all its states.
The results are decision diagrams over one "kept" variable per feature.
"""

from __future__ import annotations

import copy
from functools import partial

from .._types import Instance
from ..diagram import deep
from ..errors import ExplanationError
from ..view import Graph
from .explanations import DROPPED, Explanations, Layout
from ..odd import ODD, check_odd

__all__ = ["pi_explanations", "prime_implicants"]


class _PI:
    """The shared recursion of pi-inst and pi-cover, on the ODD's integer view; the
    output is built in the graph ``out`` over ``layout``'s variables.

    After :meth:`retarget` the memo is keyed by the instance's remaining states too, so
    one object may explain many instances in turn (:mod:`bnx.batch_engine` does).
    """

    def __init__(self, odd: ODD, layout: Layout, instance: list[int] | None):
        self.g = odd.view()[0]
        self.layout, self.instance = layout, instance
        self.out = out = odd.out_graph(layout.variables)
        enc = odd.encoding
        self.first = enc.first_level
        self.stride = layout.n + 1
        self.keep = layout.kind == "keep"
        self._odd = odd
        self.memo: dict = {}
        self.suffix: list | None = None  # set by retarget(): memo keys carry the instance
        # dropped[i]: features i.. all dropped; the same for every instance, so kept
        # with the output graph's cached operations
        dropped = out.memo.get(("dropped", layout.kind))
        if dropped is None:
            dropped = [1] * (layout.n + 1)
            for i in reversed(range(layout.n)):
                dropped[i] = layout.build(out, i, {DROPPED: dropped[i + 1]})
            out.memo[("dropped", layout.kind)] = dropped
        self.dropped = dropped

    def retarget(self, instance: list[int]) -> None:
        """Explain ``instance`` next, reusing what earlier instances computed."""
        self.instance = instance
        if self.layout.instance != tuple(instance):
            self.layout = copy.copy(self.layout)  # build() reads only .instance
            self.layout.instance = tuple(instance)
        self.suffix = [tuple(instance[i:]) for i in range(len(instance) + 1)]

    def run(self, u: int, i: int) -> int:
        if u <= 1:
            return self.dropped[i] if u else 0
        key = u * self.stride + i if self.suffix is None else (u, i, self.suffix[i])
        got = self.memo.get(key)
        if got is not None:
            return got
        g, out = self.g, self.out
        if g.var[u] >= self.first[i + 1]:  # u does not test feature i: keep it dropped
            rest = self.run(u, i + 1)
            got = out.node(i, rest, 0) if self.keep else \
                self.layout.build(out, i, {DROPPED: rest})
        else:
            hit = g.cofactors.get(u)
            if hit is None:
                hit = g.cofactors[u] = self._cofactors(u, i)
            cof, star = hit
            g_star = self.run(star, i + 1)
            if self.keep:  # pi-inst: the instance's state only
                got = out.node(i, g_star, out.diff(self.run(cof[self.instance[i]], i + 1),
                                                   g_star))
            else:
                children = {DROPPED: g_star}
                for j in (range(len(cof)) if self.instance is None else (self.instance[i],)):
                    children[j] = out.diff(self.run(cof[j], i + 1), g_star)
                got = self.layout.build(out, i, children)
        self.memo[key] = got
        return got

    def _cofactors(self, u: int, i: int) -> tuple:
        """``(cofactors, conjunction)`` of node ``u`` over feature ``i``, whose levels
        it tests: one cofactor per state. They do not depend on the instance, so the
        view keeps them (``Graph.cofactors``) for every later call."""
        g = self.g
        if len(self._odd.encoding.bits[i]) == 1:
            cof = (g.lo[u], g.hi[u])
        else:
            cof = tuple(g.restrict(u, bits) for _, bits in self._odd.state_codes()[i])
        star = cof[0]
        for w in cof[1:]:
            star = g.conj(star, w)
        return cof, star

    def explain(self, odd: ODD, decision: bool, **kwargs) -> Explanations:
        """The explanations of ``decision`` (an :class:`Explanations` in ``out``'s manager)."""
        _, root, negated = odd.view()
        u = self.run(root if decision else negated, 0)
        return Explanations(_existing_manager(odd, self.layout), None, self.layout,
                            make_manager=partial(odd.aux_manager, self.layout.variables),
                            decision=decision,
                            feature_order=odd.display_order, view=(self.out, u), **kwargs)


@deep
def prime_implicants(odd: ODD, *, decision: bool = True) -> Explanations:
    """All prime implicants of the decision function (pi-cover, Algorithm 4).

    With ``decision=False``, those of its complement. Together they are the
    PI-explanations of all decisions of the classifier.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> pis = bnx.prime_implicants(odd)
    >>> len(pis), pis.lengths()
    (3, {2: 1, 3: 2})
    """
    check_odd(odd)
    decision = _check_decision(decision)
    return _PI(odd, Layout("partial", odd.encoding), None).explain(
        odd, decision, kind="prime implicants")


@deep
def pi_explanations(odd: ODD, instance: Instance, *, method: str = "inst") -> Explanations:
    """Every PI-explanation of the decision on ``instance``, as partial instances.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    method : {"inst", "cover"}
        ``"inst"``: Algorithm 5 (pi-inst). ``"cover"``: Algorithm 4 (pi-cover),
        then the prime implicants that agree with the instance. Same result.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> sorted(sorted(e) for e in bnx.pi_explanations(odd, x))
    [['EntranceExam', 'FirstTimeApplicant', 'GPA'], ['EntranceExam', 'FirstTimeApplicant', 'WorkExperience'], ['GPA', 'WorkExperience']]
    """
    check_odd(odd)
    if method not in ("inst", "cover"):
        raise ExplanationError(f"unknown method {method!r}: expected 'inst' or 'cover'")
    idx = odd.encode(instance)
    enc = odd.encoding
    x = [idx[f] for f in enc.features]
    decision = odd._decide_indices(idx)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    layout = Layout("keep", enc, instance=x)
    if method == "inst":
        return _PI(odd, layout, x).explain(odd, decision, kind="PI", instance=named)
    cover = prime_implicants(odd, decision=decision)
    g, u = cover.view()
    out = odd.out_graph(layout.variables)
    root = _project(g, u, 0, cover.layout, layout, out, x, {})
    return Explanations(_existing_manager(odd, layout), None, layout,
                        make_manager=partial(odd.aux_manager, layout.variables),
                        kind="PI", decision=decision, instance=named,
                        feature_order=odd.display_order, view=(out, root))


def _project(g: Graph, u: int, i: int, src: Layout, dst: Layout, out: Graph, x: list[int],
             memo: dict) -> int:
    """The members of ``u`` (in layout ``src``) that are subsets of instance ``x``,
    built in ``out`` in the keep layout ``dst``."""
    if u == 0:
        return 0
    if i == src.n:
        return 1
    key = (u, i)
    got = memo.get(key)
    if got is None:
        choices = src.choice_map[i]
        children = {label: _project(g, g.restrict(u, choices[label]), i + 1, src, dst, out, x,
                                    memo)
                    for label in (DROPPED, x[i])}
        got = memo[key] = dst.build(out, i, children)
    return got


def _existing_manager(odd: ODD, layout: Layout):
    """The output manager of ``layout`` if ``odd`` made it already (then tidied), else
    ``None``: the set makes it when its diagram is first written into dd."""
    bdd = odd._aux.get(tuple(layout.variables))
    if bdd is not None:
        odd.tidy(bdd)
    return bdd


def _check_decision(decision) -> bool:
    if not isinstance(decision, bool):
        raise ExplanationError(f"decision must be True or False, got {decision!r}")
    return decision
