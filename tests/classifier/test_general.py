"""General networks (TAN, random DAGs) and the argmax rule against brute force.

Every property compiles a random classifier from :func:`tests._support.strategies.general_networks`
(class anywhere, hidden internal nodes, internal-node features, barren leaves,
disconnected parts, zeros, exact ties, 2- to 4-state classes, multi-valued
features; threshold and argmax rules) and compares the classifier, the compiled
ODD and the explanations with the independent oracle (``tests/_support/oracle.py``) on
every instance, on both backends.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support import oracle_reasons as brute
from tests._support.strategies import (
    general_networks,
    instances,
    latent_tree,
    naive_bayes,
    on_maps,
    possible_instances,
    tan_networks,
)

CASES = st.one_of(general_networks(), tan_networks())


def classifier(case):
    """The bnx classifier of a generated case (threshold only under the threshold rule)."""
    if case.rule == "argmax":
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                          features=case.features)


def _args(case):
    return case.net, case.class_var, case.positive, case.threshold, case.features


def _compiled(case, backend, data):
    note(repr(case))  # the tables, for a failing example
    clf = classifier(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend=backend)
    assert odd.features == tuple(order)
    return clf, odd


# ---------------------------------------------------------------- the strategies themselves


@given(case=CASES, data=st.data())
@settings(max_examples=40)
def test_oracle_matches_pgmpy_on_general_networks(case, data):
    """The oracle's class joint agrees with pgmpy's variable elimination."""
    from pgmpy.inference import VariableElimination
    if not _columns_sum_to_one(case.net):
        return  # pgmpy prunes barren nodes as if their columns summed to 1; the oracle does not
    table = oracle.class_joint_table(case.net, case.class_var, case.features)
    inst = data.draw(st.sampled_from(sorted(table, key=repr)))
    joint = table[inst]
    total = sum(joint.values(), Fraction(0))
    if total == 0:
        return
    q = VariableElimination(case.net).query([case.class_var],
                                            evidence=dict(zip(case.features, inst)),
                                            show_progress=False)
    names = list(q.state_names[case.class_var])
    for c, p in joint.items():
        assert math.isclose(float(p / total), float(q.values[names.index(c)]), abs_tol=1e-9)


def _columns_sum_to_one(net):
    """Whether every CPT column sums to 1 up to rounding (the strategies' "sloppy" columns
    sum to 1 +- 1/256, which pgmpy accepts)."""
    for cpd in net.get_cpds():
        values = cpd.values.reshape(cpd.values.shape[0], -1)
        if any(abs(math.fsum(values[:, j]) - 1) > 1e-12 for j in range(values.shape[1])):
            return False
    return True


def test_tied_strategy_draws_exact_ties():
    """Some generated networks tie two class states exactly on every instance."""
    seen = []

    @given(case=general_networks(rule="argmax"))
    @settings(max_examples=60, database=None)
    def collect(case):
        table = oracle.class_joint_table(case.net, case.class_var, case.features)
        seen.append(all(len(set(j.values())) < len(j) for j in table.values()))
    collect()
    assert any(seen)


# ---------------------------------------------------------------- decisions, counts, posteriors


@pytest.mark.slow
@given(case=CASES, data=st.data())
def test_decisions_count_and_posterior_match_brute_force(case, data, backend):
    clf, odd = _compiled(case, backend, data)
    table = oracle.decision_table(*_args(case), rule=case.rule)
    joints = oracle.class_joint_table(case.net, case.class_var, case.features)
    for combo, want in table.items():
        x = dict(zip(case.features, combo))
        assert clf.decide(x, within="all") == want, x
        assert odd.decide(x, within="all") == want, x
        total = sum(joints[combo].values(), Fraction(0))
        if total == 0:
            with pytest.raises(bnx.ExplanationError, match="probability zero"):
                clf.posterior(x)
        else:
            exact = joints[combo][case.positive] / total
            assert clf.posterior_exact(x) == exact
            assert math.isclose(clf.posterior(x), float(exact), rel_tol=1e-12, abs_tol=1e-300)
    assert odd.count() == sum(table.values())
    assert odd.total() == len(table)


@given(case=general_networks(rule="argmax"), data=st.data())
@settings(max_examples=30)
def test_argmax_classes_partition_the_instances(case, data):
    """Under argmax, exactly one class state is decided positive on each instance."""
    counts = Counter()
    for c in case.states(case.class_var):
        clf = bnx.Classifier(case.net, case.class_var, c, features=case.features,
                             rule="argmax")
        counts[c] = bnx.compile(clf, backend="autoref").count()
    total = math.prod(len(case.states(f)) for f in case.features)
    assert sum(counts.values()) == total


# ---------------------------------------------------------------- explanations


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=30)
def test_mc_explanations_match_brute_force(case, data, backend):
    clf, odd = _compiled(case, backend, data)
    x = data.draw(instances(case))
    on = data.draw(on_maps(case))
    got = bnx.mc_explanations(odd, x, on=on, within="all")
    want = oracle.mc_explanations(*_args(case), x, on, rule=case.rule)
    assert got.to_set() == want
    assert got.count == len(want)
    assert got.decision == clf.decide(x, within="all")


@given(case=CASES, data=st.data())
@settings(max_examples=30)
def test_pi_explanations_match_brute_force(case, data, backend):
    clf, odd = _compiled(case, backend, data)
    x = data.draw(possible_instances(case))
    want = oracle.pi_explanations(*_args(case), x, rule=case.rule)
    for method in ("inst", "cover"):
        got = bnx.pi_explanations(odd, x, method=method, within="all")  # the total function
        assert got.to_set() == want
        assert got.count == len(want)
        assert got.lengths() == dict(sorted(Counter(len(e) for e in want).items()))


@given(case=CASES, data=st.data())
@settings(max_examples=30)
def test_robustness_profile_matches_brute_force(case, data, backend):
    """Not unate in general: the erosions' stars are conjunctions of cofactors."""
    clf, odd = _compiled(case, backend, data)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    got = bnx.robustness_profile(odd, immutable=immutable, within="all")
    assert got == brute.robustness_profile(_args(case), immutable, rule=case.rule)
    assert sum(got.values()) == odd.total()  # (each decision's, by both erosions:
    # tests/explanation/test_units.py)


