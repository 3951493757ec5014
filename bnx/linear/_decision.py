"""The decision of a naive Bayes or TAN on one instance, as the questions of bnx.linear read it.

:func:`decision_of` (a :class:`~._plan.Decision`, or a :class:`~._tan.TanDecision` on a
TAN), the decision itself (:func:`decide`), the fewest changes that flip it
(:func:`flip_moves`) and features named by the user (:func:`position`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._util.wording import decision_state
from ..errors import ArgumentError, UnknownFeatureError, closest_first
from ._core import Weights
from ._moves import flip
from ._plan import Decision
from ._tan import TanDecision

__all__ = ["class_wording", "decide", "decision_of", "flip_moves", "network_of", "position",
           "positions"]


def decide(clf: Any, instance: Mapping, *, within: str = "support") -> bool:
    """Decide a complete instance exactly (the same as ``clf.decide``).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.
    within : {"support", "all"}, default "support"
        As for :meth:`bnx.Classifier.decide`: refuse an instance the network cannot
        produce, or decide it by the rule's tie.

    Returns
    -------
    bool

    See Also
    --------
    bnx.Classifier.decide : The same decision, by the classifier.
    bnx.ODD.decide : The same decision, read off the compiled diagram.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> bnx.linear.decide(clf, x) == clf.decide(x)
    True
    """
    return decision_of(network_of(clf), instance, within).decision


def network_of(clf: Any) -> Any:
    """Return the classifier a question of :mod:`bnx.linear` reads.

    ``clf`` itself, or the one an ODD holds (``odd.classifier``; an
    :class:`~bnx.ArgumentError` when it holds none).
    """
    from ..odd._odd import ODD, classifier_and_odd
    return classifier_and_odd(clf)[0] if isinstance(clf, ODD) else clf


def decision_of(clf: Any, instance: Mapping, within: str = "support", *,
                witness: bool = False) -> Decision:
    """Return the decision of ``clf`` on ``instance``: a :class:`TanDecision` for a TAN.

    ``within``: its races keep the decision on every instance the network allows
    (``"support"``) or on every instance (``"all"``); ``witness`` (a naive Bayes): within
    the support, they hold on the possible instances with the decision only.
    """
    if getattr(clf, "structure", None) == "tan":
        return TanDecision(clf, instance, within)
    return Decision(clf, instance, within, witness=witness)


def flip_moves(d: Decision) -> dict[int, int] | None:
    """Find the fewest changes that flip ``d`` (position: new state index).

    ``None`` when none does.
    """
    return d.flip() if isinstance(d, TanDecision) else flip(d)


def class_wording(clf: Any) -> tuple:
    """Both decisions of ``clf`` in the class's words, positive first (``"Admit = +"``)."""
    states = getattr(clf, "class_states", None)
    positive = getattr(clf, "positive", "positive")
    c = getattr(clf, "class_var", "class")
    return tuple(f"{c} = {decision_state(states, positive, s)}" for s in (True, False))


def position(w: Weights, f: Any, what: str) -> int:
    """Return the position of feature ``f``.

    An :class:`~bnx.UnknownFeatureError` names the closest features when it is none;
    ``what`` names the argument.
    """
    try:
        return w.index[f]
    except (KeyError, TypeError):
        raise UnknownFeatureError(f"{what} feature {f!r} is not a feature of this classifier "
                                  f"(features, closest first: {closest_first(f, w.features)})"
                                  ) from None


def positions(w: Weights, features: Iterable, what: str) -> set[int]:
    """Return the positions of a list of features (see :func:`position`)."""
    if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
        raise ArgumentError(f"{what} must be a list of features, got {features!r}")
    return {position(w, f, what) for f in features}
