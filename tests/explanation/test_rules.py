"""Rules and monotonicity in ordinal features (bnx.check_rule, check_rules, check_monotone)
against brute force: every instance enumerated, decided and weighed by the network's joint
in exact rationals (tests/_support/oracle.py), on networks with 3-5 states per feature."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.probability import under
from bnx.probability.frontier import most_probable
from tests._support import oracle
from tests._support.builders import compiled_case, oracle_args
from tests._support.strategies import (
    _column,
    _general_cpd,
    binary_on_maps,
    classifiers,
)

_POOLS = {3: ["lo", "mid", "hi"], 4: ["a1_0", "a6_2", "a19_7", "a88_20"],
          5: ["v0", "v1", "v2", "v3", "v4"], 2: ["no", "yes"]}


@st.composite
def ordinal_cases(draw):
    """A random network over 2-3 features of 3-5 states (one may be binary), an optional
    hidden node, a class of 2-3 states; a rule; an order of each feature's states."""
    n = draw(st.integers(2, 3))
    cards = [draw(st.sampled_from([3, 4, 5, 3, 4, 2] if j == n - 1 else [3, 4, 5]))
             for j in range(n)]
    while n == 3 and cards[0] * cards[1] * cards[2] > 80:
        cards[draw(st.integers(0, 2))] = 3
    feats = ["bilirubin", "age", "platelet"][:n]
    states = {f: list(_POOLS[k]) for f, k in zip(feats, cards)}
    states["C"] = ["absent", "mild", "severe"][:draw(st.integers(2, 3))]
    hidden = ["H"] if draw(st.booleans()) else []
    for h in hidden:
        states[h] = ["h0", "h1"]
    order = list(draw(st.permutations(["C", *feats, *hidden])))
    parents = {}
    for j, node in enumerate(order):
        k = draw(st.integers(0, min(2, j)))
        parents[node] = list(draw(st.permutations(order[:j]))[:k]) if j else []
    if not any("C" in parents[f] or f in parents["C"] for f in feats):
        f = feats[0]
        if order.index(f) > order.index("C"):
            parents[f] = ["C", *parents[f][:1]]
        else:
            parents["C"] = [f, *parents["C"][:1]]
    zeros = draw(st.booleans())
    cpds = []
    for node in order:
        ps = parents[node]
        configs = list(itertools.product(*[range(len(states[p])) for p in ps]))
        mode = draw(st.sampled_from(["dyadic", "small", "float"]))
        cols = [draw(_column(len(states[node]), mode, zeros)) for _ in configs]
        cpds.append(_general_cpd(node, states[node], cols, ps, [states[p] for p in ps]))
    net = DiscreteBayesianNetwork([(p, v) for v in order for p in parents[v]])
    net.add_nodes_from(order)
    net.add_cpds(*cpds)
    assert net.check_model()
    rule = draw(st.sampled_from(["threshold", "argmax"]))
    positive = draw(st.sampled_from(states["C"]))
    threshold = draw(st.sampled_from([0.5, 0.3, 0.7, 0.1])) if rule == "threshold" else None
    ordinal = {f: tuple(draw(st.permutations(states[f]))) for f in feats}
    return net, positive, threshold, rule, feats, ordinal


def _compiled(case, ordinal=None):
    net, positive, threshold, rule, feats, _ = case
    kw = {"rule": "argmax"} if rule == "argmax" else {"threshold": threshold}
    clf = bnx.Classifier(net, "C", positive, features=feats, ordinal=ordinal, **kw)
    return bnx.compile(clf, backend="autoref")


def _truth(case):
    """Every instance with its decision and exact probability."""
    net, positive, threshold, rule, feats, _ = case
    out = []
    for x in oracle.all_instances(net, feats):
        d = oracle.decide(net, "C", positive, threshold, x, feats, rule=rule)
        p = sum(oracle.class_joint(net, "C", x, feats).values(), Fraction(0))
        out.append((x, d, p))
    return out


_OPS = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
        "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


