"""The report on a multi-class decision (issue 33), against brute force.

- Random multi-class networks (``multiclass_networks``: 3-6 class states, zeros, exact
  ties, hidden nodes, multi-valued features): every field of ``bnx.explain(odd, x)`` and of
  ``bnx.explain(odd, x, rival=b)`` against the exact-rational oracle
  (``tests/_support/oracle_multiclass.py``, no bnx inference): the decision, every class
  probability, the shortest reasons and their count, the roles, each counterfactual's
  changes and the class it leads to, the robustness; on partial instances the
  same-decision probability and what to observe next; SHAP values of the decided class.
- Child (pgmpy's, class ``Disease``, six states, 1,080 instances): the same against the
  multi-class classifier's exact decisions on every instance (``clf.predict``: its exact
  arithmetic, no diagram), and the text and JSON a person and a program read.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.errors import ArgumentError, UnknownStateError
from tests._support.bundled import bundled_network
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import (
    instances,
    is_possible,
    multiclass_classifier_of,
    multiclass_networks,
    partial_instances,
)

CASES = multiclass_networks(max_features=4, max_instances=48)


def _check_complete(r, brute, x, rival=None):
    """Every field of the report ``r`` on the complete ``x`` against the oracle."""
    a = brute.decide(x)
    assert r.multiclass and r.decision == a and r.rival == rival
    assert r.positive is None and r.positive_state is None and r.rule == "argmax"
    probs = brute.class_probabilities(x)
    if probs is None:  # Pr(x) = 0: every class ties at 0 and the first one decides
        assert r.posterior is None and r.class_probabilities is None
    else:
        assert r.posterior_exact == probs[a]
        assert dict(r.class_probabilities) == {c: float(p) for c, p in probs.items()}
    pis = brute.pi_explanations(x, rival=rival)
    shortest = min(len(e) for e in pis)
    assert r.reason_count == len(pis)
    assert dict(r.reason_lengths) == {k: sum(len(e) == k for e in pis)
                                      for k in sorted({len(e) for e in pis})}
    assert {frozenset(e.items()) for e in r.reasons} <= {e for e in pis if len(e) == shortest}
    assert len(r.reasons) == min(bnx.report.MAX_SHOWN, sum(len(e) == shortest for e in pis))
    used = set().union(*({f for f, _ in e} for e in pis))
    assert set(r.necessary) == set.intersection(*({f for f, _ in e} for e in pis))
    assert set(r.irrelevant) == set(brute.features) - used
    cfs = brute.counterfactuals(x, target=rival)
    assert r.robustness == brute.robustness(x, target=rival)
    assert r.counterfactual_count == len(cfs)
    assert len(r.counterfactuals) == min(bnx.report.MAX_SHOWN, len(cfs))
    for c in r.counterfactuals:
        assert all(x[f] == old for f, (old, _) in c.items())
        key = frozenset((f, new) for f, (_, new) in c.items())
        assert cfs[key] == c.decision  # the class the change leads to
        assert c.decision != a and (rival is None or c.decision == rival)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["decision"] == str(a) or data["decision"] == a
    assert [c["decision"] for c in data["counterfactuals"]] == [
        c.decision for c in r.counterfactuals]
    assert bnx.Report.from_dict(data).counterfactuals == r.counterfactuals


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_report_against_the_oracle(case, data):
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    x = data.draw(instances(case))
    _check_complete(bnx.explain(odd, x, within="all"), brute, x)  # the total function
    a = brute.decide(x)
    rival = data.draw(st.sampled_from([c for c in brute.classes if c != a]))
    _check_complete(bnx.explain(odd, x, rival=rival, within="all"), brute, x, rival)
    with pytest.raises(ArgumentError, match="is the class this instance is decided"):
        bnx.explain(odd, x, rival=a)


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_partial_report_against_the_oracle(case, data):
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    e = data.draw(partial_instances(case))
    if len(e) == len(case.features):
        return
    if not is_possible(case, e):  # findings the network cannot produce: refused by name
        with pytest.raises(bnx.ImpossibleInstanceError, match="cannot .*hold under the network"):
            bnx.explain(odd, e)
        return
    r = bnx.explain(odd, e)
    assert not r.complete and r.decision == brute.decide(e, partial=True)
    sdp = brute.same_decision_probability(e)
    assert r.sdp_exact == sdp
    expected = brute.next_observations(e)
    if expected is None:
        assert r.next == ()
        return
    got = {n.feature: (n.expected_sdp, n.flip_probability) for n in r.next}
    assert set(got) == set(expected)
    for f, (s, p) in expected.items():  # next_observations: floats within 1e-9 of exact
        assert got[f] == pytest.approx((float(s), float(p)), abs=1e-9)
    # best first by the brute force's values: the chance of a change, then the expected
    # SDP (floats within 1e-9 of them may order exact equals either way)
    order = [n.feature for n in r.next]
    for a, b in zip(order, order[1:]):
        (sa, fa), (sb, fb) = expected[a], expected[b]
        assert fa >= fb - 1e-9 and (abs(fa - fb) > 1e-9 or sa >= sb - 1e-9), (a, b)


@given(case=multiclass_networks(max_features=3, max_instances=24), data=st.data())
@settings(max_examples=10, deadline=None)
def test_attributions_of_the_decided_class(case, data):
    """SHAP values toward the decided class: the oracle's game of [decision = a]."""
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    x = data.draw(instances(case))
    background = {}  # uniform: every state equally likely
    r = bnx.explain(odd, x, background=background, within="all")  # (the oracle's world)
    values, base = brute.shap_values(x, background)
    a = brute.decide(x)
    assert r.attributions == pytest.approx({f: float(v[a]) for f, v in values.items()},
                                           abs=1e-12)
    assert r.base_value == pytest.approx(float(base[a]), abs=1e-12)


