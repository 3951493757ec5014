"""The fewest changes that flip a decision, without compiling.

How many (:func:`robustness`), which features
(:func:`shortest_contrastive_explanation`) and to which states (:func:`counterfactuals`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .._util.wording import decision_state
from ..changes.costs import Counterfactuals
from ..diagram.encoding import Encoding
from ..diagram.layout import DROPPED, Layout
from ..diagram.store import Store
from ..errors import ExplanationError, StructureError
from . import _every
from ._decision import class_wording, decision_of, flip_moves, network_of
from ._tan import TanDecision

__all__ = ["counterfactuals", "one_counterfactual", "robustness",
           "shortest_contrastive_explanation"]


def robustness(clf: Any, instance: Mapping, *, within: str = "support") -> int | float:
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
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

    Returns
    -------
    int or float
        The fewest features to change; ``math.inf`` (a float) when no change flips the
        decision.

    See Also
    --------
    bnx.linear.counterfactuals : The closest instances with the other decision.
    bnx.robustness : The same on the compiled ODD.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.linear.robustness(clf, x)
    2
    """
    moves = flip_moves(decision_of(network_of(clf), instance, within))
    return math.inf if moves is None else len(moves)


def counterfactuals(clf: Any, instance: Mapping, *, within: str = "support"
                    ) -> Counterfactuals:
    """Every closest instance with the other decision, as the changes that lead to it.

    What :func:`bnx.counterfactuals` answers on the compiled ODD, the same set: each member
    is a partial instance ``{feature: new state}`` naming the features that change (all
    :func:`robustness` many of them) and their new states, listed most probable first (the
    probability of the counterfactual instance under the network; equally probable ones in
    this set's diagram order, which may differ from the compiled ODD's); empty, its
    ``cost`` ``math.inf``, when no change flips the decision.

    The number of changes is found first (on a naive Bayes, the changes with the largest
    losses; on a TAN, a min-sum over its feature tree). Then every set of that many
    changes that flips the decision, with every combination of new states that does, is
    made (:mod:`bnx.linear._every`): on a naive Bayes built as a diagram without listing its
    members, on a TAN listed member by member, each after polynomially many steps. When
    the set is too large for either, the search gives up with a
    :class:`~bnx.StructureError` (the compiled ODD holds any set as a diagram).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier (any number of features), or an ODD that holds it.
    instance : mapping
        A complete instance.
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

    Returns
    -------
    Counterfactuals
        Partial instances ``{feature: new state}`` (the changes); ``.cost`` is their number
        of changes, ``.decisions`` the class state each leads to.

    Raises
    ------
    StructureError
        The classifier is not naive Bayes or a TAN, or the set is too large to build
        without compiling (:mod:`bnx.linear._every`).

    See Also
    --------
    bnx.linear.robustness : Their number of changes.
    bnx.counterfactuals : The same set, on the compiled ODD.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> cfs = bnx.linear.counterfactuals(clf, x)
    >>> cfs.count, cfs.cost, set(cfs.decisions)
    (5, 2, {'-'})
    >>> changes = next(iter(cfs))
    >>> len(changes), clf.decide({**x, **changes})
    (2, False)
    """
    return _closest(network_of(clf), instance, within=within)


#: the limits of :func:`one_counterfactual`: a quick set (states of a naive Bayes set,
#: bounds of a TAN's) and few members to order
ONE_STATES, ONE_STEPS, ONE_MEMBERS = 20_000, 20_000, 50


def one_counterfactual(clf: Any, instance: Mapping, *, within: str = "support"
                       ) -> dict | None:
    """Return the first of :func:`counterfactuals` (the most probable) for a report.

    When the set is quick to build and small (:data:`ONE_STATES`, :data:`ONE_MEMBERS`: each
    member is ordered by an exact probability); else the closest counterfactual the
    greedy search finds (:func:`~._decision.flip_moves`). ``None`` when there is none.
    """
    clf = network_of(clf)
    try:
        cfs = _closest(clf, instance, ONE_STATES, ONE_STEPS, within)
        if cfs.count <= ONE_MEMBERS:
            return next(iter(cfs), None)
    except StructureError:  # too many to build quickly
        pass
    d = decision_of(clf, instance, within)
    moves = flip_moves(d)
    return None if moves is None else {d.w.features[i]: d.w.states[i][v]
                                       for i, v in sorted(moves.items())}


def _closest(clf: Any, instance: Mapping, limit: int | None = None,
             work: int | None = None, within: str = "support") -> Counterfactuals:
    """Make :func:`counterfactuals` of the classifier ``clf``.

    Giving up past ``limit`` states (naive Bayes) or ``work`` bounds (TAN).
    """
    d = decision_of(clf, instance, within)
    w, x = d.w, d.x
    moves = flip_moves(d)
    what = "the closest counterfactuals of a decision"
    enc = Encoding(tuple(w.features), tuple(tuple(s) for s in w.states))
    layout = Layout("partial", enc)
    store = Store(layout.nvars)
    root = 0
    if moves is not None:
        budget = len(moves)
        if isinstance(d, TanDecision):
            cost = [[0 if v == xi else 1 for v in range(len(w.states[i]))]
                    for i, xi in enumerate(x)]
            found = _every.tan(d, cost, budget, d.races, what, work=work)
            root = _every.diagram(layout, store, [[DROPPED if v == xi else v
                                                   for v, xi in zip(z, x)] for z in found])
        else:
            options = [[(DROPPED if v == xi else v, v, 0 if v == xi else 1)
                        for v in range(len(w.states[i]))] for i, xi in enumerate(x)]
            root = _every.naive_bayes(d, options, budget, False, layout, store, what,
                                      limit=limit)
    named = {f: w.states[i][x[i]] for i, f in enumerate(w.features)}
    return Counterfactuals(None, None, layout, kind="counterfactual", decision=d.decision,
                           instance=named, feature_order=tuple(w.features),
                           cost=math.inf if moves is None else len(moves), odd=clf,
                           core=(store, root), wording=class_wording(clf),
                           lead=decision_state(getattr(clf, "class_states", None),
                                               getattr(clf, "positive", "positive"),
                                               not d.decision))


def shortest_contrastive_explanation(clf: Any, instance: Mapping, *,
                                     within: str = "support") -> dict:
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
    within : {"support", "all"}, default "support"
        ``"support"``: among the instances the network allows (positive probability:
        a class value with a zero entry for a feature's state is no competitor there,
        and an instance of probability zero keeps every decision); ``"all"``: every
        instance (the total decision function).

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
    d = decision_of(clf, instance, within)
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
