"""The instances a network allows (bnx.support) and a user allows (bnx.forbid), against
brute force: every instance enumerated, its probability summed exactly from the joint."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.zero_networks import classifier_of, zero_networks
from tests.conftest import shared_file

BACKENDS = bnx.backends.available_backends()


def _probable(case) -> set:
    """The instances of positive probability, as tuples in ``case.features`` order."""
    table = oracle.class_joint_table(case.net, case.class_var, case.features)
    return {combo for combo, cj in table.items() if sum(cj.values(), Fraction(0)) > 0}


def _members(s, features) -> set:
    return {tuple(x[f] for f in features) for x in s}


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=zero_networks(), data=st.data())
def test_support_is_the_instances_of_positive_probability(case, data, backend):
    clf = classifier_of(case)
    order = data.draw(st.permutations(case.features))
    odd = bnx.compile(clf, order, backend=backend)
    want = _probable(case)
    s = bnx.support(clf, odd=odd)
    assert _members(s, case.features) == want
    assert s.count == len(want)
    assert s.layout.encoding == odd.encoding and s.bdd is odd.bdd
    assert s.root == s.root & odd.domain  # no code that names no state
    for combo in itertools.product(*(case.states(f) for f in case.features)):
        assert (dict(zip(case.features, combo)) in s) == (combo in want)
    # without the ODD: the default order, a manager of its own; the same set
    alone = bnx.support(clf)
    assert _members(alone, case.features) == want
    assert alone == s and bnx.support(clf) is alone


@pytest.mark.slow
@given(case=zero_networks(), data=st.data())
def test_forbid_and_the_set_algebra(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    states = {f: case.states(f) for f in case.features}
    combos = data.draw(st.lists(st.dictionaries(
        st.sampled_from(case.features), st.none(), min_size=1), max_size=3))
    combos = [{f: data.draw(st.sampled_from(states[f])) for f in c} for c in combos]
    allowed = bnx.forbid(odd, combos)
    everything = list(itertools.product(*(states[f] for f in case.features)))
    want = {c for c in everything
            if not any(all(c[case.features.index(f)] == s for f, s in b.items())
                       for b in combos)}
    assert _members(allowed, case.features) == want and allowed.count == len(want)
    probable = _probable(case)
    s = bnx.support(clf, odd=odd)
    assert _members(allowed & s, case.features) == want & probable
    assert _members(allowed | s, case.features) == want | probable
    assert _members(allowed - s, case.features) == want - probable
    assert _members(~allowed, case.features) == set(everything) - want
    # a set made without the ODD combines with one made from it
    assert _members(bnx.forbid(clf, combos) & s, case.features) == want & probable


def test_bad_input_raises_typed_errors():
    clf = bnx.examples.admissions()
    odd = bnx.compile(clf, backend="autoref")
    with pytest.raises(bnx.UnknownFeatureError, match="Gpa"):
        bnx.forbid(odd, [{"Gpa": "+"}])
    with pytest.raises(bnx.UnknownStateError, match="plus"):
        bnx.forbid(odd, [{"GPA": "plus"}])
    with pytest.raises(bnx.ArgumentError, match="empty"):
        bnx.forbid(odd, [{}])
    with pytest.raises(bnx.ArgumentError, match="list of mappings"):
        bnx.forbid(odd, {"GPA": "+"})
    with pytest.raises(bnx.InstanceError, match="mapping"):
        bnx.forbid(odd, ["GPA"])
    with pytest.raises(bnx.ArgumentError, match="Classifier"):
        bnx.support(odd.arrays)
    with pytest.raises(bnx.ArgumentError, match="given twice"):
        bnx.support(odd, odd=bnx.compile(clf, backend="autoref"))
    with pytest.raises(bnx.ArgumentError, match="not compiled from"):
        bnx.support(bnx.examples.asia(), odd=odd)
    with pytest.raises(bnx.ArgumentError, match="instance set"):
        bnx.forbid(odd, [{"GPA": "+"}]) & odd


@pytest.mark.slow
def test_support_of_the_alarm_classifiers_is_exact_on_a_sample():
    import random
    net = bnx.read_network(shared_file("networks", "alarm.net"))
    rng = random.Random(27)
    for class_var in ("HYPOVOLEMIA", "LVFAILURE"):
        clf = bnx.Classifier(net, class_var, "TRUE")
        odd = bnx.compile(clf)
        s = bnx.support(clf, odd=odd)
        for _ in range(30):
            x = {f: rng.choice(clf.states(f)) for f in clf.features}
            assert (x in s) == (sum(clf.class_joint(x), Fraction(0)) > 0)
