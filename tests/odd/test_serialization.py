"""Saving and loading ODDs: round trips across backends and every refusal.

bnx writes files of format 3 (a JSON header, then the diagram's arrays in binary) and
still reads the all-JSON files of formats 1 and 2, written here by the old writer kept
in :mod:`tests._support.legacy_files` (and one real version-2 file in ``tests/data``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import pickle
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bnx
from bnx.diagram.encoding import Encoding
from bnx.odd.io import FORMAT_VERSION, load, load_odd, save_odd
from tests._support.builders import multivalued_classifier
from tests._support.deep import dd_count
from tests._support.legacy_files import (
    checksum,
    join,
    legacy_document,
    resign,
    resign_arrays,
    split,
    write_legacy,
)

BACKENDS = bnx.backends.available_backends()
PAIRS = list(itertools.product(BACKENDS, BACKENDS))
DATA = Path(__file__).resolve().parent.parent / "data"


CLASSIFIERS = {"admissions": bnx.examples.admissions, "multivalued": multivalued_classifier}


def instances(odd):
    for combo in itertools.product(*odd.encoding.states):
        yield dict(zip(odd.features, combo))


def assert_same(odd, back, backend):
    assert isinstance(back, bnx.ODD)
    assert back._classifier is None  # rebuilt on first use only
    assert back.backend == backend
    assert back.features == odd.features
    assert back.encoding.states == odd.encoding.states
    for a, b in zip(odd.encoding.states, back.encoding.states):
        assert [type(s) for s in a] == [type(s) for s in b]
    assert back.encoding.variables == odd.encoding.variables
    assert back.threshold == odd.threshold and isinstance(back.threshold, Fraction)
    for key in ("class_var", "positive", "fingerprint"):
        assert back.meta[key] == odd.meta[key]
    assert back.meta["fingerprint"] == odd.classifier.fingerprint
    assert back.count() == odd.count()
    assert back.size == odd.size
    for x in instances(odd):
        assert back.decide(x, within="all") == odd.decide(x, within="all"), x
        assert back.classifier.posterior_exact(x) == odd.classifier.posterior_exact(x), x
    assert back.classifier.fingerprint == odd.classifier.fingerprint
    # the dd form, made from the arrays on first use: in the stored variable order,
    # false on every code that names no state, the same function
    assert [back.bdd.var_at_level(i) for i in range(back.encoding.nvars)] == \
        list(back.encoding.variables)
    assert (back.root & ~back.domain) == back.bdd.false
    assert dd_count(back.root, back.encoding.nvars) == odd.count()
    assert back.root.dag_size == odd.size


def _compile(name="admissions", backend="autoref", **kw):
    return bnx.compile(CLASSIFIERS[name](**kw), backend=backend)


@pytest.fixture
def saved(tmp_path):
    """(path, odd) of the admissions ODD saved (format 3) from autoref."""
    odd = _compile()
    path = tmp_path / "admissions.bnx"
    save_odd(odd, path)
    return path, odd


@pytest.fixture
def legacy(tmp_path):
    """(path, odd) of the admissions ODD in a version-2 file (the old writer)."""
    odd = _compile()
    path = tmp_path / "admissions.bnx.json"
    write_legacy(odd, path)
    return path, odd


@pytest.fixture(params=["v3", "v2"])
def either(request, saved, legacy):
    """(path, odd) of the admissions ODD in a file of format 3, then of format 2."""
    return saved if request.param == "v3" else legacy


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
@pytest.mark.parametrize("source,target", PAIRS)
def test_round_trip(tmp_path, name, source, target):
    odd = _compile(name, source)
    path = tmp_path / f"{name}.bnx"
    assert save_odd(odd, path) == str(path)
    back = bnx.ODD.load(path, backend=target)
    assert_same(odd, back, target)
    assert np.array_equal(back.arrays.level, odd.arrays.level)
    assert np.array_equal(back.arrays.lo, odd.arrays.lo)
    assert np.array_equal(back.arrays.hi, odd.arrays.hi)
    assert back.arrays.root == odd.arrays.root


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
@pytest.mark.parametrize("source,target", PAIRS)
@pytest.mark.parametrize("version", [1, 2])
def test_old_formats_round_trip(tmp_path, name, source, target, version):
    """Files of formats 1 and 2 (the JSON dd dump) still load, on either backend."""
    odd = _compile(name, source)
    path = write_legacy(odd, tmp_path / f"{name}.bnx.json", version=version)
    back = bnx.ODD.load(path, backend=target)
    if version == 1:  # holds no classifier
        assert back.classifier is None and back.count() == odd.count()
        assert back.size == odd.size and back.meta["fingerprint"] == odd.meta["fingerprint"]
        assert all(back.decide(x, within="all") == odd.decide(x, within="all")
                   for x in instances(odd))
    else:
        assert_same(odd, back, target)
    assert dd_count(back.root, back.encoding.nvars) == odd.count()  # dd, arrays, dd again


@pytest.mark.parametrize("backend_", BACKENDS)
def test_pickle_round_trip(backend_):
    odd = _compile("multivalued", backend_)
    odd.classifier  # noqa: B018  (the pickle holds the classifier)
    back = pickle.loads(pickle.dumps(odd))
    assert_same(odd, back, backend_)


def test_pickle_of_a_loaded_odd(tmp_path, saved):
    path, odd = saved
    loaded = bnx.ODD.load(path, backend="autoref")
    back = pickle.loads(pickle.dumps(loaded))  # its classifier not yet rebuilt
    assert_same(odd, back, "autoref")


@pytest.mark.parametrize("threshold", [0, 0.25, 0.9, 1])
def test_round_trip_thresholds(tmp_path, threshold):
    odd = _compile("multivalued", threshold=threshold)
    save_odd(odd, tmp_path / "m.bnx")
    back = bnx.ODD.load(tmp_path / "m.bnx", backend="autoref")
    assert back.threshold == Fraction(threshold)
    assert_same(odd, back, "autoref")


def test_file_is_backend_neutral(tmp_path):
    files = []
    for b in BACKENDS:
        save_odd(_compile("multivalued", b), tmp_path / f"{b}.bnx")
        files.append(split((tmp_path / f"{b}.bnx").read_bytes()))
    assert all(f[2] == files[0][2] for f in files)  # the same arrays, byte for byte
    assert all(f[0]["arrays"] == files[0][0]["arrays"] for f in files)
    # and the old writer's dump was the same whichever backend wrote it
    dumps = [legacy_document(_compile("multivalued", b))["diagram"] for b in BACKENDS]
    assert all(d == dumps[0] for d in dumps)


def test_file_layout(saved):
    path, odd = saved
    data = path.read_bytes()
    doc, lines, payload = split(data)
    assert doc["format"] == "bnx-odd" and doc["version"] == FORMAT_VERSION == 3
    assert doc["bnx_version"] == bnx.__version__
    assert doc["threshold"] == "1/2" and doc["count"] == "6"
    assert doc["backend"] == "autoref"
    assert doc["fingerprint"] == odd.classifier.fingerprint
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", doc["checksum"])
    assert doc["checksum"] == checksum(doc)
    # the header: one key per line, ending in a line "}"
    assert lines[0] == "{" and lines[-1] == "}" and len(lines) == len(doc) + 2
    assert [json.loads("{" + line.rstrip(",") + "}") for line in lines[1:-1]] == \
        [{k: v} for k, v in doc.items()]
    # the arrays: levels, low children, high children as little-endian int32
    a = odd.arrays
    assert doc["arrays"] == {"nodes": a.size, "root": a.root, "dtype": "<i4",
                             "sha256": hashlib.sha256(payload).hexdigest()}
    assert len(payload) == 12 * a.size
    stored = np.frombuffer(payload, dtype="<i4").reshape(3, a.size)
    assert stored.tolist() == [a.level.tolist(), a.lo.tolist(), a.hi.tolist()]


def test_old_dump_readable_by_dd(tmp_path, legacy, monkeypatch):
    """A version-2 file's diagram is dd's JSON dump format: dd.autoref loads it as is."""
    import dd.autoref

    path, odd = legacy
    dump = json.loads(path.read_text())["diagram"]
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in dump.items()]
    (tmp_path / "dump.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    monkeypatch.chdir(tmp_path)  # dd's loader makes a scratch directory in the cwd
    bdd = dd.autoref.BDD()
    roots = bdd.load("dump.json")
    assert dd_count(roots["root"], len(bdd.vars)) == odd.count()
    assert roots["domain"] == bdd.true
    del roots


def test_a_real_version_2_file_loads(backend):
    """``multivalued-v2.bnx.json`` was written by bnx at commit 7a15dad (format 2)."""
    path = DATA / "multivalued-v2.bnx.json"
    assert json.loads(path.read_text())["version"] == 2
    odd = _compile("multivalued", backend)
    back = bnx.ODD.load(path, backend=backend)
    assert_same(odd, back, backend)
    # the old writer kept in tests/_support/legacy_files.py writes the same file
    kept = legacy_document(_compile("multivalued"))
    assert kept == json.loads(path.read_text())


def test_value_types_round_trip(tmp_path):
    odd = _compile()
    states = ((0, 1), ("a", "b"), (False, True), (None, 2.5))
    fake = bnx.ODD(None, Encoding(odd.features, states), backend="autoref",
                   arrays=odd.arrays, meta=odd.meta)
    save_odd(fake, tmp_path / "t.bnx")
    write_legacy(fake, tmp_path / "t.bnx.json")
    for name in ("t.bnx", "t.bnx.json"):
        back = bnx.ODD.load(tmp_path / name, backend="autoref")
        assert back.encoding.states == states
        assert [[type(s) for s in ss] for ss in back.encoding.states] == \
            [[type(s) for s in ss] for ss in states]


def test_default_backend_is_auto(either):
    path, odd = either
    assert bnx.ODD.load(path).backend == bnx.backends.resolve_backend("auto")
    assert load_odd(path)["backend"] == bnx.backends.resolve_backend("auto")


def test_load_odd_returns_the_parts(saved, legacy):
    """The serialization layer returns the keyword arguments of bnx.ODD, not an ODD."""
    parts = load_odd(saved[0], backend="autoref")
    assert sorted(parts) == ["arrays", "backend", "classifier_doc", "encoding", "meta",
                             "where"]
    old = load_odd(legacy[0], backend="autoref")
    assert sorted(old) == ["arrays", "backend", "bdd", "classifier_doc", "encoding", "meta",
                           "root", "where"]  # (the arrays read for the file's checks, kept)
    assert old["arrays"].size == bnx.ODD(None, **old).arrays.size


def test_save_replaces_atomically(tmp_path, saved):
    path, odd = saved
    before = path.read_bytes()
    save_odd(odd, path)
    assert path.read_bytes() == before
    bad = bnx.ODD(None, Encoding(odd.features, (("-", ("+",)),) + odd.encoding.states[1:]),
                  backend="autoref", arrays=odd.arrays, meta=odd.meta)
    with pytest.raises(bnx.BnxError, match="tuple"):
        save_odd(bad, path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [path.name]


# ---------------------------------------------------------------------- save refusals
@pytest.mark.parametrize("state,word", [(("+",), "tuple"), (float("nan"), "finite"),
                                        (float("inf"), "finite"), (["+"], "list")])
def test_save_refuses_values_json_cannot_round_trip(tmp_path, state, word):
    odd = _compile()
    states = (("-", state),) + odd.encoding.states[1:]
    bad = bnx.ODD(None, Encoding(odd.features, states), backend="autoref",
                  arrays=odd.arrays, meta=odd.meta)
    with pytest.raises(bnx.BnxError, match=word):
        save_odd(bad, tmp_path / "x.bnx")
    assert not os.listdir(tmp_path)


def test_save_refuses_missing_metadata(tmp_path):
    odd = _compile()
    bad = bnx.ODD(None, odd.encoding, backend="autoref", arrays=odd.arrays)
    with pytest.raises(bnx.BnxError, match="no 'class_var'"):
        save_odd(bad, tmp_path / "x.bnx")


def test_save_into_missing_directory(tmp_path):
    with pytest.raises(bnx.ODDFileError, match="cannot write"):
        save_odd(_compile(), tmp_path / "nope" / "x.bnx")


# ---------------------------------------------------------------------- load refusals
def test_error_class():
    assert issubclass(bnx.ODDFileError, bnx.BnxError)
    assert issubclass(bnx.ODDFileError, OSError)


def test_missing_file(tmp_path):
    with pytest.raises(bnx.ODDFileError, match="no such ODD file"):
        bnx.ODD.load(tmp_path / "absent.bnx")


def test_directory(tmp_path):
    with pytest.raises(bnx.ODDFileError, match="is a directory"):
        bnx.ODD.load(tmp_path)


def test_empty_file(tmp_path):
    (tmp_path / "e.bnx").write_bytes(b"")
    with pytest.raises(bnx.ODDFileError, match="is empty"):
        bnx.ODD.load(tmp_path / "e.bnx")


def test_truncated_file(either):
    """Cut in the header (format 3) or in the JSON (format 2): not valid JSON."""
    path, _ = either
    data = path.read_bytes()
    end = data.index(b'"count"')
    path.write_bytes(data[:end])
    with pytest.raises(bnx.ODDFileError, match="not valid JSON, so it is truncated"):
        bnx.ODD.load(path)


def test_binary_file(tmp_path):
    (tmp_path / "b.bnx").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(bnx.ODDFileError, match="not UTF-8"):
        bnx.ODD.load(tmp_path / "b.bnx")


def test_edited_dump_digit(legacy):
    path, _ = legacy
    text = path.read_text()
    start = text.index('"roots"')
    m = re.compile(r'"\d+": \[(\d)').search(text, start)
    d = m.group(1)
    edited = text[: m.start(1)] + ("1" if d == "0" else str(int(d) - 1)) + text[m.end(1):]
    json.loads(edited)  # still valid JSON
    path.write_text(edited)
    with pytest.raises(bnx.ODDFileError, match="checksum mismatch.*edited or corrupted"):
        bnx.ODD.load(path)


def test_edited_threshold(either):
    path, _ = either
    data = path.read_bytes()
    assert b'"threshold": "1/2"' in data
    path.write_bytes(data.replace(b'"threshold": "1/2"', b'"threshold": "1/3"'))
    with pytest.raises(bnx.ODDFileError, match="checksum mismatch.*edited or corrupted"):
        bnx.ODD.load(path)


def test_edited_arrays_header(saved):
    """The header's description of the arrays is under the checksum too."""
    path, odd = saved
    data = path.read_bytes()
    old = f'"root": {odd.arrays.root},'.encode()
    assert data.count(old) == 1
    path.write_bytes(data.replace(old, f'"root": {odd.arrays.root - 1},'.encode()))
    with pytest.raises(bnx.ODDFileError, match="checksum mismatch.*edited or corrupted"):
        bnx.ODD.load(path)


