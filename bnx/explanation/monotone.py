"""Monotonicity in ordinal features, and Theorem 3 (Section 2.2).

A decision function is monotone in an ordinal feature when raising the feature (keeping
every other feature) never lowers the decision: on a binary classifier, never turns the
positive decision negative; on a multi-class one, never moves it down ``class_order``. A
two-state feature is ordinal with its off state below its on state, which is the paper's
monotonicity over binary features.

It is counted on the diagram, feature by feature: the pairs of instances that differ in
feature ``X`` only, raised from state ``i`` to ``j``, are the walks down two copies of the
diagram that follow ``i`` and ``j`` at ``X`` and the same state elsewhere
(:mod:`bnx.diagram._pairs`); a walk is a violation when the first copy ends at a higher decision
than the second. On a multi-class ODD the copies are two class formulas, for each pair of
classes in ``class_order``. A witness is read off the counts.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._util.guard import question
from .._util.types import Feature, Instance, State
from .._util.wording import terms
from ..diagram._feature_view import feature_view
from ..diagram._pairs import accepts, walks
from ..errors import ArgumentError, ExplanationError, OnStatesError
from ..odd._odd import ODD, check_odd
from .mc import mc_explanations, on_states
from .pi import pi_explanations
from .rules import orders

__all__ = ["MonotoneCheck", "check_monotone", "theorem3_holds"]


@dataclass(frozen=True)
class MonotoneCheck:
    """Whether raising an ordinal feature ever lowers the decision.

    Attributes
    ----------
    holds : bool
        No pair of complete instances of the world that differ in one checked feature,
        raised, has its decision lowered (the decision function is monotone in those
        features, on the world).
    features : tuple
        The features checked, each with its order of states (``{feature: states}``,
        lowest first).
    class_order : tuple
        The decisions from lowest to highest, in the class's words.
    violations : int
        The number of such pairs ``(low, high)``: ``high`` is ``low`` with one checked
        feature raised (by any number of steps), and its decision is lower (exact).
    by_feature : dict
        The violations per checked feature.
    feature : feature or None
        The feature raised in the counterexample (``None`` when monotone).
    low, high : dict or None
        The counterexample: two complete instances that differ only in ``feature``,
        raised in ``high``, whose decisions ``low_decision`` and ``high_decision`` go
        down (``None`` when monotone).
    low_decision, high_decision : str or None
        Their decisions in the class's words.
    world : str
        The instances the pairs are made of: ``"support"`` (both instances of a pair
        possible, where the network gives some instances probability zero), ``"set"``
        (both in a set given as ``within=``) or ``"all"`` (every complete instance; also
        where every instance is possible).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> check = bnx.check_monotone(odd)
    >>> check.holds, check.violations, check.counterexample
    (True, 0, None)
    >>> print(check)  # doctest: +NORMALIZE_WHITESPACE
    Monotone: raising WorkExperience, FirstTimeApplicant, EntranceExam or GPA never lowers
    the decision (Admit = - below Admit = +).
    """

    holds: bool
    features: dict
    class_order: tuple
    violations: int = 0
    by_feature: dict = field(default_factory=dict)
    feature: Any = None
    low: dict | None = None
    high: dict | None = None
    low_decision: str | None = None
    high_decision: str | None = None
    world: str = "all"

    @property
    def counterexample(self) -> tuple[dict, dict] | None:
        """``(low, high)``, or ``None`` when monotone."""
        return None if self.holds else (self.low, self.high)

    def __str__(self) -> str:
        """Say whether the decision is monotone, or give a counterexample, in sentences."""
        order = " below ".join(self.class_order)
        if self.holds:
            names = list(map(str, self.features))
            said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
            return f"Monotone: raising {said} never lowers the decision ({order})."
        f = self.feature
        from ._within import among
        return (f"Not monotone ({self.violations:,} pairs of instances{among(self.world)}; "
                f"{order}): "
                f"{terms(self.low)} is decided {self.low_decision}, but raising {f} from "
                f"{self.low[f]} to {self.high[f]} gives {self.high_decision}.")


def _binary_on(odd: ODD, on) -> list[int]:
    check_odd(odd)
    ons = on_states(odd, on)
    out = []
    for i, f in enumerate(odd.features):
        if len(odd.encoding.states[i]) != 2 or len(ons[i]) != 1:
            raise ExplanationError(
                f"Theorem 3 is stated for binary features with one on state; "
                f"feature {f!r} has states {list(odd.encoding.states[i])}")
        out.append(next(iter(ons[i])))
    return out


@question
def check_monotone(odd: ODD, features: Collection[Feature] | Feature | None = None, *,
                   class_order: Sequence | None = None, within="support") -> MonotoneCheck:
    """Whether raising an ordinal feature ever lowers the decision.

    A feature's order is the one ``odd.ordinal`` declares; a two-state feature not
    declared is ordered off state below on state (its on state as
    :func:`bnx.explanation.mc.on_states` finds it). The decisions are ordered by ``class_order``.

    Parameters
    ----------
    odd : ODD
    features : feature or collection of features, optional
        The features raised; by default every ordinal feature and every two-state
        feature whose on state is known.
    class_order : sequence of class states, optional
        The decisions from lowest to highest. By default the class's states in order on
        a multi-class ODD; on a binary one the negative decision below the positive one
        (``class_order`` then lists the two decisions as :meth:`ODD.decision_state`
        names them).
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances compared: pairs of instances the network allows (its support,
        :func:`bnx.support`), of every complete instance (the total decision function),
        or of a set (:func:`bnx.forbid`, an ``&`` of sets).

    Returns
    -------
    MonotoneCheck
        ``holds``; ``violations``, the number of pairs of instances of the world that differ
        in one checked feature, raised in the second by any number of steps, whose
        decision goes down (per feature in ``by_feature``), counted on the diagram: one
        pass down two copies of it per feature (and per pair of classes on a multi-class
        ODD), costing at most the product of their widths per level; ``low``, ``high``
        and ``feature``, one such pair.

    Raises
    ------
    ExplanationError
        A feature named is neither ordinal nor two-state with a known on state, or no
        feature is.
    ArgumentError
        ``class_order`` does not list every decision once.

    See Also
    --------
    theorem3_holds : On one decision, whether MC- and shortest PI-explanations match.
    bnx.check_rule : Whether a rule an expert states holds.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.check_monotone(odd, "GPA").holds
    True
    >>> check = bnx.check_monotone(odd, class_order=["+", "-"])
    >>> check.holds, check.violations, check.feature
    (False, 12, 'GPA')
    """
    from ._within import keep_within, world_of
    check_odd(odd)
    ordered = _orders(odd, features)
    enc = odd.encoding
    decisions, words = _ranked(odd, class_order)
    world = world_of(decisions[0][0], within)
    # each copy keeps its decision to the world: a pair is of two instances of it
    decisions = [(keep_within(g, v, within), v) for g, v in decisions]
    by_feature, first = {}, None
    for f, order in ordered.items():
        i = enc.features.index(f)
        states = enc.states[i]
        rank = [order.index(s) for s in states]
        raised = sorted(((a, b) for a in range(len(states)) for b in range(len(states))
                         if rank[a] < rank[b]), key=lambda ab: (rank[ab[0]], rank[ab[1]]))
        choices = [[(s, s) for s in range(len(enc.states[k]))] if k != i else raised
                   for k in range(len(enc.features))]
        total = 0
        for hi_rank, (top, top_value) in enumerate(decisions):
            fa = feature_view(top.arrays, top.encoding)
            for lo_rank in range(hi_rank):
                low, low_value = decisions[lo_rank]
                fb = feature_view(low.arrays, low.encoding)
                got = walks((fa, fb), (fa.root, fb.root), choices,
                            accepts(top_value, low_value))
                total += got.count
                if got.count and first is None:
                    first = (f, got.witness(), words[hi_rank], words[lo_rank])
        by_feature[f] = total
    shown = {f: ordered[f] for f in odd.display_order if f in ordered}
    by_feature = {f: by_feature[f] for f in shown}
    if first is None:
        return MonotoneCheck(True, shown, tuple(words), 0, by_feature, world=world)
    f, path, low_words, high_words = first
    low = {g: enc.states[k][path[k][0]] for k, g in enumerate(enc.features)}
    high = {g: enc.states[k][path[k][1]] for k, g in enumerate(enc.features)}
    return MonotoneCheck(False, shown, tuple(words), sum(by_feature.values()), by_feature,
                         f, {g: low[g] for g in odd.display_order},
                         {g: high[g] for g in odd.display_order}, low_words, high_words,
                         world)


def _orders(odd: ODD, features) -> dict:
    """Return ``{feature: its states, lowest first}`` for the features checked.

    In the ODD's order.
    """
    declared = orders(odd)
    named = features is not None
    if features is None:
        features = odd.features
    elif isinstance(features, (str, int)) or not isinstance(features, Collection):
        features = [features]
    wanted = {odd.features[odd._position(f)] for f in features}
    if named and not wanted:
        raise ExplanationError("no feature named to check monotonicity in")
    out, bad = {}, []
    for i, f in enumerate(odd.features):
        if f not in wanted:
            continue
        if f in declared:
            out[f] = tuple(declared[f])
            continue
        states = odd.encoding.states[i]
        on = _on_or_none(odd, i) if len(states) == 2 else None
        if on is not None and len(on) == 1:
            j = next(iter(on))
            out[f] = (states[1 - j], states[j])
        elif named:
            bad.append((f, states))
    if bad:
        f, states = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ExplanationError(
            f"monotonicity needs an order of each feature's states; {f!r} "
            f"({' / '.join(map(str, states))}) has none{more}: declare it with "
            f"bnx.Classifier(..., ordinal={{{f!r}: [...lowest first]}})")
    if not out:
        raise ExplanationError("no feature is ordinal or two-state with a known on state: "
                               "declare the order of the features to check with "
                               "bnx.Classifier(..., ordinal={...})")
    return out


def _on_or_none(odd: ODD, i: int):
    """Feature ``i``'s on states, or ``None`` when none is known."""
    f = odd.features[i]
    try:
        return on_states(odd, None, skip=[g for g in odd.features if g != f])[i]
    except OnStatesError:
        return None


