"""Sufficient and contrastive reasons, feature roles, and checking an explanation.

* A *sufficient reason* (Darwiche and Hirth, ECAI 2020) is a PI-explanation: a
  minimal part of the instance under which every completion gets the same decision.
* A *contrastive explanation* (a necessary reason; Ignatiev et al. 2020) is a minimal
  set of the instance's features whose change (to any states) can flip the decision.
  They are the minimal hitting sets of the sufficient reasons, and the prime
  implicates of the complete reason (Darwiche and Ji, AAAI 2022).

Contrastive explanations are computed on the diagram, without hitting sets: one
bottom-up pass over the ODD builds, for every node, the diagram ``W`` of the sets of
features (one "freed" variable per feature) under which some completion reaches the
other decision: ``W(u) = ite(k_i, OR_v W(u|v), W(u|x_i))``, a feature the diagram
skips being free either way. ``W`` is upward closed; its minimal members are kept by
the classical recursion ``min(W) = ite(k_i, min(W|k_i) AND NOT W|!k_i, min(W|!k_i))``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .._types import Feature, Instance
from ..classifier import _resolve_state
from ..diagram import deep, restrict
from ..errors import ExplanationError, InstanceError, UnknownStateError, closest_first
from .explanations import DROPPED, Explanations, Layout
from ._flat import FALSE, TRUE, Flat, decide_flat, flat, instance_indices
from .pi import pi_explanations
from .robustness import _node_maker, closest_flip
from ..odd import ODD, check_odd

__all__ = ["sufficient_reasons", "contrastive_explanations", "necessary_reasons",
           "feature_roles", "check_explanation", "ExplanationCheck"]


def sufficient_reasons(odd: ODD, instance: Instance, *, method: str = "inst") -> Explanations:
    """Every sufficient reason of the decision on ``instance`` (its PI-explanations).

    The name of Darwiche and Hirth (ECAI 2020) and of PyXAI for
    :func:`bnx.pi_explanations`, which it calls; ``method`` is passed on.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.sufficient_reasons(odd, x).to_set() == bnx.pi_explanations(odd, x).to_set()
    True
    """
    return pi_explanations(odd, instance, method=method)


@deep
def contrastive_explanations(odd: ODD, instance: Instance) -> Explanations:
    """Every contrastive explanation of the decision on ``instance``.

    A contrastive explanation is a minimal set of the instance's features whose
    change (each to any of its states) can give the other decision; each is
    returned as the partial instance ``{feature: the instance's state}``. Empty when
    no change flips the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> sorted(sorted(e) for e in bnx.contrastive_explanations(odd, x))
    [['EntranceExam', 'GPA'], ['EntranceExam', 'WorkExperience'], ['FirstTimeApplicant', 'GPA'], ['FirstTimeApplicant', 'WorkExperience'], ['GPA', 'WorkExperience']]
    """
    check_odd(odd)
    x = instance_indices(odd, instance)
    fl = flat(odd)
    decision = decide_flat(fl, x)
    enc = odd.encoding
    layout = Layout("keep", enc, instance=x)
    out = odd.aux_manager(layout.variables)
    w = _flippable(fl, x, FALSE if decision else TRUE, layout, out)
    root = _Minimal(layout, out).run(w, 0)
    del w
    odd.tidy(out)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return Explanations(out, root, layout, kind="contrastive explanation", decision=decision,
                        instance=named, feature_order=odd.display_order)


necessary_reasons = contrastive_explanations


def _flippable(fl: Flat, x: list[int], target: int, layout: Layout, out):
    """The diagram of the feature sets whose change can reach ``target`` (one pass)."""
    w = [out.false, out.false]
    w[target] = out.true
    names = layout.variables
    node = _node_maker(out)
    for i, c in fl.items:  # children first
        xi = x[i]
        stay = free = w[c[xi]]
        for v, child in enumerate(c):
            if v != xi:
                free = free | w[child]
        w.append(node(names[i], stay, free))
    return w[fl.root]


class _Minimal:
    """The minimal members of an upward-closed set in the ``keep`` layout."""

    def __init__(self, layout: Layout, out) -> None:
        self.layout, self.out = layout, out
        self.memo: dict = {}

    def run(self, w, i: int):
        out, layout = self.out, self.layout
        if w == out.false:
            return w
        if i == layout.n:
            return w
        key = (w, i)
        got = self.memo.get(key)
        if got is None:
            lvl = layout.first_level[i]
            w0 = restrict(w, [(lvl, False)], layout.nvars)
            w1 = restrict(w, [(lvl, True)], layout.nvars)
            got = layout.build_dd(out, i, {DROPPED: self.run(w0, i + 1),
                                        layout.instance[i]: self.run(w1, i + 1) & ~w0})
            self.memo[key] = got
        return got


@deep
def feature_roles(odd: ODD, instance: Instance) -> dict[Feature, str]:
    """``{feature: role}`` for the decision on ``instance``.

    A feature is ``"necessary"`` when it is in every sufficient reason,
    ``"relevant"`` when it is in some but not all, ``"irrelevant"`` when in none.
    Keys follow the classifier's order.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> bnx.feature_roles(odd, x)
    {'WorkExperience': 'necessary', 'FirstTimeApplicant': 'necessary', 'EntranceExam': 'necessary', 'GPA': 'irrelevant'}
    """
    pis = pi_explanations(odd, instance)
    bdd, root = pis.bdd, pis.root
    enc = odd.encoding
    roles = {}
    for i, f in enumerate(enc.features):
        var = pis.layout.variables[i]
        if bdd.let({var: True}, root) == bdd.false:
            roles[f] = "irrelevant"
        elif bdd.let({var: False}, root) == bdd.false:
            roles[f] = "necessary"
        else:
            roles[f] = "relevant"
    return {f: roles[f] for f in odd.display_order}


@dataclass(frozen=True)
class ExplanationCheck:
    """What :func:`check_explanation` found about a partial instance.

    Attributes
    ----------
    sufficient : bool
        Every completion of the partial instance gets the instance's decision.
    minimal : bool
        Sufficient, and no feature can be dropped (it is a sufficient reason).
    redundant : tuple
        The features each of which can be dropped on its own with the partial
        instance staying sufficient (empty when it is not sufficient).
    decision : bool
        The decision on the instance.
    counterexample : dict or None
        When not sufficient: a completion with the other decision, as close to the
        instance as possible.
    reason : dict or None
        When sufficient: a sufficient reason inside the partial instance (drop the
        redundant features one at a time while it stays sufficient).
    """

    sufficient: bool
    minimal: bool
    redundant: tuple
    decision: bool
    counterexample: dict | None = field(default=None)
    reason: dict | None = field(default=None)

    def __bool__(self) -> bool:  # "is it a valid explanation?"
        return self.sufficient


def _completion_with(fl: Flat, fixed: list[int | None], target: int) -> list[int] | None:
    """States of a completion of ``fixed`` (``None``: free) that reaches ``target``."""
    kids, feature = fl.kids, fl.feature
    reach = [False] * len(kids)
    reach[target] = True
    for u in range(2, len(kids)):
        i = feature[u]
        c = kids[u]
        reach[u] = reach[c[fixed[i]]] if fixed[i] is not None else any(reach[v] for v in c)
    u = fl.root
    if not reach[u]:
        return None
    y = [s if s is not None else 0 for s in fixed]
    while u > TRUE:
        i = feature[u]
        states = [fixed[i]] if fixed[i] is not None else range(len(kids[u]))
        for v in states:
            if reach[kids[u][v]]:
                y[i] = v
                u = kids[u][v]
                break
    return y


def check_explanation(odd: ODD, instance: Instance,
                      partial: Mapping) -> ExplanationCheck:
    """Whether ``partial`` (a part of ``instance``) explains the decision on ``instance``.

    Checks an explanation produced elsewhere (LIME, Anchors, a person): it is
    *sufficient* when every completion gets the instance's decision and *minimal*
    when, moreover, no feature can be dropped. Each state in ``partial`` must be the
    instance's.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> c = bnx.check_explanation(odd, x, {"GPA": "+", "WorkExperience": "+", "EntranceExam": "+"})
    >>> c.sufficient, c.minimal, c.redundant
    (True, False, ('EntranceExam',))
    >>> bnx.check_explanation(odd, x, {"GPA": "+"}).counterexample["WorkExperience"]
    '-'
    """
    check_odd(odd)
    x = instance_indices(odd, instance)
    if not isinstance(partial, Mapping):
        raise InstanceError(f"the explanation must be a mapping from features to states, "
                            f"got {type(partial).__name__}")
    enc = odd.encoding
    kept = [None] * len(x)
    for f, s in partial.items():
        i = odd._position(f)
        j = _resolve_state(enc.states[i], s)
        if j is None:
            raise UnknownStateError(f"{s!r} is not a state of feature {f!r} (states, "
                                    f"closest first: {closest_first(s, enc.states[i])})")
        if j != x[i]:
            raise ExplanationError(f"the explanation gives feature {f!r} the state {s!r}, "
                                   f"but the instance has {enc.states[i][x[i]]!r}")
        kept[i] = j
    fl = flat(odd)
    decision = decide_flat(fl, x)
    other = FALSE if decision else TRUE

    def names(states):
        return {f: enc.states[enc.position(f)][states[enc.position(f)]]
                for f in odd.display_order if states[enc.position(f)] is not None}

    if _completion_with(fl, kept, other) is not None:  # the closest such completion:
        witness = closest_flip(fl, x, [k is None for k in kept])
        return ExplanationCheck(False, False, (), decision, counterexample=names(witness))
    redundant = []
    for i in range(len(x)):
        if kept[i] is None:
            continue
        kept[i] = None
        if _completion_with(fl, kept, other) is None:
            redundant.append(enc.features[i])
        kept[i] = x[i]
    reason = list(kept)
    for f in redundant:  # greedy: drop while it stays sufficient
        i = enc.position(f)
        reason[i] = None
        if _completion_with(fl, reason, other) is not None:
            reason[i] = x[i]
    order = {f: k for k, f in enumerate(odd.display_order)}
    return ExplanationCheck(True, not redundant, tuple(sorted(redundant, key=order.get)),
                            decision, reason=names(reason))
