"""The fewest changes that flip a decision, without compiling: how many
(:func:`robustness`), which features (:func:`shortest_contrastive_explanation`) and to which
states (:func:`counterfactual`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .._util.wording import decision_state
from ..errors import ExplanationError
from ._decision import decision_of, flip_moves, network_of

__all__ = ["counterfactual", "robustness", "shortest_contrastive_explanation"]


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
    moves = flip_moves(decision_of(network_of(clf), instance))
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
    clf = network_of(clf)
    d = decision_of(clf, instance)
    moves = _flip_or_raise(d, clf, "counterfactual")
    return {d.w.features[i]: d.w.states[i][v] for i, v in sorted(moves.items())}


def shortest_contrastive_explanation(clf: Any, instance: Mapping) -> dict:
    """One smallest set of the instance's ``feature: state`` pairs whose change can flip
    the decision (a shortest contrastive explanation: one of the shortest members of
    :func:`bnx.contrastive_explanations`).

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
    >>> sorted(bnx.linear.shortest_contrastive_explanation(clf, x))
    ['GPA', 'WorkExperience']
    """
    clf = network_of(clf)
    d = decision_of(clf, instance)
    return d.named(_flip_or_raise(d, clf, "contrastive explanation"))


def _flip_or_raise(d, clf: Any, what: str) -> dict[int, int]:
    """The moves of one closest flip, or :class:`~bnx.ExplanationError` when none exists."""
    moves = flip_moves(d)
    if moves is None:
        state = decision_state(getattr(clf, "class_states", None),
                               getattr(clf, "positive", "positive"), d.decision)
        raise ExplanationError(f"no {what}: no change of the features gives another decision "
                               f"than {getattr(clf, 'class_var', 'class')} = {state} (the "
                               f"classifier decides it on every instance; its robustness is "
                               f"math.inf)")
    return moves
