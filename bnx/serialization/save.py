"""Writing an ODD file (the format: :mod:`bnx.serialization`)."""

from __future__ import annotations

import json
import math
import numbers
import os
import tempfile
from fractions import Fraction
from typing import Any

from ..diagram import count as _count
from ..errors import BnxError, ODDFileError
from .document import FORMAT_NAME, FORMAT_VERSION, _checksum, _path_arg

__all__ = ["save_odd", "dumps_odd"]


def save_odd(odd: Any, path: str | os.PathLike) -> str:
    """Write ``odd`` to the single file ``path`` (JSON; ``.bnx.json`` by convention).

    The file holds the encoding, the decision metadata, the diagram and its domain
    in ``dd``'s JSON dump format, and a SHA-256 checksum; see
    :mod:`bnx.serialization` for the layout. It is written to a temporary file
    beside ``path`` and moved into place, so ``path`` is never left half-written.

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
    >>> from bnx.serialization import save_odd, load_odd
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> path = os.path.join(tempfile.mkdtemp(), "admissions.bnx.json")
    >>> _ = save_odd(odd, path)
    >>> back = load_odd(path, backend="autoref")
    >>> back.count(), back.size, back.threshold, back.classifier.fingerprint == odd.classifier.fingerprint
    (6, 6, Fraction(1, 2), True)
    """
    path = _path_arg(path)
    _write_atomically(path, dumps_odd(odd))
    return path


def dumps_odd(odd: Any) -> str:
    """The text of the file that :func:`save_odd` writes (used to pickle ODDs)."""
    return _render(_document(odd))


def _document(odd: Any) -> dict:
    """Everything the file stores, checksum included, as JSON-ready values."""
    import bnx

    enc = odd.encoding
    meta = odd.meta or {}
    rule = meta.get("rule", "threshold")
    for key in ("class_var", "positive", "fingerprint") + (("threshold",) if rule == "threshold" else ()):
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
        "bnx_version": str(bnx.__version__),
        "backend": str(odd.backend),
        "features": features,
        "states": states,
        "variables": list(enc.variables),
        "class_var": _json_scalar(meta["class_var"], "class variable"),
        "positive": _json_scalar(meta["positive"], "positive state"),
        "threshold": (f"{threshold.numerator}/{threshold.denominator}" if rule == "threshold"
                      else None),
        "fingerprint": fingerprint,
        "count": str(_count(odd.root, enc.nvars)),
        "size": int(odd.root.dag_size),
        "diagram": _dump_diagram(odd.bdd, enc.variables, {"root": odd.root,
                                                           "domain": odd.domain}),
    }
    stored = odd._classifier_doc
    if stored is None and odd._classifier is not None:
        from ..network_json import classifier_document
        stored = classifier_document(odd._classifier, _json_scalar)
    if stored is not None:
        doc["classifier"] = stored
    if rule != "threshold":
        doc["rule"] = rule
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


def _dump_diagram(bdd: Any, variables: tuple, roots: dict) -> dict:
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


def _render(doc: dict) -> str:
    """One top-level key per line, one diagram node per line (diff-friendly)."""
    def dumps(v):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)

    lines = []
    for key, value in doc.items():
        if key == "diagram":
            inner = [f"  {dumps(k)}: {dumps(v)}" for k, v in value.items()]
            lines.append(f" {dumps(key)}: {{\n" + ",\n".join(inner) + "\n }")
        else:
            lines.append(f" {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                                   suffix=".tmp")
    except OSError as exc:
        raise ODDFileError(f"cannot write the ODD file {path!r}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
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


def _file_mode(path: str) -> int:
    """The mode of the file being replaced, else what ``open`` would create."""
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
