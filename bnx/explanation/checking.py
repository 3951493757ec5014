"""Checking an explanation produced elsewhere.

Whether a part of an instance is a sufficient reason of its decision
(:func:`check_explanation`), and what was found (:class:`ExplanationCheck`).

Sufficient when no completion of the part reaches the other decision (one bottom-up
pass over the ODD's array form); minimal when, moreover, no kept feature can be dropped
(one top-down pass); a counterexample is a closest completion with the other decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._util.guard import question
from .._util.types import Instance
from .._util.wording import terms
from ..classifier._classifier import _resolve_state
from ..errors import ExplanationError, InstanceError, UnknownStateError, closest_first
from ..odd._odd import ODD, check_odd
from ..question._classes import ask
from ..question._indices import instance_indices, named
from ..question._reach import FALSE, TRUE, any_child, closest_flip, decide, reaches, view
from ._within import within_odd

__all__ = ["check_explanation", "ExplanationCheck"]


@dataclass(frozen=True)
class ExplanationCheck:
    """What :func:`check_explanation` found about a partial instance.

    Attributes
    ----------
    sufficient : bool
        Every completion of the partial instance gets the instance's decision.
    minimal : bool
        Sufficient, and no feature can be dropped (it is a sufficient reason).
    redundant : tuple
        The features each of which can be dropped on its own with the partial
        instance staying sufficient (empty when it is not sufficient).
    decision : bool
        The decision on the instance.
    counterexample : dict or None
        When not sufficient: a completion with the other decision, as close to the
        instance as possible (``None``, not applicable, when sufficient).
    reason : dict or None
        When sufficient: a sufficient reason inside the partial instance (drop the
        redundant features one at a time while it stays sufficient; ``None``, not
        applicable, when not sufficient).
    partial : dict
        The explanation checked.
    wording : tuple of str
        Both decisions in the class's words, positive first (``("Admit = +",
        "Admit = -")``); ``print`` names the decision with them. On a multi-class ODD, those
        of the class formula checked (see :attr:`bnx.Explanations.wording`), the other
        class being the counterexample's when there is one.
    decided : class state or None
        On a multi-class ODD, the class decided on the instance (``None``, not applicable,
        on a binary ODD: see ``decision``).
    rival : class state or None
        The rival checked against (``rival=``): the partial instance is sufficient when
        no completion is decided the rival. ``None`` without one or on a binary ODD.
    counterexample_decision : class state or None
        On a multi-class ODD, the class decided on the counterexample.
    """

    sufficient: bool
    minimal: bool
    redundant: tuple
    decision: bool
    counterexample: dict | None = field(default=None)
    reason: dict | None = field(default=None)
    partial: dict = field(default_factory=dict)
    wording: tuple = field(default=("a positive decision", "a negative decision"))
    decided: Any = field(default=None)
    rival: Any = field(default=None)
    counterexample_decision: Any = field(default=None)

    def __bool__(self) -> bool:  # "is it a valid explanation?"
        """Tell whether the partial instance is sufficient (is it a valid explanation?)."""
        return self.sufficient

    def __str__(self) -> str:
        """Say what the check found, in sentences."""
        this, other = self.wording if self.decision else self.wording[::-1]
        given = terms(self.partial) if self.partial else "nothing"
        if self.rival is None:
            settle, settles, what = f"settle {this}", f"settles {this}", "a sufficient reason"
        else:  # against a rival, the part settles only that the rival is not decided
            settle, settles = f"rule out {other}", f"rules out {other}"
            what = f"a sufficient reason for {this}"
        if not self.sufficient:
            return (f"Not sufficient: {given} does not {settle}; for example "
                    f"{terms(self.counterexample or {})} gives {other}.")
        if self.minimal:
            return f"Sufficient and minimal: {given} {settles} ({what})."
        drop = ", ".join(map(str, self.redundant))
        drop += " can be dropped" if len(self.redundant) == 1 else " can each be dropped"
        return (f"Sufficient, not minimal: {given} {settles}, but {drop}; "
                f"{terms(self.reason or {})} is a sufficient reason inside it.")


@question
def check_explanation(odd: ODD, instance: Instance,
                      partial: Mapping, *, rival=None, within="support") -> ExplanationCheck:
    """Whether ``partial`` (a part of ``instance``) explains the decision on ``instance``.

    Checks an explanation produced elsewhere (LIME, Anchors, a person): it is
    *sufficient* when every completion gets the instance's decision and *minimal*
    when, moreover, no feature can be dropped. Each state in ``partial`` must be the
    instance's.

    With ``within=`` (a set ``κ`` of instances, see :func:`bnx.pi_explanations`), only
    the completions in ``κ`` count: sufficient when every completion in ``κ`` gets the
    instance's decision, minimal when it is a PI-explanation within ``κ``; the
    counterexample is then in ``κ``.

    On a :class:`~bnx.MulticlassODD`, with the instance decided ``a``: sufficient when
    every completion is decided ``a``; with ``rival=b``, when no completion is decided
    ``b``. The counterexample says the class it is decided
    (``counterexample_decision``).

    Parameters
    ----------
    odd : ODD or MulticlassODD
    instance : mapping
        A complete instance.
    partial : mapping
        The explanation to check: some features of the instance, each with its state.
    rival : class state, optional
        On a multi-class ODD, a class other than the one decided on ``instance``; on a
        binary ODD, its other decision (the same question as without it).
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The instances asked among: see :func:`bnx.pi_explanations`.

    Returns
    -------
    ExplanationCheck
        What was found: ``sufficient``, ``minimal``, ``redundant``, ...

    Raises
    ------
    ExplanationError
        ``partial`` gives a feature another state than the instance's.
    ArgumentError
        ``rival`` is the decided class (or not the other decision of a binary ODD).
    UnknownStateError
        ``rival`` (or a state of ``partial``) is no state of its variable.

    See Also
    --------
    pi_explanations : every sufficient reason.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> c = bnx.check_explanation(odd, x, {"GPA": "+", "WorkExperience": "+", "EntranceExam": "+"})
    >>> c.sufficient, c.minimal, c.redundant
    (True, False, ('EntranceExam',))
    >>> bnx.check_explanation(odd, x, {"GPA": "+"}).counterexample["WorkExperience"]
    '-'
    >>> print(c)  # doctest: +NORMALIZE_WHITESPACE
    Sufficient, not minimal: WorkExperience = +, EntranceExam = +, GPA = + settles Admit = +, but
    EntranceExam can be dropped; WorkExperience = +, GPA = + is a sufficient reason inside it.

    A multi-class classifier decides an allergy: sneezing without aches does not settle
    it (with a fever it is a cold), but it rules out the flu:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}
    >>> part = {"Sneezing": "yes", "Aches": "no"}
    >>> print(bnx.check_explanation(odd, x, part))  # doctest: +NORMALIZE_WHITESPACE
    Not sufficient: Sneezing = yes, Aches = no does not settle Illness = allergy; for example
    Season = spring, Fever = yes, Sneezing = yes, Aches = no gives Illness = cold.
    >>> print(bnx.check_explanation(odd, x, part, rival="flu"))  # doctest: +NORMALIZE_WHITESPACE
    Sufficient and minimal: Sneezing = yes, Aches = no rules out Illness = flu (a sufficient
    reason for Illness = allergy and not flu).
    """
    check_odd(odd)
    whole = odd
    q = ask(odd, instance, rival)
    odd = q.formula
    odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    if not isinstance(partial, Mapping):
        raise InstanceError(f"the explanation must be a mapping from features to states, "
                            f"got {type(partial).__name__}")
    enc = odd.encoding
    kept = [None] * len(x)
    for f, s in partial.items():
        i = odd._position(f)
        j = _resolve_state(enc.states[i], s)
        if j is None:
            raise UnknownStateError(f"{s!r} is not a state of feature {f!r} (states, "
                                    f"closest first: {closest_first(s, enc.states[i])})")
        if j != x[i]:
            raise ExplanationError(f"the explanation gives feature {f!r} the state {s!r}, "
                                   f"but the instance has {enc.states[i][x[i]]!r}")
        kept[i] = j
    fv = view(odd)
    decision = decide(fv, x)
    other = FALSE if decision else TRUE
    shown = {f: enc.states[i][kept[i]] for i, f in enumerate(enc.features)
             if kept[i] is not None}
    shown = {f: shown[f] for f in odd.display_order if f in shown}
    wording = tuple(q.wording())
    asked = dict(decided=q.decided, rival=q.rival)
    below = reaches(fv, kept, other)
    if below[fv.root]:  # not sufficient: the closest completion with the other decision
        witness = named(odd, closest_flip(fv, x, [k is None for k in kept]))
        if whole.multiclass:  # the class it gets (the rival's, with a rival)
            got = asked["counterexample_decision"] = whole.decide(witness, within="all")
            if q.rival is None:
                wording = (wording[0], f"{whole.class_var} = {got}")
        return ExplanationCheck(False, False, (), decision, counterexample=witness,
                                partial=shown, wording=wording, **asked)
    # One top-down pass. A kept feature i is redundant when no node of feature i that
    # the partial instance reaches has a child from which the other decision can be
    # reached (features after i keep their states). The reason drops the redundant
    # features in order while it stays sufficient: the same test on the nodes that the
    # reason so far reaches.
    alone = np.zeros(fv.arrays.size, dtype=bool)
    alone[fv.root] = True
    greedy = alone.copy()
    redundant = []
    reason = list(kept)
    for i in range(len(x)):
        lo, hi = int(fv.first_node[i]), int(fv.last_node[i])
        kids = fv.kids[i]
        if kept[i] is not None:
            flips = any_child(fv, i, below)
            if not (alone[lo:hi] & flips).any():
                redundant.append(enc.features[i])
                if not (greedy[lo:hi] & flips).any():
                    reason[i] = None
        for r, fixed in ((alone, kept[i]), (greedy, reason[i])):
            k = kids[r[lo:hi]]
            r[k[:, fixed] if fixed is not None else k.ravel()] = True
    order = {f: k for k, f in enumerate(odd.display_order)}
    return ExplanationCheck(True, not redundant, tuple(sorted(redundant, key=order.get)),
                            decision, reason=named(odd, reason), partial=shown,
                            wording=wording, **asked)
