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
:func:`read_arrays` raises with the first problem (:func:`bnx.diagram._problem.problem`:
loading a small diagram needs no numpy).
"""

from __future__ import annotations

import array
import hashlib
import sys

import lazy_loader

from ...diagram._arrays import SMALL, DiagramArrays
from ...diagram._problem import problem

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["arrays_header", "arrays_bytes", "read_arrays", "split_file"]

_DTYPE = "<i4"


def arrays_bytes(arrays: DiagramArrays) -> bytes:
    """Write the payload: levels, low children, high children as little-endian int32."""
    if arrays.size >= 2 ** 31:
        raise ValueError("a diagram of 2**31 nodes or more does not fit the format")
    return b"".join(np.ascontiguousarray(a, dtype=_DTYPE).tobytes()
                    for a in (arrays.level, arrays.lo, arrays.hi))


def arrays_header(arrays: DiagramArrays, payload: bytes) -> dict:
    """Describe ``payload`` as the header's ``arrays`` object."""
    return {"nodes": int(arrays.size), "root": int(arrays.root), "dtype": _DTYPE,
            "sha256": hashlib.sha256(payload).hexdigest()}


def split_file(data: bytes) -> tuple[bytes, memoryview]:
    """Split a file into ``(header, payload)``: the JSON document ends at the first line ``}``.

    The payload is a view of ``data`` (not a copy of its megabytes).
    """
    end = data.find(b"\n}\n")
    if end < 0:
        return data, memoryview(b"")
    return data[:end + 3], memoryview(data)[end + 3:]


def read_arrays(meta, payload: bytes | memoryview, nvars: int, bad) -> DiagramArrays:
    """Read the arrays in ``payload`` as the header's ``arrays`` object ``meta`` describes, checked.

    ``bad(problem)`` makes the error to raise.
    """
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
    arrays = DiagramArrays(nvars, *(_ints(payload[4 * n * k:4 * n * (k + 1)])
                                    for k in range(3)), root)
    found = problem(arrays)
    if found is None:
        return arrays
    raise bad(_words(found, nvars, *arrays.columns))


def _ints(data: memoryview):
    """Read little-endian int32 bytes as integers for :class:`DiagramArrays`.

    An ``array('q')``, converted in Python when small (no numpy), by numpy when large.
    """
    if len(data) > 4 * SMALL:
        return np.frombuffer(data, dtype=_DTYPE).astype(np.int64)
    a = array.array("i")
    a.frombytes(data)
    if sys.byteorder != "little":
        a.byteswap()
    return array.array("q", a)


#: The wording of each problem that :func:`bnx.diagram._problem.problem` finds, from the
#: node ``u`` (and the other node or count ``v``) and the arrays.
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
    """Word the message for a problem found by :func:`bnx.diagram._problem.problem`."""
    what, u, *more = found
    v = int(more[0]) if more else None
    return _WORDS[what](int(u), v, len(level), nvars, level, lo, hi)
