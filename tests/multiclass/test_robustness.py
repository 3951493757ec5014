"""Closest changes and bias of multi-class classifiers (issue 33): robustness and
counterfactuals (to any other class, or to a target), the robustness profile, decision bias
and the count of biased instances, against the brute-force oracle
(tests/_support/oracle_multiclass.py: exact rationals, enumeration of instances) on random
networks of 3-6 class states, and against enumeration with the classifier's exact
decisions on pgmpy's child (class Disease, six states)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from bnx.changes import bias as bias_module
from tests._support.bundled import bundled_network
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import instances, multiclass_classifier_of, multiclass_networks

CASES = multiclass_networks()


def _compiled(case):
    return bnx.compile(multiclass_classifier_of(case), backend="autoref")


def _as_map(cfs):
    got = {}
    for c, d in zip(cfs, cfs.decisions):
        got[frozenset(c.items())] = d
    assert len(got) == cfs.count  # every member once
    return got


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_robustness_and_counterfactuals_reach_another_class_or_the_target(case, data):
    odd, brute = _compiled(case), MultiOracle.of(case)
    x = data.draw(instances(case))
    a = brute.decide(x)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    note(f"x={x} decided {a}, immutable={immutable}")
    assert odd.decide(x) == a
    for target in (None, *(c for c in brute.classes if c != a)):
        want = brute.counterfactuals(x, target=target, immutable=immutable)
        r = bnx.robustness(odd, x, target=target, immutable=immutable, within="all")
        assert r == brute.robustness(x, target=target, immutable=immutable)
        cfs = bnx.counterfactuals(odd, x, target=target, immutable=immutable, within="all")
        assert _as_map(cfs) == want
        assert cfs.cost == r and cfs.multiclass
        if target is not None:
            assert set(cfs.decisions) <= {target}
        lines = str(cfs).splitlines()
        assert f"of {case.class_var} = {a} " in lines[0] and "not " not in lines[0]
        for line, c in zip(lines[1:], cfs.shortest_first()):
            if line.startswith("  …"):
                break
            assert line.endswith(f" it {cfs.leads_to(c)}")
            assert all(f"{f} from {x[f]} to {s}" in line for f, s in c.items())
        # the cheapest changes under costs: a move to the target's class costs more
        cost = {f: 2 for f in case.features[:1]}
        priced = bnx.counterfactuals(odd, x, target=target, cost=cost, within="all")
        for c, d in zip(priced, priced.decisions):
            assert brute.decide({**x, **c}) == d != a
            assert sum(cost.get(f, 1) for f in c) == priced.cost


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_a_target_must_be_another_class_state(case, data):
    odd = _compiled(case)
    x = data.draw(instances(case))
    a = odd.decide(x)
    with pytest.raises(bnx.ArgumentError, match="is the class this instance is decided"):
        bnx.counterfactuals(odd, x, target=a)
    with pytest.raises(bnx.ArgumentError, match="is the class this instance is decided"):
        bnx.robustness(odd, x, target=a)
    with pytest.raises(bnx.UnknownStateError, match="not a state of the class"):
        bnx.robustness(odd, x, target="no such class")


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_the_robustness_profile_counts_every_instance_by_its_distance_to_another_class(
        case, data):
    odd, brute = _compiled(case), MultiOracle.of(case)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    got = bnx.robustness_profile(odd, immutable=immutable, within="all")
    assert got == brute.robustness_profile(immutable=immutable)
    assert sum(got.values()) == len(brute.instances())


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_decision_bias_and_count_biased(case, data):
    odd, brute = _compiled(case), MultiOracle.of(case)
    x = data.draw(instances(case))
    protected = sorted(data.draw(st.sets(st.sampled_from(case.features), max_size=3)), key=str)
    b = bnx.decision_bias(odd, x, protected, within="all")  # (the oracle's: every instance)
    assert b.biased == brute.biased(x, protected)
    a = brute.decide(x)
    assert b.decision == f"{case.class_var} = {a}"
    if b.biased:
        w = b.witness
        assert all(w[f] == x[f] for f in case.features if f not in protected)
        assert b.changes == {f: w[f] for f in protected if w[f] != x[f]}
        other = brute.decide(w)
        assert other != a and b.other == f"{case.class_var} = {other}"
        fewest = min(sum(1 for f in protected if y[f] != x[f]) for y in brute.instances()
                     if brute.decide(y) != a
                     and all(y[f] == x[f] for f in case.features if f not in protected))
        assert len(b.changes) == fewest
        assert str(b).endswith(f"gives {case.class_var} = {other}.")
    want = brute.count_biased(protected)
    assert bnx.count_biased(odd, protected, within="all") == want
    saved = bias_module.MAX_FRONTIER
    bias_module.MAX_FRONTIER = 0  # the count by quantifying on the dd diagrams
    try:
        assert bnx.count_biased(odd, protected, within="all") == want
    finally:
        bias_module.MAX_FRONTIER = saved


def test_binary_counterfactuals_lead_to_the_other_decision():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "-", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    assert odd.decide(x)
    cfs = bnx.counterfactuals(odd, x)
    assert cfs.decisions == ["-"] * cfs.count == ["-"] * 3 and not cfs.multiclass
    same = bnx.counterfactuals(odd, x, target="-")
    assert same.to_set() == cfs.to_set() and bnx.robustness(odd, x, target="-") == 1
    with pytest.raises(bnx.ArgumentError, match="the only other decision here is '-'"):
        bnx.counterfactuals(odd, x, target="+")


# ---------------------------------------------------------------------- child
@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    clf = bnx.Classifier(net, "Disease")
    odd = bnx.compile(clf, backend="autoref")
    states = [clf.states(f) for f in odd.features]
    codes = np.array(list(itertools.product(*(range(len(s)) for s in states))))
    xs = [{f: states[i][j] for i, (f, j) in enumerate(zip(odd.features, row))}
          for row in codes.tolist()]
    # the classifier's exact decision on every instance (no diagram)
    decided = np.array([clf.classes.index(clf.predict(x, within="all")) for x in xs])
    return clf, odd, codes, xs, decided


def _distances(codes, row):
    return (codes != row).sum(axis=1)


@pytest.mark.slow
def test_child_counterfactuals_and_profile_by_enumeration(child):
    clf, odd, codes, xs, decided = child
    profile: dict = {}
    for k, row in enumerate(codes):
        d = _distances(codes, row)
        other = decided != decided[k]
        r = int(d[other].min()) if other.any() else math.inf
        profile[r] = profile.get(r, 0) + 1
        if k % 97 == 0:
            x = xs[k]
            assert bnx.robustness(odd, x) == r
            cfs = bnx.counterfactuals(odd, x)
            want = {frozenset((f, xs[j][f]) for f in odd.features if xs[j][f] != x[f]):
                    clf.classes[decided[j]] for j in np.flatnonzero(other & (d == r))}
            got = {frozenset(c.items()): s for c, s in zip(cfs, cfs.decisions)}
            assert got == want
            for t in set(decided.tolist()) - {decided[k]}:
                hit = decided == t
                rt = int(d[hit].min())
                assert bnx.robustness(odd, x, target=clf.classes[t]) == rt
                tcf = bnx.counterfactuals(odd, x, target=clf.classes[t])
                assert tcf.to_set() == {
                    frozenset((f, xs[j][f]) for f in odd.features if xs[j][f] != x[f])
                    for j in np.flatnonzero(hit & (d == rt))}
    assert bnx.robustness_profile(odd) == {k: profile[k] for k in sorted(profile)}


@pytest.mark.slow
def test_child_bias_by_enumeration(child):
    clf, odd, codes, xs, decided = child
    feats = list(odd.features)
    for protected in (["XrayReport"], ["LVHreport", "Age"], ["RUQO2", "LowerBodyO2"]):
        free = [i for i, f in enumerate(feats) if f not in protected]
        groups: dict = {}
        for k, row in enumerate(codes):
            groups.setdefault(tuple(row[free]), set()).add(int(decided[k]))
        biased = [len(groups[tuple(row[free])]) > 1 for row in codes]
        assert bnx.count_biased(odd, protected) == sum(biased)
        for k in range(0, len(xs), 61):
            b = bnx.decision_bias(odd, xs[k], protected)
            assert b.biased == biased[k]
            if b.biased:
                assert clf.predict(b.witness, within="all") != clf.predict(xs[k], within="all")


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_counterfactuals_within_the_support_reach_instances_of_positive_probability(case,
                                                                                    data):
    clf = multiclass_classifier_of(case)
    odd, brute = bnx.compile(clf, backend="autoref"), MultiOracle.of(case)
    x = data.draw(instances(case))
    if brute.probability(x) == 0:
        with pytest.raises(bnx.ImpossibleInstanceError, match="cannot .*hold under the network"):
            bnx.counterfactuals(odd, x, within=clf)  # refused before the set is asked
        return
    a = brute.decide(x)
    for target in (None, *(c for c in brute.classes if c != a)):
        keys = [y for y in brute.instances() if brute.probability(y) > 0
                and (brute.decide(y) == target if target is not None
                     else brute.decide(y) != a)]
        dist = [sum(1 for f in case.features if y[f] != x[f]) for y in keys]
        r = min(dist, default=math.inf)
        want = {frozenset((f, y[f]) for f in case.features if y[f] != x[f]): brute.decide(y)
                for y, k in zip(keys, dist) if k == r}
        assert bnx.robustness(odd, x, within=clf, target=target) == r
        assert _as_map(bnx.counterfactuals(odd, x, within=clf, target=target)) == want


@pytest.mark.slow
def test_child_answers_survive_saving(child, tmp_path):
    clf, odd, codes, xs, decided = child
    again = bnx.ODD.load(odd.save(tmp_path / "child.bnx"), backend="autoref")
    for x in xs[::151]:
        for target in (None, "Fallot"):
            if clf.predict(x, within="all") == target:
                continue
            a = bnx.counterfactuals(odd, x, target=target)
            b = bnx.counterfactuals(again, x, target=target)
            assert list(zip(a, a.decisions)) == list(zip(b, b.decisions))
            assert str(a) == str(b)
    assert bnx.robustness_profile(again) == bnx.robustness_profile(odd)
    assert bnx.count_biased(again, ["Age"]) == bnx.count_biased(odd, ["Age"])
