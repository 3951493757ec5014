"""Reading an ODD file back, with every check (the format: :mod:`bnx.serialization`)."""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from typing import Any

from ..backends import new_manager, resolve_backend
from ..diagram import count as _count
from ..diagram import recursion_for
from ..encoding import Encoding
from ..errors import ODDFileError
from .document import (_FRACTION, _HEX64, _KEYS, _NODE_ID, _OPTIONAL, FORMAT_NAME,
                       FORMAT_VERSION, _checksum, _path_arg)

__all__ = ["load_odd", "loads_odd"]


def loads_odd(text: str, *, backend: str = "auto", where: str = "<string>") -> Any:
    """The ODD in ``text``, as :func:`load_odd` reads a file (used to unpickle ODDs)."""
    name = resolve_backend(backend)
    doc = _parse_document(text.encode("utf-8"), where)
    variables = doc.get("variables")
    with recursion_for(len(variables) if isinstance(variables, list) else 0):
        return _load_document(where, name, doc)


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
    from ..odd import ODD


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
