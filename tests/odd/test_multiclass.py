"""The multi-class classifier and its ODD on a real network (pgmpy's child, class Disease):
one compile equal to the per-class argmax compiles, decisions by name, counts, files.
The property tests against the brute-force oracle are in tests/multiclass/."""

from __future__ import annotations

import itertools
import pickle

import pytest

import bnx
from tests._support.bundled import bundled_network


@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    return bnx.Classifier(net, "Disease")


@pytest.fixture(scope="module")
def child_odd(child):
    return bnx.compile(child, backend="autoref")


def instances(clf):
    for states in itertools.product(*(clf.states(f) for f in clf.features)):
        yield dict(zip(clf.features, states))


def test_a_classifier_without_a_positive_state_picks_the_most_probable_class(child):
    assert child.multiclass and child.positive is None and child.rule == "argmax"
    assert child.classes == ("PFC", "TGA", "Fallot", "PAIVS", "TAPVD", "Lung")
    for x in itertools.islice(instances(child), 0, None, 37):
        joint = child.class_joint(x)
        best = child.classes[max(range(len(joint)), key=lambda i: (joint[i], -i))]
        assert child.predict(x) == child.decide(x) == best
        probs = child.class_probabilities(x)
        assert list(probs) == list(child.classes)
        exact = {s: float(v / sum(joint)) for s, v in zip(child.classes, joint)}
        assert child.class_probabilities(x, exact=True) == exact
        # in floats, within the proven bound (far below 1e-12 here)
        assert all(abs(probs[s] - exact[s]) <= 1e-12 * exact[s] for s in exact)


def test_one_compile_decides_as_the_per_class_compiles(child, child_odd):
    odd = child_odd
    assert odd.multiclass and odd.classes == child.classes
    per = {s: bnx.compile(bnx.Classifier(child.network, "Disease", s, rule="argmax"),
                          backend="autoref") for s in child.classes}
    xs = list(instances(child))
    for s in child.classes:
        assert odd.class_formula(s).count() == per[s].count()
        assert odd.class_formula(s).classifier.fingerprint == per[s].classifier.fingerprint
    got = odd.decide_many(xs)
    for i, x in enumerate(xs):
        want = next(s for s in child.classes if per[s].decide(x))
        assert odd.decide(x) == got[i] == want == child.predict(x)
    assert odd.count() == {s: per[s].count() for s in child.classes}
    assert sum(odd.count().values()) == odd.total()


def test_a_multiclass_odd_round_trips_through_its_file_and_pickle(child_odd, tmp_path):
    odd = child_odd
    back = bnx.ODD.load(odd.save(tmp_path / "child.bnx"), backend="autoref")
    again = pickle.loads(pickle.dumps(odd))
    assert isinstance(back, bnx.MulticlassODD) and isinstance(again, bnx.MulticlassODD)
    for other in (back, again):
        assert other.classes == odd.classes and other.count() == odd.count()
        assert other.size == odd.size
        assert other.classifier.fingerprint == odd.classifier.fingerprint
        assert (other.class_formula("TGA").classifier.fingerprint
                == odd.class_formula("TGA").classifier.fingerprint)
    x = dict(zip(odd.classifier.features, ("yes", "<5", "<5", "<7.5", "Normal", "yes", "0-3_days")))
    assert back.decide(x) == odd.decide(x)


def test_a_changed_count_in_a_multiclass_file_is_refused(child_odd, tmp_path):
    path = child_odd.save(tmp_path / "child.bnx")
    data = open(path, "rb").read().replace(b'"count": ["0", "284"', b'"count": ["1", "284"')
    open(path, "wb").write(data)
    with pytest.raises(bnx.ODDFileError):
        bnx.ODD.load(path)


def test_multiclass_misuse_is_refused_by_name(child, child_odd):
    with pytest.raises(bnx.ArgumentError, match="class_probabilities"):
        child.posterior({})
    with pytest.raises(bnx.ArgumentError, match="positive"):
        bnx.Classifier(child.network, "Disease", threshold=0.3)
    with pytest.raises(bnx.UnknownStateError, match="TGA"):
        child_odd.class_formula("TG")
    with pytest.raises(bnx.ArgumentError, match="class_formula"):
        _ = child_odd.arrays


def test_ordinal_features_are_checked_and_kept(child, tmp_path):
    age = ("0-3_days", "4-10_days", "11-30_days")
    clf = bnx.Classifier(child.network, "Disease", ordinal={"Age": list(age)})
    assert clf.ordinal == {"Age": age}
    assert bnx.Classifier(child.network, "Disease", ordinal=True).ordinal == {"Age": age}
    odd = bnx.compile(clf, backend="autoref")
    assert bnx.ODD.load(odd.save(tmp_path / "o.bnx")).ordinal == {"Age": age}
    with pytest.raises(bnx.ArgumentError, match="leaves out"):
        bnx.Classifier(child.network, "Disease", ordinal={"Age": list(age[:2])})
    with pytest.raises(bnx.UnknownStateError):
        bnx.Classifier(child.network, "Disease", ordinal={"Age": [*age[:2], "old"]})