@st.composite
def conditions(draw, case):
    """A condition and the predicate it stands for, on brute force's instances."""
    net, _, _, _, feats, ordinal = case
    named = draw(st.lists(st.sampled_from(feats), unique=True, max_size=len(feats)))
    condition, tests = {}, {}
    for f in named:
        states = oracle.node_states(net, f)
        kind = draw(st.sampled_from(["state", "set", "compare"]))
        if kind == "state":
            s = draw(st.sampled_from(states))
            condition[f], tests[f] = s, {s}
        elif kind == "set":
            got = draw(st.lists(st.sampled_from(states), unique=True, min_size=1))
            condition[f], tests[f] = (set(got) if draw(st.booleans()) else list(got)), set(got)
        else:
            op, s = draw(st.sampled_from(list(_OPS))), draw(st.sampled_from(states))
            order = ordinal[f]
            condition[f] = (op, s)
            tests[f] = {t for t in states if _OPS[op](order.index(t), order.index(s))}
    return condition, tests


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(case=ordinal_cases(), data=st.data())
def test_check_rule_matches_brute_force(case, data):
    net, positive, *_ = case
    odd = _compiled(case, case[5])
    condition, tests = data.draw(conditions(case))
    decision = data.draw(st.sampled_from([True, False, positive]))
    within = data.draw(st.sampled_from(["support", "all"]))
    value = decision if isinstance(decision, bool) else True
    if not all(tests.values()):  # a comparison no state meets
        with pytest.raises(bnx.ArgumentError, match="never met"):
            bnx.check_rule(odd, condition, decision)
        return
    got = bnx.check_rule(odd, condition, decision, within=within)
    # within the support only the instances of positive probability count
    inside = [(x, d, p) for x, d, p in _truth(case)
              if all(x[f] in allowed for f, allowed in tests.items())
              and (p > 0 or within == "all")]
    bad = [(x, d, p) for x, d, p in inside if d != value]
    total = sum(p for _, _, p in _truth(case))
    assert got.instances == len(inside)
    assert got.violations == len(bad)
    assert got.holds == (not bad)
    exact = sum((p for *_, p in bad), Fraction(0)) / total
    assert abs(got.violation_probability - exact) <= 1e-9
    assert bnx.check_rule(odd, condition, decision, exact=True,
                          within=within).violation_probability == exact
    possible = all(p > 0 for *_, p in _truth(case))
    assert got.world == ("all" if within == "all" or possible else "support")
    assert {f: set(s) for f, s in got.condition.items()} == tests
    if bad:
        x = got.counterexample
        assert all(x[f] in tests[f] for f in tests)
        assert odd.decide(x, within="all") != value
        assert max(p for *_, p in bad) == next(p for y, _, p in bad if y == x)
        # the max-product pass along the diagram (used when the dense joint is out of reach)
        enc = odd.encoding
        box = {f: {odd.states(f).index(s) for s in tests[f]} for f in tests}
        states, mass = most_probable(odd.classifier, odd, box, not value)
        y = {f: enc.states[i][j] for i, (f, j) in enumerate(zip(enc.features, states))}
        assert all(y[f] in tests[f] for f in tests) and odd.decide(y, within="all") != value
        assert max(p for *_, p in bad) == next(p for z, _, p in bad if z == y)
        assert got.counterexample_decision == odd.decision_text(not value)
        assert str(got).startswith("Broken:")
    else:
        assert got.counterexample is None and str(got).startswith("Holds:")


@settings(max_examples=40, deadline=None)
@given(case=ordinal_cases(), data=st.data())
def test_check_rule_without_a_classifier(case, data):
    # a file of format version 1 holds no classifier: no probability, any counterexample
    odd = _compiled(case, case[5])
    bare = bnx.ODD(None, odd.encoding, backend="autoref", arrays=odd.arrays,
                   meta={**odd.meta, "ordinal": case[5]})
    assert bare.ordinal == case[5]
    condition, tests = data.draw(conditions(case))
    if not all(tests.values()):
        return
    got = bnx.check_rule(bare, condition, True)
    want = bnx.check_rule(odd, condition, True, within="all")  # (no network: every instance)
    assert (got.holds, got.violations, got.instances) == (
        want.holds, want.violations, want.instances)
    assert got.violation_probability is None
    if not got.holds:
        x = got.counterexample
        assert all(x[f] in tests[f] for f in tests) and not odd.decide(x, within="all")