def _ranked(odd: ODD, class_order) -> tuple[list, list]:
    """Rank the decisions from lowest to highest: ``[(binary ODD, value)]`` and their words.

    "Decided this" is the binary ODD being ``value``.
    """
    if getattr(odd, "multiclass", False):
        classes = tuple(odd.classes)
        order = classes if class_order is None else _check_order(class_order, classes)
        return ([(odd.class_formula(c), True) for c in order],
                [f"{odd.class_var} = {c}" for c in order])
    names = (odd.decision_state(False), odd.decision_state(True))
    if class_order is None:
        values = (False, True)
    else:
        values = tuple(names.index(g) == 1 for g in _check_order(class_order, names))
    return [(odd, v) for v in values], [odd.decision_text(v) for v in values]


def _check_order(class_order, names: tuple) -> tuple:
    if isinstance(class_order, str) or not isinstance(class_order, Sequence):
        raise ArgumentError(f"class_order lists the decisions from lowest to highest, got "
                            f"{class_order!r}")
    by_text = {str(c): c for c in names}
    got = tuple(by_text.get(str(c), c) for c in class_order)
    if sorted(map(str, got)) != sorted(map(str, names)) or len(set(got)) != len(got):
        raise ArgumentError(f"class_order must list each of {list(names)} once, lowest "
                            f"first; got {list(class_order)}")
    return got


