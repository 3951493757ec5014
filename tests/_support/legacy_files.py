"""Files of formats 1 and 2, as bnx wrote them before format 3, and format-3 file surgery.

bnx now writes only format 3 (a JSON header, then the diagram's arrays in binary), but
still loads the all-JSON files of formats 1 and 2, whose ``diagram`` is ``dd``'s JSON dump
of the root and the domain. :func:`write_legacy` writes such a file from any ODD with the
writer of bnx at commit 7a15dad (``bnx/odd/io/save.py``: ``_dump_diagram``,
``_render``, the version-2 ``_document``), so that the loader's reading of old files, and
every check it makes on them, stays tested. The values both formats share (features and
states as JSON scalars, the classifier's document, the count) are read from the format-3
file the ODD saves; the checksum is made as docs/file-format.md defines it
(:func:`checksum`). ``tests/data/multivalued-v2.bnx.json`` is a file that the real 7a15dad
wrote; a test checks that this writer writes the same.

:func:`split`, :func:`join` and :func:`resign` take format-3 files apart and put them
back together with a valid checksum (and digest, when the arrays change), so that a
test edits exactly the part whose check it means to exercise.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from bnx.odd.io.document import FORMAT_NAME

__all__ = ["checksum", "legacy_document", "render_legacy", "write_legacy", "split", "join",
           "resign", "resign_arrays"]


def checksum(doc: dict) -> str:
    """``"sha256:<hex>"`` over the canonical JSON (sorted keys, no spaces, ASCII) of every key
    of ``doc`` but ``checksum``: the file's checksum as docs/file-format.md defines it."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def _header(odd: Any) -> dict:
    """The header of the format-3 file ``odd`` saves."""
    with tempfile.TemporaryDirectory() as where:
        data = Path(odd.save(str(Path(where) / "odd.bnx"))).read_bytes()
    return split(data)[0]


# ---------------------------------------------------------------------- formats 1 and 2
def legacy_document(odd: Any, *, version: int = 2) -> dict:
    """The document of the version-``version`` file of ``odd`` (1 or 2), checksum included.

    Version 1 has neither ``classifier`` nor ``rule`` (it knew only the threshold rule).
    """
    enc, meta, now = odd.encoding, odd.meta, _header(odd)
    rule = meta.get("rule", "threshold")
    threshold = meta.get("threshold")
    if rule == "threshold":
        threshold = Fraction(threshold)
    doc = {
        "format": FORMAT_NAME,
        "version": version,
        "bnx_version": "0.1.0",
        "backend": str(odd.backend),
        "features": now["features"],
        "states": now["states"],
        "variables": list(enc.variables),
        "class_var": now["class_var"],
        "positive": now["positive"],
        "threshold": (f"{threshold.numerator}/{threshold.denominator}" if rule == "threshold"
                      else None),
        "fingerprint": meta["fingerprint"],
        "count": now["count"],
        "size": int(odd.root.dag_size),
        "diagram": dump_diagram(odd.bdd, enc.variables, {"root": odd.root,
                                                          "domain": odd.domain}),
    }
    if version >= 2:
        if "classifier" in now:
            doc["classifier"] = now["classifier"]
        if rule != "threshold":
            doc["rule"] = rule
    doc["checksum"] = checksum(doc)
    return doc


def dump_diagram(bdd: Any, variables: tuple, roots: dict) -> dict:
    """``dd``'s JSON dump of ``roots``, with canonical node numbers (post-order from 2)."""
    dump: dict[str, Any] = {"level_of_var": {v: bdd.level_of_var(v) for v in variables},
                            "roots": {}}
    number: dict[int, int] = {}  # int(regular node) -> its number in the file

    def ref(u, as_root: bool):
        if u.var is None:
            if as_root:
                return 1 if u == bdd.true else -1
            return "T" if u == bdd.true else "F"
        z = ~u if u.negated else u
        k = number[int(z)]
        return -k if u.negated else k

    for name, r in roots.items():
        # iterative post-order, low before high, as dd's own dumper visits
        stack = [(r, False)]
        while stack:
            u, expanded = stack.pop()
            if u.var is None:
                continue
            z = ~u if u.negated else u
            if int(z) in number:
                continue
            if expanded:
                number[int(z)] = len(number) + 2
                dump[str(number[int(z)])] = [z.level, ref(z.low, False), ref(z.high, False)]
            else:
                stack.append((z, True))
                stack.append((z.high, False))
                stack.append((z.low, False))
        dump["roots"][name] = ref(r, True)
    return dump


def render_legacy(doc: dict) -> str:
    """One top-level key per line, one diagram node per line (diff-friendly)."""
    def dumps(v):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)

    lines = []
    for key, value in doc.items():
        if key == "diagram" and isinstance(value, dict):
            inner = [f"  {dumps(k)}: {dumps(v)}" for k, v in value.items()]
            lines.append(f" {dumps(key)}: {{\n" + ",\n".join(inner) + "\n }")
        else:
            lines.append(f" {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_legacy(odd: Any, path, *, version: int = 2, edit: Callable | None = None) -> str:
    """Write ``odd`` as a file of format ``version`` (1 or 2); ``edit(doc)``, when given,
    changes the document first, and the checksum is then made anew."""
    doc = legacy_document(odd, version=version)
    if edit is not None:
        edit(doc)
        doc["checksum"] = checksum(doc)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(render_legacy(doc))
    return str(path)


# ---------------------------------------------------------------------- format 3 surgery
def split(data: bytes) -> tuple[dict, list, bytes]:
    """A format-3 file's header (parsed), its header lines and its payload."""
    end = data.index(b"\n}\n") + 3
    header = data[:end].decode("utf-8")
    return json.loads(header), header.splitlines(), data[end:]


def join(doc: dict, payload: bytes) -> bytes:
    """The file of header ``doc`` (rendered one key per line, as bnx writes) and payload."""
    lines = [f" {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
             for k, v in doc.items()]
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8") + payload


def resign(path, edit: Callable[[dict], Any]) -> None:
    """Apply ``edit`` to the header of the file (format 3, or 1 and 2: all JSON) at
    ``path`` and rewrite it with a valid checksum; the payload is kept as it is."""
    data = open(path, "rb").read()
    doc, _, payload = split(data)
    edit(doc)
    doc["checksum"] = checksum(doc)
    if "diagram" in doc:
        text = render_legacy(doc).encode("utf-8")
        open(path, "wb").write(text + payload)
    else:
        open(path, "wb").write(join(doc, payload))


def resign_arrays(path, level, lo, hi, root: int, *, nodes: int | None = None) -> None:
    """Replace the arrays of the format-3 file at ``path`` by ``level``, ``lo``, ``hi``
    and ``root``, and make its header describe them, digest and checksum included, so
    that only the arrays' structural checks can fail."""
    data = open(path, "rb").read()
    doc, _, _ = split(data)
    payload = b"".join(np.asarray(a, dtype="<i4").tobytes() for a in (level, lo, hi))
    doc["arrays"] = {"nodes": len(level) if nodes is None else nodes, "root": int(root),
                     "dtype": "<i4", "sha256": hashlib.sha256(payload).hexdigest()}
    doc["checksum"] = checksum(doc)
    open(path, "wb").write(join(doc, payload))
