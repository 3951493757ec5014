"""Sufficient reasons without compiling.

Every PI-explanation (:func:`pi_explanations`), a shortest one
(:func:`shortest_pi_explanation`) and the check of a partial instance
(:func:`check_explanation`), on naive Bayes by the race's sums (:mod:`._plan`), on a TAN by
min-sums over its feature tree (:mod:`._tan`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .._util.wording import decision_state
from ..explanation.reasons import ExplanationCheck
from ._decision import decision_of, network_of
from ._plan import Decision, greedy, knapsack, sums
from ._tan import TanDecision

__all__ = ["check_explanation", "pi_explanations", "shortest_pi_explanation"]


def pi_explanations(clf: Any, instance: Mapping, *, within: str = "support"
                    ) -> Iterator[dict]:
    """Enumerate the PI-explanations of the decision on ``instance``, one after the other.

    A PI-explanation is a minimal set of the instance's ``feature: state`` pairs
    that fixes the decision whatever the other features are. Each is yielded once,
    as a dict (features that must be fixed first, then by decreasing weight, not in
    the classifier's feature order), with a delay between two of them
    linear in the number of features (after one sort) for naive Bayes; on a TAN the
    delay has no polynomial bound (none is possible without settling monotone
    dualization: ``docs/explanations.md``, "What a TAN costs"). On small classifiers
    the set yielded is exactly that of :func:`bnx.pi_explanations` on the compiled ODD.
    Counting them has no polynomial answer: compile the classifier for that.

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

    Returns
    -------
    Iterator

    See Also
    --------
    bnx.linear.shortest_pi_explanation : One with the fewest features.
    bnx.pi_explanations : On the compiled ODD: all of them as a set, counted.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> pis = bnx.linear.pi_explanations(clf, x)
    >>> sorted(sorted(e) for e in pis)  # doctest: +NORMALIZE_WHITESPACE
    [['EntranceExam', 'FirstTimeApplicant', 'GPA'], ['EntranceExam', 'FirstTimeApplicant',
    'WorkExperience'], ['GPA', 'WorkExperience']]
    """
    clf = network_of(clf)
    d = decision_of(clf, instance, within)
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


def shortest_pi_explanation(clf: Any, instance: Mapping, *, within: str = "support") -> dict:
    """Find a PI-explanation with the fewest features.

    The features are sorted by how much fixing each to its state guarantees (its
    log-likelihood ratio minus that of its worst state); the shortest prefix that
    keeps the decision is a PI-explanation, and no shorter set can, since ``k``
    features guarantee at most the ``k`` largest gains. On a TAN the question is
    NP-complete (even with binary features): exact searches over the feature tree (a
    proven lower bound, guided deletions, a dynamic programme, a branch-and-bound)
    answer, or give up past their budgets with :class:`~bnx.StructureError`, which says
    why and between which sizes a shortest one lies, and whose ``best`` attribute is the
    shortest PI-explanation found (``docs/explanations.md``, "What a TAN costs").

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

    Returns
    -------
    dict

    See Also
    --------
    bnx.linear.pi_explanations : Every PI-explanation, one after the other.
    bnx.linear.mc_explanations : The fewest active features that keep the decision.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "-", "FirstTimeApplicant": "+", "EntranceExam": "-", "GPA": "-"}
    >>> bnx.linear.shortest_pi_explanation(clf, x)
    {'WorkExperience': '-', 'GPA': '-'}
    """
    clf = network_of(clf)
    d = decision_of(clf, instance, within)
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


def check_explanation(clf: Any, instance: Mapping, partial: Mapping, *,
                      within: str = "support") -> ExplanationCheck:
    """Check whether ``partial`` (some of the instance's pairs) explains its decision.

    Sufficient: every completion gets the instance's decision (the other features
    at their worst). Redundant: the features whose removal alone keeps it
    sufficient; since dropping features only weakens it, a sufficient partial
    instance with none is minimal, a PI-explanation. Linear in the number of features.

    Returns the same :class:`bnx.ExplanationCheck` as :func:`bnx.check_explanation`:
    ``reason`` is a PI-explanation inside ``partial`` (its features dropped one at a
    time while it stays sufficient); ``counterexample``, when ``partial`` is not
    sufficient, is the completion with every other feature at its worst state for the
    decision (the diagram version gives one closest to the instance instead).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.
    partial : mapping
        Some of the instance's ``feature: state`` pairs.
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

    Returns
    -------
    ExplanationCheck

    Raises
    ------
    ExplanationError
        ``partial`` gives a feature another state than the instance has.

    See Also
    --------
    bnx.check_explanation : The same check on the compiled ODD.
    bnx.linear.pi_explanations : Every PI-explanation.

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
    clf = network_of(clf)
    d = decision_of(clf, instance, within)
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
