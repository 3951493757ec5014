"""One MC-explanation without compiling (:func:`mc_explanation`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ..explanation.mc import on_state_sets
from ._decision import decision_of, network_of, position, positions
from ._moves import keep_fewest
from ._tan import TanDecision

__all__ = ["mc_explanation"]


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
    unless ``fixed``, else :class:`~bnx.OnStatesError`); ``fixed`` features keep their state. Every
    feature that may move takes its best replacement state, and the fewest features are kept: those
    whose replacement would cost the most. All MC-explanations (there may be
    exponentially many) need the compiled ODD.

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features).
    instance : mapping
        A complete instance.
    on : mapping, optional
        ``{feature: on state or states}``, as for :func:`~bnx.mc_explanations`.
    fixed : iterable of features
        Features that keep their state.

    Returns
    -------
    dict

    See Also
    --------
    bnx.mc_explanations : On the compiled ODD: every MC-explanation.
    bnx.linear.shortest_pi_explanation : The fewest features that fix the decision.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.linear.mc_explanation(clf, x)
    {'WorkExperience': '+', 'FirstTimeApplicant': '-', 'EntranceExam': '-', 'GPA': '+'}
    """
    clf = network_of(clf)
    d = decision_of(clf, instance)
    w = d.w
    fixed_pos = positions(w, fixed, "fixed")
    skip = {w.features[i] for i in fixed_pos}
    ons = on_state_sets(w.features, w.states, on, skip, lambda f: position(w, f, "on"),
                        declared=getattr(clf, "on_states", None))
    counted = [ons[i] if d.decision else frozenset(range(len(w.states[i]))) - ons[i]
               for i in range(d.n)]
    x_star = (d.keep_fewest(counted, fixed_pos) if isinstance(d, TanDecision)
              else keep_fewest(d, counted, fixed_pos))
    return {f: w.states[i][x_star[i]] for i, f in enumerate(w.features)}
