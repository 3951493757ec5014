"""Issue 8: reasons, roles, robustness, counterfactuals, bias, SDP and checking,
against the brute force of tests/_support/oracle_reasons.py (independent of bnx)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.probability import same_decision
from tests._support import oracle
from tests._support import oracle_reasons as brute
from tests._support.builders import compiled_case, oracle_args
from tests._support.strategies import classifiers, instances, naive_bayes

BACKENDS = bnx.backends.available_backends()
FEW = settings(max_examples=settings.default.max_examples // 2)  # half the profile's


def _some_instances(case, data, k=3):
    return [data.draw(instances(case)) for _ in range(k)]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_contrastive_explanations_match_brute_force_and_duality(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    for x in _some_instances(case, data):
        got = bnx.contrastive_explanations(odd, x, within="all")
        want = brute.contrastive_explanations(args, x)
        assert got.to_set() == want
        assert got.count == len(want)
        assert got.decision == clf.decide(x, within="all")
        # duality: the minimal hitting sets of the PI-explanations (as feature sets)
        pis = oracle.pi_explanations(*args, x)
        hitting = brute.minimal_hitting_sets([{f for f, _ in p} for p in pis], case.features)
        assert {frozenset(f for f, _ in e) for e in want} == hitting
        # and the shortest of them are as long as the robustness
        r = bnx.robustness(odd, x, within="all")
        assert (min(got.lengths(), default=math.inf)) == r


@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_feature_roles_and_pi_explanations(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    for x in _some_instances(case, data):
        roles = bnx.feature_roles(odd, x, within="all")
        assert roles == brute.feature_roles(args, x)
        assert list(roles) == list(clf.features)
        assert bnx.pi_explanations(odd, x, within="all").to_set() == \
            oracle.pi_explanations(*args, x)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_robustness_and_counterfactuals_match_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    for x in _some_instances(case, data):
        immutable = data.draw(st.sets(st.sampled_from(case.features)))
        r = bnx.robustness(odd, x, immutable=immutable, within="all")
        assert r == brute.robustness(args, x, immutable)
        cfs = bnx.counterfactuals(odd, x, immutable=immutable, within="all")
        want = brute.counterfactuals(args, x, immutable)
        assert cfs.to_set() == want
        assert cfs.count == len(want)
        assert cfs.lengths() == ({r: len(want)} if r != math.inf else {})
        assert cfs.cost == r  # math.inf when empty
        for change in itertools.islice(cfs, 5):
            assert clf.decide({**x, **change}, within="all") != clf.decide(x, within="all")


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data())
def test_robustness_profile_matches_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    got = bnx.robustness_profile(odd, immutable=immutable, within="all")
    assert got == brute.robustness_profile(oracle_args(case), immutable)
    assert list(got) == sorted(k for k in got if k is not None) + ([None] if None in got else [])
    assert sum(got.values()) == odd.total()


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=naive_bayes(max_features=7, max_instances=512), data=st.data())
def test_robustness_profile_unate_shortcut(case, data, backend):
    """On a binary-class naive Bayes the erosions stay unate: stars by one gather (each
    decision's, both paths per decision: tests/explanation/test_units.py) give the brute
    force's profile."""
    clf, odd = compiled_case(case, backend, data)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    assert bnx.robustness_profile(odd, immutable=immutable, within="all") == \
        brute.robustness_profile(oracle_args(case), immutable)
    assert (odd.meta["least_states"] is None) == (len(clf.class_states) != 2)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_bias_matches_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    protected = data.draw(st.sets(st.sampled_from(case.features)))
    assert bnx.count_biased(odd, protected, within="all") == brute.count_biased(args, protected)
    for x in _some_instances(case, data):
        b = bnx.decision_bias(odd, x, protected, within="all")
        assert isinstance(b, bnx.Bias) and b.biased == bool(b) == brute.biased(args, x, protected)
        y = b.witness
        assert (y is not None) == b.biased
        if y is not None:
            assert b.changes == {f: y[f] for f in case.features if y[f] != x[f]}
            assert all(y[f] == x[f] for f in case.features if f not in protected)
            assert clf.decide(y, within="all") != clf.decide(x, within="all")
            changed = sum(1 for f in case.features if y[f] != x[f])
            assert changed == brute.robustness(args, x, set(case.features) - protected)


@st.composite
def _evidence(draw, case):
    x = draw(instances(case))
    kept = draw(st.sets(st.sampled_from(case.features)))
    return {f: x[f] for f in kept}


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(max_features=5, max_instances=96), data=st.data())
def test_same_decision_probability_is_the_exact_sum(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    for _ in range(3):
        e = data.draw(_evidence(case))
        want = brute.same_decision_probability(args, e)
        if want is None:
            with pytest.raises(bnx.ExplanationError, match="probability zero"):
                bnx.same_decision_probability(clf, e, odd=odd)
            continue
        got = bnx.same_decision_probability(clf, e, odd=odd, exact=True)
        assert isinstance(got, Fraction)
        assert got == want
        pos = bnx.same_decision_probability(clf, e, decision=True, odd=odd, exact=True)
        neg = bnx.same_decision_probability(clf, e, decision=False, odd=odd, exact=True)
        assert pos == brute.same_decision_probability(args, e, True)
        assert pos + neg == 1
        assert got == (pos if clf.decide(e, partial=True, within="all") else neg)
        fast = bnx.same_decision_probability(clf, e, odd=odd)
        assert isinstance(fast, float) and abs(Fraction(fast) - want) <= Fraction(1, 10 ** 9)
        # both exact methods, whichever the function picked: the weighted count over the
        # ODD per joint state of the class and latent variables, and the sum over completions
        idx = clf.encode(e, partial=True)
        total = sum(clf._class_joint(idx))
        priors, parents = same_decision._configurations(clf)
        assert same_decision._weighted_mass(clf, odd, idx, True, priors, parents) / total == pos
        assert same_decision._enumerated_mass(clf, idx, True) / total == pos


def test_same_decision_probability_compiles_once_without_odd():
    clf = bnx.examples.admissions()
    e = {"GPA": "+"}
    assert bnx.same_decision_probability(clf, e) == bnx.same_decision_probability(
        clf, e, odd=bnx.compile(clf, backend="autoref"))
    full = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    assert bnx.same_decision_probability(clf, full) == 1
    assert bnx.same_decision_probability(clf, full, decision=False) == 0
    assert bnx.same_decision_probability(clf, full, exact=True) == 1


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_check_explanation_matches_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    for x in _some_instances(case, data):
        kept = data.draw(st.sets(st.sampled_from(case.features)))
        partial = {f: x[f] for f in kept}
        got = bnx.check_explanation(odd, x, partial, within="all")
        suff, minimal, redundant = brute.check_explanation(args, x, partial)
        assert (got.sufficient, got.minimal, set(got.redundant)) == (suff, minimal, redundant)
        assert bool(got) == suff and got.decision == clf.decide(x, within="all")
        if suff:
            assert frozenset(got.reason.items()) in oracle.pi_explanations(*args, x)
            assert set(got.reason.items()) <= set(partial.items())
            assert got.counterexample is None
        else:
            y = got.counterexample
            assert all(y[f] == s for f, s in partial.items())
            assert clf.decide(y, within="all") != clf.decide(x, within="all")
        for pi in itertools.islice(bnx.pi_explanations(odd, x, within="all"), 3):
            assert bnx.check_explanation(odd, x, pi, within="all").minimal


# ---------------------------------------------------------------------- fixed cases
X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


@pytest.fixture(scope="module")
def odd():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


def test_multi_valued_change_means_any_other_state(backend):
    """A 3-state feature: only its third state flips the decision."""
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["n", "y"]}),
        TabularCPD("A", 3, np.array([[0.25, 0.5], [0.25, 0.5], [0.5, 0.0]]).tolist(),
                   evidence=["C"], evidence_card=[2],
                   state_names={"A": ["a0", "a1", "a2"], "C": ["n", "y"]}),
        TabularCPD("B", 2, [[0.5, 0.25], [0.5, 0.75]], evidence=["C"], evidence_card=[2],
                   state_names={"B": ["b0", "b1"], "C": ["n", "y"]}))
    clf = bnx.Classifier(net, "C", "y")
    o = bnx.compile(clf, backend=backend)
    x = {"A": "a0", "B": "b1"}
    assert clf.decide(x, within="all")
    assert bnx.robustness(o, x) == 1
    assert [dict(c) for c in bnx.counterfactuals(o, x)] == [{"A": "a2"}]
    assert bnx.contrastive_explanations(o, x).to_set() == {frozenset({("A", "a0")})}
    assert bnx.feature_roles(o, x) == {"A": "necessary", "B": "irrelevant"}
    assert bnx.robustness(o, x, immutable=["A"]) == math.inf
    assert bnx.robustness_profile(o) == {1: 6}