def test_removed_checksum(either):
    path, _ = either
    doc, _, payload = split(path.read_bytes())
    del doc["checksum"]
    path.write_bytes(join(doc, payload))
    with pytest.raises(bnx.ODDFileError, match="no valid checksum"):
        bnx.ODD.load(path)


def test_newer_version(either):
    path, _ = either
    resign(path, lambda d: d.update(version=FORMAT_VERSION + 1))
    with pytest.raises(bnx.ODDFileError, match="format version 4, written by a newer bnx"):
        bnx.ODD.load(path)


@pytest.mark.parametrize("version", [0, "1", None, True])
def test_unsupported_version(either, version):
    path, _ = either
    resign(path, lambda d: d.update(version=version))
    with pytest.raises(bnx.ODDFileError, match="unsupported format version"):
        bnx.ODD.load(path)


@pytest.mark.parametrize("content", ['{"hello": "world"}', "[1, 2, 3]", '"bnx-odd"',
                                     '{"format": "something-else", "version": 1}'])
def test_not_a_bnx_file(tmp_path, content):
    (tmp_path / "o.json").write_text(content)
    with pytest.raises(bnx.ODDFileError, match="is not a bnx ODD file"):
        bnx.ODD.load(tmp_path / "o.json")


def test_duplicate_key(either):
    path, _ = either
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"count": "6",', b'"count": "6",\n "count": "7",'))
    with pytest.raises(bnx.ODDFileError, match="'count' occurs twice"):
        bnx.ODD.load(path)


