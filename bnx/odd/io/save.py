"""Writing an ODD file (the format: :mod:`bnx.odd.io`)."""

from __future__ import annotations

import json
import math
import numbers
import os
import re
import tempfile
import time
from fractions import Fraction
from typing import Any

from ..._version import __version__
from ...diagram._arrays import count
from ...errors import BnxError, ODDFileError
from .._classifier_json import classifier_document
from .binary import arrays_bytes, arrays_header
from .document import FORMAT_NAME, FORMAT_VERSION, _checksum, _path_arg

__all__ = ["save_odd", "dumps_odd"]


def save_odd(odd: Any, path: str | os.PathLike) -> str:
    """Write ``odd`` to the single file ``path`` (``.bnx`` by convention); :meth:`bnx.ODD.save`.

    The file holds a readable JSON header (the encoding, the decision metadata, the
    classifier, a SHA-256 checksum) and the diagram's arrays in binary; see
    :mod:`bnx.odd.io` for the layout. It is written to a temporary file beside
    ``path`` and moved into place, so ``path`` is never left half-written.

    Parameters
    ----------
    odd : ODD
        A compiled (or loaded) ODD on any backend.
    path : str or path-like
        The file to write; an existing file is replaced.

    Returns
    -------
    str
        ``path``.

    Raises
    ------
    BnxError
        A feature, state, class variable or positive state is not a JSON value
        that reads back as itself (a tuple, a NaN, ...), or the ODD lacks its
        metadata.
    ODDFileError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile, bnx
    >>> from bnx.odd.io import save_odd
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> path = os.path.join(tempfile.mkdtemp(), "admissions.bnx")
    >>> _ = save_odd(odd, path)
    >>> back = bnx.ODD.load(path, backend="autoref")
    >>> same = back.classifier.fingerprint == odd.classifier.fingerprint
    >>> back.count(), back.size, back.threshold, same
    (6, 6, Fraction(1, 2), True)
    """
    path = _path_arg(path)
    _write_atomically(path, dumps_odd(odd))
    return path


def dumps_odd(odd: Any) -> bytes:
    """Write the bytes of the file that :func:`save_odd` writes (used to pickle ODDs)."""
    if getattr(odd, "multiclass", False):
        return _dumps_multiclass(odd)
    payload = arrays_bytes(odd.arrays)
    return _render(_document(odd, payload)).encode("utf-8") + payload


def _dumps_multiclass(odd: Any) -> bytes:
    """Write a multi-class ODD: one header, then each class formula's arrays in class order.

    The header holds per class its state, its formula's fingerprint, count and size (the
    lists ``count`` and ``arrays``, the objects of ``classes``), and the classifier once.
    """
    payloads = [arrays_bytes(f.arrays) for f in odd.formulas]
    docs = [_document(f, p, with_classifier=False) for f, p in zip(odd.formulas, payloads)]
    doc = {k: docs[0][k] for k in ("format", "version", "bnx_version", "backend", "features",
                                   "states", "variables", "class_var")}
    fingerprint = (odd.meta or {}).get("fingerprint")
    if not isinstance(fingerprint, str):
        raise BnxError("cannot save this ODD: its metadata has no fingerprint")
    classes = []
    for state, d in zip(odd.classes, docs):
        entry = {"state": _json_scalar(state, "class state"), "fingerprint": d["fingerprint"],
                 "size": d["size"]}
        if "least_states" in d:
            entry["least_states"] = d["least_states"]
        classes.append(entry)
    doc.update({"positive": None, "threshold": None, "fingerprint": fingerprint,
                "count": [d["count"] for d in docs], "size": int(odd.size),
                "arrays": [d["arrays"] for d in docs], "rule": "argmax", "classes": classes})
    stored = odd._classifier_doc
    if stored is None and odd._classifier is not None:
        stored = classifier_document(odd._classifier, _json_scalar)
    if stored is not None:
        doc["classifier"] = stored
    doc["checksum"] = _checksum(doc)
    return _render(doc).encode("utf-8") + b"".join(payloads)


