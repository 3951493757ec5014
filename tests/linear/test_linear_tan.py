"""bnx.linear on TAN classifiers, against brute force over every instance and the compiled ODD.

The brute force reads every decision from ``clf.decide`` on complete instances (exact
class joints, independent of bnx.linear); bnx.linear never compiles.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import bnx
from bnx import linear
from tests._support.builders import small_tan
from tests._support.linear_brute import Brute, check_all
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import instances, on_maps, tan_networks


def _brute(case, clf):
    table = {}
    for combo in itertools.product(*[case.states(f) for f in case.features]):
        table[combo] = clf.decide(dict(zip(case.features, combo)), within="all")
    return Brute(case, table)


def _two_class_tan(case):
    return len(case.states(case.class_var)) == 2


@pytest.mark.slow
@settings(max_examples=50, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(case=tan_networks(max_features=5, max_instances=96), data=st.data())
def test_everything_matches_brute_force(case, data):
    assume(_two_class_tan(case))
    clf = _classifier(case)
    assume(clf.structure == "tan")
    brute = _brute(case, clf)
    x = data.draw(instances(case))
    want = check_all(clf, brute, x)
    subset = data.draw(st.sets(st.sampled_from(case.features)))
    partial = {f: x[f] for f in subset}
    chk = linear.check_explanation(clf, x, partial, within="all")  # the brute force's world
    assert chk.sufficient == brute.sufficient(x, partial)
    assert chk.minimal == (frozenset(subset) in want)
    assert chk.decision == brute.decide(x)
    if chk.sufficient:
        assert set(chk.redundant) == {f for f in subset if brute.sufficient(
            x, {g: x[g] for g in subset if g != f})}
        assert chk.reason.items() <= partial.items() and frozenset(chk.reason) in want
    else:
        cx = chk.counterexample
        assert partial.items() <= cx.items() and brute.decide(cx) != brute.decide(x)


@pytest.mark.slow
@settings(max_examples=30, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(case=tan_networks(max_features=5, max_instances=96), data=st.data())
def test_pi_and_mc_match_the_odd(case, data, backend):
    assume(_two_class_tan(case))
    clf = _classifier(case)
    assume(clf.structure == "tan")
    odd = bnx.compile(clf, backend=backend)
    x = data.draw(instances(case))
    want = bnx.pi_explanations(odd, x, within="all").to_set()  # every instance
    got = [frozenset(e.items()) for e in linear.pi_explanations(clf, x, within="all")]
    assert set(got) == want and len(got) == len(want)
    if sum(clf.class_joint(x)) > 0:  # and the instances the network allows (the default)
        assert {frozenset(e.items()) for e in linear.pi_explanations(clf, x)} == \
            bnx.pi_explanations(odd, x).to_set()
        assert linear.counterfactuals(clf, x).to_set() == bnx.counterfactuals(odd, x).to_set()
    on = data.draw(on_maps(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    mc = linear.mc_explanations(clf, x, on=on, fixed=fixed, within="all")
    on_diagram = bnx.mc_explanations(odd, x, on=on, fixed=fixed, within="all")
    assert type(mc) is type(on_diagram) and mc.to_set() == on_diagram.to_set()
    assert mc.lengths() == on_diagram.lengths() and mc.on == on_diagram.on
    cfs = linear.counterfactuals(clf, x, within="all")
    cfs_diagram = bnx.counterfactuals(odd, x, within="all")
    assert cfs.to_set() == cfs_diagram.to_set() and cfs.cost == cfs_diagram.cost
    # the same order, most probable first (ties in the diagram's order, which may differ)
    assert [p for _, p in cfs.probabilities()] == [p for _, p in cfs_diagram.probabilities()]


@pytest.mark.slow
@settings(max_examples=60, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(case=tan_networks(max_features=4, max_instances=64, rule="argmax"), data=st.data())
def test_positive_decisions_of_more_than_two_classes(case, data):
    """Under argmax with three or four class states, a positive decision is a conjunction
    of pairwise races: every question but the MC and shortest ones, against brute force;
    a negative decision is refused."""
    assume(not _two_class_tan(case))
    clf = _classifier(case)
    assume(clf.structure == "tan")
    brute = _brute(case, clf)
    x = data.draw(instances(case))
    if not brute.decide(x):
        with pytest.raises(bnx.StructureError, match="positive decisions only"):
            linear.robustness(clf, x)
        return
    assert linear.decide(clf, x, within="all")
    want = brute.pis(x)
    got = [frozenset(e) for e in linear.pi_explanations(clf, x, within="all")]
    assert len(got) == len(set(got)) and set(got) == want
    r = brute.robustness(x)
    assert linear.robustness(clf, x, within="all") == r
    cfs = linear.counterfactuals(clf, x, within="all")
    assert cfs.to_set() == brute.counterfactuals(x) and cfs.cost == r
    if r == math.inf:
        with pytest.raises(bnx.ExplanationError):
            linear.shortest_contrastive_explanation(clf, x, within="all")
    else:
        assert frozenset(linear.shortest_contrastive_explanation(clf, x, within="all")) in {
            frozenset(c) for c in cfs}
    subset = data.draw(st.sets(st.sampled_from(case.features)))
    partial = {f: x[f] for f in subset}
    chk = linear.check_explanation(clf, x, partial, within="all")  # the brute force's world
    assert chk.sufficient == brute.sufficient(x, partial)
    assert chk.minimal == (frozenset(subset) in want)
    if not chk.sufficient:
        assert not brute.decide(chk.counterexample)
    with pytest.raises(bnx.StructureError, match="two-state class only"):
        linear.shortest_pi_explanation(clf, x)
    with pytest.raises(bnx.StructureError, match="two-state class only"):
        linear.mc_explanations(clf, x, on={f: case.states(f)[-1] for f in case.features},
                               within="all")


def test_the_threshold_rule_with_more_than_two_classes_is_refused():
    from tests._support.strategies import _general_cpd, make_case
    cpds = [_general_cpd("C", ["a", "b", "c"], [[0.2, 0.3, 0.5]], [], []),
            _general_cpd("F", ["0", "1"], [[0.5, 0.5], [0.1, 0.9], [0.7, 0.3]], ["C"],
                         [["a", "b", "c"]]),
            _general_cpd("G", ["0", "1"], [[0.5, 0.5], [0.1, 0.9], [0.7, 0.3],
                                           [0.5, 0.5], [0.2, 0.8], [0.6, 0.4]],
                         ["C", "F"], [["a", "b", "c"], ["0", "1"]])]
    case = make_case([("C", "F"), ("C", "G"), ("F", "G")], cpds, "C", "a", 0.5, ["F", "G"])
    clf = bnx.Classifier(case.net, "C", "a", threshold=0.4, features=["F", "G"])
    assert clf.structure == "tan"
    with pytest.raises(bnx.StructureError, match="3 states"):
        linear.robustness(clf, {"F": "0", "G": "1"})


@pytest.mark.slow
def test_cli_explains_a_tan_without_compiling(capsys, tmp_path):
    from pgmpy.readwrite import BIFWriter

    from bnx.cli import main
    path = str(tmp_path / "tan.bif")
    BIFWriter(small_tan()).write(path)
    x = "A=yes,B=yes,C=no,D=yes"
    code = main(["explain", path, "--class", "Y", "--positive", "yes", "--features",
                     "A,B,C,D", "--instance", x, "--on", "A=yes,B=yes,C=yes,D=yes",
                     "--max-nodes", "1"])  # the budget runs out: explained from the tables
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max_nodes=1" in out
    assert "bnx.linear (exact for TANs" in out
    clf = bnx.Classifier(small_tan(), "Y", "yes", features=list("ABCD"))
    assert clf.structure == "tan"
    inst = dict(p.split("=") for p in x.split(","))
    side, other = ("yes", "no") if clf.decide(inst, within="all") else ("no", "yes")
    assert f"Decided: Y = {side} (Pr(Y = yes) = " in out
    pis = list(linear.pi_explanations(clf, inst))
    assert f"sufficient reasons for Y = {side} (PI-explanations; {len(pis)} in all):" in out
    r = linear.robustness(clf, inst)
    assert f"robustness: {r} change{'s' * (r != 1)} give{'s' * (r == 1)} Y = {other}: " in out


def test_every_instance_of_a_small_tan():
    clf = bnx.Classifier(small_tan(), "Y", "yes", features=list("ABCD"))
    from tests._support.strategies import Case
    case = Case(small_tan(), "Y", "yes", 0.5, list("ABCD"))
    brute = _brute(case, clf)
    for combo in itertools.product(["no", "yes"], repeat=4):
        check_all(clf, brute, dict(zip("ABCD", combo)))


def test_every_mc_explanation_and_counterfactual_of_a_small_tan_is_the_diagram_s():
    """On every instance of a small TAN, the sets bnx.linear enumerates are those the compiled
    ODD holds, and the MC-explanations those of the brute-force oracle."""
    from tests._support import oracle
    net = small_tan()
    clf = bnx.Classifier(net, "Y", "yes", features=list("ABCD"))
    odd = bnx.compile(clf, backend="autoref")
    on = dict.fromkeys("ABCD", "yes")
    for combo in itertools.product(["no", "yes"], repeat=4):
        x = dict(zip("ABCD", combo))
        for fixed in ((), ("B",)):
            got = linear.mc_explanations(clf, x, on=on, fixed=fixed)
            assert got.to_set() == bnx.mc_explanations(odd, x, on=on, fixed=fixed).to_set()
            assert got.to_set() == oracle.mc_explanations(net, "Y", "yes", clf.threshold,
                                                          list("ABCD"), x, on, fixed)
        cfs = linear.counterfactuals(clf, x)
        want = bnx.counterfactuals(odd, x)
        assert cfs.to_set() == want.to_set() and cfs.cost == want.cost
        assert [p for _, p in cfs.probabilities()] == [p for _, p in want.probabilities()]
