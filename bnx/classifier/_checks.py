"""The checks of a classifier's features and declared on states, with messages that name
the problem (:class:`~bnx.Classifier` calls them when it is made)."""

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

__all__ = ["check_features", "check_on_states"]


def check_features(net: Any, c: Feature, states: dict,
                   features: Sequence[Feature] | None) -> tuple:
    """The features of a classifier of network ``net`` with class ``c`` (``states``: each
    node's states): ``features`` checked, or by default the features a learned TAN
    recorded, else the network's leaves other than the class."""
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