def _monotone_truth(case, features, rank_of, *, truth=None, rank=None, within="all"):
    """The pairs (low, high): one feature of ``features`` raised, the decision lowered
    (decisions ranked by ``rank_of``, or ``rank`` on the decisions of ``truth``); within
    the support, both of positive probability."""
    _, _, _, _, feats, ordinal = case
    if truth is None:
        truth, rank = _truth(case), rank_of
    table = {tuple(x[f] for f in feats): rank(d) for x, d, p in truth
             if within == "all" or p > 0}
    pairs = {f: [] for f in features}
    for key, r in table.items():
        for i, f in enumerate(feats):
            if f not in features:
                continue
            for t in ordinal[f]:
                if ordinal[f].index(t) > ordinal[f].index(key[i]):
                    up = key[:i] + (t,) + key[i + 1:]
                    if up in table and table[up] < r:
                        pairs[f].append((key, up))
    return pairs


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(case=ordinal_cases(), data=st.data())
def test_check_monotone_matches_brute_force(case, data):
    net, positive, _, _, feats, ordinal = case
    odd = _compiled(case, ordinal)
    features = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(feats), unique=True,
                                                        min_size=1)))
    flip = data.draw(st.booleans())
    names = [odd.decision_state(False), odd.decision_state(True)]
    order = names[::-1] if flip else None
    within = data.draw(st.sampled_from(["support", "all"]))
    got = bnx.check_monotone(odd, features, class_order=order, within=within)
    checked = feats if features is None else features
    pairs = _monotone_truth(case, checked, lambda d: int(d != flip), within=within)
    assert got.by_feature == {f: len(pairs[f]) for f in odd.display_order if f in checked}
    assert got.violations == sum(map(len, pairs.values()))
    assert got.holds == (not got.violations)
    assert got.features == {f: ordinal[f] for f in odd.display_order if f in checked}
    if got.holds:
        assert got.counterexample is None and str(got).startswith("Monotone:")
        return
    low, high = got.counterexample
    f = got.feature
    assert [g for g in feats if low[g] != high[g]] == [f]
    assert ordinal[f].index(high[f]) > ordinal[f].index(low[f])
    rank = {d: int(d != flip) for d in (True, False)}
    assert rank[odd.decide(low, within="all")] > rank[odd.decide(high, within="all")]
    assert got.low_decision == odd.decision_text(odd.decide(low, within="all"))
    assert str(got).startswith("Not monotone")


@given(case=st.one_of(classifiers(binary=True), classifiers()), data=st.data())
@settings(max_examples=40, deadline=None)
def test_binary_features_are_ordered_off_below_on(case, data):
    # the paper's monotonicity over binary features, their on states declared
    clf, odd = compiled_case(case, "autoref", data)
    binary = [f for f in case.features if len(case.states(f)) == 2]
    if not binary:
        with pytest.raises(bnx.ExplanationError, match="order"):
            bnx.check_monotone(odd, case.features, within="all")
        return
    on = data.draw(binary_on_maps(case))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features, on_states={f: on[f] for f in binary})
    odd = bnx.compile(clf, backend="autoref")
    got = bnx.check_monotone(odd, binary, within="all")
    if len(binary) == len(case.features):
        want, _ = oracle.is_monotone(*oracle_args(case), {f: {s} for f, s in on.items()})
        assert got.holds == want
    if not got.holds:
        low, high = got.counterexample
        f = got.feature
        assert high[f] == on[f] != low[f] and clf.decide(low, within="all") and \
            not clf.decide(high, within="all")
        assert [g for g in case.features if low[g] != high[g]] == [f]


def test_rules_on_the_admissions_example():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    assert bnx.check_monotone(odd).holds
    table = bnx.check_rules(odd, {"strong": "GPA=+, WorkExperience=+ => Admit=+",
                                  "weak": ({"GPA": "-"}, "-")})
    assert list(table.index) == ["strong", "weak"]
    assert table.loc["strong", "holds"] and not table.loc["weak", "holds"]
    assert table.loc["strong", "rule"] == "WorkExperience = +, GPA = + => Admit = +"


def test_parse_rule():
    parse = bnx.explanation.rules.parse_rule
    assert parse("bilirubin>=a19_7 => Cirrhosis=decompensate") == (
        {"bilirubin": (">=", "a19_7")}, "decompensate")
    assert parse("a = x|y and b ≠ z, c in {p, q} => yes") == (
        {"a": ("x", "y"), "b": ("!=", "z"), "c": ("p", "q")}, "yes")
    assert parse("a<lo => no") == ({"a": ("<", "lo")}, "no")
    for bad, words in [("a=x", "one '=>'"), ("a=x =>", "no decision"),
                       ("=> yes", "any instance"), ("a => yes", "cannot read"),
                       ("a=x, a=y => yes", "twice")]:
        if words == "any instance":
            assert parse(bad) == ({}, "yes")
            continue
        with pytest.raises(bnx.ArgumentError, match=words):
            parse(bad)


def test_bad_rules_are_named():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    with pytest.raises(bnx.UnknownFeatureError, match="Gpa"):
        bnx.check_rule(odd, {"Gpa": "+"}, "+")
    with pytest.raises(bnx.UnknownStateError, match="'yes' is not a state of 'GPA'"):
        bnx.check_rule(odd, {"GPA": "yes"}, "+")
    with pytest.raises(bnx.ArgumentError, match="'GPA' is not ordinal"):
        bnx.check_rule(odd, {"GPA": (">=", "+")}, "+")
    with pytest.raises(bnx.ArgumentError, match="'maybe' is not a decision"):
        bnx.check_rule(odd, {"GPA": "+"}, "maybe")
    with pytest.raises(bnx.ArgumentError, match="the class is 'Admit'"):
        bnx.check_rules(odd, ["GPA=+ => Class=+"])
    with pytest.raises(bnx.ArgumentError, match="expected a bnx.ODD"):
        bnx.check_rule(odd.classifier, {}, "+")
    with pytest.raises(bnx.ArgumentError, match="class_order must list"):
        bnx.check_monotone(odd, class_order=["+", "+"])


