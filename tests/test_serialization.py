"""Saving and loading ODDs: round trips across backends and every refusal."""

from __future__ import annotations

import itertools
import json
import os
import re
from fractions import Fraction

import pytest

import bnx
from bnx.serialization import document, load, save
from bnx.diagram import count
from bnx.encoding import Encoding
from bnx.serialization import FORMAT_VERSION, load_odd, save_odd

BACKENDS = bnx.backends.available_backends()
PAIRS = list(itertools.product(BACKENDS, BACKENDS))


# ---------------------------------------------------------------------- fixtures
def multivalued_classifier(threshold=0.4):
    """A naive Bayes with 3-state features, int state names and a binary feature."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    cs = ["no", "yes"]
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B"), ("C", "D")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.6], [0.4]], state_names={"C": cs}),
        TabularCPD("A", 3, [[0.5, 0.1], [0.3, 0.3], [0.2, 0.6]], evidence=["C"],
                   evidence_card=[2], state_names={"A": ["lo", "mid", "hi"], "C": cs}),
        TabularCPD("B", 3, [[0.7, 0.2], [0.2, 0.3], [0.1, 0.5]], evidence=["C"],
                   evidence_card=[2], state_names={"B": [0, 1, 2], "C": cs}),
        TabularCPD("D", 2, [[0.8, 0.3], [0.2, 0.7]], evidence=["C"], evidence_card=[2],
                   state_names={"D": [0, 1], "C": cs}),
    )
    net.check_model()
    return bnx.Classifier(net, "C", "yes", threshold=threshold)


CLASSIFIERS = {"admissions": bnx.examples.admissions, "multivalued": multivalued_classifier}


def instances(odd):
    for combo in itertools.product(*odd.encoding.states):
        yield dict(zip(odd.features, combo))


def assert_same(odd, back, backend):
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
    assert back.domain == back.encoding.domain(back.bdd)
    assert [back.bdd.var_at_level(i) for i in range(back.encoding.nvars)] == \
        list(back.encoding.variables)
    for x in instances(odd):
        assert back.decide(x) == odd.decide(x), x
        assert back.classifier.posterior_exact(x) == odd.classifier.posterior_exact(x), x
    assert back.classifier.fingerprint == odd.classifier.fingerprint


@pytest.fixture
def saved(tmp_path):
    """(path, odd) of the admissions ODD saved from autoref."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    path = tmp_path / "admissions.bnx.json"
    save_odd(odd, path)
    return path, odd


def resign(path, edit):
    """Apply ``edit`` to the parsed file and rewrite it with a valid checksum."""
    doc = json.loads(path.read_text())
    edit(doc)
    doc["checksum"] = document._checksum(doc)
    path.write_text(save._render(doc))


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
@pytest.mark.parametrize("source,target", PAIRS)
def test_round_trip(tmp_path, name, source, target):
    odd = bnx.compile(CLASSIFIERS[name](), backend=source)
    path = tmp_path / f"{name}.bnx.json"
    assert save_odd(odd, path) == str(path)
    back = load_odd(path, backend=target)
    assert_same(odd, back, target)


@pytest.mark.parametrize("threshold", [0, 0.25, 0.9, 1])
def test_round_trip_thresholds(tmp_path, threshold):
    odd = bnx.compile(multivalued_classifier(threshold), backend="autoref")
    save_odd(odd, tmp_path / "m.bnx.json")
    back = load_odd(tmp_path / "m.bnx.json", backend="autoref")
    assert back.threshold == Fraction(threshold)
    assert_same(odd, back, "autoref")


def test_dump_is_backend_neutral(tmp_path):
    docs = []
    for b in BACKENDS:
        save_odd(bnx.compile(multivalued_classifier(), backend=b), tmp_path / f"{b}.json")
        docs.append(json.loads((tmp_path / f"{b}.json").read_text()))
    assert all(d["diagram"] == docs[0]["diagram"] for d in docs)


