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
skips being free either way. The pass runs on the ODD's array form, one feature at a
time: nodes whose children have the same ``W`` have the same ``W``, so one ``dd`` node is
made per distinct row of children, not per ODD node. ``W`` is upward closed; its minimal
members are kept by the classical recursion
``min(W) = ite(k_i, min(W|k_i) AND NOT W|!k_i, min(W|!k_i))``. Feature roles are read off
the result (by the same duality, a feature is in some sufficient reason exactly when it is
in some contrastive explanation).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .._types import Feature, Instance
from .._wording import terms
from ..classifier._classifier import _resolve_state
from ..diagram._feature_view import FeatureView
from ..diagram._passes import deep, restrict
from ..diagram.backends import is_cudd, make_node
from ..errors import ExplanationError, InstanceError, UnknownStateError, closest_first
from ..odd._odd import ODD, check_odd
from . import _cache
from ._instances import instance_indices, memo, named
from ._passes import FALSE, TRUE, any_child, closest_flip, decide, distinct_rows, reaches, view
from ._within import within_odd
from .explanations import DROPPED, Explanations, Layout, wording_of
from .pi import pi_explanations

__all__ = ["sufficient_reasons", "contrastive_explanations", "necessary_reasons",
           "feature_roles", "check_explanation", "ExplanationCheck"]


def sufficient_reasons(odd: ODD, instance: Instance, *, method: str = "inst",
                       within=None) -> Explanations:
    """Every sufficient reason of the decision on ``instance`` (its PI-explanations).

    The name of Darwiche and Hirth (ECAI 2020) and of PyXAI for
    :func:`bnx.pi_explanations`, which it calls; ``method`` and ``within`` (the
    sufficient reasons within a set of instances) are passed on.

    Returns
    -------
    Explanations
        The PI-explanations (partial instances).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.sufficient_reasons(odd, x).to_set() == bnx.pi_explanations(odd, x).to_set()
    True
    """
    return pi_explanations(odd, instance, method=method, within=within)


@deep
def contrastive_explanations(odd: ODD, instance: Instance, *, within=None) -> Explanations:
    """Every contrastive explanation of the decision on ``instance``.

    A contrastive explanation is a minimal set of the instance's features whose
    change (each to any of its states) can give the other decision; each is
    returned as the partial instance ``{feature: the instance's state}``. Empty when
    no change flips the decision.

    Within a set ``κ`` of instances (``within=``, see :func:`bnx.pi_explanations`):
    a minimal set ``C`` of features such that some instance of ``κ`` that agrees with
    the instance outside ``C`` gets the other decision. These are the minimal hitting
    sets of the PI-explanations within ``κ``, as without it.

    Returns
    -------
    Explanations
        Partial instances ``{feature: the instance's state}``.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> ces = bnx.contrastive_explanations(odd, x)
    >>> sorted(sorted(e) for e in ces)  # doctest: +NORMALIZE_WHITESPACE
    [['EntranceExam', 'GPA'], ['EntranceExam', 'WorkExperience'], ['FirstTimeApplicant', 'GPA'],
    ['FirstTimeApplicant', 'WorkExperience'], ['GPA', 'WorkExperience']]
    """
    check_odd(odd)
    if within is not None:
        odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    out, root, layout, decision = _contrastive(odd, x)
    enc = odd.encoding
    named_x = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return Explanations(out, root, layout, kind="contrastive explanation", decision=decision,
                        instance=named_x, feature_order=odd.display_order,
                        wording=wording_of(odd))


necessary_reasons = contrastive_explanations


def _contrastive(odd: ODD, x: list[int]) -> tuple:
    """``(manager, root, layout, decision)`` of the contrastive explanations of ``x``
    (kept in the instance's memo)."""
    m = memo(odd, x)
    got = m.get("contrastive")
    if got is None:
        got = m["contrastive"] = _make_contrastive(odd, x)
    return got


