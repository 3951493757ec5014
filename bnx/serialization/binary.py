"""The diagram of a format-3 ODD file: its arrays in binary after the readable header.

A format-3 file is the JSON document of :mod:`.document` (one key per line, ending in a
line ``}``), then the diagram's arrays (:class:`bnx.arrays.DiagramArrays`) as raw
little-endian integers: the levels, then the low children, then the high children,
one entry per node (``nodes`` of them, terminals first). The header's ``arrays`` object
describes them::

    {"nodes": N, "root": r, "dtype": "<i4", "sha256": "<hex digest of the bytes>"}

and the header's checksum covers that digest, so the whole file is checksummed. Loading
reads the bytes straight into numpy and checks, with vectorised passes, that they are a
reduced ordered diagram in bnx's numbering (children first, grouped by level, no
redundant test, no duplicate node); :func:`read_arrays` raises with the first problem.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..arrays import DiagramArrays

__all__ = ["arrays_header", "arrays_bytes", "read_arrays", "split_file"]

_DTYPE = "<i4"


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


def split_file(data: bytes) -> tuple[bytes, bytes]:
    """``(header, payload)``: the JSON document ends at the first line ``}``."""
    end = data.find(b"\n}\n")
    if end < 0:
        return data, b""
    return data[:end + 3], data[end + 3:]


def read_arrays(meta, payload: bytes, nvars: int, bad) -> DiagramArrays:
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
        raise bad(f"its arrays should take {12 * n} bytes after the header, but "
                  f"{len(payload)} follow (the file is truncated or has extra bytes)")
    if hashlib.sha256(payload).hexdigest() != meta["sha256"]:
        raise bad("its arrays do not match their sha256 digest (the file was edited or "
                  "corrupted)")
    level, lo, hi = (np.frombuffer(payload, dtype=_DTYPE, count=n, offset=4 * n * k)
                     .astype(np.int64) for k in range(3))
    if not 0 <= root < n:
        raise bad(f"its root {root} is not one of its {n} nodes")
    if (level[:2] != nvars).any() or lo[:2].tolist() != [0, 1] or hi[:2].tolist() != [0, 1]:
        raise bad("its first two nodes are not the terminals false and true")
    inner = np.arange(2, n)
    lv, a, b = level[2:], lo[2:], hi[2:]
    if ((lv < 0) | (lv >= nvars)).any():
        raise bad(f"a node lies at a level outside 0..{nvars - 1}")
    if ((a < 0) | (b < 0) | (a >= inner) | (b >= inner)).any():
        raise bad("a node's child is not an earlier node (children come first)")
    if ((level[a] <= lv) | (level[b] <= lv)).any():
        raise bad("a node has a child that does not lie below it")
    if (a == b).any():
        raise bad("a node is redundant (equal children)")
    if len(lv) and (np.diff(lv) > 0).any():
        raise bad("its nodes are not grouped by level, deepest first")
    key = (lv * n + a) * n + b
    if len(np.unique(key)) != len(key):
        raise bad("two nodes test the same level with the same children (not reduced)")
    arrays = DiagramArrays(nvars, level, lo, hi, root)
    seen = _reached(arrays)
    if not seen[2:].all():
        raise bad(f"it holds {int((~seen[2:]).sum())} nodes that the root does not reach")
    return arrays


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