def theorem3_holds(odd: ODD, instance: Instance, *,
                   on: Mapping[Feature, State | Collection[State]] | None = None) -> bool:
    """Theorem 3 on one decision: MC-explanations match the shortest PI-explanations.

    Each shortest PI-explanation, completed with every missing feature off (for a
    positive decision) or on (for a negative one), must be an MC-explanation, and
    every MC-explanation must arise so. Guaranteed for monotone decision
    functions; may fail otherwise. The two sets are enumerated to be compared,
    so this is a check for sets of moderate size.

    Parameters
    ----------
    odd : ODD
        The decision function.
    instance : mapping
        A complete instance.
    on : mapping, optional
        The features' on states, as for :func:`~bnx.mc_explanations`.

    Returns
    -------
    bool
        Whether Theorem 3 of the paper holds for this classifier.

    See Also
    --------
    bnx.mc_explanations : One side of the comparison.
    bnx.pi_explanations : The other side, the shortest ones.
    bnx.check_monotone : When the theorem is guaranteed to hold.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> from bnx.explanation.monotone import theorem3_holds
    >>> theorem3_holds(odd, x)
    True
    """
    onv = _binary_on(odd, on)
    mc = mc_explanations(odd, instance, on=on, within="all")
    shortest = pi_explanations(odd, instance, within="all").shortest()  # (the theorem's f)
    enc = odd.encoding
    fill = {f: enc.states[i][1 - onv[i] if mc.decision else onv[i]]
            for i, f in enumerate(enc.features)}
    matched = {frozenset({**fill, **z}.items()) for z in shortest}
    return matched == mc.to_set()