# ---------------------------------------------------------------------------- child

@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    clf = bnx.Classifier(net, "Disease")
    odd = bnx.compile(clf)
    keys = list(itertools.product(*(clf.states(f) for f in clf.features)))
    table = {k: clf.predict(dict(zip(clf.features, k)), within="all") for k in keys}
    return clf, odd, table


def _closest(clf, table, x, wanted):
    """The closest instances decided a state ``wanted`` accepts, by enumeration."""
    here = tuple(x[f] for f in clf.features)
    hits = [(sum(a != b for a, b in zip(here, k)), k) for k, d in table.items() if wanted(d)]
    best = min((d for d, _ in hits), default=math.inf)
    return best, {frozenset((f, s) for f, s, t in zip(clf.features, k, here) if s != t):
                  table[k] for d, k in hits if d == best}


def _all_completions(clf, table, part, keep):
    free = [f for f in clf.features if f not in part]
    for states in itertools.product(*(clf.states(f) for f in free)):
        z = {**part, **dict(zip(free, states))}
        if not keep(table[tuple(z[f] for f in clf.features)]):
            return False
    return True


@pytest.mark.slow
def test_child_every_instance_decided_as_the_classifier(child):
    clf, odd, table = child
    for k in list(table)[::37]:
        x = dict(zip(clf.features, k))
        r = bnx.explain(odd, x)
        assert r.decision == table[k]
        assert dict(r.class_probabilities) == clf.class_probabilities(x, exact=True)
        best, cfs = _closest(clf, table, x, lambda d, a=table[k]: d != a)
        assert r.robustness == best and r.counterfactual_count == len(cfs)
        for c in r.counterfactuals:
            assert cfs[frozenset((f, new) for f, (_, new) in c.items())] == c.decision
        for e in r.reasons:  # sufficient and minimal, by enumerating completions
            assert _all_completions(clf, table, e, lambda d, a=table[k]: d == a)
            for f in e:
                assert not _all_completions(clf, table, {g: s for g, s in e.items() if g != f},
                                            lambda d, a=table[k]: d == a)


X = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
     "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}


@pytest.mark.slow
def test_child_text_in_the_class_words(child):
    clf, odd, table = child
    r = bnx.explain(odd, X)
    text = r.text()
    assert text.startswith("Decided: Disease = PAIVS (0.589; next TGA 0.280).")
    assert "the decision stays Disease = PAIVS" in text
    assert "XrayReport from Normal to Plethoric makes it TGA" in " ".join(text.split())
    assert "not PAIVS" not in text
    best, cfs = _closest(clf, table, X, lambda d: d != "PAIVS")
    assert {frozenset((f, new) for f, (_, new) in c.items()): c.decision
            for c in r.counterfactuals} == cfs


