"""The ODD file's document: format name and version, its keys, canonical JSON and checksum."""

from __future__ import annotations

import hashlib
import json
import os
import re

__all__ = ["FORMAT_NAME", "FORMAT_VERSION"]

#: The name in the ``format`` field of every ODD file.
FORMAT_NAME = "bnx-odd"
#: The version of the file format that this bnx writes and reads.
FORMAT_VERSION = 3

_KEYS = ("format", "version", "bnx_version", "backend", "features", "states", "variables",
         "class_var", "positive", "threshold", "fingerprint", "count", "size", "diagram",
         "checksum")  # in version 3, "arrays" stands for "diagram"
_OPTIONAL = ("classifier", "rule", "least_states", "classes")
_FRACTION = re.compile(r"(0|[1-9][0-9]*)/([1-9][0-9]*)")
_NODE_ID = re.compile(r"[1-9][0-9]*")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def _canonical(doc: dict) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def _checksum(doc: dict) -> str:
    """``"sha256:<hex>"`` of the canonical JSON of ``doc`` without its checksum."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()


def _path_arg(path) -> str:
    if not isinstance(path, (str, os.PathLike)):
        from ...errors import ArgumentError
        raise ArgumentError(f"a file path must be a str or path-like, got {path!r}")
    return os.fspath(path)
