"""Reading an ODD file back, with every check (the format: :mod:`bnx.odd.io`)."""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from typing import Any

from ..._util.files import read_regular
from ...diagram import _setops as sets
from ...diagram._arrays import count as count_models
from ...diagram._arrays import dd_size
from ...diagram._dd import from_dd
from ...diagram._feature_view import count_instances
from ...diagram.backends import make_node, new_manager, resolve_backend
from ...diagram.encoding import Encoding
from ...errors import ODDFileError
from .._classifier_json import stored_on_states
from .binary import read_arrays, split_file
from .check import cross_check
from .document import (
    _FRACTION,
    _HEX64,
    _KEYS,
    _NODE_ID,
    _OPTIONAL,
    FORMAT_NAME,
    FORMAT_VERSION,
    _checksum,
    _path_arg,
)

__all__ = ["load_odd", "loads_odd"]


def loads_odd(data: bytes | str, *, backend: str = "auto", where: str = "<string>") -> dict:
    """Read the parts of the ODD in ``data``, as :func:`load_odd` reads a file.

    Used to unpickle ODDs.
    """
    name = resolve_backend(backend)
    if isinstance(data, str):
        data = data.encode("utf-8")
    doc, payload = _parse_document(data, where)
    return _load_document(where, name, doc, payload)


def load_odd(path: str | os.PathLike, *, backend: str = "auto", resolve: bool = True) -> dict:
    """Read and check a file written by :func:`save_odd`.

    Returns the parts from which :meth:`bnx.ODD.load` makes the ODD (keyword arguments of
    :class:`bnx.ODD`).

    The file may have been saved from either backend. A format-3 file's arrays are
    read as they are (the ``dd`` nodes are made when first needed); a file of format
    1 or 2 is rebuilt in a new manager of ``backend``, its variables declared in the
    stored order with reordering off. The ``meta`` part holds ``class_var``,
    ``positive``, ``threshold`` (a :class:`~fractions.Fraction`) and ``fingerprint``;
    the classifier is rebuilt from the file, exactly, on first use (pgmpy is imported
    only then); a version-1 file holds no classifier.

    Parameters
    ----------
    path : str or path-like
        A file written by :func:`save_odd`.
    backend : {"auto", "autoref", "cudd"}
        The backend to load into; ``"auto"`` prefers ``cudd``.
    resolve : bool
        With ``False``, a format-3 file loaded with ``backend="auto"`` keeps ``"auto"``
        in its parts, so that ``dd`` is not imported (:class:`bnx.ODD` picks the
        backend when it first needs ``dd``).

    Returns
    -------
    dict

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
    >>> from bnx.odd.io import save_odd, load_odd
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> path = save_odd(odd, os.path.join(tempfile.mkdtemp(), "a.bnx"))
    >>> sorted(load_odd(path))
    ['arrays', 'backend', 'classifier_doc', 'encoding', 'meta', 'where']
    >>> back = bnx.ODD.load(path)
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-",
    ...      "EntranceExam": "-", "GPA": "+"}
    >>> back.decide(x) == odd.decide(x), back.features == odd.features
    (True, True)
    """
    name = backend if backend == "auto" and not resolve else resolve_backend(backend)
    path = _path_arg(path)
    doc, payload = _read_document(path)
    return _load_document(path, name, doc, payload)


