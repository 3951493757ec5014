"""The array form of a small diagram as Python lists: the passes that loading a saved ODD
and its first questions need, without numpy.

A saved ODD of a few thousand nodes loads and answers a PI question in a few milliseconds
of Python, less than ``import numpy`` takes. :meth:`bnx.diagram._arrays.DiagramArrays.from_lists`
keeps such a diagram as the three lists read from its file (the same array form:
per node its level and two children, terminals ``0`` and ``1``, children first, grouped by
level, deepest first) and makes its numpy arrays only when a pass asks for them. The
passes here are the list twins of :mod:`bnx.diagram._arrays`' numpy passes, for those lists: each
is tested against its numpy twin (``tests/diagram/test_arrays.py``).

Every function takes ``nvars`` and the lists ``level``, ``lo`` and ``hi``.

Examples
--------
>>> level, lo, hi = [2, 2, 1, 0], [0, 1, 0, 2], [0, 1, 1, 1]   # x0 or x1
>>> starts(2, level), count(2, level, lo, hi, 3), problem(2, level, lo, hi, 3)
([4, 3, 2], 3, None)
>>> negate(level, lo, hi, 3)
([2, 2, 1, 0], [0, 1, 1, 2], [0, 1, 0, 0], 3)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["starts", "problem", "count", "dd_size", "count_states", "features_of_levels",
           "negate", "cofactor"]


def starts(nvars: int, level: Sequence[int]) -> list[int]:
    """``starts[L]``: 2 + the number of inner nodes at level ``L`` or deeper (the nodes
    of level ``L`` are ``starts[L + 1] .. starts[L] - 1``), for ``L`` in ``0 .. nvars``."""
    per = [0] * (nvars + 1)
    for lv in level[2:]:
        per[lv] += 1
    out = [2] * (nvars + 1)
    for lv in range(nvars - 1, -1, -1):
        out[lv] = out[lv + 1] + per[lv]
    return out


def problem(nvars: int, level: Sequence[int], lo: Sequence[int], hi: Sequence[int],
            root: int) -> tuple | None:
    """The first thing that keeps the lists from being a reduced ordered diagram in bnx's
    numbering, as ``(what, node, ...)``, or ``None``; :func:`bnx.diagram._arrays.problem` finds the
    same with numpy, and :mod:`bnx.odd.io.binary` words it."""
    n = len(level)
    if not 0 <= root < n:
        return ("root", root)
    if level[0] != nvars or level[1] != nvars or tuple(lo[:2]) != (0, 1) or \
            tuple(hi[:2]) != (0, 1):
        return ("terminals", 0)
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
    st = starts(nvars, level)
    for lv in range(nvars):
        s0, s1 = st[lv + 1], st[lv]
        keys = [lo[u] * n + hi[u] for u in range(s0, s1)]
        if all(a < b for a, b in zip(keys, keys[1:])):
            continue
        order = sorted(range(len(keys)), key=keys.__getitem__)
        for a, b in zip(order, order[1:]):
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


def count(nvars: int, level: Sequence[int], lo: Sequence[int], hi: Sequence[int],
          root: int) -> int:
    """Number of assignments to all ``nvars`` levels on which the function is true."""
    if root <= 1:
        return (1 << nvars) if root == 1 else 0
    c = [0, 1]
    for u in range(2, root + 1):
        a, b, lv = lo[u], hi[u], level[u]
        c.append((c[a] << (level[a] - lv - 1)) + (c[b] << (level[b] - lv - 1)))
    return c[root] << level[root]


def dd_size(nvars: int, level: Sequence[int], lo: Sequence[int], hi: Sequence[int],
            root: int) -> int:
    """The number of nodes ``dd`` counts for the function (a node and its negation are
    one node there, and there is one terminal)."""
    if root <= 1:
        return 1
    neg = [1, 0]
    index: dict = {}
    for u in range(2, len(level)):
        index[(level[u], lo[u], hi[u])] = u
    paired = 0
    for u in range(2, len(level)):
        a, b = neg[lo[u]], neg[hi[u]]
        v = index.get((level[u], a, b), -1) if a >= 0 and b >= 0 else -1
        neg.append(v)
        paired += v >= 0
    return 1 + len(level) - 2 - paired // 2


def cofactor(first: int, nbits: int, level: Sequence[int], lo: Sequence[int],
             hi: Sequence[int], u: int, j: int) -> int:
    """Node ``u``'s cofactor on state ``j`` of the feature whose ``nbits`` bits start at
    level ``first`` (``u`` tests one of them or lies below); ``level``, ``lo`` and ``hi``
    may be lists or numpy arrays (pi-inst follows a store's nodes with it)."""
    for bit in range(nbits):
        if level[u] == first + bit:
            u = hi[u] if (j >> (nbits - 1 - bit)) & 1 else lo[u]
    return u


def features_of_levels(first_level: Sequence[int]) -> list[int]:
    """Per level, the feature whose bits it holds (feature ``i``'s bits are the levels
    ``first_level[i] .. first_level[i + 1] - 1``), then ``n`` for the terminals' level."""
    n = len(first_level) - 1
    out = []
    for i in range(n):
        out.extend([i] * (first_level[i + 1] - first_level[i]))
    out.append(n)
    return out


def count_states(first_level: Sequence[int], nstates: Sequence[int], level: Sequence[int],
                 lo: Sequence[int], hi: Sequence[int], root: int) -> int:
    """Number of complete instances (one state per feature; feature ``i``'s bits are the
    levels ``first_level[i] .. first_level[i + 1] - 1``) on which the function is true."""
    n = len(nstates)
    skip = [1] * (n + 1)  # skip[i]: the number of instances of features i .. n - 1
    for i in range(n - 1, -1, -1):
        skip[i] = skip[i + 1] * nstates[i]
    feature_of = features_of_levels(first_level)

    def feat(u: int) -> int:
        return feature_of[level[u]]

    c = [0, 1]
    for u in range(2, root + 1):
        i = feat(u)
        a = first_level[i]
        total = 0
        for j in range(nstates[i]):
            v = cofactor(a, first_level[i + 1] - a, level, lo, hi, u, j)
            total += c[v] * (skip[i + 1] // skip[feat(v)])
        c.append(total)
    if root <= 1:
        return skip[0] if root == 1 else 0
    return c[root] * (skip[0] // skip[feat(root)])


def negate(level: list[int], lo: Sequence[int], hi: Sequence[int], root: int) -> tuple:
    """``(level, lo, hi, root)`` of the negation: the same nodes with the terminals'
    roles swapped."""
    lo2 = [0, 1] + [1 - c if c <= 1 else c for c in lo[2:]]
    hi2 = [0, 1] + [1 - c if c <= 1 else c for c in hi[2:]]
    return list(level), lo2, hi2, (root if root > 1 else 1 - root)
