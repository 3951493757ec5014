""":func:`explain`: one call for the report on a decision (:class:`~bnx.report.Report`)."""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

from .._util.guard import question
from .._util.types import Instance
from .._util.waiting import waiting
from ..classifier._classifier import Classifier
from ..classifier._possible import may_be_impossible, refuse_impossible
from ..classifier._rules import decides
from ..classifier._world import within_support
from ..errors import ArgumentError, MissingFeatureError, ODDFileError, StructureError
from ..odd._odd import ODD
from ..odd._tables import document_class_states, document_joint
from ._plain import MAX_SHOWN
from ._report import FrozenMap, NextObservation, Report
from ._values import Counterfactual

__all__ = ["explain", "MAX_SHOWN", "decision_name", "decided_text", "next_from_frame"]


#: The default bound, in seconds, on one report: what a person waits for. It bounds the
#: search over the network of a classifier explained without compiling, and on a compiled
#: diagram the listing of the closest counterfactuals most probable first.
SEARCH_TIMEOUT = 10.0


@question
def explain(odd: ODD | Classifier, instance: Instance, *, rival: Any = None,
            background: Any = None, timeout: float | None = SEARCH_TIMEOUT,
            within: str = "support", progress: bool = False) -> Report:
    """Explain one decision: what was decided, why, and what would change it.

    Parameters
    ----------
    odd : ODD or Classifier
        A compiled :class:`~bnx.ODD` (with its classifier, or loaded from a file: the
        posterior is then computed from the file's tables, without pgmpy). Or a
        :class:`~bnx.Classifier`, explained without compiling its decision function: a
        naive Bayes or TAN with a two-state class and a complete instance by
        :mod:`bnx.linear` (one shortest reason and one closest counterfactual, not
        counted); any other (any network, binary or multi-class, a rival, a partial
        instance) by search over the network (:mod:`bnx.local`), within ``timeout``:
        the decision and every class probability exactly; a sufficient reason proven
        sufficient and subset-minimal, the shortest ones when the search proves them
        shortest; the closest counterfactuals and the robustness, exact up to the
        number of changes searched and "at least" beyond; for a partial instance the
        same-decision probability (by compiling the classifier restricted to the
        evidence, or by a branch and bound over the missing features' settings: exact
        when it closes in time, else a proven interval), and what to observe next (each
        expected same-decision probability exact or a proven interval,
        :attr:`~bnx.report.NextObservation.expected_sdp_bounds`). The report says how
        each part was obtained (:attr:`~bnx.Report.methods`) and what each search
        proved (:attr:`~bnx.Report.reasons_proven`,
        :attr:`~bnx.Report.robustness_at_least`, :attr:`~bnx.Report.sdp_bounds`).
    instance : mapping, pandas Series or one-row DataFrame
        The instance. Features left out (or missing values) are unobserved: the report
        on such a partial instance says how sure its decision is (the same-decision
        probability) instead of giving reasons and counterfactuals, which need a
        complete instance.
    rival : class state, optional
        For a multi-class ODD (:class:`~bnx.MulticlassODD`): the class the decision is
        contrasted with, "why this class and not ``rival``": the reasons are then the
        minimal parts of the instance with which no completion is decided ``rival``,
        the counterfactuals the closest instances decided ``rival`` and the roles
        theirs (complete instances only). On a binary ODD it may only name the other
        decision, which changes nothing.
    background : DataFrame or mapping, optional
        A background data set (or product distribution) for the exact SHAP values of
        the decision (:func:`bnx.shap_values`; of the decided class's formula on a
        multi-class ODD), complete instances only.
    timeout : float or None, default 10
        The seconds the whole call may take (``None``: no bound). For a classifier
        explained by search, what is proven by then is reported, never a guess: the
        decision and its probabilities always, the reasons and counterfactuals as far
        as they went. On a compiled diagram every answer is a pass over it and exact;
        the bound then holds the listing of the closest counterfactuals most probable
        first (each probability in floats within a proven bound, exactly where two
        bounds overlap): past it they are listed in the diagram's order, as
        :attr:`~bnx.Report.methods` says. :mod:`bnx.linear` answers at once and ignores
        it.
    within : {"support", "all"}, default "support"
        ``"support"`` answers among the
        instances the network allows (positive probability): the reasons hold whatever
        the other features say in any completion that can occur, and the
        counterfactuals are instances that can occur; ``"all"``: over every instance,
        the total decision function of the paper (an instance of probability zero
        decided by the rule's tie). The same-decision probability weighs completions by
        their probability, the same in both.
    progress : bool, default False
        Draw a bar of the seconds spent against ``timeout`` on stderr while the report is
        made (from half a second on; ``bnx explain`` draws it on a terminal).

    Returns
    -------
    Report
        The decision in the class's words (on a multi-class ODD, the decided class state
        with every state's probability), its posterior, the shortest sufficient
        reasons, the necessary features, the closest counterfactuals and the
        robustness (and attributions with a background); for a partial instance, the
        same-decision probability.

    Raises
    ------
    ArgumentError
        ``odd`` is neither an ODD nor a classifier :mod:`bnx.linear` explains, a
        background or a rival is given for a partial instance or with a classifier, or
        the rival is the decided class (or, on a binary ODD, not its other decision).
    UnknownStateError
        The rival is not a class state.
    InstanceError
        The instance names an unknown feature or state (its subclasses say which), or
        its findings cannot hold together under the network
        (:class:`~bnx.ImpossibleInstanceError`, naming a minimal set of them that
        conflict).

    See Also
    --------
    bnx.explain_data : The same questions on every row of a data set.
    bnx.plot_network : The report drawn on the network.
    bnx.pi_explanations : Every reason the decision has, as a set.
    bnx.contrastive_explanations : Every minimal set of features whose change can flip it.
    bnx.counterfactuals : The closest instances with another decision.

    Examples
    --------
    >>> import bnx
    >>> from bnx.report import explain
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> r = explain(odd, x)
    >>> r.decision, round(r.posterior, 3), r.robustness, r.necessary
    ('+', 0.906, 1, ('WorkExperience', 'GPA'))
    >>> r.reasons
    ({'WorkExperience': '+', 'GPA': '+'},)

    A classifier without a positive state decides the most probable class:

    >>> asia = bnx.examples.asia()
    >>> clf = bnx.Classifier(asia.network, "lung", features=["smoke", "xray", "dysp"])
    >>> many = bnx.compile(clf, backend="autoref")
    >>> r = explain(many, {"smoke": "yes", "xray": "yes", "dysp": "yes"})
    >>> r.decision, r.multiclass, r.counterfactuals[0].decision
    ('yes', True, 'no')
    """
    started = time.monotonic()  # the timeout bounds the whole call
    within_support(within)  # "support" or "all"
    if timeout is not None and not (isinstance(timeout, (int, float))
                                    and not isinstance(timeout, bool) and timeout > 0):
        raise ArgumentError(f"timeout must be a positive number of seconds or None, "
                            f"got {timeout!r}")
    if not isinstance(progress, bool):
        raise ArgumentError(f"progress must be True or False, got {progress!r}")
    with waiting(timeout, enabled=progress):
        return _explain(odd, instance, rival, background, timeout, within, started)


