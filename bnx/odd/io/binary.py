"""The diagram of a format-3 ODD file: its arrays in binary after the readable header.

A format-3 file is the JSON document of :mod:`.document` (one key per line, ending in a
line ``}``), then the diagram's arrays (:class:`bnx.diagram._arrays.DiagramArrays`) as raw
little-endian integers: the levels, then the low children, then the high children,
one entry per node (``nodes`` of them, terminals first). The header's ``arrays`` object
describes them::

    {"nodes": N, "root": r, "dtype": "<i4", "sha256": "<hex digest of the bytes>"}

and the header's checksum covers that digest, so the whole file is checksummed. Loading
reads the bytes and checks that they are a reduced ordered diagram in bnx's numbering
(children first, grouped by level, no redundant test, no duplicate node);
:func:`read_arrays` raises with the first problem. A small diagram is read into Python
lists and checked in Python (:mod:`bnx.diagram._array_lists`: loading then needs no numpy), a
large one straight into numpy and checked by vectorised passes.
"""

from __future__ import annotations

import array
import hashlib
import sys

from ..._lazy import numpy_on_first_use
from ...diagram import _array_lists as array_lists
from ...diagram._arrays import DiagramArrays

np = numpy_on_first_use(globals())

__all__ = ["arrays_header", "arrays_bytes", "read_arrays", "split_file"]

_DTYPE = "<i4"

#: Files of at most this many nodes are read into Python lists, checked by
#: :func:`bnx.diagram._array_lists.problem` (numpy is imported only when a question needs it);
#: larger ones straight into numpy, checked by vectorised passes.
LISTS = 1 << 14


def arrays_bytes(arrays: DiagramArrays) -> bytes:
    """The payload: levels, low children, high children as little-endian int32."""
    if arrays.size >= 2 ** 31:
        raise ValueError("a diagram of 2**31 nodes or more does not fit the format")
    return b"".join(np.ascontiguousarray(a, dtype=_DTYPE).tobytes()
                    for a in (arrays.level, arrays.lo, arrays.hi))


def arrays_header(arrays: DiagramArrays, payload: bytes) -> dict:
    """The header's ``arrays`` object for ``payload``."""
    return {"nodes": int(arrays.size), "root": int(arrays.root), "dtype": _DTYPE,
            "sha256": hashlib.sha256(payload).hexdigest()}


def split_file(data: bytes) -> tuple[bytes, memoryview]:
    """``(header, payload)``: the JSON document ends at the first line ``}``; the payload
    is a view of ``data`` (not a copy of its megabytes)."""
    end = data.find(b"\n}\n")
    if end < 0:
        return data, memoryview(b"")
    return data[:end + 3], memoryview(data)[end + 3:]


def read_arrays(meta, payload: bytes | memoryview, nvars: int, bad) -> DiagramArrays:
    """The arrays in ``payload`` as described by the header's ``arrays`` object ``meta``,
    checked; ``bad(problem)`` makes the error to raise."""
    if not isinstance(meta, dict) or set(meta) != {"nodes", "root", "dtype", "sha256"}:
        raise bad("its 'arrays' must be an object with 'nodes', 'root', 'dtype' and 'sha256'")
    n, root = meta["nodes"], meta["root"]
    if meta["dtype"] != _DTYPE:
        raise bad(f"its arrays have the type {meta['dtype']!r}, not {_DTYPE!r}")
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (n, root)) or n < 2:
        raise bad("its arrays' 'nodes' and 'root' must be integers, with at least 2 nodes")
    if len(payload) != 12 * n:
        what = ("it is truncated" if len(payload) < 12 * n else
                f"{len(payload) - 12 * n} extra bytes follow them")
        raise bad(f"its arrays of {n} nodes take {12 * n} bytes after the header, but "
                  f"{len(payload)} follow: {what}")
    if hashlib.sha256(payload).hexdigest() != meta["sha256"]:
        raise bad("its arrays do not match their sha256 digest (the file was edited or "
                  "corrupted)")
    if n <= LISTS:  # a small file: Python lists (numpy is imported only if needed)
        level, lo, hi = (_ints(payload[4 * n * k:4 * n * (k + 1)]) for k in range(3))
        found = array_lists.problem(nvars, level, lo, hi, root)
        if found is None:
            return DiagramArrays.from_lists(nvars, level, lo, hi, root)
    else:
        level, lo, hi = (np.frombuffer(payload, dtype=_DTYPE, count=n, offset=4 * n * k)
                         .astype(np.int64) for k in range(3))
        found = _check(nvars, level, lo, hi, root)
        if isinstance(found, DiagramArrays):
            return found
    raise bad(_words(found, nvars, level, lo, hi))


