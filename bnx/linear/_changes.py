"""The fewest changes that flip a decision, without compiling: how many
(:func:`robustness`), which features (:func:`contrastive_explanation`) and to which
states (:func:`counterfactual`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._decision import decision_of, flip_moves

__all__ = ["contrastive_explanation", "counterfactual", "robustness"]


def robustness(clf: Any, instance: Mapping) -> int | None:
    """The fewest features whose change flips the decision on ``instance``.

    ``None`` when no change of any features flips it (the classifier is constant).
    Each feature's most damaging other state is found exactly; the changes with the
    largest losses come first, and ``k`` changes can do no more than the ``k``
    largest losses.

    Returns
    -------
    int or None

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.linear.robustness(clf, x)
    2
    """
    moves = flip_moves(decision_of(clf, instance))
    return None if moves is None else len(moves)


def counterfactual(clf: Any, instance: Mapping) -> dict | None:
    """The changes of one closest instance with the other decision: ``{feature: new state}``.

    Closest counts changed features (:func:`robustness` of them); ``None`` when no
    instance has the other decision.

    Returns
    -------
    dict or None

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> changes = bnx.linear.counterfactual(clf, x)
    >>> len(changes), clf.decide({**x, **changes})
    (2, False)
    """
    d = decision_of(clf, instance)
    moves = flip_moves(d)
    if moves is None:
        return None
    return {d.w.features[i]: d.w.states[i][v] for i, v in sorted(moves.items())}


def contrastive_explanation(clf: Any, instance: Mapping) -> dict | None:
    """One smallest set of the instance's ``feature: state`` pairs whose change can flip
    the decision (a shortest contrastive explanation), or ``None`` if none can.

    Freeing these features allows the other decision; its size is the
    :func:`robustness`. Every contrastive explanation shares a feature with every
    PI-explanation.

    Returns
    -------
    dict or None

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> sorted(bnx.linear.contrastive_explanation(clf, x))
    ['GPA', 'WorkExperience']
    """
    d = decision_of(clf, instance)
    moves = flip_moves(d)
    return None if moves is None else d.named(moves)