def _explain(odd: Any, instance: Instance, rival: Any, background: Any,
             timeout: float | None, within: str, started: float) -> Report:
    """Make :func:`explain`'s report (its arguments checked; ``started`` its clock)."""
    if isinstance(odd, (ODD, Classifier)):  # an instance the network cannot produce: refused
        refuse_impossible(odd, {f: odd.states(f)[j] for f, j in
                                odd.encode(instance, partial=True).items()})
    if isinstance(odd, ODD):
        deadline = None if timeout is None else started + timeout
        return _from_diagram(odd, instance, background, rival, within, deadline)
    if isinstance(odd, Classifier):
        if background is not None:
            raise ArgumentError("attributions (background=) need the compiled diagram: "
                                "bnx.explain(bnx.compile(clf), x, background=...)")
        from ..linear.report import explainable
        named = odd.encode(instance, partial=True)
        if (rival is None and not odd.multiclass and explainable(odd)
                and len(named) == len(odd.features)):
            return _from_linear(odd, instance, background, within)
        if timeout is not None:
            timeout = max(timeout - (time.monotonic() - started), 1e-9)
        return _from_search(odd, instance, rival, timeout, within)
    raise ArgumentError(f"bnx.explain takes a compiled bnx.ODD or a bnx.Classifier "
                        f"(explained without compiling), got {type(odd).__name__}")


