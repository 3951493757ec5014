"""Every MC-explanation without compiling (:func:`mc_explanations`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ..classifier._possible import may_be_impossible
from ..classifier._world import within_support
from ..diagram.encoding import Encoding
from ..diagram.layout import Layout
from ..diagram.store import Store
from ..errors import StructureError
from ..explanation.explanations import Explanations
from ..explanation.mc import on_state_sets
from . import _every
from ._decision import class_wording, decision_of, network_of, position, positions
from ._moves import keep_fewest
from ._tan import TanDecision

__all__ = ["mc_explanations", "one_mc_explanation"]


def mc_explanations(clf: Any, instance: Mapping, *,
                    on: Mapping[Any, Any | Collection] | None = None,
                    fixed: Iterable = (), within: str = "support") -> Explanations:
    """Every MC-explanation of the decision on ``instance``, as complete instances.

    What :func:`bnx.mc_explanations` answers on the compiled ODD, the same set: for a
    positive decision, keep the decision while turning off as many of the instance's
    on-features as possible (any off state may replace an on one); for a negative
    decision on and off swap roles. ``on`` maps features to their on state(s) (default:
    the classifier's declared ``on_states``, or a binary feature's affirmative state, yes
    of yes/no, + of +/-, ...; other features must be named unless ``fixed``, else
    :class:`~bnx.OnStatesError`); ``fixed`` features keep their state.

    The fewest features to keep is found first (on a naive Bayes, the features whose best
    replacement costs the most are kept; on a TAN, a min-sum over its feature tree). Then
    the set of every instance that keeps that many and the decision is made
    (:mod:`bnx.linear._every`): on a naive Bayes built as a diagram without listing its
    members (there may be billions), on a TAN listed member by member, each after
    polynomially many steps. When the set is too large for either, the search gives up
    with a :class:`~bnx.StructureError` (the compiled ODD holds any set as a diagram).
    Among the instances the network allows (``within="support"``, the default): on a
    network with a zero entry an MC-explanation must also be an instance of positive
    probability. That is one race too, the complement of the support's race keeping the
    other decision (it holds exactly on the possible instances with the decision); at the
    threshold 0 it is not, and is refused with a :class:`~bnx.StructureError` (compile the
    classifier, or ask ``within="all"``, every instance, the total decision function).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes or TAN classifier with a two-state class (any number of features),
        or an ODD that holds it.
    instance : mapping
        A complete instance.
    on : mapping, optional
        ``{feature: on state or states}``, as for :func:`~bnx.mc_explanations`.
    fixed : iterable of features
        Features that keep their state.
    within : {"support", "all"}, default "support"
        The instances an MC-explanation may be (see above).

    Returns
    -------
    Explanations
        Complete instances; :meth:`~bnx.Explanations.lengths` counts them by their number
        of counted features, as on the diagram.

    Raises
    ------
    StructureError
        The classifier is not naive Bayes or a TAN with a two-state class, the set is
        too large to build without compiling (:mod:`bnx.linear._every`), or the threshold
        is 0, the network may rule instances out, and ``within="support"``.
    OnStatesError
        A feature's on state is neither given, declared, nor recognisable.

    See Also
    --------
    bnx.mc_explanations : The same set, on the compiled ODD.
    bnx.linear.shortest_pi_explanation : The fewest features that fix the decision.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> mcs = bnx.linear.mc_explanations(clf, x)
    >>> print(mcs)  # the on states kept  # doctest: +NORMALIZE_WHITESPACE
    1 MC-explanation of Admit = + (the fewest on states that keep it):
      WorkExperience = +, GPA = +
    on states: WorkExperience = +, FirstTimeApplicant = +, EntranceExam = +, GPA = +
    >>> list(mcs)
    [{'WorkExperience': '+', 'FirstTimeApplicant': '-', 'EntranceExam': '-', 'GPA': '+'}]
    """
    clf = network_of(clf)
    return _fewest_on(clf, instance, on, fixed, world=_within(clf, within))


def _within(clf: Any, within: str) -> str:
    """Return the world the MC-explanations are found in: ``"support"`` or ``"all"``.

    ``"all"`` where every instance is possible (the same answers); within the support of a
    network that may rule instances out, the race of witnesses (an instance of positive
    probability with the decision: the support's race keeping the other decision fails)
    answers, but at the threshold 0 (where every possible instance is positive, which is
    no one race) the question is refused.
    """
    if not within_support(within) or not may_be_impossible(clf):
        return "all"
    if getattr(clf, "rule", "threshold") == "threshold" and clf.threshold == 0:
        raise StructureError(
            "MC-explanations among the instances the network allows are not found without "
            "compiling at the threshold 0 when a table has a zero entry (each must then be "
            "an instance the network allows, and every one is positive): compile the "
            "classifier (bnx.mc_explanations(bnx.compile(clf), x)), or ask every instance "
            "(within='all')")
    return "support"


def one_mc_explanation(clf: Any, instance: Mapping, *,
                       on: Mapping[Any, Any | Collection] | None = None,
                       within: str = "support") -> dict:
    """Return one of :func:`mc_explanations` for a report: the first shortest-first.

    When the set is quick to build (:data:`~._changes.ONE_STATES`,
    :data:`~._changes.ONE_STEPS`); else the one the
    greedy search finds (the fewest features kept, those whose replacement costs most).
    """
    from ._changes import ONE_STATES, ONE_STEPS
    clf = network_of(clf)
    world = _within(clf, within)
    try:
        return next(_fewest_on(clf, instance, on, (), ONE_STATES, ONE_STEPS,
                               world=world).shortest_first())
    except StructureError:  # too many to build quickly
        pass
    d = decision_of(clf, instance, world, witness=True)  # see mc_explanations
    w = d.w
    ons = on_state_sets(w.features, w.states, on, (), lambda f: position(w, f, "on"),
                        declared=getattr(clf, "on_states", None))
    counted = [ons[i] if d.decision else frozenset(range(len(w.states[i]))) - ons[i]
               for i in range(d.n)]
    best = (d.keep_fewest(counted, set()) if isinstance(d, TanDecision)
            else keep_fewest(d, counted, set()))
    return {f: w.states[i][best[i]] for i, f in enumerate(w.features)}


def _fewest_on(clf: Any, instance: Mapping, on, fixed, limit: int | None = None,
               work: int | None = None, world: str = "all") -> Explanations:
    """Make :func:`mc_explanations` of the classifier ``clf``.

    Giving up past ``limit`` states (naive Bayes) or ``work`` bounds (TAN). ``world``
    ``"support"``: the race of witnesses (:func:`_within`): a naive Bayes's
    (``witness=True``), a TAN's the support's forest, whose race of the other decision
    fails exactly on the possible instances with the decision.
    """
    d = decision_of(clf, instance, world, witness=True)  # see mc_explanations
    w = d.w
    fixed_pos = positions(w, fixed, "fixed")
    skip = {w.features[i] for i in fixed_pos}
    ons = on_state_sets(w.features, w.states, on, skip, lambda f: position(w, f, "on"),
                        declared=getattr(clf, "on_states", None))
    n = d.n
    counted = [ons[i] if d.decision else frozenset(range(len(w.states[i]))) - ons[i]
               for i in range(n)]
    tan = isinstance(d, TanDecision)
    best = d.keep_fewest(counted, fixed_pos) if tan else keep_fewest(d, counted, fixed_pos)
    # a feature moves when it is counted and may change; it is kept at cost 1, or takes
    # one of its uncounted states at cost 0
    moves = [i not in fixed_pos and d.x[i] in counted[i] and
             len(counted[i]) < len(w.states[i]) for i in range(n)]
    budget = sum(best[i] == d.x[i] for i in range(n) if moves[i])
    what = "the MC-explanations of a decision"
    enc = Encoding(tuple(w.features), tuple(tuple(s) for s in w.states))
    layout = Layout("complete", enc, weights=[frozenset() if i in fixed_pos else counted[i]
                                              for i in range(n)])
    store = Store(layout.nvars)
    if tan:
        cost = [[(1 if v == xi else 0 if v not in counted[i] else None) if moves[i]
                 else (0 if v == xi else None) for v in range(len(w.states[i]))]
                for i, xi in enumerate(d.x)]
        rows = _every.tan(d, cost, budget, [(w, not d.decision)], what, work=work)
        root = _every.diagram(layout, store, rows)
    else:
        options = [[(v, v, 1 if v == xi else 0) for v in range(len(w.states[i]))
                    if v == xi or v not in counted[i]] if moves[i] else [(xi, xi, 0)]
                   for i, xi in enumerate(d.x)]
        root = _every.naive_bayes(d, options, budget, True, layout, store, what,
                                      limit=limit)
    named = {f: w.states[i][d.x[i]] for i, f in enumerate(w.features)}
    on_names = {f: tuple(w.states[i][j] for j in sorted(ons[i]))
                for i, f in enumerate(w.features) if f not in skip and ons[i]}
    return Explanations(None, None, layout, kind="MC", decision=d.decision, instance=named,
                        feature_order=tuple(getattr(clf, "features", w.features)),
                        core=(store, root), on=on_names, wording=class_wording(clf))