def _load_document(path: str, name: str, doc: dict, payload: memoryview) -> dict:
    """Check a parsed document and read its parts, for :func:`load_odd`."""

    def bad(problem: str) -> ODDFileError:
        return ODDFileError(f"{path!r} is not a valid ODD file: {problem}")

    if "classes" in doc:
        return _load_multiclass(path, name, doc, payload, bad)
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
    del size
    if not isinstance(doc["backend"], str) or not isinstance(doc["bnx_version"], str):
        raise bad("its 'backend' and 'bnx_version' must be strings")

    meta = {"class_var": class_var, "positive": positive, "threshold": threshold,
            "rule": rule, "fingerprint": fingerprint}
    stored = doc.get("classifier")
    if stored is not None:
        if not isinstance(stored, dict) or not isinstance(stored.get("features"), list):
            raise bad("its 'classifier' is not an object with a 'features' list")
        meta["display_order"] = tuple(_scalar(f, "feature", bad) for f in stored["features"])
        try:
            meta["on_states"] = stored_on_states(stored)
            meta["ordinal"] = stored_on_states(stored, "ordinal")
        except (TypeError, ValueError):
            raise bad("its classifier's 'on_states' or 'ordinal' is not a list of "
                      "[feature, [states]] pairs") from None
    if "least_states" in doc:
        meta["least_states"] = _least_states(doc["least_states"], enc, bad)
    parts = {"encoding": enc, "backend": name, "meta": meta, "classifier_doc": stored,
             "where": repr(path)}
    if doc["version"] >= 3:
        arrays = parts["arrays"] = read_arrays(doc["arrays"], payload, enc.nvars, bad)
    else:  # the dd dump rebuilt in a manager, then read into arrays (checked as format 3)
        name = parts["backend"] = resolve_backend(name)
        bdd = new_manager(name, enc.variables)
        roots = _load_diagram(doc["diagram"], bdd, enc.variables, bad)
        root, domain = roots["root"], roots["domain"]
        if domain != enc.domain(bdd):
            raise bad("its domain is not the constraint of valid codes of its features")
        arrays = from_dd([root], enc.nvars)[0]
        parts.update(bdd=bdd, root=root, arrays=arrays)  # (the arrays read for the checks)
    got = count_models(arrays)
    # codes that name no state exist only where a feature's states do not fill its bits
    dense = all(len(ss) == 1 << len(bs) for ss, bs in zip(enc.states, enc.bits))
    valid = got if dense else count_instances(arrays, enc)
    if got != valid:
        why = (f"on {got} codes, of which only {valid} are instances" if doc["version"] >= 3
               else "the root does not imply the domain")
        raise bad(f"its decision diagram is true on codes that name no state ({why})")
    size = dd_size(arrays)
    if got != count:
        raise bad(f"its decision diagram has {got} positive instances, "
                  f"but the file records {count}")
    if size != doc["size"]:
        raise bad(f"its decision diagram has {size} nodes, "
                  f"but the file records {doc['size']}")
    if stored is not None:  # the diagram against its own classifier (edits, not corruption)
        cross_check(stored, enc, meta, arrays, bad, repr(path))
    return parts


def _load_multiclass(path: str, name: str, doc: dict, payload: memoryview, bad) -> dict:
    """Read the parts of a multi-class ODD.

    Each class formula is checked as a file of its own (its header made from the shared keys
    and its class's entry), and the counts add up to every instance.
    """
    entries, headers, counts = doc["classes"], doc["arrays"], doc["count"]
    if doc.get("version", 0) < 3 or not all(isinstance(v, list) for v in (entries, headers,
                                                                            counts)):
        raise bad("its 'classes', 'arrays' and 'count' must be lists (format version 3)")
    if not len(entries) == len(headers) == len(counts) or len(entries) < 2:
        raise bad(f"it has {len(entries)} classes, {len(headers)} arrays and {len(counts)} "
                  f"counts: expected as many of each, at least two")
    if doc["positive"] is not None or doc.get("rule") != "argmax":
        raise bad("a multi-class file has no positive state and the rule 'argmax'")
    stored = doc.get("classifier")
    offset, formulas = 0, []
    for entry, header, count in zip(entries, headers, counts):
        if not isinstance(entry, dict) or not {"state", "fingerprint", "size"} <= set(entry) \
                <= {"state", "fingerprint", "size", "least_states"}:
            raise bad("each of its 'classes' must be an object with 'state', 'fingerprint' "
                      "and 'size' (and optionally 'least_states')")
        nodes = header.get("nodes") if isinstance(header, dict) else None
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 2:
            raise bad("each of its 'arrays' must say how many nodes it has")
        sub = {k: v for k, v in doc.items() if k not in ("classes", "least_states")}
        sub.update(positive=entry["state"], fingerprint=entry["fingerprint"], count=count,
                   size=entry["size"], arrays=header)
        if "least_states" in entry:
            sub["least_states"] = entry["least_states"]
        if stored is not None:
            if not isinstance(stored, dict):
                raise bad("its 'classifier' is not an object")
            sub["classifier"] = {**stored, "positive": entry["state"], "threshold": None,
                                 "rule": "argmax"}
        part = payload[offset:offset + 12 * nodes]
        offset += 12 * nodes
        formulas.append(_load_document(path, name, sub, part))
    if offset != len(payload):
        raise bad(f"{len(payload) - offset} bytes follow its class formulas' arrays")
    enc = formulas[0]["encoding"]
    total = 1
    for states in enc.states:
        total *= len(states)
    if sum(int(c) for c in counts) != total:
        raise bad(f"its class formulas decide {sum(int(c) for c in counts)} instances, not "
                  f"the {total} instances of its features")
    states = [f["meta"]["positive"] for f in formulas]
    if len(set(map(repr, states))) != len(states):
        raise bad("a class state is listed twice")
    fingerprint = doc["fingerprint"]
    if not isinstance(fingerprint, str) or not _HEX64.fullmatch(fingerprint):
        raise bad(f"its fingerprint {fingerprint!r} is not a hex SHA-256 digest")
    meta = {k: formulas[0]["meta"][k] for k in ("class_var", "display_order", "on_states",
                                                "ordinal") if k in formulas[0]["meta"]}
    meta.update(positive=None, threshold=None, rule="argmax", fingerprint=fingerprint,
                classes=tuple(states), size=doc["size"])
    return {"encoding": enc, "backend": formulas[0]["backend"], "meta": meta,
            "classifier_doc": stored, "where": repr(path), "formulas": formulas}