def decision_name(states: tuple | None, positive_state: Any, positive: bool) -> Any:
    """Name the decision in the class's words.

    The positive state; else the other state of a two-state class, or ``"not <positive>"``.

    Examples
    --------
    >>> decision_name(("democrat", "republican"), "republican", False)
    'democrat'
    >>> decision_name(("low", "mid", "high"), "high", False)
    'not high'
    """
    if positive:
        return positive_state
    if states is not None and len(states) == 2:
        return states[0] if states[1] == positive_state else states[1]
    return f"not {positive_state}"


def decided_text(odd: ODD, instance: Instance, clf: Classifier | None = None) -> str:
    """Write the first sentence of the report on ``instance``, alone.

    The decision in the class's words and its posterior beside the threshold (``"Decided:
    Admit = + (Pr(Admit = +) = 0.906, threshold 0.5)."``); what ``bnx explain`` prints above
    single answers.

    The posterior comes from ``clf`` when given (a partial instance needs it: "So far"),
    or from the classifier the ODD was compiled from, else from a saved ODD's tables
    (without pgmpy); the sentence leaves it out when none holds probabilities. An
    instance the network cannot produce is refused (:class:`~bnx.ImpossibleInstanceError`),
    as by :func:`explain`.

    Parameters
    ----------
    odd : ODD
        The decision function.
    instance : mapping
        A complete or partial instance.
    clf : Classifier, optional
        The classifier whose posterior is given (default: the ODD's).

    Returns
    -------
    str
        One sentence.

    See Also
    --------
    bnx.explain : The whole report, of which this is the first sentence.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> decided_text(odd, dict.fromkeys(odd.features, "-"))
    'Decided: Admit = - (Pr(Admit = +) = 0.00017, threshold 0.5).'
    >>> decided_text(odd, {"GPA": "+"}, odd.classifier)
    'So far: Admit = + (Pr(Admit = +) = 0.791, threshold 0.5).'

    A multi-class ODD's decision is its class state, beside the runner-up:

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "lung", features=["xray", "dysp"]))
    >>> decided_text(many, {"xray": "yes", "dysp": "yes"})
    'Decided: lung = yes (0.621; next no 0.379).'
    """
    from .._util.wording import decided, decided_class
    meta = odd.meta
    positive_state = meta.get("positive")
    partial = clf is not None
    clf = clf if clf is not None else odd._classifier  # compiled here: built already
    idx = odd.encode(instance, partial=partial)
    enc = odd.encoding
    named = {f: enc.states[enc.position(f)][j] for f, j in idx.items()}
    refuse_impossible(odd, named)
    complete = len(idx) == len(enc.features)
    if clf is not None:
        states, joint = clf.class_states, clf.class_joint(named, partial=True)
        positive = odd.decide(named, within="all") if complete else clf.decide(named, partial=True)
    else:
        states, joint = document_class_states(odd), document_joint(odd, idx)
        positive = odd.decide(named, within="all")
    if odd.multiclass:  # ``positive`` is the decided class state
        probs = _probabilities(joint, states, list(states).index(positive))[2]
        return decided_class(meta.get("class_var"), positive, probs, complete=complete)
    p = None if states is None else list(states).index(positive_state)
    posterior, _, probs = _probabilities(joint, states, p)
    threshold = meta.get("threshold")
    return decided(meta.get("class_var"), decision_name(states, positive_state, positive),
                   positive_state, posterior, rule=meta.get("rule", "threshold"),
                   threshold=threshold, positive=bool(positive), class_probabilities=probs,
                   complete=complete)