def _document(odd: Any, payload: bytes, with_classifier: bool = True) -> dict:
    """Write the file's header, checksum included, as JSON-ready values."""
    enc = odd.encoding
    meta = odd.meta or {}
    rule = meta.get("rule", "threshold")
    required = ("class_var", "positive", "fingerprint")
    for key in required + (("threshold",) if rule == "threshold" else ()):
        if meta.get(key) is None:
            raise BnxError(f"cannot save this ODD: its metadata has no {key!r}")
    features = [_json_scalar(f, "feature") for f in enc.features]
    states = [[_json_scalar(s, f"state of feature {f!r}") for s in ss]
              for f, ss in zip(enc.features, enc.states)]
    threshold = meta.get("threshold")
    if rule not in ("threshold", "argmax"):
        raise BnxError(f"cannot save this ODD: its rule {rule!r} is not 'threshold' or 'argmax'")
    if rule == "threshold":
        if isinstance(threshold, bool) or not isinstance(threshold, (numbers.Rational, float)):
            raise BnxError(f"cannot save this ODD: its threshold {threshold!r} is not a number")
        threshold = Fraction(threshold)
    fingerprint = meta["fingerprint"]
    if not isinstance(fingerprint, str):
        raise BnxError(f"cannot save this ODD: its fingerprint {fingerprint!r} is not a string")
    doc = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "bnx_version": __version__,
        "backend": str(odd.backend),
        "features": features,
        "states": states,
        "variables": list(enc.variables),
        "class_var": _json_scalar(meta["class_var"], "class variable"),
        "positive": _json_scalar(meta["positive"], "positive state"),
        "threshold": (f"{threshold.numerator}/{threshold.denominator}" if rule == "threshold"
                      else None),
        "fingerprint": fingerprint,
        "count": str(count(odd.arrays)),
        "size": int(odd.size),
        "arrays": arrays_header(odd.arrays, payload),
    }
    stored = odd._classifier_doc if with_classifier else None
    if stored is None and odd._classifier is not None and with_classifier:
        stored = classifier_document(odd._classifier, _json_scalar)
    if stored is not None:
        doc["classifier"] = stored
    if rule != "threshold":
        doc["rule"] = rule
    if "least_states" in meta:  # null too: the loaded ODD need not rebuild its classifier
        least = meta["least_states"]
        doc["least_states"] = (None if least is None
                               else [[int(j) for j in states] for states in least])
    doc["checksum"] = _checksum(doc)
    return doc


def _json_scalar(value: Any, what: str) -> Any:
    """``value`` as a JSON scalar that loads back equal and of the same type."""
    if value is None or type(value) in (str, bool, int):
        return value
    if isinstance(value, str):  # a str subclass such as numpy.str_
        return str(value)
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float) or (isinstance(value, numbers.Real)
                                    and type(value).__module__ == "numpy"):
        f = float(value)
        if math.isfinite(f):
            return f
        raise BnxError(f"cannot save this ODD: the {what} {value!r} is not a finite number, "
                       "which JSON cannot store")
    raise BnxError(f"cannot save this ODD: the {what} {value!r} is a "
                   f"{type(value).__name__}; only strings, integers, finite floats, "
                   "booleans and None survive a JSON round trip")


def _render(doc: dict) -> str:
    """One top-level key per line; the document ends with a line ``}``."""
    def dumps(v):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)

    lines = [f" {dumps(key)}: {dumps(value)}" for key, value in doc.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _write_atomically(path: str, data: bytes) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    prefix = "." + os.path.basename(path) + "."
    _remove_stale(directory, prefix)
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{prefix}{os.getpid()}.",
                                   suffix=".tmp")
    except OSError as exc:
        raise ODDFileError(f"cannot write the ODD file {path!r}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _file_mode(path))
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise ODDFileError(
                f"cannot write the ODD file {path!r}: {exc.strerror or exc}") from exc
        raise


#: A temporary file of a save: ``.<name>.<pid>.<random>.tmp`` (``.<name>.<random>.tmp``
#: before bnx named the writer's process).
_TEMP = re.compile(r"(?:(\d+)\.)?[A-Za-z0-9_]{8}\.tmp")

#: Age in seconds past which a temporary file that names no process is stale.
_STALE_AGE = 3600


def _remove_stale(directory: str, prefix: str) -> None:
    """Remove the temporary files of saves of this target whose writer is gone.

    A save killed mid-write (SIGKILL, power loss) leaves its hidden temporary file beside
    the target; the next save of the same target removes it when the process it names is
    no longer running (or, named by no process, when it is an hour old). Another target's
    temporary files, and those of running saves, are left alone.
    """
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        m = _TEMP.fullmatch(name[len(prefix):])
        if m is None:
            continue
        tmp = os.path.join(directory, name)
        try:
            if m.group(1) is not None:
                if int(m.group(1)) == os.getpid() or _running(int(m.group(1))):
                    continue
            elif time.time() - os.lstat(tmp).st_mtime < _STALE_AGE:
                continue
            os.unlink(tmp)
        except OSError:  # gone already, or not ours to remove
            pass


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (signal 0 probes without sending)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process (or no such number: left alone)
    return True


def _file_mode(path: str) -> int:
    """Return the mode of the file being replaced, else what ``open`` would create."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        pass
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o644