def test_version_2_file_with_bytes_after_its_json(legacy):
    path, _ = legacy
    path.write_bytes(path.read_bytes() + b"\x00\x01 more")
    with pytest.raises(bnx.ODDFileError, match="bytes follow its JSON document"):
        bnx.ODD.load(path)


def test_a_version_1_file_holds_no_classifier(tmp_path):
    odd = _compile()
    path = write_legacy(odd, tmp_path / "a.bnx.json", version=1,
                        edit=lambda d: d.update(classifier={}))
    with pytest.raises(bnx.ODDFileError, match="unexpected 'classifier'"):
        bnx.ODD.load(path)


def test_a_version_2_file_has_a_diagram_not_arrays(tmp_path, saved):
    path, _ = saved
    resign(path, lambda d: d.update(version=2))
    with pytest.raises(bnx.ODDFileError, match="missing 'diagram'; unexpected 'arrays'"):
        bnx.ODD.load(path)


def _set_dump_node(doc, key, entry):
    doc["diagram"][key] = entry


def _rename_var(doc):
    lv = doc["diagram"]["level_of_var"]
    lv["y9"] = lv.pop("x3_0")


def _break_root(doc):
    doc["diagram"]["roots"]["root"] = 99


def _negate_domain(doc):
    doc["diagram"]["roots"]["domain"] = -1