def _probabilities(joint: list | None, states: tuple | None, p: int | None) -> tuple:
    """``(posterior, posterior_exact, class_probabilities)`` from a class joint."""
    if joint is None or states is None or p is None:
        return None, None, None
    total = sum(joint, Fraction(0))
    if total == 0:
        return None, None, None
    if any(type(v) is float for v in joint):  # floats within a bound: no exact posterior
        f = [float(v) for v in joint]
        return f[p] / sum(f), None, FrozenMap({s: v / sum(f) for s, v in zip(states, f)})
    if all(type(v) is int for v in joint):  # a joint scaled to integers: one gcd
        exact = Fraction(joint[p], total)
        # int / int is rounded once, as float(Fraction) is
        return float(exact), exact, FrozenMap({s: v / int(total) for s, v in zip(states, joint)})
    exact = Fraction(joint[p]) / total
    return float(exact), exact, FrozenMap({s: float(Fraction(v) / total)
                                           for s, v in zip(states, joint)})


def _partial_joint(clf: Classifier, idx: dict) -> list:
    """Return the class joint of a partial instance for the report's probabilities.

    Exactly where its contraction takes at most
    :data:`~bnx.classifier._inference.EXACT_FLOPS` multiply-adds (sized before it starts);
    else in floats within a proven bound (munin1's half instance: minutes in big integers),
    the report then giving no exact posterior. The decision is the classifier's, exact.
    """
    from ..classifier._inference import FloatRange
    evidence = clf._observed(idx)
    if clf._tree is None and not clf._inference.affordable((clf.class_var,), evidence):
        try:
            got = clf._inference.joint((clf.class_var,), evidence)
            return [float(v) for v in got.table.reshape(-1)]
        except FloatRange:
            pass
    return clf._class_joint(idx)


def _world(model: ODD | Classifier, within: str) -> str | None:
    """Return :attr:`~bnx.Report.world` of a complete instance's answers.

    ``within`` when the network may give some instance probability zero, else ``None``.
    """
    return within if may_be_impossible(model) else None


