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

from collections.abc import Sequence

from .._util.types import Instance
from ..diagram._memo import detached
from ._cache import indices

__all__ = ["instance_indices", "named", "memo"]


def instance_indices(odd, instance: Instance) -> list[int]:
    """Return the state index of each feature of a complete instance, in the ODD's order.

    :func:`bnx.explanation._cache.indices`: a fast path for the ODD's own state values, else
    :meth:`ODD.encode`, with its errors.
    """
    return indices(odd, instance)


def named(odd, states: Sequence[int | None]) -> dict:
    """Return ``{feature: state}`` of the features whose index in ``states`` is not ``None``.

    ``states`` is in the ODD's order; the answer in the classifier's order.
    """
    enc = odd.encoding
    out = {}
    for f in odd.display_order:
        i = enc.position(f)
        if states[i] is not None:
            out[f] = enc.states[i][states[i]]
    return out


def memo(odd, x: Sequence[int]) -> dict:
    """Return what the questions computed for the instance ``x`` (state indices).

    Kept for the next question on the same instance; emptied when another instance is asked
    about.
    """
    # (detached: it may hold dd nodes; see bnx.diagram._memo)
    cache = detached(odd.arrays)
    key = tuple(x)
    got = cache.get("instance_memo")
    if got is None or got[0] != key:
        got = cache.put("instance_memo", (), (key, {}))
    return got[1]