def _ints(data: memoryview) -> list[int]:
    """Little-endian int32 bytes as a list of Python ints."""
    a = array.array("i")
    a.frombytes(data)
    if sys.byteorder != "little":
        a.byteswap()
    return a.tolist()


#: The wording of each problem that :func:`_check` and :func:`bnx.diagram._array_lists.problem`
#: find, from the node ``u`` (and the other node or count ``v``) and the arrays.
_WORDS = {
    "root": lambda u, v, n, nvars, level, lo, hi:
        f"its root {u} is not one of its {n} nodes",
    "terminals": lambda u, v, n, nvars, level, lo, hi:
        f"its first two nodes are not the terminals false and true (nodes 0 and 1 at "
        f"level {nvars}, each its own two children)",
    "level": lambda u, v, n, nvars, level, lo, hi:
        f"its node {u} lies at level {int(level[u])}, outside 0..{nvars - 1}",
    "children": lambda u, v, n, nvars, level, lo, hi:
        f"its node {u} has the children {int(lo[u])} and {int(hi[u])}, which are not "
        "earlier nodes (children come first)",
    "below": lambda u, v, n, nvars, level, lo, hi:
        f"its node {u} at level {int(level[u])} has a child that does not lie below it",
    "redundant": lambda u, v, n, nvars, level, lo, hi:
        f"its node {u} is redundant (both children are node {int(lo[u])})",
    "grouped": lambda u, v, n, nvars, level, lo, hi:
        f"its nodes are not grouped by level, deepest first (node {u + 1} at level "
        f"{int(level[u + 1])} follows node {u} at level {int(level[u])})",
    "duplicate": lambda u, v, n, nvars, level, lo, hi:
        f"its nodes {u} and {v} test the same level with the same children (the diagram "
        "is not reduced)",
    "unreached": lambda u, v, n, nvars, level, lo, hi:
        f"it holds {v} nodes that the root does not reach (the first: node {u})",
}


def _words(found: tuple, nvars: int, level, lo, hi) -> str:
    """The message for a problem found by :func:`_check` or
    :func:`bnx.diagram._array_lists.problem`."""
    what, u, *more = found
    v = int(more[0]) if more else None
    return _WORDS[what](int(u), v, len(level), nvars, level, lo, hi)


def _check(nvars: int, level: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           root: int) -> DiagramArrays | tuple:
    """The arrays, or the first problem as :func:`bnx.diagram._array_lists.problem` finds it, by
    vectorised passes (for large diagrams)."""
    n = len(level)
    if not 0 <= root < n:
        return ("root", root)
    if (level[:2] != nvars).any() or lo[:2].tolist() != [0, 1] or hi[:2].tolist() != [0, 1]:
        return ("terminals", 0)
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
    arrays = DiagramArrays(nvars, level, lo, hi, root)
    twin = _duplicate(arrays)
    if twin is not None:
        return ("duplicate", *twin)
    seen = _reached(arrays)
    if not seen[2:].all():
        missed = np.flatnonzero(~seen)
        return ("unreached", int(missed[0]), len(missed))
    return arrays


def _first(mask: np.ndarray) -> int | None:
    """The first inner node where ``mask`` (over the inner nodes) holds, or ``None``."""
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
        step = np.diff(key)
        if (step > 0).all():
            continue
        order = np.argsort(key, kind="stable")
        same = np.flatnonzero(np.diff(key[order]) == 0)
        if len(same):
            i = int(same[0])
            return s.start + int(order[i]), s.start + int(order[i + 1])
    return None


def _reached(arrays: DiagramArrays) -> np.ndarray:
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