def _from_diagram(odd: ODD, instance: Instance, background: Any, rival: Any = None,
                  within: str = "support", deadline: float | None = None) -> Report:
    from ..changes._robustness import counterfactuals
    from ..diagram.walks import feature_uses
    from ..explanation.pi import pi_explanations
    from ..odd._odd import formula_for
    meta = odd.meta
    multi = odd.multiclass
    class_var, positive_state = meta.get("class_var"), meta.get("positive")
    rule, threshold = meta.get("rule", "threshold"), meta.get("threshold")
    idx = odd.encode(instance, partial=True)
    enc = odd.encoding
    named = {f: enc.states[enc.position(f)][idx[f]] for f in odd.display_order if f in idx}
    complete = len(idx) == len(enc.features)
    clf = odd._classifier  # built already (compiled here), or None (loaded from a file)
    if clf is None and not complete:
        clf = odd.classifier
        if clf is None:
            raise ArgumentError("a partial instance needs the classifier's probabilities, "
                                "which this ODD does not hold (a file of format version 1): "
                                "compile it again")
    if clf is not None:
        states = clf.class_states
        # the joint up to one positive factor, in integers (decisions and ratios alike)
        joint = clf._scaled_joint(clf.encode(named, partial=True))[0]
    else:
        states = document_class_states(odd)
        joint = document_joint(odd, idx)
    if background is not None and not complete:
        raise ArgumentError("attributions (background=) need a complete instance")
    if rival is not None and not complete:
        raise ArgumentError("rival= asks why the decision is not that class, which needs a "
                            "complete instance")
    if multi:  # the decision is a class state: every question asks its class formula
        decision = odd.decide(named, within="all") if complete else clf.decide(named, partial=True)
        p = list(states).index(decision) if states is not None else None
        if (complete and joint is not None and sum(joint) > 0
                and max(range(len(joint)), key=joint.__getitem__) != p):
            raise ODDFileError("the classifier stored with this ODD does not decide as its "
                               "diagram does: the file is inconsistent")
        positive = None
    else:
        p = None if states is None else list(states).index(positive_state)
        if complete:
            positive = odd.decide(named, within="all")
            if (joint is not None and sum(joint) > 0
                    and decides(joint, rule, p, threshold) != positive):
                raise ODDFileError("the classifier stored with this ODD does not decide as "
                                   "its diagram does: the file is inconsistent")
        else:
            positive = clf.decide(named, partial=True)
        decision = decision_name(states, positive_state, positive)
        positive = bool(positive)
    if complete and rival is not None:  # a rival that is no class, or the decided one
        formula_for(odd, named, rival=rival)
    if multi and rival is not None:
        rival = odd.classes[odd.class_index(rival)]
    else:
        rival = None  # a binary ODD's rival can only be its other decision: nothing more
    posterior, posterior_exact, probs = _probabilities(joint, states, p)
    common = dict(
        class_var=class_var, decision=decision, positive=positive,
        positive_state=positive_state, instance=FrozenMap(named),
        features=tuple(odd.display_order), complete=complete, rule=rule,
        threshold=None if threshold is None else float(threshold),
        threshold_exact=None if threshold is None else Fraction(threshold),
        posterior=posterior, posterior_exact=posterior_exact, class_probabilities=probs,
        method="diagram", multiclass=multi, rival=rival)
    if not complete:  # a multi-class classifier: the SDP of the class decided, and so on
        sdp = _sdp(clf, named, odd)
        nxt = _next(clf, named, odd)
        return Report(**common, sdp=None if sdp is None else float(sdp), sdp_exact=sdp,
                      next=nxt, methods=FrozenMap({
                          "decision": "exact inference on the network",
                          "sdp": "compiled diagram"}))
    pis = pi_explanations(odd, named, rival=rival, within=within)  # why a (and not rival)
    reasons = []
    for e in pis.shortest():
        reasons.append(FrozenMap(e))
        if len(reasons) >= MAX_SHOWN:
            break
    left = None if deadline is None else max(deadline - time.monotonic(), 1e-9)
    # to another class or the rival; listing them most probable first within the call's bound
    cfs = counterfactuals(odd, named, target=rival, within=within, timeout=left)
    rob = cfs.cost  # the fewest changes (math.inf: no change flips the decision)
    changes = []
    for c, to in zip(cfs, cfs.decisions):  # each with the class it leads to
        changes.append(Counterfactual({f: (named[f], s) for f, s in c.items()}, to))
        if len(changes) >= MAX_SHOWN:
            break
    how = {"decision": "compiled diagram", "reasons": "compiled diagram",
           "counterfactuals": "compiled diagram"}
    if not cfs.by_probability and cfs.count > 1 and _has_tables(odd):
        how["counterfactuals"] = ("compiled diagram (in the diagram's order: listing the "
                                  "most probable first did not finish in time)")
    # A feature is necessary when every sufficient reason keeps it, irrelevant when none
    # does: one pass over the reasons' diagram.
    table, ref = pis.nodes
    kept, dropped = feature_uses(table, ref, pis.layout)
    position = odd.encoding.position
    necessary = tuple(f for f in odd.display_order
                      if kept[position(f)] and not dropped[position(f)])
    irrelevant = tuple(f for f in odd.display_order if not kept[position(f)])
    attributions = base = None
    if background is not None:
        from ..attribution import shap_values
        # the decided class's formula: SHAP values toward the decision (1 decided, 0 not)
        a = shap_values(odd.class_formula(decision) if multi else odd, named, background,
                        within=within)
        attributions = FrozenMap({f: float(v) for f, v in zip(a.feature_names, a.values)})
        base = float(a.base_values)
    lengths = pis.lengths()  # the count is their sum: one walk over the reasons, not two
    return Report(**common, reasons=tuple(reasons), reason_count=sum(lengths.values()),
                  reason_lengths=FrozenMap(lengths), **_general(odd, named, rival, within),
                  necessary=necessary, irrelevant=irrelevant,
                  counterfactuals=tuple(changes), counterfactual_count=cfs.count,
                  robustness=rob, attributions=attributions, base_value=base,
                  methods=FrozenMap(how), world=_world(odd, within),
                  reasons_proven="shortest")


