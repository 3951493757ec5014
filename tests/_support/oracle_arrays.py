"""A reference for the checker of a file's arrays (``problem`` in
``bnx/diagram/_problem.py``): the same checks, in the same order, written node by node in
Python (no numpy), so that the vectorised checker is tested against an independent walk
over the columns (tests/diagram/test_units.py)."""

from __future__ import annotations

from itertools import pairwise

__all__ = ["problem_by_nodes"]


def problem_by_nodes(arrays) -> tuple | None:
    """The first problem of ``arrays`` as ``(what, node, ...)``, or ``None``: checked one
    node at a time over its columns."""
    nvars, root = arrays.nvars, arrays.root
    level, lo, hi = (list(c) for c in arrays.columns)
    if not 0 <= root < len(level):
        return ("root", root)
    if level[0] != nvars or level[1] != nvars or tuple(lo[:2]) != (0, 1) or \
            tuple(hi[:2]) != (0, 1):
        return ("terminals", 0)
    n = len(level)
    for u in range(2, n):
        if not 0 <= level[u] < nvars:
            return ("level", u)
    for u in range(2, n):
        if not (0 <= lo[u] < u and 0 <= hi[u] < u):
            return ("children", u)
    for u in range(2, n):
        if level[lo[u]] <= level[u] or level[hi[u]] <= level[u]:
            return ("below", u)
    for u in range(2, n):
        if lo[u] == hi[u]:
            return ("redundant", u)
    for u in range(2, n - 1):
        if level[u + 1] > level[u]:
            return ("grouped", u)
    st = arrays.starts
    for lv in range(nvars):
        s0, s1 = st[lv + 1], st[lv]
        keys = [lo[u] * n + hi[u] for u in range(s0, s1)]
        if all(a < b for a, b in pairwise(keys)):
            continue
        order = sorted(range(len(keys)), key=keys.__getitem__)
        for a, b in pairwise(order):
            if keys[a] == keys[b]:
                return ("duplicate", s0 + a, s0 + b)
    seen = [False] * n
    seen[0] = seen[1] = seen[root] = True
    for u in range(n - 1, 1, -1):  # parents before children
        if seen[u]:
            seen[lo[u]] = seen[hi[u]] = True
    missed = [u for u in range(n) if not seen[u]]
    if missed:
        return ("unreached", missed[0], len(missed))
    return None
