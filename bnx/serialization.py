"""Saving a compiled ODD to one file and loading it back, on either backend.

An ODD file (conventionally ``*.bnx.json``) is a single UTF-8 JSON object:

=================  ==========================================================
key                value
=================  ==========================================================
``format``         ``"bnx-odd"``
``version``        the format version, ``2`` (:data:`FORMAT_VERSION`); files
                   of version ``1`` (no ``classifier``) still load
``bnx_version``    the version of bnx that wrote the file
``backend``        the backend the ODD was saved from (``"autoref"``/``"cudd"``)
``features``       the features, in the ODD's variable order
``states``         for each feature, its state names (JSON strings, numbers,
                   booleans or null: their Python types survive the trip)
``variables``      the BDD variables by level (``x{i}_{b}``, see
                   :mod:`bnx.encoding`)
``class_var``      the class variable
``positive``       the positive class state
``threshold``      the exact threshold as ``"p/q"`` (``null`` under the argmax rule)
``fingerprint``    :attr:`bnx.Classifier.fingerprint` of the source classifier
``count``          :meth:`bnx.ODD.count` as a decimal string (exact)
``size``           :attr:`bnx.ODD.size`
``diagram``        the decision diagram and its domain in ``dd``'s JSON dump
                   format, with ``roots = {"root": ..., "domain": ...}``
``rule``           (version 2, optional) ``"argmax"`` for the most-probable-class
                   rule; absent for the threshold rule
``classifier``     (version 2, optional) the classifier the ODD was compiled
                   from, exactly: its pgmpy network's CPDs and its decision
                   rule (see :mod:`bnx.network_json`)
``checksum``       ``"sha256:<hex>"`` over the canonical JSON of all other keys
=================  ==========================================================

The ``diagram`` object is what ``dd.autoref.BDD.dump(name, roots, filetype="json")``
writes: ``level_of_var`` maps variables to levels, ``roots`` names the root
references, and every other key ``"k"`` (an integer ``k >= 2``) is a node
``[level, low, high]`` standing for ``ite(var_at_level, high, low)``. A reference is
a node number, its negation for the complement, ``"T"``/``"F"`` (or ``1``/``-1``)
for the terminals; children come before their parents. bnx numbers the nodes
itself, in that post-order from ``2``, so the dump is the same whichever backend
wrote it (``dd`` itself writes CUDD's memory addresses).

Loading rebuilds the diagram in a fresh manager of the requested backend, with
the stored variables declared in the stored order and reordering off, and checks
the checksum, the consistency of every part, the model count, the size, that the
domain is the encoding's domain and that the root implies it. Any failure raises
:class:`~bnx.errors.ODDFileError` and nothing is returned.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
import re
import tempfile
from fractions import Fraction
from typing import Any

from .backends import new_manager, resolve_backend
from .diagram import count as _count
from .diagram import recursion_for
from .encoding import Encoding
from .errors import BnxError, ODDFileError

__all__ = ["save_odd", "load_odd", "FORMAT_VERSION"]

#: The name in the ``format`` field of every ODD file.
FORMAT_NAME = "bnx-odd"
#: The version of the file format that this bnx writes and reads.
FORMAT_VERSION = 2

_KEYS = ("format", "version", "bnx_version", "backend", "features", "states", "variables",
         "class_var", "positive", "threshold", "fingerprint", "count", "size", "diagram",
         "checksum")
_OPTIONAL = ("classifier", "rule")
_FRACTION = re.compile(r"(0|[1-9][0-9]*)/([1-9][0-9]*)")
_NODE_ID = re.compile(r"[1-9][0-9]*")
_HEX64 = re.compile(r"[0-9a-f]{64}")


# ---------------------------------------------------------------------- saving
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


def loads_odd(text: str, *, backend: str = "auto", where: str = "<string>") -> Any:
    """The ODD in ``text``, as :func:`load_odd` reads a file (used to unpickle ODDs)."""
    name = resolve_backend(backend)
    doc = _parse_document(text.encode("utf-8"), where)
    variables = doc.get("variables")
    with recursion_for(len(variables) if isinstance(variables, list) else 0):
        return _load_document(where, name, doc)


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
        from .network_json import classifier_document
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


def _canonical(doc: dict) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def _checksum(doc: dict) -> str:
    """``"sha256:<hex>"`` of the canonical JSON of ``doc`` without its checksum."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()


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