def _has_tables(odd: ODD) -> bool:
    """Whether the ODD holds its classifier's probabilities (its own, or its file's)."""
    return (getattr(odd, "_classifier", None) is not None
            or getattr(odd, "_classifier_doc", None) is not None)


#: How many general reasons (fewest features first) the report reads to find those that
#: say more than the sufficient reasons.
GENERAL_READ = 4 * MAX_SHOWN


def _general(odd: ODD, named: dict, rival: Any = None, within: str = "support") -> dict:
    """Find the report's general reasons (with ``rival``: ruling it out).

    The first that allow several states of a feature (none to compute where every feature
    has at most two states: they are then the sufficient reasons).
    """
    from ..explanation.general import general_reasons
    if all(len(s) <= 2 for s in odd.encoding.states):
        return {}
    found = general_reasons(odd, named, rival=rival, within=within)
    shown, words = [], []
    for k, reason in enumerate(found):
        if k >= GENERAL_READ or len(shown) >= MAX_SHOWN:
            break
        if any(len(s) > 1 for s in reason.values()):
            shown.append(FrozenMap(reason))
            words.append(found.terms(reason))
    return dict(general_reasons=tuple(shown), general_words=tuple(words),
                general_count=found.count)


def _sdp(clf: Classifier, named: dict, odd: ODD) -> Fraction | None:
    """Compute the exact same-decision probability of the decision on the evidence ``named``."""
    from ..probability.same_decision import same_decision_probability
    if sum(clf.class_joint(named, partial=True)) == 0:
        return None  # evidence of probability zero: no same-decision probability
    return same_decision_probability(clf, named, odd=odd, exact=True)


def _next(clf: Classifier, named: dict, odd: ODD) -> tuple:
    """Rank the unobserved features, best to observe first (:mod:`bnx.probability.observe`)."""
    from ..probability.observe import next_observations
    if sum(clf.class_joint(named, partial=True)) == 0:
        return ()  # evidence of probability zero: nothing to observe
    return next_from_frame(next_observations(clf, named, odd=odd))


def next_from_frame(frame: Any) -> tuple:
    """Read the rows of a next-observation frame as :class:`NextObservation` values.

    The frame's index holds the features, its columns ``expected_sdp`` and
    ``flip_probability``, best first; a frame of :mod:`bnx.local` has the columns
    ``expected_sdp_low`` and ``expected_sdp_high`` too, and ``expected_sdp`` is ``None``
    where they differ (the bounds are then kept, rounded outward).
    """
    bounded = "expected_sdp_low" in frame.columns
    out = []
    for f, row in frame.iterrows():
        flip = float(row["flip_probability"])
        v = row["expected_sdp"]
        if bounded and (v is None or v != v):  # None (or NaN, once through floats)
            out.append(NextObservation(f, None, flip, outward(row["expected_sdp_low"],
                                                              row["expected_sdp_high"])))
        else:
            out.append(NextObservation(f, float(row["expected_sdp"]), flip))
    return tuple(out)