def _extra_node(doc):
    doc["diagram"]["99"] = [3, "T", "F"]


# (edit of a re-signed file, words the message must contain): any format
INCONSISTENT = [
    (lambda d: d.update(variables=["x0_0", "x1_0", "x2_0", "x9_0"]),
     "variables .* do not match its features and states"),
    (lambda d: d.update(states=d["states"][:3]), "4 features but states for 3"),
    (lambda d: d["states"][0].append("?"), "do not match its features and states"),
    (lambda d: d["states"][0].__setitem__(1, "-"), "lists a state twice"),
    (lambda d: d.update(features=["GPA", "GPA", "EntranceExam", "Admit"]), "listed twice"),
    (lambda d: d.update(count="7"), "has 6 positive instances, but the file records 7"),
    (lambda d: d.update(count="six"), "count 'six' is not a decimal integer"),
    (lambda d: d.update(size=9), "has 6 nodes, but the file records 9"),
    (lambda d: d.update(threshold="0.5"), "not an exact fraction 'p/q'"),
    (lambda d: d.update(threshold="3/2"), r"not in \[0, 1\]"),
    (lambda d: d.update(fingerprint="abc"), "not a hex SHA-256"),
    (lambda d: d.pop("size"), "keys missing 'size'"),
    (lambda d: d.update(extra=1), "keys unexpected 'extra'"),
]
# the dd dump of formats 1 and 2
INCONSISTENT_DUMP = [
    (_rename_var, r"dd dump refers to unknown variables \['y9'\]"),
    (lambda d: d["diagram"]["level_of_var"].update(x0_0=1, x1_0=0),
     "dd dump orders the variables"),
    (_break_root, "refers to node 99 in root 'root' before defining it"),
    (lambda d: _set_dump_node(d, "2", [7, "F", "T"]), "at level 7, but there are only 4"),
    (lambda d: _set_dump_node(d, "3", [3, "F", 2]), "does not lie below it"),
    (lambda d: _set_dump_node(d, "2", [3, "T", "T"]), "redundant"),
    (lambda d: _set_dump_node(d, "2", [3, "F", "X"]), "invalid node reference 'X'"),
    (lambda d: _set_dump_node(d, "x", [3, "F", "T"]), "invalid node number 'x'"),
    (_extra_node, "nodes that no root reaches"),
    (_negate_domain, "domain is not the constraint of valid codes"),
    (lambda d: d.update(diagram=[]), "'diagram' is not a dd JSON dump"),
]
# the arrays' description in the header of format 3
INCONSISTENT_ARRAYS = [
    (lambda d: d["arrays"].update(dtype="<i8"), "arrays have the type '<i8', not '<i4'"),
    (lambda d: d["arrays"].pop("sha256"), "'arrays' must be an object with 'nodes'"),
    (lambda d: d.update(arrays=[1, 2]), "'arrays' must be an object with 'nodes'"),
    (lambda d: d["arrays"].update(nodes=True), "'nodes' and 'root' must be integers"),
    (lambda d: d["arrays"].update(root="7"), "'nodes' and 'root' must be integers"),
    (lambda d: d["arrays"].update(sha256="0" * 64), "do not match their sha256 digest"),
]