@settings(max_examples=10, deadline=None)
@given(case=ordinal_cases())
def test_features_without_an_order_are_refused(case):
    odd = _compiled(case)
    f = case[4][0]  # 3-5 states, no order declared
    with pytest.raises(bnx.ExplanationError, match=f"'{f}'.*ordinal="):
        bnx.check_monotone(odd, [f])
    with pytest.raises(bnx.ArgumentError, match=f"'{f}' is not ordinal"):
        bnx.check_rule(odd, {f: (">", odd.states(f)[0])}, True)


def _multiclass_truth(case):
    """Every instance with its decided class (the first most probable) and probability."""
    net, _, _, _, feats, _ = case
    classes = oracle.node_states(net, "C")
    out = []
    for x in oracle.all_instances(net, feats):
        joint = oracle.class_joint(net, "C", x, feats)
        best = max(joint[c] for c in classes)
        out.append((x, next(c for c in classes if joint[c] == best),
                    sum(joint.values(), Fraction(0))))
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(case=ordinal_cases(), data=st.data())
def test_multiclass_rules_and_monotonicity_match_brute_force(case, data):
    net, _, _, _, feats, ordinal = case
    odd = bnx.compile(bnx.Classifier(net, "C", features=feats, ordinal=ordinal),
                      backend="autoref")
    assert odd.multiclass
    truth = _multiclass_truth(case)
    total = sum(p for *_, p in truth)
    condition, tests = data.draw(conditions(case))
    state = data.draw(st.sampled_from(list(odd.classes)))
    within = data.draw(st.sampled_from(["support", "all"]))
    if all(tests.values()):
        got = bnx.check_rule(odd, condition, state, within=within)
        inside = [t for t in truth if all(t[0][f] in tests[f] for f in tests)
                  and (within == "all" or t[2] > 0)]
        bad = [(x, d, p) for x, d, p in inside if d != state]
        assert (got.instances, got.violations, got.holds) == (len(inside), len(bad), not bad)
        exact = sum((p for *_, p in bad), Fraction(0)) / total
        assert abs(got.violation_probability - exact) <= 1e-9
        assert got.decision == f"C = {state}"
        if bad:
            x = got.counterexample
            assert max(p for *_, p in bad) == next(p for y, _, p in bad if y == x)
            shown = f"C = {odd.decide(x, within='all')}"
            assert got.counterexample_decision == shown != got.decision
    order = list(data.draw(st.permutations(list(odd.classes))))
    got = bnx.check_monotone(odd, class_order=order, within=within)
    pairs = _monotone_truth(case, feats, None, truth=truth, rank=order.index, within=within)
    assert got.violations == sum(map(len, pairs.values()))
    assert got.holds == (not got.violations)
    assert got.class_order == tuple(f"C = {c}" for c in order)
    if not got.holds:
        low, high = got.counterexample
        f = got.feature
        assert [g for g in feats if low[g] != high[g]] == [f]
        assert ordinal[f].index(high[f]) > ordinal[f].index(low[f])
        assert (order.index(odd.decide(low, within="all"))
                > order.index(odd.decide(high, within="all")))


@settings(max_examples=30, deadline=None)
@given(case=ordinal_cases(), data=st.data())
def test_check_rule_past_the_dense_joint(case, data, monkeypatch_module):
    # without the dense joint: the probability along the diagram, the max-product pass
    odd = _compiled(case, case[5])
    condition, tests = data.draw(conditions(case))
    if not all(tests.values()):
        return
    want = bnx.check_rule(odd, condition, True, exact=True)
    with monkeypatch_module.context() as m:
        m.setattr(under, "view", lambda *a, **k: None)
        got = bnx.check_rule(odd, condition, True)
    assert (got.violations, got.holds) == (want.violations, want.holds)
    assert got.violation_probability == float(want.violation_probability)
    if not got.holds:  # as probable as the one the dense joint gives
        truth = {tuple(x[f] for f in case[4]): p for x, _, p in _truth(case)}
        assert truth[tuple(got.counterexample[f] for f in case[4])] == \
            truth[tuple(want.counterexample[f] for f in case[4])]


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m
