"""Validation of the array form.

Is it a reduced ordered diagram in bnx's numbering?

:func:`problem` finds the first thing that keeps three columns (per node its level and
two children, read from a file) from being a :class:`~bnx.diagram._arrays.DiagramArrays`:
terminals ``0`` and ``1`` first, children before parents and below them, nodes grouped by
level deepest first, no redundant test, no duplicate node, every node reached from the
root. It names it as ``(what, node, ...)``; :mod:`bnx.odd.io.binary` words it. Each check
is one vectorised pass over the columns (a level at a time where the check is per level).

Examples
--------
>>> problem(DiagramArrays(2, [2, 2, 1, 0], [0, 1, 0, 2], [0, 1, 1, 1], 3)) is None
True
>>> problem(DiagramArrays(2, [2, 2, 1, 1], [0, 1, 0, 0], [0, 1, 1, 1], 3))
('duplicate', 2, 3)
"""

from __future__ import annotations

import numpy as np

from ._arrays import DiagramArrays, level_order

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
    return _checked(arrays)


def _checked(arrays: DiagramArrays) -> tuple | None:
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

    Neighbours in :func:`~bnx.diagram._arrays.level_order` (one pass over all nodes when
    the levels are in order, as bnx writes them); the pair of the lowest level.
    """
    nodes, keys = level_order(arrays)
    same = np.flatnonzero((np.diff(keys) == 0) & (np.diff(arrays.level) == 0))
    if not len(same):
        return None
    i = int(same[np.argmin(arrays.level[same])])
    return int(nodes[i]), int(nodes[i + 1])


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