def _read_document(path: str) -> tuple[dict, memoryview]:
    """Read the file's JSON object, after the format, version and checksum checks."""
    data = read_regular(path, None, lambda problem: _file_error(path, problem))
    return _parse_document(data, path)


def _file_error(path: str, problem: str) -> ODDFileError:
    """Word a refusal of :func:`bnx._util.files.read_regular` as an ODD file's."""
    problem = problem[len(path) + 2:]
    if problem == "no such file":
        return ODDFileError(f"no such ODD file: {path!r}")
    if problem.startswith("is a directory"):
        return ODDFileError(f"{path!r} is a directory, not an ODD file")
    return ODDFileError(f"cannot read the ODD file {path!r}: {problem}")


def _parse_document(data: bytes, path: str) -> tuple[dict, memoryview]:
    """Parse the JSON header in ``data`` and find the bytes that follow it.

    After the format, version and checksum checks; messages name ``path``.
    """
    if not data.strip():
        raise ODDFileError(f"{path!r} is empty, not an ODD file")
    data, payload = split_file(data)
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
    keys = _KEYS if version < 3 else tuple("arrays" if k == "diagram" else k for k in _KEYS)
    missing = [k for k in keys if k not in doc]
    extra = [k for k in doc if k not in keys and not (version >= 2 and k in _OPTIONAL)]
    if missing or extra:
        parts = ([f"missing {', '.join(map(repr, missing))}"] if missing else []) + \
                ([f"unexpected {', '.join(map(repr, extra))}"] if extra else [])
        raise ODDFileError(f"{path!r} is not a valid ODD file: keys {'; '.join(parts)}")
    if version < 3 and bytes(payload).strip():
        raise ODDFileError(f"{path!r} is not a valid ODD file: bytes follow its JSON "
                           f"document")
    return doc, payload


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
            return sets.true(bdd), nvars
        if ref in ("F", -1):
            return sets.false(bdd), nvars
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
        nodes[k] = make_node(bdd, variables[lvl], low, high)
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


def _least_states(value, enc: Encoding, bad) -> tuple | None:
    """Read the header's ``least_states``.

    ``null`` or two lists of state indices, one per feature (:mod:`bnx.classifier._unate`).
    """
    if value is None:
        return None
    n = len(enc.features)
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, list) and len(v) == n for v in value)
          and all(type(j) is int and 0 <= j < len(ss)
                  for v in value for j, ss in zip(v, enc.states)))
    if not ok:
        raise bad(f"its least_states {value!r} is not null or two lists of {n} state indices")
    return tuple(tuple(v) for v in value)