def test_file_layout(saved):
    path, odd = saved
    doc = json.loads(path.read_text())
    assert doc["format"] == "bnx-odd" and doc["version"] == FORMAT_VERSION == 2
    assert doc["bnx_version"] == bnx.__version__
    assert doc["threshold"] == "1/2" and doc["count"] == "6"
    assert doc["backend"] == "autoref"
    assert doc["fingerprint"] == odd.classifier.fingerprint
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", doc["checksum"])
    assert set(doc["diagram"]["roots"]) == {"root", "domain"}


def test_dump_readable_by_dd(tmp_path, saved, monkeypatch):
    """The stored diagram is dd's JSON dump format: dd.autoref loads it as is."""
    import dd.autoref

    path, odd = saved
    dump = json.loads(path.read_text())["diagram"]
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in dump.items()]
    (tmp_path / "dump.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    monkeypatch.chdir(tmp_path)  # dd's loader makes a scratch directory in the cwd
    bdd = dd.autoref.BDD()
    roots = bdd.load("dump.json")
    assert count(roots["root"], len(bdd.vars)) == odd.count()
    assert roots["domain"] == bdd.true
    del roots


def test_value_types_round_trip(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    states = ((0, 1), ("a", "b"), (False, True), (None, 2.5))
    fake = bnx.ODD(None, Encoding(odd.features, states), odd.bdd, odd.root, odd.domain,
                   backend="autoref", meta=odd.meta)
    save_odd(fake, tmp_path / "t.bnx.json")
    back = load_odd(tmp_path / "t.bnx.json", backend="autoref")
    assert back.encoding.states == states
    assert [[type(s) for s in ss] for ss in back.encoding.states] == \
        [[type(s) for s in ss] for ss in states]


def test_default_backend_is_auto(saved):
    path, odd = saved
    assert load_odd(path).backend == bnx.backends.resolve_backend("auto")


def test_save_replaces_atomically(tmp_path, saved):
    path, odd = saved
    before = path.read_bytes()
    save_odd(odd, path)
    assert path.read_bytes() == before
    bad = bnx.ODD(None, Encoding(odd.features, (("-", ("+",)),) + odd.encoding.states[1:]),
                  odd.bdd, odd.root, odd.domain, backend="autoref", meta=odd.meta)
    with pytest.raises(bnx.BnxError, match="tuple"):
        save_odd(bad, path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [path.name]


# ---------------------------------------------------------------------- save refusals
@pytest.mark.parametrize("state,word", [(("+",), "tuple"), (float("nan"), "finite"),
                                        (float("inf"), "finite"), (["+"], "list")])
def test_save_refuses_values_json_cannot_round_trip(tmp_path, state, word):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    states = (("-", state),) + odd.encoding.states[1:]
    bad = bnx.ODD(None, Encoding(odd.features, states), odd.bdd, odd.root, odd.domain, backend="autoref",
                  meta=odd.meta)
    with pytest.raises(bnx.BnxError, match=word):
        save_odd(bad, tmp_path / "x.bnx.json")
    assert not os.listdir(tmp_path)


def test_save_refuses_missing_metadata(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    bad = bnx.ODD(None, odd.encoding, odd.bdd, odd.root, odd.domain, backend="autoref")
    with pytest.raises(bnx.BnxError, match="no 'class_var'"):
        save_odd(bad, tmp_path / "x.bnx.json")


def test_save_into_missing_directory(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    with pytest.raises(bnx.ODDFileError, match="cannot write"):
        save_odd(odd, tmp_path / "nope" / "x.bnx.json")


# ---------------------------------------------------------------------- load refusals
def test_error_class():
    assert issubclass(bnx.ODDFileError, bnx.BnxError)
    assert issubclass(bnx.ODDFileError, OSError)


def test_missing_file(tmp_path):
    with pytest.raises(bnx.ODDFileError, match="no such ODD file"):
        load_odd(tmp_path / "absent.bnx.json")


def test_directory(tmp_path):
    with pytest.raises(bnx.ODDFileError, match="is a directory"):
        load_odd(tmp_path)


def test_empty_file(tmp_path):
    (tmp_path / "e.bnx.json").write_bytes(b"")
    with pytest.raises(bnx.ODDFileError, match="is empty"):
        load_odd(tmp_path / "e.bnx.json")


def test_truncated_file(saved):
    path, _ = saved
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(bnx.ODDFileError, match="not valid JSON, so it is truncated"):
        load_odd(path)


def test_binary_file(tmp_path):
    (tmp_path / "b.bnx.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(bnx.ODDFileError, match="not UTF-8"):
        load_odd(tmp_path / "b.bnx.json")


def test_edited_dump_digit(saved):
    path, _ = saved
    text = path.read_text()
    start = text.index('"roots"')
    m = re.compile(r'"\d+": \[(\d)').search(text, start)
    d = m.group(1)
    edited = text[: m.start(1)] + ("1" if d == "0" else str(int(d) - 1)) + text[m.end(1):]
    json.loads(edited)  # still valid JSON
    path.write_text(edited)
    with pytest.raises(bnx.ODDFileError, match="checksum mismatch.*edited or corrupted"):
        load_odd(path)


def test_edited_threshold(saved):
    path, _ = saved
    text = path.read_text()
    assert '"threshold": "1/2"' in text
    path.write_text(text.replace('"threshold": "1/2"', '"threshold": "1/3"'))
    with pytest.raises(bnx.ODDFileError, match="checksum mismatch.*edited or corrupted"):
        load_odd(path)


def test_removed_checksum(saved):
    path, _ = saved
    doc = json.loads(path.read_text())
    del doc["checksum"]
    path.write_text(json.dumps(doc))
    with pytest.raises(bnx.ODDFileError, match="no valid checksum"):
        load_odd(path)


def test_newer_version(saved):
    path, _ = saved
    resign(path, lambda d: d.update(version=FORMAT_VERSION + 1))
    with pytest.raises(bnx.ODDFileError, match="format version 3, written by a newer bnx"):
        load_odd(path)


@pytest.mark.parametrize("version", [0, "1", None, True])
def test_unsupported_version(saved, version):
    path, _ = saved
    resign(path, lambda d: d.update(version=version))
    with pytest.raises(bnx.ODDFileError, match="unsupported format version"):
        load_odd(path)


@pytest.mark.parametrize("content", ['{"hello": "world"}', "[1, 2, 3]", '"bnx-odd"',
                                     '{"format": "something-else", "version": 1}'])
def test_not_a_bnx_file(tmp_path, content):
    (tmp_path / "o.json").write_text(content)
    with pytest.raises(bnx.ODDFileError, match="is not a bnx ODD file"):
        load_odd(tmp_path / "o.json")


def test_duplicate_key(saved):
    path, _ = saved
    text = path.read_text()
    path.write_text(text.replace('"count": "6",', '"count": "6",\n "count": "7",'))
    with pytest.raises(bnx.ODDFileError, match="'count' occurs twice"):
        load_odd(path)


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


# (edit of a re-signed file, words the message must contain)
INCONSISTENT = [
    (lambda d: d.update(variables=["x0_0", "x1_0", "x2_0", "x9_0"]),
     "variables .* do not match its features and states"),
    (lambda d: d.update(states=d["states"][:3]), "4 features but states for 3"),
    (lambda d: d["states"][0].append("?"), "do not match its features and states"),
    (lambda d: d["states"][0].__setitem__(1, "-"), "lists a state twice"),
    (lambda d: d.update(features=["GPA", "GPA", "EntranceExam", "Admit"]), "listed twice"),
    (_rename_var, r"dd dump refers to unknown variables \['y9'\]"),
    (lambda d: d["diagram"]["level_of_var"].update(x0_0=1, x1_0=0),
     "dd dump orders the variables"),
    (lambda d: d.update(count="7"), "has 6 positive instances, but the file records 7"),
    (lambda d: d.update(count="six"), "count 'six' is not a decimal integer"),
    (lambda d: d.update(size=9), "has 6 nodes, but the file records 9"),
    (lambda d: d.update(threshold="0.5"), "not an exact fraction 'p/q'"),
    (lambda d: d.update(threshold="3/2"), r"not in \[0, 1\]"),
    (lambda d: d.update(fingerprint="abc"), "not a hex SHA-256"),
    (_break_root, "refers to node 99 in root 'root' before defining it"),
    (lambda d: _set_dump_node(d, "2", [7, "F", "T"]), "at level 7, but there are only 4"),
    (lambda d: _set_dump_node(d, "3", [3, "F", 2]), "does not lie below it"),
    (lambda d: _set_dump_node(d, "2", [3, "T", "T"]), "redundant"),
    (lambda d: _set_dump_node(d, "2", [3, "F", "X"]), "invalid node reference 'X'"),
    (lambda d: _set_dump_node(d, "x", [3, "F", "T"]), "invalid node number 'x'"),
    (_extra_node, "nodes that no root reaches"),
    (_negate_domain, "domain is not the constraint of valid codes"),
    (lambda d: d.pop("size"), "keys missing 'size'"),
    (lambda d: d.update(extra=1), "keys unexpected 'extra'"),
]


@pytest.mark.parametrize("edit,words", INCONSISTENT, ids=[w[:30] for _, w in INCONSISTENT])
def test_inconsistent_content(saved, edit, words):
    path, _ = saved
    resign(path, edit)
    with pytest.raises(bnx.ODDFileError, match=words):
        load_odd(path, backend="autoref")


def test_root_outside_domain(tmp_path):
    odd = bnx.compile(multivalued_classifier(), backend="autoref")
    path = tmp_path / "m.bnx.json"
    save_odd(odd, path)

    def widen(doc):  # make the root true everywhere, including on unused codes
        dump = doc["diagram"]
        keep = load._reachable_ids(dump, [dump["roots"]["domain"]])
        doc["diagram"] = {k: v for k, v in dump.items()
                          if k in ("level_of_var", "roots") or int(k) in keep}
        doc["diagram"]["roots"]["root"] = 1
    resign(path, widen)
    with pytest.raises(bnx.ODDFileError, match="does not imply the domain"):
        load_odd(path, backend="autoref")


def test_unknown_backend(saved):
    path, _ = saved
    with pytest.raises(bnx.BackendError):
        load_odd(path, backend="nope")


def test_argmax_odds_save_load_and_pickle(backend, tmp_path):
    """An ODD of the most-probable-class rule keeps its rule (and no threshold) in the file."""
    import pickle

    from tests import oracle
    net = bnx.examples.asia_network()
    feats = ["asia", "smoke", "xray", "dysp"]
    clf = bnx.Classifier(net, "lung", "yes", features=feats, rule="argmax")
    odd = bnx.compile(clf, backend=backend)
    back = bnx.ODD.load(odd.save(tmp_path / "asia.bnx"), backend=backend)
    assert back.meta["rule"] == "argmax" and back.threshold is None
    assert back.classifier.rule == "argmax" and back.classifier.fingerprint == clf.fingerprint
    again = pickle.loads(pickle.dumps(odd))
    want = oracle.count_positive(net, "lung", "yes", 0.5, feats, rule="argmax")
    assert back.count() == again.count() == odd.count() == want
    for x in oracle.all_instances(net, feats):
        assert back.decide(x) == again.decide(x) == clf.decide(x)
    doc = json.loads((tmp_path / "asia.bnx").read_text())
    assert doc["rule"] == "argmax" and doc["threshold"] is None