def _make_contrastive(odd: ODD, x: list[int]) -> tuple:
    fv = view(odd)
    decision = decide(fv, x)
    layout = Layout("keep", odd.encoding, instance=x)
    out = _cache.aux_manager(odd, layout.variables)
    w = _flippable(fv, x, FALSE if decision else TRUE, layout, out)
    root = _Minimal(layout, out).run(w, 0)
    del w
    _cache.tidy(odd, out)
    return out, root, layout, decision


#: Features with at most this many nodes are handled row by row in Python (numpy's
#: per-call cost dominates on small diagrams); larger ones with vectorised distinct rows.
SMALL_FEATURE = 48


def _flippable(fv: FeatureView, x: list[int], target: int, layout: Layout, out):
    """The diagram ``W`` of the feature sets whose change can reach ``target`` (one pass).

    Bottom-up over the features, each node's ``W`` as a number of a distinct ``dd``
    node: the nodes of a feature whose children have the same numbers have the same
    ``W``, so ``dd`` makes one node per distinct row of children, not per node.
    """
    made = [out.false, out.true]  # number -> dd node
    number = {out.false: FALSE, out.true: TRUE}
    w = np.zeros(fv.arrays.size, dtype=np.int64)
    w[target] = TRUE
    cudd = is_cudd(out)

    var: list = [None]  # the variable of the feature at hand, as a CUDD node

    def make(row: list[int], i: int) -> int:
        """The number of ``W`` at a node of feature ``i`` whose children's numbers are
        ``row`` (the instance's state first)."""
        stay = row[0]
        if stay == TRUE or row.count(stay) == len(row):
            return stay
        stay = free = made[stay]
        for j in set(row[1:]):
            free = free | made[j]
        if cudd:
            if var[0] is None:
                var[0] = out.var(layout.variables[i])
            g = out.ite(var[0], free, stay)
        else:
            g = make_node(out, layout.variables[i], stay, free)
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
        var[0] = None
        # the instance's state first
        wk = w[kids[:, [xi, *(v for v in range(kids.shape[1]) if v != xi)]]]
        if hi - lo <= SMALL_FEATURE:
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
def feature_roles(odd: ODD, instance: Instance, *, within=None) -> dict[Feature, str]:
    """``{feature: role}`` for the decision on ``instance``.

    A feature is ``"necessary"`` when it is in every sufficient reason,
    ``"relevant"`` when it is in some but not all, ``"irrelevant"`` when in none.
    With ``within=`` (a set ``κ`` of instances, see :func:`bnx.pi_explanations`), the
    sufficient reasons are those within ``κ``.
    Keys follow the classifier's order. Read off the contrastive explanations (the
    minimal hitting sets of the sufficient reasons): a feature is in some sufficient
    reason exactly when it is in some contrastive explanation, and in all of them
    exactly when it is a contrastive explanation on its own.

    Returns
    -------
    dict
        ``{feature: "necessary", "relevant" or "irrelevant"}``.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> bnx.feature_roles(odd, x)  # doctest: +NORMALIZE_WHITESPACE
    {'WorkExperience': 'necessary', 'FirstTimeApplicant': 'necessary', 'EntranceExam': 'necessary',
    'GPA': 'irrelevant'}
    """
    check_odd(odd)
    if within is not None:
        odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    bdd, root, layout, _ = _contrastive(odd, x)
    enc = odd.encoding
    names = layout.variables
    roles = {}
    for i, f in enumerate(enc.features):
        if bdd.let({names[i]: True}, root) == bdd.false:
            roles[f] = "irrelevant"
        elif bdd.let({v: j == i for j, v in enumerate(names)}, root) == bdd.true:
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
        instance as possible (``None``, not applicable, when sufficient).
    reason : dict or None
        When sufficient: a sufficient reason inside the partial instance (drop the
        redundant features one at a time while it stays sufficient; ``None``, not
        applicable, when not sufficient).
    partial : dict
        The explanation checked.
    wording : tuple of str
        Both decisions in the class's words, positive first (``("Admit = +",
        "Admit = -")``); ``print`` names the decision with them.
    """

    sufficient: bool
    minimal: bool
    redundant: tuple
    decision: bool
    counterexample: dict | None = field(default=None)
    reason: dict | None = field(default=None)
    partial: dict = field(default_factory=dict)
    wording: tuple = field(default=("a positive decision", "a negative decision"))

    def __bool__(self) -> bool:  # "is it a valid explanation?"
        return self.sufficient

    def __str__(self) -> str:
        this, other = self.wording if self.decision else self.wording[::-1]
        given = terms(self.partial) if self.partial else "nothing"
        if not self.sufficient:
            return (f"Not sufficient: {given} does not settle {this}; for example "
                    f"{terms(self.counterexample or {})} gives {other}.")
        if self.minimal:
            return f"Sufficient and minimal: {given} settles {this} (a sufficient reason)."
        drop = ", ".join(map(str, self.redundant))
        drop += " can be dropped" if len(self.redundant) == 1 else " can each be dropped"
        return (f"Sufficient, not minimal: {given} settles {this}, but {drop}; "
                f"{terms(self.reason or {})} is a sufficient reason inside it.")


def check_explanation(odd: ODD, instance: Instance,
                      partial: Mapping, *, within=None) -> ExplanationCheck:
    """Whether ``partial`` (a part of ``instance``) explains the decision on ``instance``.

    Checks an explanation produced elsewhere (LIME, Anchors, a person): it is
    *sufficient* when every completion gets the instance's decision and *minimal*
    when, moreover, no feature can be dropped. Each state in ``partial`` must be the
    instance's.

    With ``within=`` (a set ``κ`` of instances, see :func:`bnx.pi_explanations`), only
    the completions in ``κ`` count: sufficient when every completion in ``κ`` gets the
    instance's decision, minimal when it is a PI-explanation within ``κ``; the
    counterexample is then in ``κ``.

    Returns
    -------
    ExplanationCheck
        What was found: ``sufficient``, ``minimal``, ``redundant``, ...

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
    >>> print(c)  # doctest: +NORMALIZE_WHITESPACE
    Sufficient, not minimal: WorkExperience = +, EntranceExam = +, GPA = + settles Admit = +, but
    EntranceExam can be dropped; WorkExperience = +, GPA = + is a sufficient reason inside it.
    """
    check_odd(odd)
    if within is not None:
        odd = within_odd(odd, instance, within)
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
    fv = view(odd)
    decision = decide(fv, x)
    other = FALSE if decision else TRUE
    shown = {f: enc.states[i][kept[i]] for i, f in enumerate(enc.features)
             if kept[i] is not None}
    shown = {f: shown[f] for f in odd.display_order if f in shown}
    wording = (odd.decision_text(True), odd.decision_text(False))
    below = reaches(fv, kept, other)
    if below[fv.root]:  # not sufficient: the closest completion with the other decision
        witness = closest_flip(fv, x, [k is None for k in kept])
        return ExplanationCheck(False, False, (), decision, counterexample=named(odd, witness),
                                partial=shown, wording=wording)
    # One top-down pass. A kept feature i is redundant when no node of feature i that
    # the partial instance reaches has a child from which the other decision can be
    # reached (features after i keep their states). The reason drops the redundant
    # features in order while it stays sufficient: the same test on the nodes that the
    # reason so far reaches.
    alone = np.zeros(fv.arrays.size, dtype=bool)
    alone[fv.root] = True
    greedy = alone.copy()
    redundant = []
    reason = list(kept)
    for i in range(len(x)):
        lo, hi = int(fv.first_node[i]), int(fv.last_node[i])
        kids = fv.kids[i]
        if kept[i] is not None:
            flips = any_child(fv, i, below)
            if not (alone[lo:hi] & flips).any():
                redundant.append(enc.features[i])
                if not (greedy[lo:hi] & flips).any():
                    reason[i] = None
        for r, fixed in ((alone, kept[i]), (greedy, reason[i])):
            k = kids[r[lo:hi]]
            r[k[:, fixed] if fixed is not None else k.ravel()] = True
    order = {f: k for k, f in enumerate(odd.display_order)}
    return ExplanationCheck(True, not redundant, tuple(sorted(redundant, key=order.get)),
                            decision, reason=named(odd, reason), partial=shown,
                            wording=wording)
