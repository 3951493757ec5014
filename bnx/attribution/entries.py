"""The CPT entries that parameter sensitivity speaks of, and the table it answers with.

Shared by :mod:`.sensitivity` (one decision) and :mod:`.sensitivity_all` (the whole
decision function): every entry ``theta = Pr(variable = state | parents)`` of a table, in
the order of its parents' configurations, and the DataFrame of their intervals.
"""

from __future__ import annotations

import itertools
from typing import Any

__all__ = ["entries", "sensitivity_frame"]


def entries(states: dict, parents: dict, cpds: dict, var: Any):
    """``(column index tuple, parent states dict, state index, theta, column)`` of every
    entry of ``var``'s table, parents' configurations in product order."""
    table = cpds[var][1]
    pa = parents[var]
    for u in itertools.product(*(range(len(states[q])) for q in pa)):
        column = [table[(j, *u)] for j in range(len(states[var]))]
        given = {q: states[q][k] for q, k in zip(pa, u)}
        for j, theta in enumerate(column):
            yield u, given, j, theta, column


def sensitivity_frame(rows: list, exact: bool):
    """The rows ``(variable, state, parents, value, low, high)`` as a DataFrame."""
    import pandas as pd
    cols = ["variable", "state", "parents", "value", "low", "high"]
    frame = pd.DataFrame(rows, columns=cols)
    if not exact:
        for c in ("value", "low", "high"):
            frame[c] = frame[c].astype(float)
    return frame