@pytest.mark.parametrize("edit,words", INCONSISTENT, ids=[w[:30] for _, w in INCONSISTENT])
def test_inconsistent_content(either, edit, words):
    path, _ = either
    resign(path, edit)
    with pytest.raises(bnx.ODDFileError, match=words):
        bnx.ODD.load(path, backend="autoref")


@pytest.mark.parametrize("edit,words", INCONSISTENT_DUMP,
                         ids=[w[:30] for _, w in INCONSISTENT_DUMP])
@pytest.mark.parametrize("version", [1, 2])
def test_inconsistent_dump(tmp_path, edit, words, version):
    path = write_legacy(_compile(), tmp_path / "a.bnx.json", version=version, edit=edit)
    with pytest.raises(bnx.ODDFileError, match=words):
        bnx.ODD.load(path, backend="autoref")


@pytest.mark.parametrize("edit,words", INCONSISTENT_ARRAYS,
                         ids=[w[:30] for _, w in INCONSISTENT_ARRAYS])
def test_inconsistent_arrays_header(saved, edit, words):
    path, _ = saved
    resign(path, edit)
    with pytest.raises(bnx.ODDFileError, match=words):
        bnx.ODD.load(path, backend="autoref")


def test_root_outside_domain(tmp_path):
    """A version-2 file whose root is true on codes that name no state."""
    def widen(doc):  # make the root true everywhere, including on unused codes
        dump = doc["diagram"]
        keep = load._reachable_ids(dump, [dump["roots"]["domain"]])
        doc["diagram"] = {k: v for k, v in dump.items()
                          if k in ("level_of_var", "roots") or int(k) in keep}
        doc["diagram"]["roots"]["root"] = 1
    path = write_legacy(_compile("multivalued"), tmp_path / "m.bnx.json", edit=widen)
    with pytest.raises(bnx.ODDFileError, match="does not imply the domain"):
        bnx.ODD.load(path, backend="autoref")


