"""Floating-point contraction of nonnegative integer factors, with a proven error bound.

The general engine's tail factor (:mod:`._tail`) sums the untouched factors down to the
class, the state's variables and the remaining features. Variable elimination in exact
integers is too wide for that on some networks (andes); in float64 it is far faster. This
module is the tail's view of the network's one contraction code
(:func:`bnx.classifier._inference.plan` and :func:`~bnx.classifier._inference.contract`):
each exact integer factor is scaled by a power of two to put its largest entry in
``[1/2, 1)`` and rounded once to float64 (one rounding per input, counted in the plan's
depth), and the result is the table scaled by a power of two together with a bound ``err``
on every entry's relative error, so that callers can decide comparisons exactly (see
``tail_truth``).

Examples
--------
>>> import numpy as np
>>> from bnx.compilation.engines._contraction import plan, contract
>>> a = np.array([[1, 2], [3, 4]], dtype=object)  # over (X, Y)
>>> b = np.array([5, 6], dtype=object)  # over (Y,)
>>> p = plan([("X", "Y"), ("Y",)], ("X",), {"X": 2, "Y": 2})
>>> table, scale, err = contract(p, [(("X", "Y"), a), (("Y",), b)])
>>> (table * 2.0 ** scale).tolist(), err < 2.0 ** -50
([17.0, 39.0], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...classifier import _inference as inference

Contraction = inference.Contraction


def plan(scopes: Sequence[Sequence], keep: Sequence, card: Mapping) -> Contraction:
    """Plan the contraction of factors with these ``scopes`` down to ``keep`` (in that order).

    Each input is counted as rounded once (:func:`contract` converts integers to floats).
    """
    return inference.plan(scopes, keep, card, depths=[1] * len(scopes))


def contract(p: Contraction, factors: Sequence[tuple[Sequence, Any]], *,
             tick: Any = None) -> tuple | None:
    """Contract ``factors`` along ``p`` in floats: return ``(table, scale, err)``.

    The contraction ``p`` of the exact nonnegative integer ``factors`` (one per planned
    scope, the same variables) is ``table * 2**scale`` to
    within a relative ``err`` in every entry (0 exactly where it is 0), axes in
    ``p.keep`` order; ``None`` when no bound can be proven (an entry could underflow, or
    ``err`` would exceed ``2**-30``). ``tick`` (a compilation's budget check, optional) is
    called between the slices of each product.
    """
    tables, scale = [], 0
    for want, (scope, table) in zip(p.scopes, factors):
        table = np.asarray(table)
        if tuple(scope) != want:  # the same variables, in the plan's axis order
            table = table.transpose([tuple(scope).index(v) for v in want])
        flat = [int(x) for x in table.reshape(-1)]
        if any(x < 0 for x in flat):
            return None
        e = max((x.bit_length() for x in flat), default=0)
        scale += e
        if e <= 1000:  # float(x) is correctly rounded; scaling by 2**-e is exact
            arr = np.array(flat, dtype=np.float64) * 2.0 ** -e
        else:
            arr = np.array([x / (1 << e) for x in flat], dtype=np.float64)
        tables.append(arr.reshape(table.shape))
    try:
        table, e, err = inference.contract(p, tables, tick=tick)
    except inference.FloatRange:
        return None
    if err > 2.0 ** -30:
        return None
    return table, scale + e, err