# ---------------------------------------------------------------------- loading
def load_odd(path: str | os.PathLike, *, backend: str = "auto") -> Any:
    """Read an ODD written by :func:`save_odd` into a new manager of ``backend``.

    The file may have been saved from either backend. The variables are declared
    in the stored order with reordering off. The returned ODD's ``meta`` holds
    ``class_var``, ``positive``, ``threshold`` (a :class:`~fractions.Fraction`) and
    ``fingerprint``. Its ``classifier`` is rebuilt from the file, exactly, on first
    use (pgmpy is imported only then); it is ``None`` for a version-1 file, which
    holds no classifier.

    Parameters
    ----------
    path : str or path-like
        A file written by :func:`save_odd`.
    backend : {"auto", "autoref", "cudd"}
        The backend to load into; ``"auto"`` prefers ``cudd``.

    Returns
    -------
    ODD

    Raises
    ------
    ODDFileError
        The file is missing, unreadable, empty, not JSON (for instance truncated),
        not a bnx ODD file, of an unsupported format version, fails its checksum
        (edited or corrupted), or its parts disagree (variables, dump, count, ...).
    BackendError
        ``backend`` is unknown or unavailable.

    Examples
    --------
    >>> import os, tempfile, bnx
    >>> from bnx.serialization import save_odd, load_odd
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> path = save_odd(odd, os.path.join(tempfile.mkdtemp(), "a.bnx.json"))
    >>> back = load_odd(path)
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-",
    ...      "EntranceExam": "-", "GPA": "+"}
    >>> back.decide(x) == odd.decide(x), back.features == odd.features
    (True, True)
    """
    name = resolve_backend(backend)
    path = _path_arg(path)
    doc = _read_document(path)
    variables = doc.get("variables") if isinstance(doc, dict) else None
    with recursion_for(len(variables) if isinstance(variables, list) else 0):
        return _load_document(path, name, doc)


def _load_document(path: str, name: str, doc: dict) -> Any:
    """The checks and the rebuild of :func:`load_odd`, on a parsed document."""
    from .odd import ODD


    def bad(problem: str) -> ODDFileError:
        return ODDFileError(f"{path!r} is not a valid ODD file: {problem}")

    features, states, variables = _check_encoding(doc, bad)
    enc = Encoding(features, states)
    if tuple(variables) != enc.variables:
        raise bad(f"its variables {variables} do not match its features and states, "
                  f"which need the variables {list(enc.variables)}")
    class_var = _scalar(doc["class_var"], "class_var", bad)
    positive = _scalar(doc["positive"], "positive", bad)
    rule = doc.get("rule", "threshold")
    if rule not in ("threshold", "argmax"):
        raise bad(f"its rule {rule!r} is not 'threshold' or 'argmax'")
    if rule == "argmax":
        if doc["threshold"] is not None:
            raise bad(f"its rule is 'argmax' but it has the threshold {doc['threshold']!r}")
        threshold = None
    else:
        threshold = _threshold(doc["threshold"], bad)
    fingerprint = doc["fingerprint"]
    if not isinstance(fingerprint, str) or not _HEX64.fullmatch(fingerprint):
        raise bad(f"its fingerprint {fingerprint!r} is not a hex SHA-256 digest")
    count = doc["count"]
    if not isinstance(count, str) or not re.fullmatch(r"0|[1-9][0-9]*", count):
        raise bad(f"its count {count!r} is not a decimal integer string")
    count = int(count)
    size = doc["size"]
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise bad(f"its size {size!r} is not a positive integer")
    if not isinstance(doc["backend"], str) or not isinstance(doc["bnx_version"], str):
        raise bad("its 'backend' and 'bnx_version' must be strings")

    bdd = new_manager(name, enc.variables)
    roots = _load_diagram(doc["diagram"], bdd, enc.variables, bad)
    root, domain = roots["root"], roots["domain"]
    if domain != enc.domain(bdd):
        raise bad("its domain is not the constraint of valid codes of its features")
    if (root & ~domain) != bdd.false:
        raise bad("its decision diagram is true on codes that name no state "
                  "(the root does not imply the domain)")
    got = _count(root, enc.nvars)
    if got != count:
        raise bad(f"its decision diagram has {got} positive instances, "
                  f"but the file records {count}")
    if root.dag_size != size:
        raise bad(f"its decision diagram has {root.dag_size} nodes, "
                  f"but the file records {size}")
    meta = {"class_var": class_var, "positive": positive, "threshold": threshold,
            "rule": rule, "fingerprint": fingerprint}
    stored = doc.get("classifier")
    if stored is not None:
        if not isinstance(stored, dict) or not isinstance(stored.get("features"), list):
            raise bad("its 'classifier' is not an object with a 'features' list")
        meta["display_order"] = tuple(_scalar(f, "feature", bad) for f in stored["features"])
    odd = ODD(None, enc, bdd, root, domain, backend=name, meta=meta)
    if stored is not None:
        odd._set_stored_classifier(stored, where=repr(path))
    return odd