def test_unknown_backend(either):
    path, _ = either
    with pytest.raises(bnx.BackendError):
        bnx.ODD.load(path, backend="nope")


# ---------------------------------------------------------------------- format 3's arrays
def test_truncated_payload(saved):
    path, odd = saved
    data = path.read_bytes()
    path.write_bytes(data[:-5])
    n = odd.arrays.size
    with pytest.raises(bnx.ODDFileError, match=f"arrays of {n} nodes take {12 * n} bytes "
                       f"after the header, but {12 * n - 5} follow: it is truncated"):
        bnx.ODD.load(path)
    path.write_bytes(data[:data.index(b"\n}\n") + 3])  # the header alone
    with pytest.raises(bnx.ODDFileError, match="but 0 follow: it is truncated"):
        bnx.ODD.load(path)


def test_extra_bytes(saved):
    path, _ = saved
    path.write_bytes(path.read_bytes() + b"\0\0\0\0")
    with pytest.raises(bnx.ODDFileError, match="4 extra bytes follow them"):
        bnx.ODD.load(path)


@pytest.mark.parametrize("where", [0, 0.5, -1])
def test_edited_payload_byte(saved, where):
    path, odd = saved
    data = bytearray(path.read_bytes())
    start = len(data) - 12 * odd.arrays.size  # the first byte of the arrays
    at = len(data) - 1 if where < 0 else start + int(where * 12 * odd.arrays.size)
    data[at] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(bnx.ODDFileError, match="do not match their sha256 digest.*edited "
                       "or corrupted"):
        bnx.ODD.load(path)


