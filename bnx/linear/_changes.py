"""The fewest changes that flip a decision, without compiling.

How many (:func:`robustness`), which features
(:func:`shortest_contrastive_explanation`) and to which states (:func:`counterfactual`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .._util.wording import decision_state
from ..errors import ExplanationError
from ._decision import decision_of, flip_moves, network_of

__all__ = ["counterfactual", "robustness", "shortest_contrastive_explanation"]


def robustness(clf: Any, instance: Mapping) -> int | float:
    """Count the fewest features whose change flips the decision on ``instance``.

    ``math.inf`` when no change of any features flips it (no finite number does: the
    classifier is constant). Each feature's most damaging other state is found exactly;
    the changes with the largest losses come first, and ``k`` changes can do no more
    than the ``k`` largest losses.

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.

    Returns
    -------
    int or float
        The fewest features to change; ``math.inf`` (a float) when no change flips the
        decision.

    See Also
    --------
    bnx.linear.counterfactual : One closest instance with the other decision.
    bnx.robustness : The same on the compiled ODD.

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
    """Find one closest instance with the other decision, as its changes ``{feature: new state}``.

    Closest counts changed features (:func:`robustness` of them).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.

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

    See Also
    --------
    bnx.linear.robustness : Its number of changes.
    bnx.counterfactuals : On the compiled ODD: every closest one.

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
    """Find one smallest set of the instance's ``feature: state`` pairs whose change can flip it.

    A shortest contrastive explanation of the decision: one of the shortest members of
    :func:`bnx.contrastive_explanations`.

    Freeing these features allows the other decision; its size is the
    :func:`robustness`. Every contrastive explanation shares a feature with every
    PI-explanation.

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.

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

    See Also
    --------
    bnx.linear.robustness : Its size.
    bnx.contrastive_explanations : On the compiled ODD: every minimal one.

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
    """Return the moves of one closest flip, or raise :class:`~bnx.ExplanationError` if none."""
    moves = flip_moves(d)
    if moves is None:
        state = decision_state(getattr(clf, "class_states", None),
                               getattr(clf, "positive", "positive"), d.decision)
        raise ExplanationError(f"no {what}: no change of the features gives another decision "
                               f"than {getattr(clf, 'class_var', 'class')} = {state} (the "
                               f"classifier decides it on every instance; its robustness is "
                               f"math.inf)")
    return moves