def outward(lo: Fraction, hi: Fraction) -> tuple[float, float]:
    """Return the floats nearest ``lo`` from below and ``hi`` from above.

    A proven interval stays one once in floats.
    """
    a, b = float(lo), float(hi)
    if Fraction(a) > lo:
        a = math.nextafter(a, -math.inf)
    if Fraction(b) < hi:
        b = math.nextafter(b, math.inf)
    return a, b


def _from_linear(clf: Classifier, instance: Instance, background: Any,
                 within: str = "support") -> Report:
    from ..linear import check_explanation, decide, shortest_pi_explanation
    from ..linear import robustness as linear_robustness
    from ..linear._changes import one_counterfactual
    from ..linear.report import explainable
    if clf.multiclass:
        raise ArgumentError("bnx.explain explains a classifier without a positive state (it "
                            "picks one of the class states) through its compiled diagram: "
                            "bnx.explain(bnx.compile(clf), x)")
    if not explainable(clf):
        raise ArgumentError(f"bnx.explain explains a {clf.structure.replace('_', ' ')} "
                            f"classifier with {len(clf.class_states)} class states through "
                            f"its compiled diagram: bnx.explain(bnx.compile(clf), x)")
    if background is not None:
        raise ArgumentError("attributions (background=) need the compiled diagram: "
                            "bnx.explain(bnx.compile(clf), x, background=...)")
    try:
        idx = clf.encode(instance)
    except MissingFeatureError as exc:
        raise MissingFeatureError(f"{exc}; a classifier explained without compiling needs "
                                  f"a complete instance (compile it for a partial one)"
                                  ) from None
    named = {f: clf.states(f)[j] for f, j in idx.items()}
    positive = decide(clf, named)
    states, p = clf.class_states, clf.class_states.index(clf.positive)
    posterior, posterior_exact, probs = _probabilities(clf.class_joint(named), states, p)
    try:
        reason = shortest_pi_explanation(clf, named, within=within)
    except StructureError as exc:  # a wide TAN: the shortest one found within budget
        reason = getattr(exc, "best", None)
        if reason is None:
            raise
    order = {f: k for k, f in enumerate(clf.features)}
    reason = {f: reason[f] for f in sorted(reason, key=order.get)}
    necessary = tuple(f for f in reason if not check_explanation(
        clf, named, {g: s for g, s in named.items() if g != f}, within=within).sufficient)
    rob = linear_robustness(clf, named, within=within)
    # the first of bnx.linear.counterfactuals (the most probable) when it is quick to find
    change = None if rob == math.inf else one_counterfactual(clf, named, within=within)
    changes = () if change is None else (Counterfactual(
        {f: (named[f], change[f]) for f in sorted(change, key=order.get)},
        decision_name(states, clf.positive, not positive)),)
    threshold = clf.threshold
    return Report(
        class_var=clf.class_var, decision=decision_name(states, clf.positive, positive),
        positive=bool(positive), positive_state=clf.positive, instance=FrozenMap(named),
        features=tuple(clf.features), complete=True, rule=clf.rule,
        threshold=None if threshold is None else float(threshold),
        threshold_exact=threshold, posterior=posterior, posterior_exact=posterior_exact,
        class_probabilities=probs, reasons=(FrozenMap(reason),), necessary=necessary,
        counterfactuals=changes, robustness=rob, method="linear",
        methods=FrozenMap(dict.fromkeys(("decision", "reasons", "counterfactuals"),
                                        "bnx.linear")),
        world=_world(clf, within))