# Hand-made arrays for the admissions header (4 binary features: levels 0..3, the
# terminals at level 4), each broken in one way; the digest and checksum are made anew,
# so the structural check is what fails. Rows: levels, low children, high children, root.
T = 4  # the terminals' level
BROKEN = {
    "not reduced": ([T, T, 3, 3, 2], [0, 1, 0, 0, 2], [0, 1, 1, 1, 3], 4,
                    "nodes 2 and 3 test the same level with the same children "
                    r"\(the diagram is not reduced\)"),
    "not reduced, unsorted level": ([T, T, 3, 3, 3, 2, 1], [0, 1, 0, 1, 0, 2, 5],
                                    [0, 1, 1, 0, 1, 3, 4], 6,
                                    "nodes 2 and 4 test the same level with the same "
                                    "children"),
    "not grouped by level": ([T, T, 2, 3, 0], [0, 1, 0, 0, 2], [0, 1, 1, 1, 3], 4,
                             r"not grouped by level, deepest first \(node 3 at level 3 "
                             "follows node 2 at level 2\\)"),
    "child not below": ([T, T, 2, 2], [0, 1, 0, 0], [0, 1, 1, 2], 3,
                        "node 3 at level 2 has a child that does not lie below it"),
    "child not earlier": ([T, T, 3, 2], [0, 1, 0, 0], [0, 1, 3, 1], 3,
                          "node 2 has the children 0 and 3, which are not earlier nodes"),
    "negative child": ([T, T, 3], [0, 1, -1], [0, 1, 1], 2,
                       "node 2 has the children -1 and 1, which are not earlier nodes"),
    "unreachable": ([T, T, 3, 2], [0, 1, 0, 0], [0, 1, 1, 1], 3,
                    r"1 nodes that the root does not reach \(the first: node 2\)"),
    "redundant": ([T, T, 3, 2], [0, 1, 0, 2], [0, 1, 1, 2], 3,
                  r"node 3 is redundant \(both children are node 2\)"),
    "level too deep": ([T, T, 7], [0, 1, 0], [0, 1, 1], 2,
                       r"node 2 lies at level 7, outside 0..3"),
    "negative level": ([T, T, -1], [0, 1, 0], [0, 1, 1], 2,
                       r"node 2 lies at level -1, outside 0..3"),
    "terminal level": ([3, T, 3], [0, 1, 0], [0, 1, 1], 2,
                       "first two nodes are not the terminals false and true"),
    "terminals swapped": ([T, T, 3], [1, 0, 0], [1, 0, 1], 2,
                          "first two nodes are not the terminals false and true"),
    "root out of range": ([T, T, 3], [0, 1, 0], [0, 1, 1], 3,
                          "its root 3 is not one of its 3 nodes"),
    "negative root": ([T, T, 3], [0, 1, 0], [0, 1, 1], -1,
                      "its root -1 is not one of its 3 nodes"),
    "one node": ([T], [0], [0], 0, "with at least 2 nodes"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_arrays(saved, case):
    path, _ = saved
    level, lo, hi, root, words = BROKEN[case]
    resign_arrays(path, level, lo, hi, root)
    with pytest.raises(bnx.ODDFileError, match=words):
        bnx.ODD.load(path, backend="autoref")


def test_arrays_of_another_function(saved):
    """Well-formed arrays of a different function: the stored count catches it."""
    path, _ = saved
    resign_arrays(path, [T, T, 3], [0, 1, 0], [0, 1, 1], 2)  # "the last feature's second state"
    with pytest.raises(bnx.ODDFileError, match="has 8 positive instances, but the file "
                       "records 6"):
        bnx.ODD.load(path, backend="autoref")


@pytest.mark.parametrize("name", ["true", "a code"])
def test_arrays_true_on_codes_that_name_no_state(tmp_path, name):
    """A diagram true on a code of a 3-state feature's unused 4th code is refused."""
    odd = _compile("multivalued")
    path = tmp_path / "m.bnx"
    save_odd(odd, path)
    if name == "true":
        resign_arrays(path, [5, 5], [0, 1], [0, 1], 1)  # the constant true
        words = "true on codes that name no state \\(on 32 codes, of which only 18"
    else:  # true exactly where the first feature's code is 11 (no state)
        resign_arrays(path, [5, 5, 1, 0], [0, 1, 0, 0], [0, 1, 1, 2], 3)
        words = "true on codes that name no state \\(on 8 codes, of which only 0"
    with pytest.raises(bnx.ODDFileError, match=words):
        bnx.ODD.load(path, backend="autoref")


def test_nodes_of_a_level_in_any_order_load(tmp_path):
    """bnx writes each level's nodes sorted by their children, but the format does not
    require it: a level in another order loads, as the same function."""
    odd = _compile("multivalued")
    path = tmp_path / "m.bnx"
    save_odd(odd, path)
    a = odd.arrays
    lvl = next(L for L in range(a.nvars) if a.block(L).stop - a.block(L).start >= 2)
    s = a.block(lvl)
    i, j = s.start, s.stop - 1
    perm = np.arange(a.size)
    perm[i], perm[j] = j, i  # swap nodes i and j (no node of a level points into it)
    level, lo, hi = a.level[perm], perm[a.lo[perm]], perm[a.hi[perm]]
    assert (lo[s] * a.size + hi[s])[0] > (lo[s] * a.size + hi[s])[-1]  # out of order now
    resign_arrays(path, level, lo, hi, perm[a.root])
    back = bnx.ODD.load(path, backend="autoref")
    assert back.count() == odd.count() and back.size == odd.size
    assert all(back.decide(x, within="all") == odd.decide(x, within="all")
               for x in instances(odd))


def test_count_and_size_mismatch(saved):
    path, _ = saved
    resign(path, lambda d: d.update(count="5"))
    with pytest.raises(bnx.ODDFileError, match="has 6 positive instances, but the file "
                       "records 5"):
        bnx.ODD.load(path)
    resign(path, lambda d: d.update(count="6", size=7))
    with pytest.raises(bnx.ODDFileError, match="has 6 nodes, but the file records 7"):
        bnx.ODD.load(path)


def test_argmax_odds_save_load_and_pickle(backend, tmp_path):
    """An ODD of the most-probable-class rule keeps its rule (and no threshold) in the file."""
    from tests._support import oracle
    net = bnx.examples.asia_network()
    feats = ["asia", "smoke", "xray", "dysp"]
    clf = bnx.Classifier(net, "lung", "yes", features=feats, rule="argmax")
    odd = bnx.compile(clf, backend=backend)
    back = bnx.ODD.load(odd.save(tmp_path / "asia.bnx"), backend=backend)
    old = bnx.ODD.load(write_legacy(odd, tmp_path / "asia.bnx.json"), backend=backend)
    for b in (back, old):
        assert b.meta["rule"] == "argmax" and b.threshold is None
        assert b.classifier.rule == "argmax" and b.classifier.fingerprint == clf.fingerprint
    again = pickle.loads(pickle.dumps(odd))
    want = oracle.count_positive(net, "lung", "yes", 0.5, feats, rule="argmax")
    assert back.count() == old.count() == again.count() == odd.count() == want
    for x in oracle.all_instances(net, feats):
        assert (back.decide(x, within="all") == old.decide(x, within="all")
                == again.decide(x, within="all") == clf.decide(x, within="all"))
    doc, _, _ = split((tmp_path / "asia.bnx").read_bytes())
    assert doc["rule"] == "argmax" and doc["threshold"] is None


@pytest.mark.slow
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.integers(-1, 5), st.integers(-1, 8), st.integers(-1, 8)),
                     min_size=0, max_size=7),
       root=st.integers(-1, 9), terminals=st.booleans())