def test_a_feature_with_one_state_never_changes(backend):
    """A one-state feature has no bits in the ODD: it is never changed, freed or needed."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "D"), ("C", "B")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["n", "y"]}),
        TabularCPD("A", 3, [[0.5, 0.25], [0.25, 0.25], [0.25, 0.5]], evidence=["C"],
                   evidence_card=[2], state_names={"A": ["a0", "a1", "a2"], "C": ["n", "y"]}),
        TabularCPD("D", 1, [[1.0, 1.0]], evidence=["C"], evidence_card=[2],
                   state_names={"D": ["only"], "C": ["n", "y"]}),
        TabularCPD("B", 2, [[0.75, 0.5], [0.25, 0.5]], evidence=["C"], evidence_card=[2],
                   state_names={"B": ["b0", "b1"], "C": ["n", "y"]}))
    feats = ["A", "D", "B"]
    clf = bnx.Classifier(net, "C", "y", features=feats)
    o = bnx.compile(clf, backend=backend)
    args = (net, "C", "y", 0.5, feats)
    for x in oracle.all_instances(net, feats):
        assert bnx.robustness(o, x) == brute.robustness(args, x)
        assert bnx.counterfactuals(o, x).to_set() == brute.counterfactuals(args, x)
        assert (bnx.contrastive_explanations(o, x).to_set()
                == brute.contrastive_explanations(args, x))
        assert bnx.feature_roles(o, x)["D"] == "irrelevant"
        assert bnx.same_decision_probability(clf, {"D": "only"}, odd=o) == \
            brute.same_decision_probability(args, {"D": "only"})
    assert bnx.robustness_profile(o) == brute.robustness_profile(args)
    assert bnx.count_biased(o, ["D", "B"]) == brute.count_biased(args, ["D", "B"])


@pytest.mark.parametrize("call, error, match", [
    (lambda o: bnx.robustness(o, {"GPA": "+"}), bnx.MissingFeatureError, "no state"),
    (lambda o: bnx.robustness(o, X, immutable="GPA"), bnx.ArgumentError, "immutable"),
    (lambda o: bnx.robustness(o, X, immutable=["Age"]), bnx.UnknownFeatureError, "Age"),
    (lambda o: bnx.counterfactuals(o, {**X, "GPA": "A"}), bnx.UnknownStateError, "'A'"),
    (lambda o: bnx.robustness_profile(o, immutable=[1]), bnx.UnknownFeatureError, "1"),
    (lambda o: bnx.decision_bias(o, X, "GPA"), bnx.ArgumentError, "protected"),
    (lambda o: bnx.count_biased(o, ["Age"]), bnx.UnknownFeatureError, "protected"),
    (lambda o: bnx.contrastive_explanations(o, [1]), bnx.InstanceError, "mapping"),
    (lambda o: bnx.feature_roles(o.classifier, X), bnx.ArgumentError, "compile it"),
    (lambda o: bnx.check_explanation(o, X, {"GPA": "-"}), bnx.ExplanationError, "GPA"),
    (lambda o: bnx.check_explanation(o, X, ["GPA"]), bnx.InstanceError, "mapping"),
    (lambda o: bnx.check_explanation(o, X, {"Age": 3}), bnx.UnknownFeatureError, "Age"),
    (lambda o: bnx.check_explanation(o, X, {"GPA": "?"}), bnx.UnknownStateError, "'\\?'"),
    (lambda o: bnx.same_decision_probability(o.arrays, X), bnx.ArgumentError,
     "a bnx.Classifier or an ODD that holds one"),
    (lambda o: bnx.same_decision_probability(o.classifier, X, decision=1), bnx.ArgumentError,
     "decision"),
    (lambda o: bnx.same_decision_probability(o.classifier, {"Age": 1}),
     bnx.UnknownFeatureError, "Age"),
    (lambda o: bnx.same_decision_probability(o.classifier, X, odd=3), bnx.ArgumentError,
     "expected a bnx.ODD"),
    (lambda o: bnx.same_decision_probability(bnx.examples.admissions(), X, odd=bnx.compile(
        bnx.examples.admissions(threshold=0.9) if _has_threshold_kw() else _other(),
        backend="autoref")), bnx.ArgumentError, "not compiled from"),
])
def test_bad_input_is_a_bnx_error(odd, call, error, match):
    with pytest.raises(error, match=match):
        call(odd)


def _has_threshold_kw() -> bool:
    import inspect
    return "threshold" in inspect.signature(bnx.examples.admissions).parameters


def _other():
    return bnx.Classifier(bnx.examples.admissions_network(), "Admit", "+", threshold=0.9)
