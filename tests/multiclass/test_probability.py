"""Questions under the network's distribution for multi-class classifiers (issue 33): the
same-decision probability (of the class decided on the evidence, or ``decision=`` a class),
what to observe next (each outcome decided by its own class) and group fairness (a column
per decided class), against the brute-force oracle (tests/_support/oracle_multiclass.py:
exact rationals, enumeration of completions) on random networks of 3-6 class states, and
against enumeration with the classifier's exact class joints on pgmpy's child."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from bnx.probability import observe
from tests._support.bundled import bundled_network
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import (
    multiclass_classifier_of,
    multiclass_networks,
    partial_instances,
)

CASES = multiclass_networks()


def _close(got, want):
    return abs(got - float(want)) <= 1e-9


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_sdp_is_the_probability_of_the_class_decided_on_the_evidence(case, data):
    clf, brute = multiclass_classifier_of(case), MultiOracle.of(case)
    e = data.draw(partial_instances(case))
    want = brute.same_decision_probability(e)
    note(f"e={e}, decided {brute.decide(e, partial=True)}, want {want}")
    if want is None:
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            bnx.same_decision_probability(clf, e, exact=True)
        return
    assert clf.predict(e, partial=True, within="all") == brute.decide(e, partial=True)
    assert bnx.same_decision_probability(clf, e, exact=True) == want
    assert _close(bnx.same_decision_probability(clf, e), want)
    odd = bnx.compile(clf, backend="autoref")
    total = Fraction(0)
    for c in brute.classes:
        got = bnx.same_decision_probability(clf, e, decision=c, odd=odd, exact=True)
        assert got == brute.same_decision_probability(e, decision=c)
        assert _close(bnx.same_decision_probability(clf, e, decision=c, odd=odd), got)
        total += got
    assert total == 1


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_next_observations_decide_each_outcome_by_its_own_class(case, data):
    clf, brute = multiclass_classifier_of(case), MultiOracle.of(case)
    e = data.draw(partial_instances(case))
    want = brute.next_observations(e)
    if want is None:
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            bnx.next_observations(clf, e)
        return
    exact = bnx.next_observations(clf, e, exact=True)
    assert {f: (r.expected_sdp, r.flip_probability) for f, r in exact.iterrows()} == want
    floats = bnx.next_observations(clf, e)
    assert set(floats.index) == set(want)
    for f, r in floats.iterrows():
        assert _close(r.expected_sdp, want[f][0]) and _close(r.flip_probability, want[f][1])
    # without the per-feature flows: one SDP per outcome, on each class's formula
    fresh = multiclass_classifier_of(case)
    saved = observe._flows
    observe._flows = lambda *a, **k: None
    try:
        slow = bnx.next_observations(fresh, e, exact=True)
        fast = bnx.next_observations(fresh, e)
    finally:
        observe._flows = saved
    assert {f: (r.expected_sdp, r.flip_probability) for f, r in slow.iterrows()} == want
    for f, r in fast.iterrows():
        assert _close(r.expected_sdp, want[f][0]) and _close(r.flip_probability, want[f][1])


@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_group_fairness_has_a_column_per_decided_class(case, data):
    clf, brute = multiclass_classifier_of(case), MultiOracle.of(case)
    protected = data.draw(st.lists(st.sampled_from(case.features), min_size=1, max_size=2,
                                   unique=True))
    exact = bnx.group_fairness(clf, protected, exact=True)
    floats = bnx.group_fairness(clf, protected)
    assert list(exact.columns) == list(brute.classes)
    for combo in itertools.product(*(case.states(f) for f in protected)):
        key = combo[0] if len(protected) == 1 else combo
        rates = brute.decision_rates(dict(zip(protected, combo)))
        row = exact.loc[key]
        if rates is None:
            assert row.isna().all()
            continue
        assert {c: row[c] for c in brute.classes} == rates
        assert all(_close(floats.loc[key][c], rates[c]) for c in brute.classes)


def test_a_multiclass_decision_is_a_class_state():
    asia = bnx.examples.asia()
    many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    with pytest.raises(bnx.ArgumentError, match="name one of them"):
        bnx.same_decision_probability(many, {"dysp": "yes"}, decision=True)
    with pytest.raises(bnx.UnknownStateError, match="not a state of the class 'either'"):
        bnx.same_decision_probability(many, {"dysp": "yes"}, decision="maybe")


# ---------------------------------------------------------------------- child
@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    return bnx.Classifier(net, "Disease")


def _completions(clf, e):
    free = [f for f in clf.features if f not in e]
    for states in itertools.product(*(clf.states(f) for f in free)):
        yield {**e, **dict(zip(free, states))}


@pytest.mark.slow
def test_child_sdp_and_next_observations_by_enumeration(child):
    clf = child
    # every complete instance once: Pr(x) and the class decided (the classifier's exact
    # class joint, no diagram)
    table = {}
    for z in _completions(clf, {}):
        joint = clf.class_joint(z)
        best = max(range(len(joint)), key=lambda c: (joint[c], -c))
        table[tuple(z[f] for f in clf.features)] = (sum(joint, Fraction(0)),
                                                    clf.classes[best])

    def mass(e, d=None):
        return sum((p for key, (p, c) in table.items()
                    if (d is None or c == d)
                    and all(key[i] == e[f] for i, f in enumerate(clf.features) if f in e)),
                   Fraction(0))

    def decided(e):
        return clf.predict(e, partial=True, within="all")

    for e in ({"XrayReport": "Plethoric"}, {"LVHreport": "yes", "Age": "0-3_days"},
              {"CO2Report": "<7.5", "GruntingReport": "yes", "RUQO2": "12+"}):
        a = decided(e)
        pe = mass(e)
        want = mass(e, a) / pe
        assert bnx.same_decision_probability(clf, e, exact=True) == want
        assert _close(bnx.same_decision_probability(clf, e), want)
        frame = bnx.next_observations(clf, e, exact=True)
        for f in frame.index:
            expected = flip = Fraction(0)
            for v in clf.states(f):
                ev = {**e, f: v}
                if mass(ev) == 0:
                    continue
                dv = decided(ev)
                expected += mass(ev, dv)
                flip += mass(ev) if dv != a else 0
            assert frame.loc[f, "expected_sdp"] == expected / pe
            assert frame.loc[f, "flip_probability"] == flip / pe
    fair = bnx.group_fairness(clf, ["Age"], exact=True)
    assert list(fair.columns) == list(clf.classes)
    for age in clf.states("Age"):
        assert {c: fair.loc[age, c] for c in clf.classes} == {
            c: mass({"Age": age}, c) / mass({"Age": age}) for c in clf.classes}


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_probable_reasons_keep_the_decided_class_probable(case, data):
    clf, brute = multiclass_classifier_of(case), MultiOracle.of(case)
    x = {f: data.draw(st.sampled_from(case.states(f))) for f in case.features}
    if brute.probability(x) == 0:
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            bnx.probable_reasons(clf, x)
        return
    a, delta = brute.decide(x), Fraction(3, 4)

    def qualifies(part):
        p = brute.same_decision_probability(part, decision=a)
        return p is not None and p >= delta

    parts = [dict(s) for r in range(len(case.features) + 1)
             for s in itertools.combinations(x.items(), r)]
    good = [frozenset(p.items()) for p in parts if qualifies(p)]
    want = {s for s in good if not any(o < s for o in good)}
    got = bnx.probable_reasons(clf, x, delta=delta)
    assert {frozenset(r.items()) for r in got} == want
