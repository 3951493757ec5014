"""Instances and rows read against an ODD: validated, encoded as state indices, decided.

:class:`~bnx.ODD`'s ``encode``, ``decide`` and ``decide_many`` are these functions; a row
with missing values is decided on its observed features by the classifier.
"""

from __future__ import annotations

from typing import Any

from .._util.types import Instance
from ..classifier._classifier import Classifier, _resolve_state
from ..classifier._instances import as_instance, encode_rows
from ..classifier._possible import refuse_impossible, refuse_impossible_rows
from ..classifier._world import within_support
from ..diagram._feature_view import decide as decide_walk
from ..diagram._feature_view import decide_states
from ..errors import ArgumentError, MissingFeatureError, UnknownStateError, closest_first

__all__ = ["decide", "decide_many", "encode", "partial_classifier"]


def encode(odd: Any, instance: Instance, partial: bool = False) -> dict:
    """``{feature: state index}`` of a validated instance (see :meth:`bnx.ODD.encode`)."""
    instance = as_instance(instance, class_var=odd.meta.get("class_var"))
    known = odd.encoding._index
    for f in instance:
        try:
            ok = f in known
        except TypeError:
            ok = False
        if not ok:
            odd._position(f)  # raises
    by_text = odd._by_text
    if by_text is None:  # per feature, {state: index} when all its states are str
        by_text = odd._by_text = [
            {s: j for j, s in reversed(list(enumerate(states)))}
            if all(type(s) is str for s in states) else None
            for states in odd.encoding.states]
    out = {}
    for i, f in enumerate(odd.features):
        if f not in instance:
            if partial:
                continue
            raise MissingFeatureError(f"the instance has no state for feature {f!r}")
        v = instance[f]
        j = by_text[i].get(v) if type(v) is str and by_text[i] is not None else None
        if j is None:
            j = _resolve_state(odd.encoding.states[i], v)
        if j is None:
            raise UnknownStateError(
                f"{instance[f]!r} is not a state of feature {f!r} "
                f"(states, closest first: {closest_first(v, odd.encoding.states[i])})")
        out[f] = j
    return out


def decide(odd: Any, instance: Instance, within: str = "support") -> bool:
    """Decide an instance, missing values unobserved (:meth:`bnx.ODD.decide`)."""
    support = within_support(within)
    given = as_instance(instance, class_var=odd.meta.get("class_var"))
    if None in given.values():  # None in a mapping is a missing value, as in decide_many
        given = {f: v for f, v in given.items()
                 if v is not None or f not in odd.encoding._index
                 or None in odd.states(f)}
    if len(given) < len(odd.features):
        missing = [f for f in odd.features if f not in given]
        try:
            gaps = all(f in instance for f in missing)  # keys whose value is missing
        except TypeError:
            gaps = False
        if gaps:
            encode(odd, given, partial=True)  # unknown features and states
            return bool(partial_classifier(odd).decide(given, partial=True, within=within))
    idx = encode(odd, given)
    if support:  # (no check where the ODD holds no network: a file of format version 1)
        states = odd.encoding.states
        refuse_impossible(odd, {f: states[i][idx[f]] for i, f in enumerate(odd.features)})
    return decide_walk(odd.arrays, odd.encoding, [idx[f] for f in odd.features])


def decide_many(odd: Any, data, within: str = "support") -> Any:
    """Decide many rows, as a numpy bool array (:meth:`bnx.ODD.decide_many`)."""
    import numpy as np
    support = within_support(within)
    codes = encode_rows(odd, data)
    if support:  # each distinct row once; the first that cannot occur is refused by name
        refuse_impossible_rows(odd, data, codes, odd.features)
    out = np.empty(codes.shape[0], dtype=bool)
    full = ~(codes < 0).any(axis=1)
    if full.any():
        out[full] = decide_states(odd.arrays, odd.encoding, codes[full])
    if not full.all():
        clf = partial_classifier(odd)
        rows, inverse = np.unique(codes[~full], axis=0, return_inverse=True)
        states = odd.encoding.states
        got = [clf.decide({f: states[i][j] for i, (f, j) in
                           enumerate(zip(odd.features, row.tolist())) if j >= 0},
                          partial=True, within="all") for row in rows]  # (checked above)
        out[~full] = np.array(got, dtype=bool)[inverse.reshape(-1)]
    return out


def partial_classifier(odd: Any) -> Classifier:
    """Return the classifier, which decides rows with missing values.

    Refused with an :class:`~bnx.ArgumentError` for an ODD without one.
    """
    clf = odd.classifier
    if clf is None:
        raise ArgumentError("rows with missing values need the classifier, which this "
                            "ODD does not have (a file of format version 1): compile "
                            "it again")
    return clf
