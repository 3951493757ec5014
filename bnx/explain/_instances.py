"""Instances as state indices, for the passes over a diagram's array form.

A question takes an instance as a mapping from features to states and works on the
index of each feature's state, in the ODD's feature order. :func:`instance_indices`
turns one into the other, with a fast path for the ODD's own state values;
:func:`named` turns indices back into a mapping in the classifier's order.

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
>>> idx = instance_indices(odd, x)
>>> named(odd, idx) == x
True
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from .._types import Instance

__all__ = ["instance_indices", "named", "memo"]


def _state_maps(odd) -> list:
    """Per feature ``(feature, {state: index})`` (``None`` where a state is a bool,
    which :meth:`ODD.encode` never matches by value), made once per diagram."""
    cache = odd.arrays.cache
    maps = cache.get(("state_maps",))
    if maps is None:
        maps = []
        for f, names in zip(odd.encoding.features, odd.encoding.states):
            m: dict | None = {}
            for j, s in enumerate(names):
                if type(s) is bool:
                    m = None
                    break
                m.setdefault(s, j)
            maps.append((f, m))
        cache[("state_maps",)] = maps
    return maps


def instance_indices(odd, instance: Instance) -> list[int]:
    """The state index of each feature of a complete instance, in the ODD's order.

    A dict whose states are given as the ODD's own state values takes a fast path;
    anything else goes through :meth:`ODD.encode` (matching states by their text,
    raising its instance errors).
    """
    maps = _state_maps(odd)
    if type(instance) is dict and len(instance) == len(maps):
        try:
            return [m[instance[f]] for f, m in maps]
        except (KeyError, TypeError):
            pass
    idx = odd.encode(instance)
    return [idx[f] for f in odd.encoding.features]


def named(odd, states: Sequence[int | None]) -> dict:
    """``{feature: state}`` of the features whose index in ``states`` (the ODD's order)
    is not ``None``, in the classifier's order."""
    enc = odd.encoding
    out = {}
    for f in odd.display_order:
        i = enc.position(f)
        if states[i] is not None:
            out[f] = enc.states[i][states[i]]
    return out


#: The memo of the last instance asked about, per diagram (its arrays). Not kept in
#: ``arrays.cache``: that dict lies on a reference cycle (the per-feature view refers back
#: to its arrays), and ``dd.cudd`` nodes collected with their manager on a cycle may
#: outlive it; here they are freed by reference counting when the arrays go.
_MEMOS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def memo(odd, x: Sequence[int]) -> dict:
    """What the questions computed for the instance ``x`` (state indices), kept for the
    next question on the same instance; emptied when another instance is asked about."""
    arrays = odd.arrays
    key = tuple(x)
    got = _MEMOS.get(arrays)
    if got is None or got[0] != key:
        got = _MEMOS[arrays] = (key, {})
    return got[1]
