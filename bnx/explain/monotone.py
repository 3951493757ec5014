"""Monotone decision functions (Section 2.2) and Theorem 3.

A decision function over binary features is monotone when turning a feature on
never turns a positive decision negative. On an OBDD it is decided feature by
feature: ``f`` is monotone iff ``f|X=off`` implies ``f|X=on`` for every feature ``X``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .._types import Feature, Instance, State
from ..diagram import deep
from ..errors import ExplanationError
from .mc import mc_explanations, on_states
from ..odd import ODD, check_odd
from .pi import pi_explanations

__all__ = ["is_monotone", "monotone_counterexample", "theorem3_holds"]


def _binary_on(odd: ODD, on) -> list[int]:
    check_odd(odd)
    ons = on_states(odd, on)
    out = []
    for i, f in enumerate(odd.features):
        if len(odd.encoding.states[i]) != 2 or len(ons[i]) != 1:
            raise ExplanationError(
                f"monotonicity is defined for binary features with one on state; "
                f"feature {f!r} has states {list(odd.encoding.states[i])}")
        out.append(next(iter(ons[i])))
    return out


@deep
def monotone_counterexample(odd: ODD, *,
                            on: Mapping[Feature, State | Collection[State]] | None = None
                            ) -> tuple[dict, dict] | None:
    """A pair ``(x_low, x_high)`` that breaks monotonicity, or ``None``.

    ``x_high`` is ``x_low`` with one more feature on, yet ``x_low`` is positive
    and ``x_high`` negative.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.monotone_counterexample(odd) is None
    True
    """
    onv = _binary_on(odd, on)
    enc = odd.encoding
    bdd, f = odd.bdd, odd.root
    for i, feat in enumerate(enc.features):
        var = enc.bits[i][0]
        lo = bdd.let({var: bool(1 - onv[i])}, f)
        hi = bdd.let({var: bool(onv[i])}, f)
        bad = lo & ~hi
        if bad != bdd.false:
            model = bdd.pick(bad, care_vars=set(enc.variables) - {var})
            x = {}
            for j, g in enumerate(enc.features):
                if j == i:
                    continue
                x[g] = enc.states[j][int(bool(model[enc.bits[j][0]]))]
            x_low = {**x, feat: enc.states[i][1 - onv[i]]}
            x_high = {**x, feat: enc.states[i][onv[i]]}
            return ({g: x_low[g] for g in enc.features}, {g: x_high[g] for g in enc.features})
    return None


def is_monotone(odd: ODD, *,
                on: Mapping[Feature, State | Collection[State]] | None = None) -> bool:
    """Whether the decision function is monotone (binary features, their on states).

    See :func:`monotone_counterexample` for a witness when it is not.

    Examples
    --------
    >>> import bnx
    >>> bnx.is_monotone(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    True
    """
    return monotone_counterexample(odd, on=on) is None


@deep
def theorem3_holds(odd: ODD, instance: Instance, *,
                   on: Mapping[Feature, State | Collection[State]] | None = None) -> bool:
    """Theorem 3 on one decision: MC-explanations match the shortest PI-explanations.

    Each shortest PI-explanation, completed with every missing feature off (for a
    positive decision) or on (for a negative one), must be an MC-explanation, and
    every MC-explanation must arise so. Guaranteed for monotone decision
    functions; may fail otherwise. The two sets are enumerated to be compared,
    so this is a check for sets of moderate size.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.theorem3_holds(odd, x)
    True
    """
    onv = _binary_on(odd, on)
    mc = mc_explanations(odd, instance, on=on)
    shortest = pi_explanations(odd, instance).shortest()
    enc = odd.encoding
    fill = {f: enc.states[i][1 - onv[i] if mc.decision else onv[i]]
            for i, f in enumerate(enc.features)}
    matched = {frozenset({**fill, **z}.items()) for z in shortest}
    return matched == mc.to_set()
