"""The :class:`Report` value: one decision, what it rests on and what would change it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from ..errors import ArgumentError
from ._values import FrozenMap, NextObservation

__all__ = ["Report", "NextObservation", "FrozenMap"]


@dataclass(frozen=True)
class Report:
    """One decision of a classifier in its own words.

    What was decided, why, and what would change it. Made by :func:`bnx.explain`; immutable.

    ``print(report)`` gives plain-language paragraphs (:meth:`text`); Jupyter shows a
    compact table (:meth:`_repr_html_`); :meth:`to_dict` is the same content for JSON.

    Attributes
    ----------
    class_var : the class variable.
    decision : str
        The decision in the class's words: the decided class state of a multi-class
        classifier; for a binary one the positive state when positive, else the other
        state of a two-state class, ``"not <positive>"`` for more states.
    positive : bool or None
        Whether the decision is positive (``None`` for a multi-class classifier).
    positive_state : the class's positive state (``None`` for a multi-class classifier).
    instance : mapping
        The observed features and their states (every feature for a complete instance).
    features : tuple
        Every feature of the classifier, in its order.
    complete : bool
        Whether every feature is observed (reasons and counterfactuals need it).
    rule : str
        ``"threshold"`` or ``"argmax"``.
    threshold, threshold_exact : float and Fraction, or None
        The threshold on ``Pr(class = positive | x)`` (``None`` under argmax).
    posterior, posterior_exact : float and Fraction, or None
        ``Pr(class = positive | x)``, for a multi-class classifier ``Pr(class = decision
        | x)`` (``None``, not applicable, when the model holds no
        probabilities, a saved ODD of format version 1, or when ``Pr(x) = 0``: the
        posterior is then undefined; the decision is still made, by the rule on the
        joint probabilities, all zero).
    class_probabilities : mapping or None
        ``{class state: Pr(class = state | x)}`` as floats (``None`` where ``posterior``
        is).
    reasons : tuple of mappings
        The shortest sufficient reasons (PI-explanations), each ``{feature: state}``,
        at most :data:`~bnx.report.MAX_SHOWN`, in the classifier's feature order. With
        a :attr:`rival`, the shortest parts of the instance with which no completion is
        decided the rival.
    reason_count : int or None
        How many sufficient reasons there are in all (``None``, not applicable: not
        counted, as with :mod:`bnx.linear`, or a partial instance).
    reason_lengths : mapping or None
        ``{length: number of sufficient reasons of that length}`` (``None`` where
        ``reason_count`` is).
    general_reasons : tuple of mappings
        The first general reasons (:func:`bnx.general_reasons`, fewest constrained
        features first) that say more than the sufficient reasons, each ``{feature:
        tuple of states allowed}``: only those allowing several states of some feature,
        at most :data:`~bnx.report.MAX_SHOWN` (empty when none does, as with two-state
        features).
    general_words : tuple of tuples of str
        Each of ``general_reasons`` in words, one term per feature (``"bilirubin ≥
        a19_7"``).
    general_count : int or None
        How many general reasons there are in all (``None``, not applicable: not
        computed, as with :mod:`bnx.linear`, a partial instance, or two-state features
        only, where they are the sufficient reasons).
    necessary : tuple
        The features in every sufficient reason.
    irrelevant : tuple or None
        The features in no sufficient reason (``None``, not applicable: not computed, as
        with :mod:`bnx.linear`, or a partial instance).
    counterfactuals : tuple of Counterfactual
        Closest instances with another decision (with a :attr:`rival`, decided the
        rival), each a mapping ``{feature: (old, new)}`` for the features that change
        whose ``decision`` is the class state the changed instance is decided; at most
        :data:`~bnx.report.MAX_SHOWN`.
    counterfactual_count : int or None
        How many closest instances there are, 0 when none (``None``, not applicable:
        not counted, as with :mod:`bnx.linear`, or a partial instance).
    robustness : int, float or None
        How many features must change for another decision (the rival, with one);
        ``math.inf`` when no change does (as :func:`bnx.robustness` says). ``None``, not
        applicable, for a partial instance.
    attributions : mapping or None
        With a background: the exact SHAP value of each feature for the decision
        (1 positive, 0 negative; for a multi-class classifier, 1 decided the decided
        class, 0 another); ``base_value`` is the expected decision. ``None``, not
        applicable, without a background.
    base_value : float or None
    sdp, sdp_exact : float and Fraction, or None
        For a partial instance: the probability that the decision made so far stays
        once the missing features are known. ``None``, not applicable, for a complete
        instance, or for evidence of probability zero (where it is undefined).
    next : tuple of NextObservation, or None
        For a partial instance: the unobserved features, the most useful to observe
        first (``None`` for a complete instance).
    method : str
        ``"diagram"`` (a compiled ODD), ``"linear"`` (:mod:`bnx.linear`) or ``"search"``
        (:mod:`bnx.local`: a classifier explained without compiling).
    multiclass : bool
        Whether the classifier picks one of several class states (no positive state).
    rival : class state or None
        The class the decision is contrasted with (``bnx.explain(..., rival=)``): the
        reasons, counterfactuals and roles answer "why this class and not the rival".
    methods : mapping or None
        How each part was obtained, ``{part: how}`` in words, the parts among
        ``"decision"``, ``"reasons"``, ``"counterfactuals"``, ``"sdp"`` (e.g.
        ``"compiled diagram"``, ``"bnx.linear"``, ``"search over the network (no
        compilation)"``, ``"restricted compile (...)"``).
    reasons_proven : str or None
        What the reasons shown are proven to be: ``"shortest"`` (the shortest sufficient
        reasons), ``"minimal"`` (sufficient and subset-minimal, not proven shortest) or
        ``"sufficient"`` (sufficient only: the search did not prove it minimal in the time
        given: out of time, or a check it could not settle). ``None``, not applicable,
        for a partial instance.
    robustness_at_least : int or None
        When the search for counterfactuals ran out of time: the robustness is at least
        this (every change of fewer features was searched and none changes the
        decision); ``robustness`` is then ``None`` and ``counterfactuals`` empty.
    sdp_bounds : pair of floats or None
        When the same-decision probability was not computed exactly in time: a proven
        interval ``(low, high)`` that holds it (``sdp`` is then ``None``).
    world : {"support", "all"} or None
        Which instances the reasons, counterfactuals and robustness range over, said
        when the network may give some instance probability zero (one of its tables has
        a zero entry): ``"support"``, the instances the network allows (a classifier
        explained without compiling, by default); ``"all"``, every instance, the
        paper's decision function (a compiled diagram, or ``within="all"``). ``None``
        when every instance is possible (the two are the same), when the network is not
        known (an ODD file of format version 1), and for a partial instance (the
        same-decision probability weighs completions by their probability, the same in
        both).
    """

    class_var: Any
    decision: str
    positive: bool | None
    positive_state: Any
    instance: Mapping
    features: tuple
    complete: bool
    rule: str
    threshold: float | None
    threshold_exact: Fraction | None
    posterior: float | None
    posterior_exact: Fraction | None
    class_probabilities: Mapping | None
    reasons: tuple = ()
    reason_count: int | None = None
    reason_lengths: Mapping | None = None
    general_reasons: tuple = ()
    general_words: tuple = ()
    general_count: int | None = None
    necessary: tuple = ()
    irrelevant: tuple | None = None
    counterfactuals: tuple = ()
    counterfactual_count: int | None = None
    robustness: int | float | None = None
    attributions: Mapping | None = None
    base_value: float | None = None
    sdp: float | None = None
    sdp_exact: Fraction | None = None
    next: tuple | None = None
    method: str = "diagram"
    multiclass: bool = False
    rival: Any = None
    methods: Mapping | None = None
    reasons_proven: str | None = None
    robustness_at_least: int | None = None
    sdp_bounds: tuple | None = None
    world: str | None = None

    # ------------------------------------------------------------------ derived
    @property
    def constant(self) -> bool:
        """Whether the classifier decides the same whatever the findings say.

        Shown by the report: a complete instance with an empty sufficient reason, or
        nothing observed and a same-decision probability of exactly 1. Every surface
        then says so instead of listing each feature as one that does not matter.
        """
        from ._plain import is_constant
        return is_constant(self)

    @property
    def margin(self) -> dict | None:
        """How close a close call is (``None`` when the decision is not one).

        ``{"runner_up", "runner_up_probability", "probability", "threshold", "gap",
        "one_finding", "by", "text"}``: the next class (or the threshold), by how much
        the decision leads it (less than :data:`bnx.report._plain.NEAR`), and whether one
        finding could change it (from the robustness, or for a partial instance from the
        chance that each missing finding changes it); ``text`` says it in a sentence.
        """
        from ._plain import margin
        return margin(self)

    # ------------------------------------------------------------------ output
    def text(self) -> str:
        """Plain-language paragraphs: what was decided, why, what would change it.

        Returns
        -------
        str
            The report as plain-language paragraphs.
        """
        from ._text import report_text
        return report_text(self)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        from ._html import render_report
        return render_report(self)

    def plot(self, ax=None):
        """Draw the report with matplotlib, and return the Axes.

        The attributions as bars when there are some, else each feature's part in the
        decision (in the shortest reason, necessary, changed by the closest counterfactual).

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn on.
        """
        from ._plot import plot_report
        return plot_report(self, ax)

    def to_dict(self) -> dict:
        """Write the report as plain JSON data (``json.dumps`` takes it).

        Exact fractions as ``"p/q"`` strings, feature names as text keys, a change as
        ``{"from", "to"}``, a robustness of ``math.inf`` as ``"Infinity"`` (JSON has no
        infinity). After the fields, what they imply: ``"constant"`` and ``"margin"``
        (:attr:`constant`, :attr:`margin`), ``"labels"`` (the plain label of each part
        shown, by glossary key: ``"reasons"`` says what the reasons are proven to be)
        and ``"glossary"`` (each technical term the report uses, ``{key: {"term",
        "label", "definition"}}``). :meth:`from_dict` reads it back.

        Returns
        -------
        dict
            JSON-serialisable data with the report's content.
        """
        from ._json import to_dict
        return to_dict(self, FIELDS)

    @classmethod
    def from_dict(cls, data: Mapping) -> Report:
        """Read back the report that :meth:`to_dict` gave ``data`` for (names read back as text)."""
        from ._json import from_dict
        if not isinstance(data, Mapping):
            raise ArgumentError(f"expected the mapping of Report.to_dict(), got "
                                f"{type(data).__name__}")
        return from_dict(cls, data, FIELDS)

    def __repr__(self) -> str:
        extra = (f", reasons={self.reason_count}" if self.reason_count is not None else "")
        rob = (f", robustness={self.robustness}" if self.robustness is not None
               else f", robustness>={self.robustness_at_least}"
               if self.robustness_at_least is not None else f", sdp={self.sdp}")
        return (f"Report({self.class_var} = {self.decision}, posterior={self.posterior}"
                f"{extra}{rob})")


FIELDS = tuple(f.name for f in fields(Report))
