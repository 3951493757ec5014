"""The checks of a classifier's features, declared on states and ordinal features.

Their messages name the problem; :class:`~bnx.Classifier` calls them when it is made.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .._util.types import Feature
from ..errors import (
    ArgumentError,
    StructureError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)
from ._instances import resolve_state as _resolve_state

__all__ = ["check_features", "check_on_states", "check_ordinal", "numeric_order"]


def check_features(net: Any, c: Feature, states: dict,
                   features: Sequence[Feature] | None) -> tuple:
    """Check the features of a classifier of network ``net`` with class ``c``.

    ``states``: each node's states. ``features`` checked, or by default the features a
    learned TAN recorded, else the network's leaves other than the class.
    """
    from ..network.readers import FEATURES_KEY
    if features is None:
        learned = getattr(net, "graph", {}).get(FEATURES_KEY)
        if learned is not None and learned[0] == c and all(f in net for f in learned[1]):
            return tuple(learned[1])  # a TAN of bnx.learn_tan: its features are inner nodes
        leaves = tuple(n for n in net.nodes() if n != c and not list(net.successors(n)))
        if not leaves:
            raise StructureError(
                f"the network has no leaf other than the class {c!r}, so there is no "
                f"default feature; name the features with features=")
        return leaves
    if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
        raise StructureError(f"features must be a sequence of node names, got {features!r}")
    features = tuple(features)
    if not features:
        raise StructureError("features must name at least one node")
    seen = set()
    for f in features:
        try:
            known = f in states
        except TypeError:
            known = False
        if not known:
            raise UnknownFeatureError(f"feature {f!r} is not a node of the network (nodes, "
                                      f"closest first: {closest_first(f, states)})")
        if f == c:
            raise StructureError(f"the class {f!r} cannot be a feature")
        if f in seen:
            raise StructureError(f"feature {f!r} is listed twice")
        seen.add(f)
    return features


def check_on_states(on: Any, features: tuple, states: dict) -> dict:
    """``on_states`` as ``{feature: tuple of its on states}``, checked."""
    if on is None:
        return {}
    if not isinstance(on, Mapping):
        raise ArgumentError(f"on_states must map features to their on state(s), "
                            f"got {on!r}")
    out = {}
    for f, given in on.items():
        if f not in features:
            raise UnknownFeatureError(
                f"on_states names {f!r}, which is not a feature (features, closest "
                f"first: {closest_first(f, features)})")
        if isinstance(given, (str, bytes, int)) or not isinstance(given, Collection):
            given = [given]
        own = states[f]
        got = []
        for s in given:
            j = _resolve_state(own, s)
            if j is None:
                raise UnknownStateError(
                    f"on state {s!r} is not a state of feature {f!r} (states, "
                    f"closest first: {closest_first(s, own)})")
            if own[j] not in got:
                got.append(own[j])
        out[f] = tuple(sorted(got, key=own.index))
    return {f: out[f] for f in features if f in out}


def _number_in(state: Any) -> float | None:
    """Find the first number written in a state's name (``"a19_7"``: 19), or ``None``."""
    if isinstance(state, bool):
        return None
    if isinstance(state, (int, float)):
        return float(state)
    import re
    found = re.search(r"[-+]?\d+(?:\.\d+)?", str(state))
    return None if found is None else float(found.group())


def numeric_order(states: tuple) -> tuple | None:
    """Order the states by the numbers their names carry.

    ``None`` when some name carries none or two names carry the same number.

    >>> numeric_order(("a6_2", "a1_0", "a88_20", "a19_7"))
    ('a1_0', 'a6_2', 'a19_7', 'a88_20')
    >>> numeric_order(("yes", "no")) is None
    True
    """
    numbers = [_number_in(s) for s in states]
    if None in numbers or len(set(numbers)) != len(numbers):
        return None
    return tuple(s for _, s in sorted(zip(numbers, states), key=lambda p: p[0]))


def check_ordinal(ordinal: Any, features: tuple, states: dict) -> dict:
    """Check ``ordinal`` and return it as ``{feature: its states in increasing order}``.

    ``ordinal`` is ``None`` or ``False`` (none), ``True`` (every feature whose state names
    carry distinct numbers, ordered by them) or a mapping from features to the list of all
    their states in order.
    """
    if ordinal is None or ordinal is False:
        return {}
    if ordinal is True:
        out = {f: numeric_order(states[f]) for f in features}
        return {f: order for f, order in out.items() if order is not None}
    if not isinstance(ordinal, Mapping):
        raise ArgumentError(f"ordinal must be True or map features to their states in "
                            f"increasing order, got {ordinal!r}")
    out = {}
    for f, given in ordinal.items():
        if f not in features:
            raise UnknownFeatureError(
                f"ordinal names {f!r}, which is not a feature (features, closest "
                f"first: {closest_first(f, features)})")
        own = states[f]
        if isinstance(given, (str, bytes)) or not isinstance(given, Collection):
            raise ArgumentError(f"ordinal[{f!r}] must list the states of {f!r} in increasing "
                                f"order, got {given!r}")
        got = []
        for s in given:
            j = _resolve_state(own, s)
            if j is None:
                raise UnknownStateError(
                    f"ordinal[{f!r}] names {s!r}, which is not a state of {f!r} (states, "
                    f"closest first: {closest_first(s, own)})")
            if own[j] in got:
                raise ArgumentError(f"ordinal[{f!r}] lists the state {own[j]!r} twice")
            got.append(own[j])
        if len(got) != len(own):
            missing = [s for s in own if s not in got]
            raise ArgumentError(f"ordinal[{f!r}] must list every state of {f!r} once; it "
                                f"leaves out {', '.join(map(repr, missing))}")
        out[f] = tuple(got)
    return {f: out[f] for f in features if f in out}
