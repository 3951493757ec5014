"""The multi-class oracle (tests/_support/oracle_multiclass.py) checked three ways.

1. A three-class naive Bayes worked out by hand: an exact tie, an instance of probability
   zero, every question's answer written down.
2. Random multi-class networks (``multiclass_networks``): the posteriors against pgmpy's
   variable elimination, and the strategy's promises (class sizes, ties, zeros).
3. The same networks against bnx's binary machinery where the two overlap: the decision of
   ``Classifier(net, class_var, s, rule="argmax")`` is ``[oracle decision == s]`` on every
   instance, its exact class joint is the oracle's, and every question of the multi-class
   oracle is a binary question on one class's indicator (the decided class without a
   rival, the rival's or the target's otherwise), which bnx answers on that ODD.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import VariableElimination
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from tests._support import oracle
from tests._support.oracle_multiclass import MultiOracle, argmax, minimal_hitting_sets
from tests._support.strategies import (
    instances,
    multiclass_networks,
    partial_instances,
    possible_instances,
)

# ---------------------------------------------------------------------------
# 1. By hand
# ---------------------------------------------------------------------------


def _hand_network():
    """C in (a, b, c), prior (1/2, 1/4, 1/4); F1 in (0, 1), F2 in (x, y, z, w), w never.

    Pr(C, F1, F2) (every entry a multiple of 1/16):
    F1=0: a x 1/8, a y 1/8, c x 1/16, c y 1/16, c z 1/8;
    F1=1: a x 1/8, a y 1/8, b y 1/8, b z 1/8.
    """
    cs = ["a", "b", "c"]
    net = DiscreteBayesianNetwork([("C", "F1"), ("C", "F2")])
    net.add_cpds(
        TabularCPD("C", 3, [[0.5], [0.25], [0.25]], state_names={"C": cs}),
        TabularCPD("F1", 2, [[0.5, 0.0, 1.0], [0.5, 1.0, 0.0]], evidence=["C"],
                   evidence_card=[3], state_names={"F1": ["0", "1"], "C": cs}),
        TabularCPD("F2", 4, [[0.5, 0.0, 0.25], [0.5, 0.5, 0.25], [0.0, 0.5, 0.5],
                             [0.0, 0.0, 0.0]], evidence=["C"], evidence_card=[3],
                   state_names={"F2": ["x", "y", "z", "w"], "C": cs}),
    )
    assert net.check_model()
    return net


def _x(f1, f2):
    return {"F1": f1, "F2": f2}


def _z(**kw):
    return frozenset(kw.items())


@pytest.fixture(scope="module")
def hand():
    return MultiOracle(_hand_network(), "C", ["F1", "F2"])


def test_hand_decisions_ties_and_zeros(hand):
    assert hand.classes == ("a", "b", "c")
    want = {("0", "x"): "a", ("0", "y"): "a", ("0", "z"): "c", ("0", "w"): "a",
            ("1", "x"): "a", ("1", "y"): "a", ("1", "z"): "b", ("1", "w"): "a"}
    assert hand.decisions() == want  # (1, y) ties a and b: a, the first; (., w) is all 0
    assert hand.count() == {"a": 6, "b": 1, "c": 1}
    assert hand.joint(_x("1", "y")) == {"a": Fraction(1, 8), "b": Fraction(1, 8), "c": 0}
    assert hand.class_probabilities(_x("0", "x")) == {"a": Fraction(2, 3), "b": 0,
                                                      "c": Fraction(1, 3)}
    assert hand.class_probabilities(_x("0", "w")) is None
    e = {"F1": "1"}
    assert hand.class_probabilities(e, partial=True) == {"a": Fraction(1, 2),
                                                         "b": Fraction(1, 2), "c": 0}
    assert hand.decide(e, partial=True) == "a"
    # Pr(b, z) = 1/8 (F1 = 1), Pr(c, z) = 1/8 (F1 = 0): tied, and b comes first
    assert hand.joint({"F2": "z"}, partial=True) == {"a": 0, "b": Fraction(1, 8),
                                                     "c": Fraction(1, 8)}
    assert argmax({"a": 0, "b": 1, "c": 1}, ("a", "b", "c")) == "b"
    assert hand.indicator("b") == {k: d == "b" for k, d in want.items()}


def test_hand_decide_partial_tie_goes_to_the_first_state(hand):
    assert hand.decide({"F2": "z"}, partial=True) == "b"
    assert hand.decide({}, partial=True) == "a"  # a 1/2, b 1/4, c 1/4


def test_hand_explanations(hand):
    x = _x("1", "y")  # decided a (tied with b)
    assert hand.pi_explanations(x) == {_z(F2="y")}
    assert hand.pi_explanations(x, rival="b") == {_z(F2="y")}
    assert hand.pi_explanations(x, rival="c") == {_z(F1="1"), _z(F2="y")}
    assert hand.contrastive_explanations(x) == {_z(F2="y")}
    assert hand.contrastive_explanations(x, rival="c") == {_z(F1="1", F2="y")}
    assert hand.feature_roles(x) == {"F1": "irrelevant", "F2": "necessary"}
    assert hand.feature_roles(x, rival="c") == {"F1": "relevant", "F2": "relevant"}
    assert hand.check_explanation(x, {"F1": "1", "F2": "y"}, rival="c") == (
        True, False, {"F1", "F2"})
    assert hand.check_explanation(x, {"F1": "1"}) == (False, False, set())
    assert hand.prime_implicants("b") == {_z(F1="1", F2="z")}
    assert hand.prime_implicants("c") == {_z(F1="0", F2="z")}
    with pytest.raises(ValueError, match="decided class itself"):
        hand.pi_explanations(x, rival="a")
    with pytest.raises(ValueError, match="not a class state"):
        hand.pi_explanations(x, rival="d")


def test_hand_counterfactuals_and_robustness(hand):
    x = _x("1", "y")
    assert hand.counterfactuals(x) == {_z(F2="z"): "b"}
    assert hand.robustness(x) == 1
    assert hand.counterfactuals(x, target="c") == {_z(F1="0", F2="z"): "c"}
    assert hand.robustness(x, target="c") == 2
    assert hand.robustness(x, target="c", immutable=["F1"]) == math.inf
    assert hand.counterfactuals(x, target="c", immutable=["F1"]) == {}
    with pytest.raises(ValueError, match="decided class itself"):
        hand.robustness(x, target="a")
    # (0, z) is c and (1, z) is b: one change each; every a is one change from b or c
    assert hand.robustness_profile() == {1: 8}
    assert hand.biased(x, ["F1"]) is False and hand.biased(_x("0", "z"), ["F1"]) is True
    assert hand.count_biased(["F1"]) == 2


def test_hand_probabilities(hand):
    e = {"F1": "1"}  # a 1/4 (x, y), b 1/4 (y, z): a decided; (1, z) is b
    assert hand.same_decision_probability(e) == Fraction(3, 4)
    assert hand.same_decision_probability(e, decision="b") == Fraction(1, 4)
    assert hand.same_decision_probability(_x("0", "w")) is None
    # F2's outcomes: x (1/8, a), y (1/4, a), z (1/8, b), w (0): each outcome is certain
    assert hand.next_observations(e) == {"F2": (Fraction(1), Fraction(1, 4))}
    # F1 = 0: (0, x) and (0, y) are a (3/16 each), (0, z) is c (1/8), of 1/2
    assert hand.decision_rates({"F1": "0"}) == {"a": Fraction(3, 4), "b": 0,
                                                "c": Fraction(1, 4)}
    assert hand.decision_rates({"F1": "1"}, class_state="b") == {"a": Fraction(1, 2),
                                                                 "b": Fraction(1, 2), "c": 0}
    assert hand.decision_rates({"F2": "w"}) is None


def test_hand_attributions(hand):
    values, base = hand.shap_values(_x("1", "y"), [_x("0", "z")])
    # v({}) = c, v({F1}) = b (1, z), v({F2}) = a (0, y), v({F1, F2}) = a
    assert base == {"a": 0, "b": 0, "c": 1}
    half = Fraction(1, 2)
    assert values == {"F1": {"a": 0, "b": half, "c": -half},
                      "F2": {"a": 1, "b": -half, "c": -half}}
    assert hand.banzhaf_values(_x("1", "y"), [_x("0", "z")]) == (values, base)  # n = 2
    assert hand.as_array(values) == [[0, half, -half], [1, -half, -half]]
    frame = pd.DataFrame([_x("0", "z")], columns=["F2", "F1"])
    assert hand.shap_values(_x("1", "y"), frame) == (values, base)
    uniform, _ = hand.shap_values(_x("1", "y"), {})
    assert uniform == hand.shap_values(_x("1", "y"), {"F1": {"0": 0.5, "1": 0.5}})[0]


# ---------------------------------------------------------------------------
# 2. Random networks: pgmpy, and what the strategy promises
# ---------------------------------------------------------------------------


@given(case=multiclass_networks(), data=st.data())
@settings(max_examples=25, deadline=None)
def test_posteriors_match_pgmpy(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    assert 3 <= len(brute.classes) <= 6 and 2 <= len(case.features) <= 5
    assert sum(brute.count().values()) == math.prod(len(case.states(f))
                                                    for f in case.features)
    e = data.draw(partial_instances(case), label="e")
    probs = brute.class_probabilities(e, partial=True)
    assume(probs is not None)
    ve = VariableElimination(case.net).query([case.class_var], evidence=e or None,
                                             joint=False, show_progress=False)
    for c, p in probs.items():
        assert float(p) == pytest.approx(ve[case.class_var].get_value(**{case.class_var: c}),
                                         abs=1e-9)
    assert brute.decide(e, partial=True) == argmax(probs, brute.classes)


@pytest.mark.slow
def test_the_strategy_draws_ties_zeros_and_hidden_nodes():
    """Over a fixed run of draws, each hard case and each structure bnx compiles turns
    up."""
    seen = {"tie": 0, "zero": 0, "hidden": 0, "class parent": 0}
    structures = {"naive_bayes": 0, "latent_tree": 0, "tan": 0, "general": 0}

    @given(case=multiclass_networks())
    @settings(max_examples=80, deadline=None, derandomize=True, database=None)
    def draw(case):
        brute = MultiOracle.of(case)
        structures[_binary(case, brute.classes[0]).structure] += 1
        joints = [j for j in brute._joint.values()]
        seen["zero"] += any(sum(j.values()) == 0 for j in joints)
        seen["tie"] += any(sum(1 for p in j.values() if p == max(j.values())) > 1
                           and max(j.values()) > 0 for j in joints)
        seen["hidden"] += bool(set(case.net.nodes()) - set(case.features) - {case.class_var})
        seen["class parent"] += case.net.in_degree(case.class_var) > 0

    draw()
    assert all(seen.values()), seen
    assert all(structures.values()), structures


# ---------------------------------------------------------------------------
# 3. Against bnx's binary classifiers, one class at a time
# ---------------------------------------------------------------------------

CASES = multiclass_networks(max_features=4, max_instances=36)


def _binary(case, state):
    return bnx.Classifier(case.net, case.class_var, state, rule="argmax",
                          features=case.features)


@given(case=multiclass_networks(), data=st.data())
@settings(max_examples=20, deadline=None)
def test_decisions_and_joints_match_binary_argmax(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    clfs = {s: _binary(case, s) for s in brute.classes}
    for x in brute.instances():
        d = brute.decide(x)
        assert [clfs[s].decide(x, within="all") for s in brute.classes] == \
            [s == d for s in brute.classes]
    x = data.draw(instances(case), label="x")
    assert clfs[brute.classes[0]].class_joint(x) == [brute.joint(x)[c] for c in brute.classes]
    e = data.draw(partial_instances(case), label="e")
    joint = brute.joint(e, partial=True)
    assert clfs[brute.classes[-1]].class_joint(e, partial=True) == [joint[c]
                                                                   for c in brute.classes]
    d = brute.decide(e, partial=True)
    assert all(clfs[s].decide(e, partial=True, within="all") == (s == d)
               for s in brute.classes)


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_questions_are_binary_questions_on_one_class(case, data):
    """Without a rival, x's class's indicator; with ``rival=b`` or ``target=b``, b's."""
    note(repr(case))
    brute = MultiOracle.of(case)
    x = data.draw(possible_instances(case), label="x")
    a = brute.decide(x)
    others = [c for c in brute.classes if c != a]
    b = data.draw(st.sampled_from(others), label="rival")
    immutable = data.draw(st.sets(st.sampled_from(case.features)), label="immutable")
    for state, rival in ((a, None), (b, b)):
        odd = bnx.compile(_binary(case, state), backend="autoref")
        assert odd.decide(x) == (rival is None)
        assert bnx.pi_explanations(odd, x, within="all").to_set() == brute.pi_explanations(x, rival)
        assert (bnx.contrastive_explanations(odd, x, within="all").to_set()
                == brute.contrastive_explanations(x, rival))
        assert bnx.feature_roles(odd, x, within="all") == brute.feature_roles(x, rival)
        cfs = brute.counterfactuals(x, target=rival, immutable=immutable)
        assert bnx.counterfactuals(odd, x, immutable=immutable, within="all").to_set() == set(cfs)
        assert bnx.robustness(odd, x, immutable=immutable, within="all") == brute.robustness(
            x, target=rival, immutable=immutable)
        if rival is not None:
            assert set(cfs.values()) <= {b}
        else:
            assert a not in set(cfs.values())
        on = {f: data.draw(st.sets(st.sampled_from(case.states(f))), label=f"on {f}")
              for f in case.features}
        got = bnx.mc_explanations(odd, x, on=on, within="all").to_set()
        assert got == brute.mc_explanations(x, on, rival=rival)


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_mc_explanations_are_the_binary_oracles_on_the_indicator(case, data):
    brute = MultiOracle.of(case)
    x = data.draw(instances(case), label="x")
    a = brute.decide(x)
    b = data.draw(st.sampled_from([c for c in brute.classes if c != a]), label="rival")
    on = {f: data.draw(st.sets(st.sampled_from(case.states(f))), label=f"on {f}")
          for f in case.features}
    fixed = data.draw(st.sets(st.sampled_from(case.features)), label="fixed")
    for state, rival in ((a, None), (b, b)):
        want = oracle.mc_explanations(case.net, case.class_var, state, None, case.features,
                                      x, on, fixed, table=brute.indicator(state))
        assert brute.mc_explanations(x, on, fixed, rival=rival) == want


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_sdp_matches_binary_sdp_of_the_decided_class(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    e = data.draw(partial_instances(case), label="e")
    sdp = brute.same_decision_probability(e)
    assume(sdp is not None)
    d = brute.decide(e, partial=True)
    clf = _binary(case, d)
    assert bnx.same_decision_probability(clf, e, exact=True) == sdp
    other = data.draw(st.sampled_from(brute.classes), label="decision")
    assert (bnx.same_decision_probability(_binary(case, other), e, decision=True, exact=True)
            == brute.same_decision_probability(e, decision=other))
    # each outcome of one more feature is certain when the feature is the last one missing
    nxt = brute.next_observations(e)
    missing = [f for f in case.features if f not in e]
    assert set(nxt) == set(missing)
    if len(missing) == 1:
        assert nxt[missing[0]][0] == 1


@given(case=CASES, data=st.data(), kind=st.sampled_from(["shap", "banzhaf"]))
@settings(max_examples=15, deadline=None)
def test_attributions_are_binary_attributions_per_class(case, data, kind):
    note(repr(case))
    brute = MultiOracle.of(case)
    x = data.draw(instances(case), label="x")
    rows = data.draw(st.lists(instances(case), min_size=1, max_size=3), label="background")
    values, base = getattr(brute, f"{kind}_values")(x, rows)
    a = brute.decide(x)
    assert sum(base.values()) == 1
    for f in case.features:
        assert sum(values[f].values()) == 0  # the classes' games sum to the constant 1
    if kind == "shap":
        for c in brute.classes:
            assert base[c] + sum(values[f][c] for f in case.features) == (c == a)
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    frame = pd.DataFrame(rows, columns=case.features)
    for c in brute.classes:
        if c != a and c != brute.classes[-1]:
            continue  # the decided class and one other: enough, and fast
        got = fn(bnx.compile(_binary(case, c), backend="autoref"), x, frame, exact=True)
        assert dict(zip(got.feature_names, got.values)) == {f: values[f][c]
                                                            for f in case.features}
        assert got.base_values == base[c]


@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_the_oracles_own_dualities(case, data):
    """Contrastive explanations are the minimal hitting sets of the PI-explanations, their
    shortest are as long as the robustness, PI-explanations are the prime implicants
    inside x, and the profile counts every instance (no bnx involved)."""
    brute = MultiOracle.of(case)
    x = data.draw(instances(case), label="x")
    a = brute.decide(x)
    for rival in (None, *[c for c in brute.classes if c != a]):
        pis = brute.pi_explanations(x, rival)
        contrastive = brute.contrastive_explanations(x, rival)
        assert ({frozenset(f for f, _ in c) for c in contrastive}
                == minimal_hitting_sets([{f for f, _ in p} for p in pis], case.features))
        assert min((len(c) for c in contrastive), default=math.inf) == brute.robustness(
            x, target=rival)
        for p in pis:
            assert brute.check_explanation(x, dict(p), rival) == (True, True, set())
    inside = {p for p in brute.prime_implicants(a) if p <= frozenset(x.items())}
    assert inside == brute.pi_explanations(x)
    assert sum(brute.robustness_profile().values()) == len(brute.instances())
    assert sum(sum(brute.robustness_profile(decision=c).values())
               for c in brute.classes) == len(brute.instances())


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=12, deadline=None)
def test_more_questions_are_binary_questions_on_one_class(case, data):
    """Prime implicants, checking an explanation, bias, and what to observe next."""
    note(repr(case))
    brute = MultiOracle.of(case)
    x = data.draw(instances(case), label="x")
    a = brute.decide(x)
    b = data.draw(st.sampled_from([c for c in brute.classes if c != a]), label="rival")
    part = {f: x[f] for f in data.draw(st.sets(st.sampled_from(case.features)),
                                        label="part")}
    protected = data.draw(st.sets(st.sampled_from(case.features), min_size=1),
                          label="protected")
    for state, rival in ((a, None), (b, b)):
        odd = bnx.compile(_binary(case, state), backend="autoref")
        assert bnx.prime_implicants(odd, within="all").to_set() == brute.prime_implicants(state)
        check = bnx.check_explanation(odd, x, part, within="all")
        sufficient, minimal, redundant = brute.check_explanation(x, part, rival)
        assert (check.sufficient, check.minimal, set(check.redundant)) == (
            sufficient, minimal, redundant)
    odd = bnx.compile(_binary(case, a), backend="autoref")
    assert bnx.decision_bias(odd, x, protected, within="all").biased == brute.biased(x, protected)
    # next observations: flips are the binary ones of the class decided on e; the binary
    # SDP of an outcome decided another class counts every class but that one, so the
    # multi-class expectation is at most the binary one, equal when nothing flips
    e = data.draw(partial_instances(case), label="e")
    mine = brute.next_observations(e)
    assume(mine is not None and mine)
    d = brute.decide(e, partial=True)
    theirs = bnx.next_observations(_binary(case, d), e, exact=True)
    for f, (expected, flip) in mine.items():
        assert theirs.loc[f, "flip_probability"] == flip
        assert expected <= theirs.loc[f, "expected_sdp"]
        if flip == 0:
            assert expected == theirs.loc[f, "expected_sdp"]
