"""Sanity checks of the brute-force oracle (tests/_support/oracle.py) and strategies.

The admissions classifier of the paper (Section 3) is rebuilt by hand and the
oracle is checked against Tables 1 and 2 of the paper.  Random networks from
the strategies are checked to be valid and the oracle's posteriors are
cross-checked against pgmpy's own variable elimination.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import VariableElimination
from pgmpy.models import DiscreteBayesianNetwork

from tests._support import oracle
from tests._support.strategies import (
    Case,
    binary_on_maps,
    classifiers,
    instances,
    latent_tree,
    naive_bayes,
    on_maps,
)

# max_examples comes from the active hypothesis profile (tests/conftest.py)
SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------------
# The admissions classifier (paper, Section 3)
# ---------------------------------------------------------------------------

FEATURES = ["W", "F", "E", "G"]
RATES = {"W": (0.10, 0.04), "F": (0.20, 0.30), "E": (0.15, 0.60), "G": (0.11, 0.03)}
ON = {f: "+" for f in FEATURES}


def admissions():
    net = DiscreteBayesianNetwork([("A", f) for f in FEATURES])
    cpds = [TabularCPD("A", 2, [[0.7], [0.3]], state_names={"A": ["-", "+"]})]
    for f, (fp, fn) in RATES.items():
        # columns: A='-', A='+'; rows: f='-', f='+'
        cpds.append(TabularCPD(f, 2, [[1 - fp, fn], [fp, 1 - fn]], evidence=["A"],
                               evidence_card=[2],
                               state_names={f: ["-", "+"], "A": ["-", "+"]}))
    net.add_cpds(*cpds)
    assert net.check_model()
    return net


def inst(s):
    """'+--+' -> {'W': '+', 'F': '-', 'E': '-', 'G': '+'}"""
    return dict(zip(FEATURES, s))


def fs(s):
    return frozenset(inst(s).items())


def lits(s):
    """'wg' -> {W:+, G:+};  'WG' (upper case) -> {W:-, G:-} (negated literals)."""
    return frozenset((c.upper(), "+" if c.islower() else "-") for c in s)


# Table 1 / Table 2 of the paper: instance -> (posterior, decision, MCs, PIs)
TABLE = {
    "----": ("0.0002", False, ["--++", "-+-+", "-++-", "+-+-", "++--"],
             ["WF", "WE", "WG", "FG", "EG"]),
    "---+": ("0.0426", False, ["--++", "-+-+"], ["WF", "WE"]),
    "--+-": ("0.0006", False, ["--++", "-++-", "+-+-"], ["WF", "WG", "FG"]),
    "--++": ("0.1438", False, ["--++"], ["WF"]),
    "-+--": ("0.0016", False, ["-+-+", "-++-", "++--"], ["WE", "WG", "EG"]),
    "-+-+": ("0.2933", False, ["-+-+"], ["WE"]),
    "-++-": ("0.0060", False, ["-++-"], ["WG"]),
    "-+++": ("0.6105", True, ["-+++"], ["feg"]),
    "+---": ("0.0354", False, ["++--", "+-+-"], ["FG", "EG"]),
    "+--+": ("0.9057", True, ["+--+"], ["wg"]),
    "+-+-": ("0.1218", False, ["+-+-"], ["FG"]),
    "+-++": ("0.9732", True, ["+--+"], ["wg"]),
    "++--": ("0.2552", False, ["++--"], ["EG"]),
    "++-+": ("0.9890", True, ["+--+"], ["wg"]),
    "+++-": ("0.5642", True, ["+++-"], ["wfe"]),
    "++++": ("0.9971", True, ["+--+"], ["wg", "wfe", "feg"]),
}

ARGS = ("A", "+", 0.5)


@pytest.fixture(scope="module")
def net():
    return admissions()


def test_all_instances_order(net):
    rows = oracle.all_instances(net, FEATURES)
    assert ["".join(r[f] for f in FEATURES) for r in rows] == list(TABLE)


@pytest.mark.parametrize("row", ["----", "-+++", "+++-", "++++"])
def test_posterior_hand_computed(net, row):
    x = inst(row)
    pos, neg = Fraction(0.3), Fraction(0.7)
    for f, (fp, fn) in RATES.items():
        # the CPT stores the floats fp, fn, 1 - fp, 1 - fn (float subtraction)
        pos *= Fraction(1 - fn) if x[f] == "+" else Fraction(fn)
        neg *= Fraction(fp) if x[f] == "+" else Fraction(1 - fp)
    expected = pos / (pos + neg)
    assert oracle.posterior(net, *ARGS, x, FEATURES) == expected
    cj = oracle.class_joint(net, "A", x, FEATURES)
    assert cj == {"+": pos, "-": neg}


@pytest.mark.parametrize("row", list(TABLE))
def test_table_posterior_and_decision(net, row):
    p_str, decision, _, _ = TABLE[row]
    p = oracle.posterior(net, *ARGS, inst(row), FEATURES)
    assert f"{float(p):.4f}" == p_str
    assert oracle.decide(net, *ARGS, inst(row), FEATURES) is decision


@pytest.mark.parametrize("row", list(TABLE))
def test_table1_mc_explanations(net, row):
    _, _, mcs, _ = TABLE[row]
    got = oracle.mc_explanations(net, *ARGS, FEATURES, inst(row), ON)
    assert got == {fs(m) for m in mcs}
    # the on map may also be given as sets
    got_sets = oracle.mc_explanations(net, *ARGS, FEATURES, inst(row), {f: {"+"} for f in FEATURES})
    assert got_sets == got


@pytest.mark.parametrize("row", list(TABLE))
def test_table2_pi_explanations(net, row):
    _, _, _, pis = TABLE[row]
    got = oracle.pi_explanations(net, *ARGS, FEATURES, inst(row))
    assert got == {lits(p) for p in pis}


def test_count_positive_and_primes(net):
    assert oracle.count_positive(net, *ARGS, FEATURES) == 6
    assert oracle.prime_implicants(net, *ARGS, FEATURES) == {lits(p) for p in ["wg", "wfe", "feg"]}
    assert oracle.prime_implicants(net, *ARGS, FEATURES, decision=False) == {
        lits(p) for p in ["WF", "WE", "WG", "FG", "EG"]
    }


def test_admissions_is_monotone(net):
    assert oracle.is_monotone(net, *ARGS, FEATURES, ON) == (True, None)
    # with '-' as the on state the function is anti-monotone, hence not monotone
    ok, (x_star, x) = oracle.is_monotone(net, *ARGS, FEATURES, {f: "-" for f in FEATURES})
    assert not ok
    assert oracle.decide(net, *ARGS, x_star, FEATURES)
    assert not oracle.decide(net, *ARGS, x, FEATURES)


def test_mc_explanations_fixed(net):
    # (+,+,+,+) with W fixed: W no longer counts; best keeps only G on.
    got = oracle.mc_explanations(net, *ARGS, FEATURES, inst("++++"), ON, fixed=["W"])
    assert got == {fs("+--+")}
    # (-,+,+,+) with G fixed: dropping F or E flips the decision.
    got = oracle.mc_explanations(net, *ARGS, FEATURES, inst("-+++"), ON, fixed=["G"])
    assert got == {fs("-+++")}


def test_threshold_types_and_extremes(net):
    x = inst("+++-")
    p = oracle.posterior(net, *ARGS, x, FEATURES)
    # exact tie: positive; a hair above: negative
    assert oracle.decide(net, "A", "+", p, x, FEATURES)
    assert not oracle.decide(net, "A", "+", p + Fraction(1, 10**30), x, FEATURES)
    assert oracle.count_positive(net, "A", "+", 0, FEATURES) == 16
    assert oracle.count_positive(net, "A", "+", 1, FEATURES) == 0
    assert oracle.count_positive(net, "A", "+", Fraction(1, 2), FEATURES) == 6
    # negative class as the positive state
    assert oracle.count_positive(net, "A", "-", 0.5, FEATURES) == 10


# ---------------------------------------------------------------------------
# Zero probabilities, ties, multi-valued classes, CPT axis order
# ---------------------------------------------------------------------------


def test_zero_probability_instance_is_positive():
    net = DiscreteBayesianNetwork([("C", "X")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["n", "y"]}),
        TabularCPD("X", 3, [[0.5, 0.5], [0.5, 0.5], [0.0, 0.0]], evidence=["C"],
                   evidence_card=[2], state_names={"X": ["a", "b", "c"], "C": ["n", "y"]}),
    )
    assert net.check_model()
    for t in (0, 0.5, 1):
        assert oracle.decide(net, "C", "y", t, {"X": "c"}, ["X"])
        assert oracle.posterior(net, "C", "y", t, {"X": "c"}, ["X"]) is None
        # exact tie at 1/2 for the other states
        assert oracle.decide(net, "C", "y", 0.5, {"X": "a"}, ["X"])
    assert not oracle.decide(net, "C", "y", 1, {"X": "a"}, ["X"])


def test_three_class_positive_vs_rest():
    net = DiscreteBayesianNetwork([("C", "X")])
    net.add_cpds(
        TabularCPD("C", 3, [[0.25], [0.25], [0.5]], state_names={"C": [0, 1, 2]}),
        TabularCPD("X", 2, [[1.0, 0.5, 0.0], [0.0, 0.5, 1.0]], evidence=["C"],
                   evidence_card=[3], state_names={"X": [0, 1], "C": [0, 1, 2]}),
    )
    # P(C, X=1) = (0, 1/8, 1/2): P(C=2 | X=1) = 4/5, P(C=1 | X=1) = 1/5
    assert oracle.class_joint(net, "C", {"X": 1}, ["X"]) == {0: 0, 1: Fraction(1, 8),
                                                             2: Fraction(1, 2)}
    assert oracle.posterior(net, "C", 2, 0.5, {"X": 1}, ["X"]) == Fraction(4, 5)
    assert oracle.decide(net, "C", 2, Fraction(4, 5), {"X": 1}, ["X"])
    assert not oracle.decide(net, "C", 1, 0.25, {"X": 1}, ["X"])
    assert oracle.decide(net, "C", 1, 0.2, {"X": 1}, ["X"]) == (Fraction(0.2) <= Fraction(1, 5))


def test_cpt_axes_follow_variables_and_latents_summed():
    # X has two parents listed as evidence=['B', 'A']; compare against a
    # hand computation and pgmpy's variable elimination.
    sn = {"X": ["lo", "hi"], "B": [0, 1, 2], "A": ["a", "b"]}
    values = [[0.25, 0.5, 1.0, 0.0, 0.125, 0.375], [0.75, 0.5, 0.0, 1.0, 0.875, 0.625]]
    cx = TabularCPD("X", 2, values, evidence=["B", "A"], evidence_card=[3, 2], state_names=sn)
    net = DiscreteBayesianNetwork([("A", "X"), ("B", "X"), ("A", "B")])
    net.add_cpds(
        cx,
        TabularCPD("A", 2, [[0.5], [0.5]], state_names={"A": ["a", "b"]}),
        TabularCPD("B", 3, [[0.25, 0.5], [0.25, 0.25], [0.5, 0.25]], evidence=["A"],
                   evidence_card=[2], state_names={"B": [0, 1, 2], "A": ["a", "b"]}),
    )
    assert net.check_model()
    # P(A=b, B=1, X=lo) = 1/2 * 1/4 * values[0][(B=1)*2 + (A=b)] = 1/2*1/4*0
    assert oracle.joint(net, {"A": "b", "B": 1, "X": "lo"}) == 0
    assert (oracle.joint(net, {"A": "a", "B": 2, "X": "hi"})
            == Fraction(1, 2) * Fraction(1, 2) * Fraction(7, 8))
    # class A, feature X, latent B summed out
    cj = oracle.class_joint(net, "A", {"X": "lo"}, ["X"])
    exp_a = Fraction(1, 2) * (Fraction(1, 4) * Fraction(1, 4) + Fraction(1, 4) * 1
                              + Fraction(1, 2) * Fraction(1, 8))
    exp_b = Fraction(1, 2) * (Fraction(1, 2) * Fraction(1, 2) + Fraction(1, 4) * 0
                              + Fraction(1, 4) * Fraction(3, 8))
    assert cj == {"a": exp_a, "b": exp_b}
    ve = VariableElimination(net).query(["A"], evidence={"X": "lo"}, show_progress=False)
    p = oracle.posterior(net, "A", "a", 0.5, {"X": "lo"}, ["X"])
    assert float(p) == pytest.approx(ve.get_value(A="a"), abs=1e-12)


# ---------------------------------------------------------------------------
# Strategies produce valid networks; oracle agrees with pgmpy
# ---------------------------------------------------------------------------


def _check_case(case):
    net = case.net
    assert isinstance(case, Case)
    assert isinstance(net, DiscreteBayesianNetwork)
    assert net.check_model()
    assert 1 <= len(case.features) <= 6
    assert len(set(case.features)) == len(case.features)
    assert case.class_var not in case.features
    assert case.positive in case.states(case.class_var)
    assert 2 <= len(case.states(case.class_var)) <= 3
    leaves = {n for n in net.nodes() if net.out_degree(n) == 0}
    assert leaves == set(case.features)
    assert net.in_degree(case.class_var) == 0
    for n in net.nodes():
        assert net.in_degree(n) <= 1  # a tree rooted at the class
        cpd = net.get_cpds(n)
        assert cpd.variables[0] == n
        vals = np.asarray(cpd.values, dtype=float).reshape(cpd.cardinality[0], -1)
        assert (vals >= 0).all()
        sums = [float(sum(Fraction(float(v)) for v in vals[:, j])) for j in range(vals.shape[1])]
        # 'sloppy' columns sum to 1 +- 1/256 on purpose (pgmpy's tolerance is 0.01)
        assert all(abs(s - 1) <= 1 / 256 + 1e-9 for s in sums)
    for f in case.features:
        assert 2 <= len(case.states(f)) <= 4
    t = oracle.to_fraction(case.threshold)
    assert 0 <= t <= 1
    return net


@SETTINGS
@given(naive_bayes())
def test_naive_bayes_strategy_valid(case):
    net = _check_case(case)
    assert set(net.predecessors(case.features[0])) == {case.class_var}
    assert set(net.nodes()) == set(case.features) | {case.class_var}


@SETTINGS
@given(latent_tree())
def test_latent_tree_strategy_valid(case):
    net = _check_case(case)
    latents = set(net.nodes()) - set(case.features) - {case.class_var}
    assert 1 <= len(latents) <= 3
    for h in latents:
        assert net.out_degree(h) >= 1
        assert 2 <= len(case.states(h)) <= 3


@pytest.mark.slow
@SETTINGS
@given(classifiers(), st.data())
def test_oracle_matches_pgmpy_inference(case, data):
    x = data.draw(instances(case))
    cj = oracle.class_joint(case.net, case.class_var, x, case.features)
    total = sum(cj.values())
    assume(total > 0)
    ve = VariableElimination(case.net).query(
        [case.class_var], evidence=x, joint=False, show_progress=False
    )[case.class_var]
    for c, p in cj.items():
        assert float(p / total) == pytest.approx(ve.get_value(**{case.class_var: c}), abs=1e-9)


@pytest.mark.slow
@SETTINGS
@given(classifiers(), st.data())
def test_oracle_internal_consistency(case, data):
    args = (case.net, case.class_var, case.positive, case.threshold, case.features)
    x = data.draw(instances(case))
    d = oracle.decide(case.net, case.class_var, case.positive, case.threshold, x, case.features)
    # PI-explanations are the prime implicants (of f or its complement) inside x
    primes = oracle.prime_implicants(*args, decision=d)
    pis = oracle.pi_explanations(*args, x)
    assert pis == {z for z in primes if z <= frozenset(x.items())}
    # MC-explanations keep the decision and only move allowed features
    on = data.draw(on_maps(case))
    fixed = data.draw(st.lists(st.sampled_from(case.features), unique=True))
    mcs = oracle.mc_explanations(*args, x, on, fixed)
    assert mcs
    for m in mcs:
        m = dict(m)
        assert oracle.decide(case.net, case.class_var, case.positive, case.threshold, m,
                             case.features) == d
        for f in case.features:
            if f in fixed or ((x[f] in on[f]) != d):
                assert m[f] == x[f]
            elif m[f] != x[f]:
                assert (m[f] in on[f]) != d
    n_pos = oracle.count_positive(*args)
    assert n_pos == sum(
        oracle.decide(case.net, case.class_var, case.positive, case.threshold, y, case.features)
        for y in oracle.all_instances(case.net, case.features)
    )


@SETTINGS
@given(classifiers(binary=True), st.data())
def test_theorem_monotone_mc_match_shortest_pi(case, data):
    """Paper Theorem 3 on random monotone binary classifiers."""
    assert all(len(case.states(f)) == 2 for f in case.features)
    args = (case.net, case.class_var, case.positive, case.threshold, case.features)
    on = data.draw(binary_on_maps(case))
    mono, witness = oracle.is_monotone(*args, on)
    if not mono:
        x_star, x = witness
        assert oracle.decide(case.net, case.class_var, case.positive, case.threshold, x_star,
                             case.features)
        assert not oracle.decide(case.net, case.class_var, case.positive, case.threshold, x,
                                 case.features)
        return
    x = data.draw(instances(case))
    d = oracle.decide(case.net, case.class_var, case.positive, case.threshold, x, case.features)
    mcs = oracle.mc_explanations(*args, x, on)
    pis = oracle.pi_explanations(*args, x)
    shortest = min(len(z) for z in pis)
    off = {f: next(s for s in case.states(f) if s != on[f]) for f in case.features}
    fill = off if d else on  # positive: missing features set off; negative: on

    def match(z):
        zd = dict(z)
        return frozenset((f, zd.get(f, fill[f])) for f in case.features)

    assert mcs == {match(z) for z in pis if len(z) == shortest}