def _from_search(clf: Classifier, instance: Instance, rival: Any,
                 timeout: float | None, within: str = "support") -> Report:
    """Build the report on a classifier's decision by search over its network.

    The search is :mod:`bnx.local`'s, without compiling the decision function.
    """
    from ..errors import UnknownStateError, closest_first
    from ..local import METHODS, answer, partial_answer
    idx = clf.encode(instance, partial=True)
    named = {f: clf.states(f)[j] for f, j in idx.items()}
    complete = len(idx) == len(clf.features)
    states = clf.class_states
    r = None
    if rival is not None:
        if not complete:
            raise ArgumentError("rival= asks why the decision is not that class, which "
                                "needs a complete instance")
        from ..classifier._instances import resolve_state
        r = resolve_state(states, rival)
        if r is None:
            raise UnknownStateError(f"{rival!r} is not a state of {clf.class_var!r} "
                                    f"(states, closest first: {closest_first(rival, states)})")
    a = None
    if complete:  # the search's first table is the class joint (one positive factor aside)
        a = answer(clf, idx, rival=r if clf.multiclass else None, timeout=timeout,
                   most=MAX_SHOWN, within=within)
        joint, label = a.joint, a.label
        decided_ = states[label] if clf.multiclass else bool(label)
    else:
        joint = _partial_joint(clf, idx)
        decided_ = clf.decide(named, partial=True)
    if clf.multiclass:
        decision = decided_
        p = list(states).index(decision)
        positive = None
    else:
        p = list(states).index(clf.positive)
        positive = decided_
        decision = decision_name(states, clf.positive, positive)
    if rival is not None:
        if not clf.multiclass:
            other = states[r] != clf.positive if positive else states[r] == clf.positive
            if not other:
                raise ArgumentError(f"the rival {states[r]!r} is the decided class")
            rival = None  # the other decision: nothing more than without it
        elif r == p:
            raise ArgumentError(f"the rival {states[r]!r} is the decided class")
        else:
            rival = states[r]
    posterior, posterior_exact, probs = _probabilities(joint, states, p)
    threshold = clf.threshold
    common = dict(
        class_var=clf.class_var, decision=decision, positive=positive,
        positive_state=clf.positive, instance=FrozenMap(named), features=tuple(clf.features),
        complete=complete, rule=clf.rule,
        threshold=None if threshold is None else float(threshold),
        threshold_exact=threshold, posterior=posterior, posterior_exact=posterior_exact,
        class_probabilities=probs, method="search", multiclass=clf.multiclass, rival=rival)
    if not complete:
        if sum(joint) == 0:
            return Report(**common, methods=FrozenMap({"decision": METHODS["inference"]}))
        got = partial_answer(clf, named, timeout=timeout)
        sdp = got["sdp"]
        bounds = got["bounds"]
        return Report(**common, sdp=None if sdp is None else float(sdp), sdp_exact=sdp,
                      next=None if got["next"] is None else next_from_frame(got["next"]),
                      sdp_bounds=None if bounds is None else outward(*bounds),
                      methods=FrozenMap({"decision": METHODS["inference"],
                                         "sdp": METHODS[got["method"]]}))
    order = {f: k for k, f in enumerate(clf.features)}
    reasons = tuple(FrozenMap({f: named[f] for f in sorted(e, key=order.get)})
                    for e in a.reasons[:MAX_SHOWN])
    changes = []
    for setting, label in a.changes[:MAX_SHOWN]:
        to = (states[label] if clf.multiclass
              else decision_name(states, clf.positive, bool(label)))
        changes.append(Counterfactual({f: (named[f], clf.states(f)[j])
                                       for f, j in sorted(setting.items(),
                                                          key=lambda kv: order[kv[0]])}, to))
    exact_rob = a.robustness is not None
    proven = ("shortest" if a.shortest else "minimal" if a.minimal else "sufficient")
    return Report(**common, reasons=reasons, necessary=a.necessary if a.necessary_known else (),
                  counterfactuals=tuple(changes),
                  counterfactual_count=len(a.changes) if exact_rob else None,
                  robustness=a.robustness if exact_rob else None,
                  robustness_at_least=None if exact_rob else a.searched + 1,
                  reasons_proven=proven,
                  methods=FrozenMap({"decision": METHODS["inference"],
                                     "reasons": METHODS["search"],
                                     "counterfactuals": METHODS["search"]}),
                  world=_world(clf, within))
