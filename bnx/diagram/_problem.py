"""Validation of the array form.

Is it a reduced ordered diagram in bnx's numbering?

:func:`problem` finds the first thing that keeps three columns (per node its level and
two children, read from a file) from being a :class:`~bnx.diagram._arrays.DiagramArrays`:
terminals ``0`` and ``1`` first, children before parents and below them, nodes grouped by
level deepest first, no redundant test, no duplicate node, every node reached from the
root. It names it as ``(what, node, ...)``; :mod:`bnx.odd.io.binary` words it. A diagram of
at most :data:`~bnx.diagram._arrays.SMALL` nodes is checked in Python (loading a small file
needs no numpy), a larger one by vectorised passes.

Examples
--------
>>> problem(DiagramArrays(2, [2, 2, 1, 0], [0, 1, 0, 2], [0, 1, 1, 1], 3)) is None
True
>>> problem(DiagramArrays(2, [2, 2, 1, 1], [0, 1, 0, 0], [0, 1, 1, 1], 3))
('duplicate', 2, 3)
"""

from __future__ import annotations

from itertools import pairwise

import lazy_loader

from ._arrays import DiagramArrays

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["problem"]


def problem(arrays: DiagramArrays) -> tuple | None:
    """Find the first problem of ``arrays`` as ``(what, node, ...)``, or ``None`` when it is valid.

    ``arrays`` is made from columns not checked yet; ``what`` is one of ``root``,
    ``terminals``, ``level``, ``children``, ``below``, ``redundant``, ``grouped``,
    ``duplicate`` (two nodes) and ``unreached`` (the first node and how many).
    """
    nvars, root = arrays.nvars, arrays.root
    level, lo, hi = arrays.columns
    if not 0 <= root < len(level):
        return ("root", root)
    if level[0] != nvars or level[1] != nvars or tuple(lo[:2]) != (0, 1) or \
            tuple(hi[:2]) != (0, 1):
        return ("terminals", 0)
    return _in_python(arrays) if arrays.small else _vectorised(arrays)


def _in_python(arrays: DiagramArrays) -> tuple | None:
    nvars, root = arrays.nvars, arrays.root
    level, lo, hi = arrays.columns
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


def _vectorised(arrays: DiagramArrays) -> tuple | None:
    nvars, level, lo, hi = arrays.nvars, arrays.level, arrays.lo, arrays.hi
    n = len(level)
    inner = np.arange(2, n)
    lv, a, b = level[2:], lo[2:], hi[2:]
    for what, mask in (("level", lambda: (lv < 0) | (lv >= nvars)),
                       ("children", lambda: (a < 0) | (b < 0) | (a >= inner) | (b >= inner)),
                       ("below", lambda: (level[a] <= lv) | (level[b] <= lv)),
                       ("redundant", lambda: a == b)):
        u = _first(mask())
        if u is not None:
            return (what, u)
    u = _first(np.diff(lv) > 0)
    if u is not None:
        return ("grouped", u)
    twin = _duplicate(arrays)
    if twin is not None:
        return ("duplicate", *twin)
    seen = _reached(arrays)
    if not seen[2:].all():
        missed = np.flatnonzero(~seen)
        return ("unreached", int(missed[0]), len(missed))
    return None


def _first(mask) -> int | None:
    """Find the first inner node where ``mask`` (over the inner nodes) holds, or ``None``."""
    at = np.flatnonzero(mask)
    return int(at[0]) + 2 if len(at) else None


def _duplicate(arrays: DiagramArrays) -> tuple[int, int] | None:
    """Two nodes of one level with the same children, or ``None`` (the diagram is reduced).

    Per level, the key ``low * size + high`` (below ``2**62``) of every node; bnx writes
    each level's nodes in increasing key order, which one linear pass confirms, and only
    a level that is out of order is sorted (``numpy.unique`` hashes, many times slower).
    """
    lo, hi, n = arrays.lo, arrays.hi, arrays.size
    for lvl in range(arrays.nvars):
        s = arrays.block(lvl)
        if s.stop - s.start < 2:
            continue
        key = lo[s] * n + hi[s]
        if (np.diff(key) > 0).all():
            continue
        order = np.argsort(key, kind="stable")
        same = np.flatnonzero(np.diff(key[order]) == 0)
        if len(same):
            i = int(same[0])
            return s.start + int(order[i]), s.start + int(order[i + 1])
    return None


def _reached(arrays: DiagramArrays):
    """Which nodes lie below the root, one level at a time from the top."""
    seen = np.zeros(arrays.size, dtype=bool)
    seen[arrays.root] = True
    seen[:2] = True
    for lvl in range(arrays.nvars):
        s = arrays.block(lvl)
        idx = np.arange(s.start, s.stop)[seen[s]]
        seen[arrays.lo[idx]] = True
        seen[arrays.hi[idx]] = True
    return seen
