"""A loaded ODD file is checked against itself (issue 45): its diagram against its classifier.

The checksums guard against corruption; a file edited and re-signed (its checksums and
fingerprint recomputed) passes them, so loading decides instances both ways. Crafted here:
the votes file with its diagram complemented and re-signed (the issue's "232 of 232 rows
decided the opposite"), its class prior edited with the fingerprint recomputed, a header
whose threshold is not its classifier's; each refused with an ODDFileError that names an
instance. Genuine files of random classifiers (every instance checked, both backends,
threshold and argmax, multi-class) still load.
"""

from __future__ import annotations

import hashlib
import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings

import bnx
from bnx.odd._classifier_json import classifier_from_document
from bnx.odd.io import check
from bnx.odd.io.binary import split_file
from bnx.odd.io.document import _checksum
from bnx.odd.io.save import _render
from tests._support.strategies import classifier_of, general_networks, multiclass_networks


@pytest.fixture(scope="module")
def votes():
    return bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")


def _parts(path):
    header, payload = split_file(path.read_bytes())
    return json.loads(header), bytes(payload)


def _resign(path, doc, payload):
    """Write ``doc`` and ``payload`` with every digest recomputed, as a forger would."""
    doc["arrays"]["sha256"] = hashlib.sha256(payload).hexdigest()
    doc["checksum"] = _checksum(doc)
    path.write_bytes(_render(doc).encode("utf-8") + payload)


def test_a_complemented_and_re_signed_diagram_is_refused(votes, tmp_path):
    path = tmp_path / "votes.bnx"
    votes.save(path)
    doc, payload = _parts(path)
    n = doc["arrays"]["nodes"]
    level, lo, hi = (np.frombuffer(payload[4 * n * k:4 * n * (k + 1)], "<i4").copy()
                     for k in range(3))
    for a in (lo, hi):  # the terminals swapped below every node: the complement
        a[2:] = np.where(a[2:] < 2, 1 - a[2:], a[2:])
    payload = b"".join(a.astype("<i4").tobytes() for a in (level, lo, hi))
    doc["count"] = str(2 ** 16 - int(doc["count"]))
    _resign(path, doc, payload)
    with pytest.raises(bnx.ODDFileError, match=r"its diagram and its classifier disagree: on "
                       r"physician-fee-freeze = [ny], .* the diagram decides party = \w+, "
                       r"the classifier's tables party = \w+ \(256 of 256 instances"):
        bnx.ODD.load(path)


@pytest.mark.parametrize("largest", [64, 1])
def test_the_instances_go_in_parts_when_the_tables_would_be_large(votes, tmp_path, largest,
                                                                  monkeypatch):
    """Bounded tables: parts of the rows; one row over the bound: the header alone."""
    path = tmp_path / "votes.bnx"
    votes.save(path)
    doc, payload = _parts(path)
    stored = doc["classifier"]
    prior = next(c for c in stored["cpds"] if c["variables"] == ["party"])
    prior["values"] = prior["values"][::-1]  # the prior swapped: many decisions change
    doc["fingerprint"] = classifier_from_document(stored, fingerprint=None,
                                                  where="x").fingerprint
    _resign(path, doc, payload)
    monkeypatch.setattr(check, "LARGEST", largest)
    if largest == 1:
        assert bnx.ODD.load(path).count() == votes.count()  # not checked: documented
    else:
        with pytest.raises(bnx.ODDFileError, match="its diagram and its classifier disagree"):
            bnx.ODD.load(path)


def test_an_edited_class_prior_with_its_fingerprint_recomputed_is_refused(votes, tmp_path):
    path = tmp_path / "votes.bnx"
    votes.save(path)
    doc, payload = _parts(path)
    stored = doc["classifier"]
    prior = next(c for c in stored["cpds"] if c["variables"] == ["party"])
    republican = prior["states"][0].index("republican")
    prior["values"][republican] += 0.2  # a heavier prior on republican
    prior["values"][1 - republican] -= 0.2
    doc["fingerprint"] = classifier_from_document(stored, fingerprint=None,
                                                  where="x").fingerprint
    _resign(path, doc, payload)
    with pytest.raises(bnx.ODDFileError, match="its diagram and its classifier disagree: on "
                       ".* the diagram decides party = democrat, the classifier's tables "
                       "party = republican"):
        bnx.ODD.load(path)


@pytest.mark.parametrize("key, value, match", [
    ("threshold", "1/3", "its header's threshold '1/3' is not its classifier's '1/2'"),
    ("positive", "democrat", "its header's positive 'democrat' is not its classifier's"),
])
def test_a_header_that_is_not_its_classifiers_is_refused(votes, tmp_path, key, value, match):
    path = tmp_path / "votes.bnx"
    votes.save(path)
    doc, payload = _parts(path)
    doc[key] = value
    _resign(path, doc, payload)
    with pytest.raises(bnx.ODDFileError, match=match):
        bnx.ODD.load(path)


def test_the_genuine_votes_file_loads_and_decides_as_before(votes, tmp_path):
    path = tmp_path / "votes.bnx"
    votes.save(path)
    back = bnx.ODD.load(path, backend="autoref")
    assert back.count() == votes.count() == 17268


@given(case=general_networks(max_features=4, max_hidden=2))
@settings(max_examples=25, deadline=None)
def test_a_genuine_file_of_any_classifier_passes_its_check(case):
    """Every instance checked (small classifiers): the exact decision, ties included."""
    odd = bnx.compile(classifier_of(case), backend="autoref")
    assert pickle.loads(pickle.dumps(odd)).count() == odd.count()  # loads_odd: checked


@given(case=multiclass_networks(max_features=3))
@settings(max_examples=10, deadline=None)
def test_a_genuine_multiclass_file_passes_its_check(case):
    odd = bnx.compile(classifier_of(case), backend="autoref")
    assert pickle.loads(pickle.dumps(odd)).count() == odd.count()


@pytest.mark.parametrize("edit, match", [
    (lambda c: c.update(cpds="x"), "holds an invalid classifier"),
    (lambda c: c["cpds"][0].update(values=["a"] * len(c["cpds"][0]["values"])),
     "has an entry that is not a number"),
    (lambda c: c["edges"].append(["nope", "party"]), "is not over 'party' and its parents"),
    (lambda c: c.update(nodes=c["nodes"][:-1]), "its CPDs are not one per node"),
    (lambda c: c["cpds"][0]["values"].__setitem__(0, -1.0), "not a finite nonnegative number"),
    (lambda c: c["cpds"][0]["values"].__setitem__(0, 10 ** 400), "holds an invalid classifier"),
    (lambda c: c["cpds"][0]["values"].append(0.5), "entries, not"),
])
def test_a_malformed_stored_classifier_is_refused_by_name(votes, tmp_path, edit, match):
    path = tmp_path / "votes.bnx"
    votes.save(path)
    doc, payload = _parts(path)
    edit(doc["classifier"])
    _resign(path, doc, payload)
    with pytest.raises(bnx.ODDFileError, match=match):
        bnx.ODD.load(path)