def test_any_arrays_load_or_are_refused(tmp_path_factory, rows, root, terminals):
    """Arbitrary small arrays under a valid digest and checksum: the loader either
    refuses them with an ODDFileError or returns an ODD with the stored count."""
    path = tmp_path_factory.mktemp("fuzz") / "a.bnx"
    save_odd(_compile(), path)
    head = [(T, 0, 0), (T, 1, 1)] if terminals else [(T, 1, 0), (3, 0, 1)]
    level, lo, hi = (list(c) for c in zip(*(head + rows)))
    resign_arrays(path, level, lo, hi, root)
    try:
        back = bnx.ODD.load(path, backend="autoref")
    except bnx.ODDFileError:
        return
    assert back.count() == 6 and back.size == 6


def test_old_pickles_still_unpickle():
    """A pickle made before format 3 holds the text of a version-2 file."""
    from tests._support.legacy_files import render_legacy

    class Old:
        """Pickled as bnx pickled an ODD then: the function a pickle of an ODD calls, on
        the text of its version-2 file."""

        def __init__(self, reduce):
            self.reduce = reduce

        def __reduce__(self):
            return self.reduce

    odd = _compile("multivalued")
    load_from_text, (now, backend) = odd.__reduce__()  # what a pickle of it calls
    assert backend == "autoref"
    data = pickle.dumps(Old((load_from_text, (render_legacy(legacy_document(odd)), backend))))
    back = pickle.loads(data)
    assert_same(odd, back, "autoref")