@pytest.mark.slow
def test_child_rival(child):
    clf, odd, table = child
    r = bnx.explain(odd, X, rival="TGA")
    text = " ".join(r.text().split())
    assert r.rival == "TGA" and r.decision == "PAIVS"
    assert "Why Disease = PAIVS and not TGA:" in text
    assert "What would make it TGA: one change is enough" in text
    best, cfs = _closest(clf, table, X, lambda d: d == "TGA")
    assert r.robustness == best
    assert {frozenset((f, new) for f, (_, new) in c.items()) for c in r.counterfactuals} == set(cfs)
    assert all(c.decision == "TGA" for c in r.counterfactuals)
    for e in r.reasons:
        assert _all_completions(clf, table, e, lambda d: d != "TGA")
    # a rival that is not the runner-up is named in the first sentence with its probability
    assert bnx.explain(odd, X, rival="Fallot").text().startswith(
        "Decided: Disease = PAIVS (0.589; next TGA 0.280; Fallot 0.0597).")
    with pytest.raises(UnknownStateError, match="'Flu' is not a state of the class"):
        bnx.explain(odd, X, rival="Flu")
    with pytest.raises(ArgumentError, match="needs a complete instance"):
        bnx.explain(odd, {"Age": "0-3_days"}, rival="TGA")


def test_child_dict_shape(child):
    _, odd, _ = child
    data = bnx.explain(odd, X).to_dict()
    assert data["decision"] == "PAIVS" and data["multiclass"] is True
    assert list(data["class_probabilities"]) == list(odd.classes)
    assert Fraction(data["posterior_exact"]) == Fraction(
        odd.classifier.class_joint(X)[3]) / sum(odd.classifier.class_joint(X))
    assert {"changes": {"XrayReport": {"from": "Normal", "to": "Plethoric"}},
            "decision": "TGA"} in data["counterfactuals"]


def test_child_partial_and_saved(child, tmp_path):
    clf, odd, _ = child
    r = bnx.explain(odd, {"Age": "0-3_days", "XrayReport": "Normal"})
    assert r.text().startswith(f"So far: Disease = {r.decision} (")
    assert "How sure: with probability" in r.text()
    loaded = bnx.ODD.load(odd.save(tmp_path / "child.bnx"))
    assert bnx.explain(loaded, X) == bnx.explain(odd, X)


def test_binary_counterfactuals_say_the_other_decision():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    r = bnx.explain(odd, x)
    assert not r.multiclass and r.rival is None
    assert [c.decision for c in r.counterfactuals] == ["-", "-"]
    assert r.to_dict()["counterfactuals"][0] == {
        "changes": {"WorkExperience": {"from": "+", "to": "-"}}, "decision": "-"}
    assert bnx.explain(odd, x, rival="-") == r  # the only other decision: nothing more
    with pytest.raises(ArgumentError, match="the only other decision here is '-'"):
        bnx.explain(odd, x, rival="+")


@pytest.mark.slow
def test_threshold_on_one_of_many_states_keeps_its_words():
    net = bundled_network("child")
    odd = bnx.compile(bnx.Classifier(net, "Disease", "TGA"))
    r = bnx.explain(odd, X)
    assert r.decision == "not TGA" and not r.multiclass
    assert r.text().startswith("Decided: Disease = not TGA (Pr(Disease = TGA) = 0.28")
    assert all(c.decision == "TGA" for c in r.counterfactuals)


def test_child_pictures_and_html_name_the_decided_class(child):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    _, odd, _ = child
    r = bnx.explain(odd, X, background={})
    ax = r.plot()
    assert ax.get_title() == "Decided: Disease = PAIVS  (Pr(Disease = PAIVS) = 0.589)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "toward Disease = PAIVS", "toward another class"]
    ax = bnx.plot_network(odd, X, r)
    assert any("decided: PAIVS" in t.get_text() and "Pr(PAIVS) = 0.589" in t.get_text()
               for t in ax.texts)
    plt.close("all")
    html = bnx.report.render_report(r)
    assert "probability 0.589; next TGA 0.280" in html
    assert "&rArr; Disease&nbsp;=&nbsp;TGA" in html and "toward another class" in html
    rival = bnx.report.render_report(bnx.explain(odd, X, rival="TGA"))
    assert "Why not TGA" in rival and "What would make it TGA" in rival