@pytest.mark.slow
@given(case=CASES, data=st.data(), decision=st.booleans())
@settings(max_examples=30)
def test_prime_implicants_match_brute_force(case, data, decision, backend):
    _, odd = _compiled(case, backend, data)
    got = bnx.prime_implicants(odd, decision=decision, within="all")
    want = oracle.prime_implicants(*_args(case), decision=decision, rule=case.rule)
    assert got.to_set() == want
    assert got.count == len(want)


# ---------------------------------------------------------------- hand-made cases


def _three_class_net(prior):
    """Class ``Y`` (states a, b, c) -> feature ``F`` (states 0, 1); ``Y`` has a parent ``P``."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("P", "Y"), ("Y", "F")])
    net.add_cpds(
        TabularCPD("P", 2, [[0.5], [0.5]], state_names={"P": ["p0", "p1"]}),
        TabularCPD("Y", 3, [prior, prior, [1 - 2 * v for v in prior]], evidence=["P"],
                   evidence_card=[2], state_names={"Y": ["a", "b", "c"], "P": ["p0", "p1"]}),
        TabularCPD("F", 2, [[0.5, 0.5, 1.0], [0.5, 0.5, 0.0]], evidence=["Y"],
                   evidence_card=[3], state_names={"F": ["0", "1"], "Y": ["a", "b", "c"]}))
    net.check_model()
    return net


@pytest.mark.parametrize("positive, want", [("a", True), ("b", False), ("c", False)])
def test_argmax_first_state_wins_a_tie(positive, want, backend):
    # F = 1: Pr(a, F=1) = Pr(b, F=1) = 0.25 * 0.5 and Pr(c, F=1) = 0: a and b tie, a wins
    net = _three_class_net([0.25, 0.25])
    clf = bnx.Classifier(net, "Y", positive, features=["F"], rule="argmax")
    assert clf.decide({"F": "1"}, within="all") is want
    assert bnx.compile(clf, backend=backend).decide({"F": "1"}, within="all") is want
    assert oracle.decide(net, "Y", positive, None, {"F": "1"}, ["F"], rule="argmax") is want


def test_argmax_zero_probability_instance_goes_to_the_first_state(backend):
    # Pr(c) = 1 and Pr(F=1 | c) = 0: the instance F=1 has probability zero
    net = _three_class_net([0.0, 0.0])
    for positive, want in (("a", True), ("b", False), ("c", False)):
        clf = bnx.Classifier(net, "Y", positive, features=["F"], rule="argmax")
        odd = bnx.compile(clf, backend=backend)
        assert odd.decide({"F": "1"}, within="all") is want
        assert odd.decide({"F": "0"}, within="all") is (positive == "c")
        with pytest.raises(bnx.ExplanationError, match="undefined"):
            clf.posterior({"F": "1"})


def test_argmax_refuses_a_threshold():
    net = _three_class_net([0.25, 0.25])
    with pytest.raises(bnx.BnxError, match="threshold"):
        bnx.Classifier(net, "Y", "a", 0.5, features=["F"], rule="argmax")
    with pytest.raises(bnx.BnxError, match="rule"):
        bnx.Classifier(net, "Y", "a", features=["F"], rule="most-probable")


def test_default_features_are_the_leaves():
    # P -> Y -> F: the only leaf is F
    clf = bnx.Classifier(_three_class_net([0.25, 0.25]), "Y", "a")
    assert clf.features == ("F",)


def test_class_d_separated_from_every_feature(backend):
    """Regression (found by the random DAGs): an isolated class makes f constant."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    w = ["s0", "s1", "s2", "s3"]
    net = DiscreteBayesianNetwork([("W", "F")])
    net.add_nodes_from(["C", "E", "G"])
    net.add_cpds(
        *(TabularCPD(v, 2, [[0.5], [0.5]], state_names={v: ["-", "+"]}) for v in "CEG"),
        TabularCPD("W", 4, [[3 / 8], [1 / 4], [3 / 8], [0]], state_names={"W": w}),
        TabularCPD("F", 2, [[0.5, 0.5, 0.5, 1], [0.5, 0.5, 0.5, 0]], evidence=["W"],
                   evidence_card=[4], state_names={"F": ["-", "+"], "W": w}))
    for positive, rule, want in (("-", "argmax", 32), ("+", "argmax", 0),
                                 ("+", "threshold", 32)):
        if rule == "argmax":
            clf = bnx.Classifier(net, "C", positive, features=["W", "F", "E", "G"], rule=rule)
        else:  # Pr(+ | x) = 1/2 >= 1/2 everywhere
            clf = bnx.Classifier(net, "C", positive, threshold=0.5, features=["W", "F", "E", "G"])
        odd = bnx.compile(clf, ["F", "W", "E", "G"], backend=backend)
        assert odd.count() == want == oracle.count_positive(
            net, "C", positive, 0.5, ["W", "F", "E", "G"], rule=rule)


@pytest.mark.slow
@settings(max_examples=40)
@given(case=st.one_of(naive_bayes(max_features=4, max_instances=64),
                      latent_tree(max_features=4, max_instances=64)),
       first=st.booleans())
def test_two_class_argmax_on_trees_through_the_threshold_engines(backend, case, first):
    """Two-class naive Bayes and latent trees under argmax are compiled by the tree engines
    (the first state at threshold 1/2, negated for the second): exact ties included."""
    from hypothesis import assume
    states = case.states(case.class_var)
    assume(len(states) == 2)
    positive = states[0] if first else states[1]
    clf = bnx.Classifier(case.net, case.class_var, positive, features=case.features,
                         rule="argmax")
    odd = bnx.compile(clf, backend=backend)
    table = oracle.decision_table(case.net, case.class_var, positive, None, case.features,
                                  rule="argmax")
    for key, want in table.items():
        x = dict(zip(case.features, key))
        assert odd.decide(x, within="all") == want == clf.decide(x, within="all")
    assert odd.count() == sum(table.values())
