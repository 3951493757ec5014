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

from .._types import Instance, Manager, Node
from ..diagram import restrict
from ..diagram import deep
from ..errors import ExplanationError
from .explanations import DROPPED, Explanations, Layout
from ..odd import ODD, check_odd

__all__ = ["pi_explanations", "prime_implicants"]


def _cofactors(odd: ODD, u: Node, i: int) -> list[Node]:
    """Cofactors of ``u`` by each state of feature ``i`` (``u`` lies at or below it)."""
    enc = odd.encoding
    lvl = enc.first_level[i]
    m = len(enc.bits[i])
    return [restrict(u, [(lvl + b, bool((j >> (m - 1 - b)) & 1)) for b in range(m)],
                     enc.nvars)
            for j in range(len(enc.states[i]))]


def _conjoin(nodes: list[Node], memo: dict) -> Node:
    key = tuple(nodes)
    got = memo.get(key)
    if got is None:
        got = nodes[0]
        for w in nodes[1:]:
            got = got & w
        memo[key] = got
    return got


class _PI:
    """The shared recursion of pi-inst and pi-cover (output built in ``out``).

    The memo is keyed by the instance's remaining states too, so one object may
    explain many instances in turn (:meth:`retarget`, used by :mod:`bnx.batch_engine`).
    """

    def __init__(self, odd: ODD, layout: Layout, out: Manager, instance: list[int] | None):
        self.odd, self.layout, self.out = odd, layout, out
        self.retarget(instance)
        self.memo: dict = {}
        self.cofs: dict = {}
        self.conj: dict = {}
        dropped = [out.true] * (layout.n + 1)  # dropped[i]: features i.. all dropped
        for i in reversed(range(layout.n)):
            dropped[i] = layout.build(out, i, {DROPPED: dropped[i + 1]})
        self.dropped = dropped

    def retarget(self, instance: list[int] | None) -> None:
        """Explain ``instance`` next (results of earlier instances are reused)."""
        self.instance = instance
        if instance is not None and self.layout.instance != tuple(instance):
            self.layout = copy.copy(self.layout)  # build() reads only .instance
            self.layout.instance = tuple(instance)
        n = len(self.odd.encoding.features)
        self.suffix = [None] * (n + 1) if instance is None else \
            [tuple(instance[i:]) for i in range(n + 1)]

    def run(self, u: Node, i: int) -> Node:
        out = self.out
        if u.var is None:
            return self.dropped[i] if u == u.bdd.true else out.false
        key = (u, i, self.suffix[i])
        got = self.memo.get(key)
        if got is not None:
            return got
        cof = self.cofs.get((u, i))
        if cof is None:
            cof = self.cofs[(u, i)] = _cofactors(self.odd, u, i)
        g_star = self.run(_conjoin(cof, self.conj), i + 1)
        not_star = ~g_star
        if self.instance is not None:
            states = [self.instance[i]]
        else:
            states = range(len(cof))
        children = {DROPPED: g_star}
        for j in states:
            children[j] = self.run(cof[j], i + 1) & not_star
        got = self.layout.build(out, i, children)
        self.memo[key] = got
        return got


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
    layout = Layout("partial", odd.encoding)
    out = odd.aux_manager(layout.variables)
    h = odd.root if decision else ~odd.root
    root = _PI(odd, layout, out, None).run(h, 0)
    odd.tidy(out)
    return Explanations(out, root, layout, kind="prime implicants", decision=decision,
                        feature_order=odd.display_order)


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
    decision = odd.decide(instance)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    layout = Layout("keep", enc, instance=x)
    out = odd.aux_manager(layout.variables)
    if method == "inst":
        h = odd.root if decision else ~odd.root
        root = _PI(odd, layout, out, x).run(h, 0)
    else:
        cover = prime_implicants(odd, decision=decision)
        root = _project(cover, layout, out, x)
        del cover
    odd.tidy(out)
    return Explanations(out, root, layout, kind="PI", decision=decision, instance=named,
                        feature_order=odd.display_order)


def _project(cover: Explanations, layout: Layout, out: Manager, x: list[int]) -> Node:
    """The members of ``cover`` that are subsets of instance ``x``, in the keep layout."""
    memo: dict = {}
    return _project_rec(cover.root, 0, cover.layout, layout, out, x, memo)


def _project_rec(u: Node, i: int, src: Layout, dst: Layout, out: Manager, x: list[int],
                 memo: dict) -> Node:
    if u.var is None and u == u.bdd.false:
        return out.false
    if i == src.n:
        return out.true
    key = (u, i)
    got = memo.get(key)
    if got is None:
        choices = src.choice_map[i]
        children = {}
        for label in (DROPPED, x[i]):
            children[label] = _project_rec(restrict(u, choices[label], src.nvars), i + 1,
                                           src, dst, out, x, memo)
        got = dst.build(out, i, children)
        memo[key] = got
    return got


def _check_decision(decision) -> bool:
    if not isinstance(decision, bool):
        raise ExplanationError(f"decision must be True or False, got {decision!r}")
    return decision
