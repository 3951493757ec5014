"""MC-explanations (Definition 3 and Algorithm 3 of Shih, Choi and Darwiche 2018).

An MC-explanation of a positive decision keeps the decision while turning off as
many of the instance's on-features as possible: it is a positive instance ``x*``
whose on-features are a subset of the instance's, with the fewest on-features.
For a negative decision, on and off swap roles. Section 5's generalisation is
supported: ``on`` partitions each feature's states into on and off states, and
``fixed`` features keep their state.

The computation is the paper's: restrict the decision function (complemented for
a negative decision) to the instance's features that may not change, then
cardinality-minimise it with two linear passes (minimum counts bottom-up, then
keep only the minimal edges). The result is itself a decision diagram.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterable, Mapping

from .._types import Feature, Instance, State
from ..classifier import _resolve_state
from ..diagram import deep
from ..errors import ArgumentError, ExplanationError, UnknownFeatureError, UnknownStateError
from .explanations import Explanations, Layout
from .walks import keep_minimal, minimum
from ..odd import ODD, check_odd

__all__ = ["mc_explanations", "on_states"]


def on_states(odd: ODD, on: Mapping[Feature, State | Collection[State]] | None = None,
              skip: Iterable[Feature] = ()) -> list[frozenset[int]]:
    """The on-state indices of every feature of ``odd``, in order.

    A binary feature's on state is its second state (pgmpy's ``state_names``)
    unless ``on`` says otherwise; a feature with one state has none; a feature
    with more than two states must appear in ``on`` unless it is in ``skip``
    (fixed features, whose on states do not matter).
    """
    return on_state_sets(odd.features, odd.encoding.states, on, skip, odd._position)


def on_state_sets(features, all_states, on, skip, position) -> list[frozenset[int]]:
    """:func:`on_states` over ``features`` and their ``all_states`` (shared with bnx.linear);
    ``position(f)`` raises :class:`~bnx.UnknownFeatureError` for a name that is not a feature."""
    if on is None:
        on = {}
    if not isinstance(on, Mapping):
        raise ArgumentError(f"on must map features to their on state(s), got {on!r}")
    on = dict(on)
    for f in on:
        position(f)
    skip = frozenset(skip)
    out = []
    for i, f in enumerate(features):
        states = all_states[i]
        if f in on:
            given = on[f]
            if isinstance(given, (str, bytes, int)) or not isinstance(given, Collection):
                given = [given]
            idx = set()
            for s in given:
                j = _resolve_state(states, s)
                if j is None:
                    raise UnknownStateError(
                        f"on-state {s!r} is not a state of feature {f!r} "
                        f"(states: {', '.join(map(str, states))})")
                idx.add(j)
            out.append(frozenset(idx))
        elif len(states) == 2:
            out.append(frozenset({1}))
        elif len(states) == 1 or f in skip:  # a fixed feature's on states do not matter
            out.append(frozenset())
        else:
            raise ExplanationError(
                f"feature {f!r} has {len(states)} states; say which are 'on' with "
                f"on={{{f!r}: [...]}}")
    return out


@deep
def mc_explanations(odd: ODD, instance: Instance, *,
                    on: Mapping[Feature, State | Collection[State]] | None = None,
                    fixed: Iterable[Feature] = ()) -> Explanations:
    """Every MC-explanation of the decision on ``instance``, as complete instances.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance: every feature to one of its states.
    on : mapping, optional
        For each feature, its on state or set of on states (see :func:`on_states`).
    fixed : iterable of features
        Features that keep their state (the paper's ``Y``).

    Returns
    -------
    Explanations
        Complete instances; :meth:`~Explanations.lengths` counts them by cardinality.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> [e for e in bnx.mc_explanations(odd, x)]
    [{'WorkExperience': '+', 'FirstTimeApplicant': '-', 'EntranceExam': '-', 'GPA': '+'}]
    """
    check_odd(odd)
    idx = odd.encode(instance)
    fixed = _features_arg(odd, fixed, "fixed")
    ons = on_states(odd, on, skip=fixed)
    decision = odd._decide_indices(idx)
    enc = odd.encoding
    allowed: list[set[int]] = []
    weights: list[set[int]] = []
    for i, f in enumerate(enc.features):
        k = len(enc.states[i])
        x = idx[f]
        counted = ons[i] if decision else frozenset(range(k)) - ons[i]
        if f in fixed or x not in counted:
            allowed.append({x})
        else:
            allowed.append({x} | (set(range(k)) - counted))
        weights.append(set() if f in fixed else set(counted))
    g, root, negated = odd.view()
    h = root if decision else negated
    layout = copy.copy(odd.complete_layout())
    layout.weights = [frozenset(w) for w in weights]
    layout.__dict__.pop("steps", None)
    layout.__dict__.pop("tail", None)
    restricted = _restrict_choices(layout, allowed)
    mins: dict = {}
    minimum(g, h, 0, restricted, mins)
    out = odd.out_graph(enc.variables)
    best = keep_minimal(g, h, 0, restricted, mins, {}, out)
    odd.tidy(odd.bdd)
    return Explanations(odd.bdd, None, layout, kind="MC",
                        decision=decision, feature_order=odd.display_order,
                        instance={f: enc.states[i][idx[f]] for i, f in enumerate(enc.features)},
                        view=(out, best))


def _features_arg(odd: ODD, features, what: str) -> set:
    if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
        raise ArgumentError(f"{what} must be a list of features, got {features!r}")
    out = set()
    known = set(odd.features)
    for f in features:
        try:
            ok = f in known
        except TypeError:
            ok = False
        if not ok:
            raise UnknownFeatureError(f"{what} feature {f!r} is not a feature of this ODD")
        out.add(f)
    return out


def _restrict_choices(layout: Layout, allowed: list[set[int]]) -> Layout:
    """A copy of ``layout`` whose feature ``i`` offers only the states in ``allowed[i]``
    (this is the paper's conjoin with the instance's literals)."""
    out = copy.copy(layout)
    out.__dict__.pop("choice_map", None)  # derived from choices
    for derived in ("steps", "tail", "items"):
        out.__dict__.pop(derived, None)
    out.choices = [[c for c in ch if c[0] in allowed[i]] for i, ch in enumerate(layout.choices)]
    return out

