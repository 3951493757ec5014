"""MC-explanations, PI-explanations and prime implicants against brute force."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.explanation.explanations import positives
from bnx.explanation.monotone import theorem3_holds
from tests._support import oracle
from tests._support.builders import compiled_case, oracle_args
from tests._support.deep import limit_untouched, one_matters
from tests._support.strategies import binary_on_maps, classifiers, instances, on_maps

BACKENDS = bnx.backends.available_backends()


def _length_histogram(sets, weight):
    return dict(sorted(Counter(weight(e) for e in sets).items()))


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data())
def test_mc_explanations_match_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    x = data.draw(instances(case))
    on = data.draw(on_maps(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    got = bnx.mc_explanations(odd, x, on=on, fixed=fixed, within="all")
    want = oracle.mc_explanations(*oracle_args(case), x, on, fixed)
    assert got.to_set() == want
    assert got.count == len(want) == len(list(got))
    decision = clf.decide(x, within="all")
    assert got.decision == decision

    def card(e):
        d = dict(e)
        return sum(1 for f in case.features if f not in fixed
                   and ((d[f] in on[f]) if decision else (d[f] not in on[f])))
    assert got.lengths() == _length_histogram(want, card)
    assert got.shortest().to_set() == want  # already minimum


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=25)
@given(case=classifiers(), data=st.data())
def test_mc_explanations_many_calls_on_one_odd(case, data, backend):
    # mc_explanations keeps per-ODD memos across calls: interleaved calls with different
    # instances, on-states and fixed features, repeated, must each match brute force.
    _, odd = compiled_case(case, backend, data)
    calls = []
    for _ in range(4):
        x = data.draw(instances(case))
        on = data.draw(on_maps(case))
        fixed = data.draw(st.sets(st.sampled_from(case.features)))
        calls.append((x, on, fixed, oracle.mc_explanations(*oracle_args(case), x, on, fixed)))
    for x, on, fixed, want in calls + calls[::-1]:
        got = bnx.mc_explanations(odd, x, on=on, fixed=fixed, within="all")
        assert got.to_set() == want
        assert got.count == len(want)
    if all(len(case.states(f)) == 2 for f in case.features):  # the default on-states
        on = {f: _affirmative(case.states(f)) for f in case.features}
        for x, _, _, _ in calls + calls:
            if None in on.values():  # "on" means nothing for some feature: refused
                with pytest.raises(bnx.OnStatesError, match="Declare it"):
                    bnx.mc_explanations(odd, x, within="all")
                continue
            want = oracle.mc_explanations(*oracle_args(case), x, on, ())
            assert bnx.mc_explanations(odd, x, within="all").to_set() == want


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data())
def test_pi_explanations_match_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    x = data.draw(instances(case))
    want = oracle.pi_explanations(*oracle_args(case), x)
    inst = bnx.pi_explanations(odd, x, method="inst", within="all")
    cover = bnx.pi_explanations(odd, x, method="cover", within="all")
    assert inst.to_set() == want
    assert cover.to_set() == want
    assert inst.count == cover.count == len(want)
    assert inst.size == cover.size == inst.root.dag_size  # pi-inst's Store counts as dd
    assert inst.lengths() == _length_histogram(want, len)
    shortest = min((len(e) for e in want), default=None)
    assert inst.shortest().to_set() == {e for e in want if len(e) == shortest}
    for e in want:
        assert dict(e) in inst
    assert inst.decision == clf.decide(x, within="all")


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data(), decision=st.booleans())
def test_prime_implicants_match_brute_force(case, data, backend, decision):
    clf, odd = compiled_case(case, backend, data)
    got = bnx.prime_implicants(odd, decision=decision, within="all")
    want = oracle.prime_implicants(*oracle_args(case), decision=decision)
    assert got.to_set() == want
    assert got.count == len(want)
    assert got.lengths() == _length_histogram(want, len)
    if want:
        shortest = min(len(e) for e in want)
        assert got.shortest().to_set() == {e for e in want if len(e) == shortest}


@pytest.mark.slow
@given(case=classifiers(binary=True), data=st.data())
@settings(max_examples=40)
def test_theorem3_holds_on_monotone_functions(case, data):
    # (monotonicity itself: tests/explanation/test_rules.py)
    clf, odd = compiled_case(case, "autoref", data)
    on = data.draw(binary_on_maps(case))
    want, _ = oracle.is_monotone(*oracle_args(case), {f: {s} for f, s in on.items()})
    x = data.draw(instances(case))
    assert isinstance(theorem3_holds(odd, x, on=on), bool)  # defined, may be False
    if want:
        assert theorem3_holds(odd, x, on=on)


def test_on_is_required_for_multivalued_features():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                 TabularCPD("A", 3, [[0.1, 0.5], [0.1, 0.25], [0.8, 0.25]], evidence=["C"],
                            evidence_card=[2]))
    odd = bnx.compile(bnx.Classifier(net, "C", 0), backend="autoref")
    with pytest.raises(bnx.OnStatesError, match="'A' \\(0 / 1 / 2\\) do not say"):
        bnx.mc_explanations(odd, {"A": 2})
    assert len(bnx.mc_explanations(odd, {"A": 2}, on={"A": [2]})) == 1
    with pytest.raises(bnx.UnknownStateError, match="on-state 7"):
        bnx.mc_explanations(odd, {"A": 2}, on={"A": [7]})
    with pytest.raises(bnx.UnknownFeatureError):
        bnx.mc_explanations(odd, {"A": 2}, on={"A": [2]}, fixed=["B"])
    with pytest.raises(bnx.ExplanationError, match="method"):
        bnx.pi_explanations(odd, {"A": 2}, method="greedy")


def test_display():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = dict.fromkeys(odd.features, "+")
    pis = bnx.pi_explanations(odd, x)
    text = str(pis)
    assert text == ("3 sufficient reasons for Admit = + (PI-explanations), shortest first:\n"
                    "  WorkExperience = +, GPA = +\n"
                    "  WorkExperience = +, FirstTimeApplicant = +, EntranceExam = +\n"
                    "  FirstTimeApplicant = +, EntranceExam = +, GPA = +")
    assert pis.title() == "3 sufficient reasons for Admit = + (PI-explanations; length 2: 1, 3: 2)"
    frame = pis.to_frame()
    assert list(frame.columns) == list(odd.display_order) == list(odd.classifier.features)
    first = next(iter(pis))
    assert len(frame) == 3 and list(first) == [f for f in odd.display_order if f in first]
    assert (frame == "*").sum().sum() == 4 * 3 - (2 + 3 + 3)
    assert "<li>WorkExperience = +, GPA = +</li>" in pis._repr_html_()
    assert "diagram size" in repr(pis)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_deep_diagrams_do_not_hit_the_recursion_limit(backend, tmp_path):
    """500 features (one that matters): every feature-by-feature traversal is 500 levels
    deep, beyond the recursion limit ``limit_untouched`` sets (300)."""
    n = 500
    feats = [f"f{i}" for i in range(n)]
    with limit_untouched():
        _deep_questions(n, feats, backend, tmp_path)


def _deep_questions(n, feats, backend, tmp_path):
    odd = bnx.compile(one_matters(n), backend=backend)
    assert odd.count() == 2 ** (n - 1) and odd.size == 2  # one node, one terminal
    x = dict.fromkeys(feats, 1)
    assert bnx.pi_explanations(odd, x).to_set() == {frozenset({("f0", 1)})}
    mc = bnx.mc_explanations(odd, x)
    assert mc.count == 1 and mc.lengths() == {1: 1}
    assert len(bnx.prime_implicants(odd)) == 1
    with pytest.raises(bnx.ExplanationError, match="too many for len"):
        len(positives(odd))
    assert positives(odd).count == 2 ** (n - 1)
    again = bnx.ODD.load(odd.save(str(tmp_path / "deep.bnx")), backend=backend)
    assert again.count() == odd.count()


def _affirmative(states):
    """The on state of a binary feature by its names (independent of bnx): the first of
    each pair yes/no, y/n, true/false, t/f, 1/0, +/-, present/absent, positive/negative,
    pos/neg, on/off, in any case; ``None`` for any other pair."""
    pairs = ["yes no", "y n", "true false", "t f", "1 0", "+ -", "present absent",
             "positive negative", "pos neg", "on off"]
    low = [str(s).lower() for s in states]
    for p in pairs:
        a, b = p.split()
        if low == [a, b] or low == [b, a]:
            return {states[low.index(a)]}
    return None

