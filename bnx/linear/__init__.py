"""Exact explanations of naive Bayes and TAN decisions at any width, without compiling.

A naive Bayes classifier with a two-state class decides by a linear threshold over
per-feature log-likelihood ratios (Marques-Silva, Gerspacher, Cooper, Ignatiev and
Narodytska, NeurIPS 2020). Several questions about one decision then have exact
polynomial answers that need no decision diagram, so they work for thousands of
features where :func:`bnx.compile` cannot go:

* :func:`pi_explanations`: every PI-explanation, one after the other, with
  polynomial delay;
* :func:`shortest_pi_explanation`, :func:`mc_explanation` (one of them);
* :func:`robustness` (``math.inf`` when no change flips the decision),
  :func:`counterfactual`, :func:`contrastive_explanation` (these two raise
  :class:`~bnx.ExplanationError` then);
* :func:`check_explanation`: is a partial instance sufficient, minimal, redundant?

Answers are exact: comparisons are made on rounded logarithms with a proven error
bound, and redone on the exact rational CPT entries when those cannot settle
them; zero entries (infinite weights) are handled symbolically. Questions with no
polynomial answer (counting the PI-explanations, all MC-explanations, the prime
implicants of the whole classifier) need the compiled ODD: :func:`bnx.compile`
with :func:`bnx.pi_explanations`, :func:`bnx.mc_explanations`,
:func:`bnx.prime_implicants`.

The classifier must be naive Bayes or a TAN with a two-state class (the threshold rule
or, where the classifier has it, ``rule="argmax"``), or a TAN with more class states
under ``rule="argmax"`` for positive decisions (all but the MC- and shortest
explanations); anything else raises :class:`~bnx.StructureError`. On a TAN the race is a sum over the feature tree's edges,
and the questions are min-sums over that tree (:mod:`bnx.linear._tan`): the same answers,
but the PI-explanations come without a polynomial delay guarantee (one would list the
minimal transversals of any hypergraph output-polynomially, an open problem) and the
search for a shortest one may give up (:class:`~bnx.StructureError`) on wide TANs (it is
NP-complete, even with binary features). Instances are mappings from every feature to a
state.
See ``docs/explanations.md`` for the algorithms and why they are exact.

Examples
--------
>>> import bnx
>>> clf = bnx.examples.admissions()
>>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
>>> bnx.linear.shortest_pi_explanation(clf, x)
{'WorkExperience': '+', 'GPA': '+'}
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any

from ..errors import ArgumentError, ExplanationError, UnknownFeatureError, closest_first
from .._wording import decision_state
from ..explanation.reasons import ExplanationCheck
from ._core import Weights
from ._moves import flip, keep_fewest
from ._plan import Decision, greedy, knapsack, sums
from ._tan import TanDecision
from .xlc import read_xlc

__all__ = ["ExplanationCheck", "check_explanation", "contrastive_explanation",
           "counterfactual", "decide", "mc_explanation", "pi_explanations", "read_xlc",
           "robustness", "shortest_pi_explanation"]


def decide(clf: Any, instance: Mapping) -> bool:
    """The exact decision on a complete instance (the same as ``clf.decide``).

    Returns
    -------
    bool

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> bnx.linear.decide(clf, x) == clf.decide(x)
    True
    """
    return _decision(clf, instance).decision


def _decision(clf: Any, instance: Mapping) -> Decision:
    """The decision of ``clf`` on ``instance``: a :class:`TanDecision` for a TAN."""
    if getattr(clf, "structure", None) == "tan":
        return TanDecision(clf, instance)
    return Decision(clf, instance)


def pi_explanations(clf: Any, instance: Mapping) -> Iterator[dict]:
    """The PI-explanations of the decision on ``instance``, one after the other.

    A PI-explanation is a minimal set of the instance's ``feature: state`` pairs
    that fixes the decision whatever the other features are. Each is yielded once,
    as a dict (features that must be fixed first, then by decreasing weight, not in
    the classifier's feature order), with a delay between two of them
    linear in the number of features (after one sort) for naive Bayes; on a TAN the
    delay has no polynomial bound (none is possible without settling monotone
    dualization: ``docs/explanations.md``, "What a TAN costs"). On small classifiers
    the set yielded is exactly that of :func:`bnx.pi_explanations` on the compiled ODD.
    Counting them has no polynomial answer: compile the classifier for that.

    Returns
    -------
    Iterator

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> sorted(sorted(e) for e in bnx.linear.pi_explanations(clf, x))
    [['EntranceExam', 'FirstTimeApplicant', 'GPA'], ['EntranceExam', 'FirstTimeApplicant', 'WorkExperience'], ['GPA', 'WorkExperience']]
    """
    d = _decision(clf, instance)
    return _pis(d)


def _pis(d: Decision) -> Iterator[dict]:
    if isinstance(d, TanDecision):
        for s in d.pi_sets():
            yield d.named(s)
        return
    specials, base, items, delta, start = d.pi_plan()
    for s in specials:
        yield d.named(s)
    if start is not None:
        yield from knapsack(d, base, items, delta, start)


def shortest_pi_explanation(clf: Any, instance: Mapping) -> dict:
    """A PI-explanation with the fewest features.

    The features are sorted by how much fixing each to its state guarantees (its
    log-likelihood ratio minus that of its worst state); the shortest prefix that
    keeps the decision is a PI-explanation, and no shorter set can, since ``k``
    features guarantee at most the ``k`` largest gains. On a TAN the question is
    NP-complete (even with binary features): exact searches over the feature tree (a
    proven lower bound, guided deletions, a dynamic programme, a branch-and-bound)
    answer, or give up past their budgets with :class:`~bnx.StructureError`, which says
    why and between which sizes a shortest one lies, and whose ``best`` attribute is the
    shortest PI-explanation found (``docs/explanations.md``, "What a TAN costs").

    Returns
    -------
    dict

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "-", "FirstTimeApplicant": "+", "EntranceExam": "-", "GPA": "-"}
    >>> bnx.linear.shortest_pi_explanation(clf, x)
    {'WorkExperience': '-', 'GPA': '-'}
    """
    d = _decision(clf, instance)
    if isinstance(d, TanDecision):
        return d.named(d.shortest())
    specials, base, items, delta, start = d.pi_plan()
    found = [list(s) for s in specials]
    if start is not None:
        taken = greedy(d, items, delta, start, lambda p: d.fixing(base + p), until=True)
        if taken is not None:
            found.append(base + taken)
    if not found:  # unreachable: the whole instance keeps its decision
        raise AssertionError("no PI-explanation found")
    return d.named(min(found, key=len))


def mc_explanation(clf: Any, instance: Mapping, *,
                   on: Mapping[Any, Any | Collection] | None = None,
                   fixed: Iterable = ()) -> dict:
    """One MC-explanation of the decision on ``instance``, as a complete instance.

    The conventions are those of :func:`bnx.mc_explanations`: for a positive
    decision, keep the decision while turning off as many of the instance's
    on-features as possible (any off state may replace an on one); for a negative
    decision on and off swap roles. ``on`` maps features to their on state(s)
    (default: the classifier's declared ``on_states``, or a binary feature's
    affirmative state, yes of yes/no, + of +/-, ...; other features must be named
    unless ``fixed``, else :class:`~bnx.OnStatesError`); ``fixed`` features keep their state. Every feature that
    may move takes its best replacement state, and the fewest features are kept: those
    whose replacement would cost the most. All MC-explanations (there may be
    exponentially many) need the compiled ODD.

    Returns
    -------
    dict

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.linear.mc_explanation(clf, x)
    {'WorkExperience': '+', 'FirstTimeApplicant': '-', 'EntranceExam': '-', 'GPA': '+'}
    """
    from ..explanation.mc import on_state_sets
    d = _decision(clf, instance)
    w = d.w
    fixed_pos = _positions(w, fixed, "fixed")
    skip = {w.features[i] for i in fixed_pos}
    ons = on_state_sets(w.features, w.states, on, skip, lambda f: _position(w, f, "on"),
                        declared=getattr(clf, "on_states", None))
    counted = [ons[i] if d.decision else frozenset(range(len(w.states[i]))) - ons[i]
               for i in range(d.n)]
    x_star = (d.keep_fewest(counted, fixed_pos) if isinstance(d, TanDecision)
              else keep_fewest(d, counted, fixed_pos))
    return {f: w.states[i][x_star[i]] for i, f in enumerate(w.features)}


def robustness(clf: Any, instance: Mapping) -> int | float:
    """The fewest features whose change flips the decision on ``instance``.

    ``math.inf`` when no change of any features flips it (no finite number does: the
    classifier is constant). Each feature's most damaging other state is found exactly;
    the changes with the largest losses come first, and ``k`` changes can do no more
    than the ``k`` largest losses.

    Returns
    -------
    int or float
        The fewest features to change; ``math.inf`` (a float) when no change flips the
        decision.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.linear.robustness(clf, x)
    2
    """
    moves = _flip(_decision(clf, instance))
    return math.inf if moves is None else len(moves)


def counterfactual(clf: Any, instance: Mapping) -> dict:
    """The changes of one closest instance with the other decision: ``{feature: new state}``.

    Closest counts changed features (:func:`robustness` of them).

    Returns
    -------
    dict
        ``{feature: new state}`` for the features that change.

    Raises
    ------
    ExplanationError
        No instance has the other decision (the classifier is constant; the
        :func:`robustness` is ``math.inf``). On the compiled ODD,
        :func:`bnx.counterfactuals` answers an empty set instead.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> changes = bnx.linear.counterfactual(clf, x)
    >>> len(changes), clf.decide({**x, **changes})
    (2, False)
    """
    d = _decision(clf, instance)
    moves = _flip_or_raise(d, clf, "counterfactual")
    return {d.w.features[i]: d.w.states[i][v] for i, v in sorted(moves.items())}


def contrastive_explanation(clf: Any, instance: Mapping) -> dict:
    """One smallest set of the instance's ``feature: state`` pairs whose change can flip
    the decision (a shortest contrastive explanation).

    Freeing these features allows the other decision; its size is the
    :func:`robustness`. Every contrastive explanation shares a feature with every
    PI-explanation.

    Returns
    -------
    dict
        The instance's ``{feature: state}`` pairs to free.

    Raises
    ------
    ExplanationError
        No change flips the decision (the classifier is constant; the
        :func:`robustness` is ``math.inf``). On the compiled ODD,
        :func:`bnx.contrastive_explanations` answers an empty set instead.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> sorted(bnx.linear.contrastive_explanation(clf, x))
    ['GPA', 'WorkExperience']
    """
    d = _decision(clf, instance)
    return d.named(_flip_or_raise(d, clf, "contrastive explanation"))


def check_explanation(clf: Any, instance: Mapping, partial: Mapping) -> ExplanationCheck:
    """Is ``partial`` (some of the instance's pairs) an explanation of its decision?

    Sufficient: every completion gets the instance's decision (the other features
    at their worst). Redundant: the features whose removal alone keeps it
    sufficient; since dropping features only weakens it, a sufficient partial
    instance with none is minimal, a PI-explanation. Linear in the number of features.

    Returns the same :class:`bnx.ExplanationCheck` as :func:`bnx.check_explanation`:
    ``reason`` is a PI-explanation inside ``partial`` (its features dropped one at a
    time while it stays sufficient); ``counterexample``, when ``partial`` is not
    sufficient, is the completion with every other feature at its worst state for the
    decision (the diagram version gives one closest to the instance instead).

    Returns
    -------
    ExplanationCheck

    Raises
    ------
    ExplanationError
        ``partial`` gives a feature another state than the instance has.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> check = bnx.linear.check_explanation(
    ...     clf, x, {"WorkExperience": "+", "GPA": "+", "EntranceExam": "+"})
    >>> check.sufficient, check.minimal, check.redundant, sorted(check.reason)
    (True, False, ('EntranceExam',), ['GPA', 'WorkExperience'])
    """
    d = _decision(clf, instance)
    members = sorted(set(d.positions(partial)))
    words = dict(partial=d.named(members), wording=_wording(clf))
    if isinstance(d, TanDecision):
        return _check_tan(d, members, words)
    g, F, W = d.race, d.F, d.W
    mem = set(members)
    terms = [g.c] + [F[i] if i in mem else W[i] for i in range(d.n)]
    plus, minus, s = sums(terms)
    if not g.decide(plus, minus, s, lambda: d.fixing(mem)):
        worst = d.fixing(mem)
        return ExplanationCheck(False, False, (), d.decision, counterexample={
            f: d.w.states[i][worst[i]] for i, f in enumerate(d.w.features)}, **words)

    def dropped(i, state, members):  # the sums with feature i released, if still sufficient
        p_, m_, s_ = state
        (ff, fl), (wf, wl) = F[i], W[i]
        out = (p_ - (ff > 0) + (wf > 0), m_ - (ff < 0) + (wf < 0),
               s_ - (fl if ff == 0 else 0) + (wl if wf == 0 else 0))
        return out if g.decide(*out, lambda: d.fixing(members - {i})) else None

    redundant = [d.w.features[i] for i in members
                 if dropped(i, (plus, minus, s), mem) is not None]
    state, reason = (plus, minus, s), set(mem)
    for i in members:
        smaller = dropped(i, state, reason)
        if smaller is not None:
            state = smaller
            reason.discard(i)
    return ExplanationCheck(True, not redundant, tuple(redundant), d.decision,
                            reason=d.named(reason), **words)


def _flip(d: Decision) -> dict[int, int] | None:
    return d.flip() if isinstance(d, TanDecision) else flip(d)


def _flip_or_raise(d: Decision, clf: Any, what: str) -> dict[int, int]:
    """The moves of one closest flip, or :class:`~bnx.ExplanationError` when none exists."""
    moves = _flip(d)
    if moves is None:
        decided = _wording(clf)[0 if d.decision else 1]
        raise ExplanationError(f"no {what}: no change of the features gives another decision "
                               f"than {decided} (the classifier decides it on every "
                               f"instance; its robustness is math.inf)")
    return moves


def _wording(clf: Any) -> tuple:
    """Both decisions of ``clf`` in the class's words, positive first."""
    states = getattr(clf, "class_states", None)
    pos, c = getattr(clf, "positive", "positive"), getattr(clf, "class_var", "class")
    return tuple(f"{c} = {decision_state(states, pos, d)}" for d in (True, False))


def _check_tan(d: TanDecision, members: list[int], words: dict) -> ExplanationCheck:
    y = d.counterexample(members)
    w = d.w
    if y is not None:
        return ExplanationCheck(False, False, (), d.decision, counterexample={
            f: w.states[i][y[i]] for i, f in enumerate(w.features)}, **words)
    redundant = d.redundant(members)
    reason = d.shrink(members) if redundant else members  # no redundant member: minimal
    return ExplanationCheck(True, not redundant, tuple(w.features[i] for i in redundant),
                            d.decision, reason=d.named(reason), **words)


def _position(w: Weights, f: Any, what: str) -> int:
    try:
        return w.index[f]
    except (KeyError, TypeError):
        raise UnknownFeatureError(f"{what} feature {f!r} is not a feature of this classifier "
                                  f"(features, closest first: {closest_first(f, w.features)})"
                                  ) from None


def _positions(w: Weights, features: Iterable, what: str) -> set[int]:
    if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
        raise ArgumentError(f"{what} must be a list of features, got {features!r}")
    return {_position(w, f, what) for f in features}

