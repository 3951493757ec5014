"""The CPT entries that parameter sensitivity speaks of, and the table it answers with.

Shared by :mod:`.sensitivity` (one decision) and :mod:`.sensitivity_all` (the whole
decision function): every entry ``theta = Pr(variable = state | parents)`` of a table, in
the order of its parents' configurations, and the DataFrame of their intervals.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

__all__ = ["entries", "sensitivity_frame", "flip_room", "entry_label"]


def entries(states: dict, parents: dict, cpds: dict, var: Any):
    """List every entry of ``var``'s table, parents' configurations in product order.

    Each as ``(column index tuple, parent states dict, state index, theta, column)``.
    """
    table = cpds[var][1]
    pa = parents[var]
    for u in itertools.product(*(range(len(states[q])) for q in pa)):
        column = [table[(j, *u)] for j in range(len(states[var]))]
        given = {q: states[q][k] for q, k in zip(pa, u)}
        for j, theta in enumerate(column):
            yield u, given, j, theta, column


def sensitivity_frame(rows: list, exact: bool):
    """Make the rows ``(variable, state, parents, value, low, high)`` a DataFrame."""
    import pandas as pd
    cols = ["variable", "state", "parents", "value", "low", "high"]
    frame = pd.DataFrame(rows, columns=cols)
    if not exact:
        for c in ("value", "low", "high"):
            frame[c] = frame[c].astype(float)
    return frame


def flip_room(frame, *, exact: bool = False):
    """Measure per row of a :func:`sensitivity_frame` how far its entry may move.

    That is, before the decision changes: the distance from ``value`` to the nearer flip
    point (``low`` when ``low > 0``, ``high`` when ``high < 1``), ``inf`` when neither end
    is one; computed in the frame's own numbers (exact for fractions). A Series named
    ``room``: floats, or with ``exact`` the frame's own numbers (so that rooms which differ
    by less than a float's precision are still ranked right).
    """
    import pandas as pd
    out = []
    for v, lo, hi in zip(frame["value"], frame["low"], frame["high"]):
        ends = ([v - lo] if lo > 0 else []) + ([hi - v] if hi < 1 else [])
        out.append(min(ends) if ends else math.inf)
    if exact:
        return pd.Series(out, index=frame.index, dtype=object, name="room")
    return pd.Series([float(r) for r in out], index=frame.index, dtype=float, name="room")


def entry_label(variable, state, parents: dict) -> str:
    """``"Pr(variable=state | parent=s, ...)"``: how the tables and charts name an entry."""
    given = ", ".join(f"{k}={s}" for k, s in parents.items())
    return f"Pr({variable}={state}" + (f" | {given})" if given else ")")