def _read_document(path: str) -> dict:
    """The file's JSON object, after the format, version and checksum checks."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError as exc:
        raise ODDFileError(f"no such ODD file: {path!r}") from exc
    except IsADirectoryError as exc:
        raise ODDFileError(f"{path!r} is a directory, not an ODD file") from exc
    except OSError as exc:
        raise ODDFileError(f"cannot read the ODD file {path!r}: {exc.strerror or exc}") from exc
    return _parse_document(data, path)


def _parse_document(data: bytes, path: str) -> dict:
    """The JSON object in ``data`` after the format, version and checksum checks;
    messages name ``path``."""
    if not data.strip():
        raise ODDFileError(f"{path!r} is empty, not an ODD file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ODDFileError(f"{path!r} is not a bnx ODD file: it is not UTF-8 text "
                           f"({exc.reason} at byte {exc.start})") from exc
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates,
                         parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ODDFileError(
            f"{path!r} is not valid JSON, so it is truncated or not a bnx ODD file "
            f"({exc.msg} at line {exc.lineno}, column {exc.colno})") from exc
    except ValueError as exc:
        raise ODDFileError(f"{path!r} is not a valid ODD file: {exc}") from exc
    except RecursionError:
        raise ODDFileError(f"{path!r} is not a bnx ODD file: its JSON nests too deeply") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ODDFileError(f"{path!r} is not a bnx ODD file (it has no "
                           f"'format': {FORMAT_NAME!r} field)")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ODDFileError(f"{path!r} has an unsupported format version {version!r}")
    if version > FORMAT_VERSION:
        raise ODDFileError(
            f"{path!r} has format version {version}, written by a newer bnx "
            f"(this bnx reads version {FORMAT_VERSION}); upgrade bnx to load it")
    if version < 1:
        raise ODDFileError(f"{path!r} has an unsupported format version {version}")
    checksum = doc.get("checksum")
    if not isinstance(checksum, str) or not checksum.startswith("sha256:"):
        raise ODDFileError(f"{path!r} has no valid checksum field")
    if _checksum(doc) != checksum:
        raise ODDFileError(f"checksum mismatch in {path!r}: the file was edited or corrupted")
    missing = [k for k in _KEYS if k not in doc]
    extra = [k for k in doc if k not in _KEYS and not (version >= 2 and k in _OPTIONAL)]
    if missing or extra:
        parts = ([f"missing {', '.join(map(repr, missing))}"] if missing else []) + \
                ([f"unexpected {', '.join(map(repr, extra))}"] if extra else [])
        raise ODDFileError(f"{path!r} is not a valid ODD file: keys {'; '.join(parts)}")
    return doc


def _path_arg(path) -> str:
    if not isinstance(path, (str, os.PathLike)):
        from .errors import ArgumentError
        raise ArgumentError(f"a file path must be a str or path-like, got {path!r}")
    return os.fspath(path)


def _no_duplicates(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} occurs twice in one object")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid JSON number")


def _scalar(value: Any, what: str, bad) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise bad(f"{what} {value!r} is not a string, number, boolean or null")


def _check_encoding(doc: dict, bad) -> tuple:
    features, states, variables = doc["features"], doc["states"], doc["variables"]
    if not isinstance(features, list):
        raise bad("'features' is not a list")
    if not isinstance(states, list) or not all(isinstance(s, list) for s in states):
        raise bad("'states' is not a list of lists")
    if not isinstance(variables, list) or not all(isinstance(v, str) for v in variables):
        raise bad("'variables' is not a list of strings")
    if len(states) != len(features):
        raise bad(f"it lists {len(features)} features but states for {len(states)}")
    features = tuple(_scalar(f, "feature", bad) for f in features)
    if len(set(features)) != len(features):
        raise bad("a feature is listed twice")
    out = []
    for f, ss in zip(features, states):
        ss = tuple(_scalar(s, f"a state of {f!r}", bad) for s in ss)
        if not ss:
            raise bad(f"feature {f!r} has no states")
        if len(set(ss)) != len(ss):
            raise bad(f"feature {f!r} lists a state twice")
        out.append(ss)
    return features, tuple(out), variables


def _threshold(value: Any, bad) -> Fraction:
    m = _FRACTION.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        raise bad(f"its threshold {value!r} is not an exact fraction 'p/q'")
    t = Fraction(int(m.group(1)), int(m.group(2)))
    if t > 1:
        raise bad(f"its threshold {value!r} is not in [0, 1]")
    return t


def _load_diagram(dump: Any, bdd: Any, variables: tuple, bad) -> dict:
    """Rebuild the roots of ``dd``'s JSON dump in ``bdd`` (all in locals until done)."""
    if not isinstance(dump, dict):
        raise bad("its 'diagram' is not a dd JSON dump (not an object)")
    level_of_var = dump.get("level_of_var")
    roots = dump.get("roots")
    if not isinstance(level_of_var, dict):
        raise bad("its dd dump has no 'level_of_var' object")
    expected = {v: i for i, v in enumerate(variables)}
    unknown = [v for v in level_of_var if v not in expected]
    if unknown:
        raise bad(f"its dd dump refers to unknown variables {unknown}")
    if level_of_var != expected:
        raise bad(f"its dd dump orders the variables as {level_of_var}, "
                  f"not as the encoding's {expected}")
    if not isinstance(roots, dict) or set(roots) != {"root", "domain"}:
        raise bad("its dd dump's 'roots' must name exactly 'root' and 'domain'")
    nvars = len(variables)
    nodes: dict[int, Any] = {}
    levels: dict[int, int] = {}

    def resolve(ref: Any, where: str):
        if type(ref) not in (int, str):
            raise bad(f"its dd dump has an invalid node reference {ref!r} in {where}")
        if ref in ("T", 1):
            return bdd.true, nvars
        if ref in ("F", -1):
            return bdd.false, nvars
        if type(ref) is not int or abs(ref) < 2:
            raise bad(f"its dd dump has an invalid node reference {ref!r} in {where}")
        u = nodes.get(abs(ref))
        if u is None:
            raise bad(f"its dd dump refers to node {abs(ref)} in {where} "
                      "before defining it, or never defines it")
        return (~u if ref < 0 else u), levels[abs(ref)]

    for key, entry in dump.items():
        if key in ("level_of_var", "roots"):
            continue
        if not _NODE_ID.fullmatch(key) or int(key) < 2:
            raise bad(f"its dd dump has an invalid node number {key!r}")
        k = int(key)
        if (not isinstance(entry, list) or len(entry) != 3 or isinstance(entry[0], bool)
                or not isinstance(entry[0], int)):
            raise bad(f"its dd dump's node {k} is not [level, low, high]")
        lvl = entry[0]
        if not 0 <= lvl < nvars:
            raise bad(f"its dd dump's node {k} is at level {lvl}, "
                      f"but there are only {nvars} variables")
        low, llow = resolve(entry[1], f"node {k}")
        high, lhigh = resolve(entry[2], f"node {k}")
        if llow <= lvl or lhigh <= lvl:
            raise bad(f"its dd dump's node {k} has a child that does not lie below it")
        if low == high:
            raise bad(f"its dd dump's node {k} is redundant (equal children)")
        nodes[k] = bdd.ite(bdd.var(variables[lvl]), high, low)
        levels[k] = lvl
    out = {name: resolve(roots[name], f"root {name!r}")[0] for name in ("root", "domain")}
    reached = _reachable_ids(dump, [roots["root"], roots["domain"]])
    if reached != set(nodes):
        raise bad(f"its dd dump holds {len(set(nodes) - reached)} nodes that no root reaches")
    nodes.clear()
    return out


def _reachable_ids(dump: dict, refs: list) -> set:
    seen: set = set()
    stack = [abs(r) for r in refs if isinstance(r, int) and abs(r) >= 2]
    while stack:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        _, low, high = dump[str(k)]
        stack.extend(abs(c) for c in (low, high) if isinstance(c, int) and abs(c) >= 2)
    return seen
