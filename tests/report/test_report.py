"""bnx.explain -> bnx.Report: every answer against the brute-force oracle, the text people
read pinned on the admissions example, JSON, HTML, pictures, bad input and the command
line on a saved ODD (without pgmpy)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bnx
from bnx.report import MAX_SHOWN, NextObservation, Report, explain, render_report
from tests._support import oracle, oracle_reasons
from tests._support.linear_brute import Brute
from tests._support.strategies import (
    classifier_of,
    classifiers,
    general_networks,
    instances,
    naive_bayes,
)

ADMIT = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


def _args(case):
    return (case.net, case.class_var, case.positive, case.threshold, case.features)


def _oracle_decision(case, x):
    return oracle.decide(case.net, case.class_var, case.positive, case.threshold, x,
                         case.features, rule=case.rule)


def _check_against_oracle(case, clf, r, x):
    args = _args(case)
    table = oracle.decision_table(*args, rule=case.rule)
    d = table[tuple(x[f] for f in case.features)]
    assert r.positive == d
    states = clf.class_states
    if d:
        assert r.decision == case.positive
    elif len(states) == 2:
        assert r.decision == next(s for s in states if s != case.positive)
    else:
        assert r.decision == f"not {case.positive}"
    assert r.posterior_exact == oracle.posterior(*args[:4], x, case.features)
    # reasons: PI-explanations of the shortest length, as many as shown, counted exactly
    pis = oracle.pi_explanations(*args, x, rule=case.rule, table=table)
    shortest = min(len(p) for p in pis)
    assert r.reason_count == len(pis)
    lengths = {}
    for p in pis:
        lengths[len(p)] = lengths.get(len(p), 0) + 1
    assert dict(r.reason_lengths) == dict(sorted(lengths.items()))
    assert len(r.reasons) == min(MAX_SHOWN, lengths[shortest])
    for e in r.reasons:
        assert frozenset(e.items()) in pis and len(e) == shortest
    # necessary and irrelevant features, read off the PI-explanations
    roles = {f: "irrelevant" if not any(f in dict(p) for p in pis) else
             "necessary" if all(f in dict(p) for p in pis) else "relevant"
             for f in case.features}
    assert set(r.necessary) == {f for f, k in roles.items() if k == "necessary"}
    assert set(r.irrelevant) == {f for f, k in roles.items() if k == "irrelevant"}
    # counterfactuals flip the decision with exactly `robustness` changes
    others = [y for y, e in table.items() if e != d]
    dist = [sum(a != b for a, b in zip(y, (x[f] for f in case.features))) for y in others]
    assert r.robustness == (min(dist) if dist else math.inf)
    assert r.counterfactual_count == sum(1 for k in dist if k == r.robustness)
    assert len(r.counterfactuals) == min(MAX_SHOWN, r.counterfactual_count)
    for c in r.counterfactuals:
        assert len(c) == r.robustness
        y = dict(x)
        for f, (old, new) in c.items():
            assert old == x[f] and new != old
            y[f] = new
        assert table[tuple(y[f] for f in case.features)] != d


@pytest.mark.slow
@given(case=st.one_of(classifiers(), general_networks(rule="argmax"),
                      general_networks(tan=True)), data=st.data())
def test_reports_answer_as_the_oracle(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case))
    r = explain(odd, x, within="all")  # the oracle's total function
    _check_against_oracle(case, clf, r, x)
    assert r.complete and r.method == "diagram" and r.sdp is None
    d = json.loads(json.dumps(r.to_dict()))  # names as text: the same dict comes back
    assert Report.from_dict(d).to_dict() == d == r.to_dict()


@pytest.mark.slow
@given(case=classifiers(), data=st.data())
def test_partial_reports_give_the_same_decision_probability(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case))
    keep = data.draw(st.lists(st.sampled_from(case.features), unique=True,
                              max_size=len(case.features) - 1))
    e = {f: x[f] for f in keep}
    r = explain(odd, e)
    assert not r.complete and r.reasons == () and r.counterfactuals == ()
    assert r.positive == clf.decide(e, partial=True, within="all")
    assert r.sdp_exact == oracle_reasons.same_decision_probability(
        _args(case), e, decision=r.positive)
    assert r.text().startswith("So far: ")


@pytest.mark.slow
@given(case=naive_bayes(binary=False), data=st.data())
def test_linear_reports_are_sufficient_shortest_and_flip(case, data):
    clf = classifier_of(case)
    if len(clf.class_states) != 2:
        return
    x = data.draw(instances(case))
    r = explain(clf, x)
    args = _args(case)
    table = oracle.decision_table(*args)
    # a classifier is explained among the instances the network allows
    possible = Brute(case, table).within_support()
    pis = possible.pis(x)
    assert r.method == "linear" and r.reason_count is None
    assert r.positive == table[tuple(x[f] for f in case.features)]
    (reason,) = r.reasons
    assert frozenset(reason) in pis and len(reason) == min(len(p) for p in pis)
    assert set(r.necessary) == {f for f in case.features if all(f in p for p in pis)}
    assert r.robustness == possible.robustness(x)
    for c in r.counterfactuals:
        assert len(c) == r.robustness
        y = {**x, **{f: new for f, (old, new) in c.items()}}
        assert possible.table[tuple(y[f] for f in case.features)] != r.positive


# ---------------------------------------------------------------------- the admissions text
@pytest.fixture(scope="module")
def admissions():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


def test_the_admissions_report_reads_as_written(admissions):
    assert explain(admissions, ADMIT).text() == (
        "Decided: Admit = + (Pr(Admit = +) = 0.906, threshold 0.5).\n"
        "Why: WorkExperience = + and GPA = + are enough: whatever FirstTimeApplicant and\n"
        "  EntranceExam say, the decision stays Admit = +. This is the only such reason.\n"
        "What would change it: one change is enough: WorkExperience from + to -, or\n"
        "  GPA from + to -.\n"
        "Both WorkExperience and GPA are necessary to this decision; the other two do not "
        "matter.")


def test_a_partial_admissions_report_says_how_sure(admissions):
    r = explain(admissions, {"GPA": "+"})
    assert r.text() == (
        "So far: Admit = + (Pr(Admit = +) = 0.791, threshold 0.5).\n"
        "How sure: with probability 0.795 the decision stays Admit = + once the other three "
        "are\n  known.\n"
        "What to find out next: WorkExperience: it changes the decision with probability 0.22,\n"
        "  and knowing it leaves you 0.985 sure on average. FirstTimeApplicant and EntranceExam\n"
        "  cannot change it. (Sure on average: how likely the decision made once it is known is\n"
        "  to stay once all are known, averaged over what it may show.)")
    assert r.next == tuple(NextObservation(f, row.expected_sdp, row.flip_probability)
                           for f, row in bnx.probability.observe.next_observations(
                               admissions.classifier, {"GPA": "+"}).iterrows())
    ranked = dataclasses.replace(r, next=(NextObservation("WorkExperience", 0.986, 0.22),
                                          NextObservation("FirstTimeApplicant", 0.795, 0.0),
                                          NextObservation("EntranceExam", 0.795, 0.0)))
    assert ranked.text().splitlines()[3:] == [  # rendered as observe will rank them
        "What to find out next: WorkExperience: it changes the decision with probability 0.22,",
        "  and knowing it leaves you 0.986 sure on average. FirstTimeApplicant and EntranceExam",
        "  cannot change it. (Sure on average: how likely the decision made once it is known is",
        "  to stay once all are known, averaged over what it may show.)"]


def test_the_fields_of_the_admissions_report(admissions):
    r = explain(admissions, ADMIT)
    assert (r.decision, r.positive, r.robustness, r.reason_count) == ("+", True, 1, 1)
    assert r.posterior_exact == admissions.classifier.posterior_exact(ADMIT)
    assert r.posterior == float(r.posterior_exact) and r.threshold_exact == Fraction(1, 2)
    assert r.necessary == ("WorkExperience", "GPA")
    assert r.irrelevant == ("FirstTimeApplicant", "EntranceExam")
    assert [dict(c) for c in r.counterfactuals] == [{"WorkExperience": ("+", "-")},
                                                   {"GPA": ("+", "-")}]
    assert hash(r) == hash(explain(admissions, ADMIT))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.decision = "-"


def test_attributions_are_the_shap_values(admissions):
    r = explain(admissions, ADMIT, background={})
    a = bnx.shap_values(admissions, ADMIT, {})
    assert dict(r.attributions) == dict(zip(a.feature_names, map(float, a.values)))
    assert r.base_value == float(a.base_values)
    assert "Attributions (toward Admit = +, from an average decision of" in r.text()
    html = r._repr_html_()
    assert "<svg" in html and "toward Admit = +" in html and "toward Admit = -" in html


def test_a_negative_decision_is_named_by_the_other_state(admissions):
    x = dict.fromkeys(ADMIT, "-")
    r = explain(admissions, x)
    assert (r.positive, r.decision) == (False, "-")
    assert r.text().startswith("Decided: Admit = - (Pr(Admit = +) = ")


def test_json_round_trip(admissions):
    for r in (explain(admissions, ADMIT, background={}), explain(admissions, {"GPA": "-"}),
              explain(bnx.examples.admissions(), ADMIT)):
        d = json.loads(json.dumps(r.to_dict()))
        assert d == r.to_dict()
        assert Report.from_dict(d) == r


def test_html_escapes_names():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "<script>"), ("C", "F")])
    net.add_cpds(TabularCPD("C", 2, [[0.4], [0.6]], state_names={"C": ["a&b", "c"]}),
                 TabularCPD("<script>", 2, [[0.9, 0.2], [0.1, 0.8]], evidence=["C"],
                            evidence_card=[2], state_names={"<script>": ["x", "y"],
                                                            "C": ["a&b", "c"]}),
                 TabularCPD("F", 2, [[0.7, 0.4], [0.3, 0.6]], evidence=["C"],
                            evidence_card=[2], state_names={"F": ["x", "y"],
                                                            "C": ["a&b", "c"]}))
    odd = bnx.compile(bnx.Classifier(net, "C", "c"), backend="autoref")
    html = render_report(explain(odd, {"<script>": "y", "F": "y"}, background={}))
    assert "<script>" not in html and "&lt;script&gt;" in html and "a&amp;b" in html


# ---------------------------------------------------------------------- more class states
def test_a_class_with_more_states_says_not_positive():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    sn = {"C": ["lo", "mid", "hi"]}
    net.add_cpds(TabularCPD("C", 3, [[0.3], [0.3], [0.4]], state_names=sn),
                 *(TabularCPD(f, 2, [[0.9, 0.5, 0.2], [0.1, 0.5, 0.8]], evidence=["C"],
                              evidence_card=[3], state_names={f: ["n", "y"], **sn})
                   for f in "AB"))
    for kw in ({"threshold": 0.5}, {"rule": "argmax"}):
        odd = bnx.compile(bnx.Classifier(net, "C", "hi", **kw), backend="autoref")
        r = explain(odd, {"A": "n", "B": "n"})
        assert (r.positive, r.decision) == (False, "not hi")
        assert set(r.class_probabilities) == {"lo", "mid", "hi"}
        assert r.text().startswith("Decided: C = not hi (Pr(C = hi) = ")
    assert "the most probable state is lo" in r.text()
    # the classifier itself is explained by search, and says the same
    searched = explain(bnx.Classifier(net, "C", "hi", rule="argmax"), {"A": "n", "B": "n"})
    assert searched.method == "search"
    assert (searched.decision, set(searched.reasons), searched.robustness) == (
        r.decision, set(r.reasons), r.robustness)


# ---------------------------------------------------------------------- bad input
def test_bad_input_raises_bnx_errors(admissions):
    clf = bnx.examples.admissions()
    with pytest.raises(bnx.ArgumentError, match="bnx.ODD"):
        explain("admissions.bnx", ADMIT)
    with pytest.raises(bnx.UnknownFeatureError, match="Grade"):
        explain(admissions, {**ADMIT, "Grade": "A"})
    with pytest.raises(bnx.UnknownStateError, match="maybe"):
        explain(admissions, {**ADMIT, "GPA": "maybe"})
    with pytest.raises(bnx.ArgumentError, match="complete instance"):
        explain(admissions, {"GPA": "+"}, background={})
    with pytest.raises(bnx.ArgumentError, match="compiled diagram"):
        explain(clf, ADMIT, background={})
    with pytest.raises(bnx.ArgumentError, match="timeout"):
        explain(clf, ADMIT, timeout=0)
    with pytest.raises(bnx.UnknownStateError, match="maybe"):
        explain(clf, ADMIT, rival="maybe")
    with pytest.raises(bnx.ArgumentError, match="complete instance"):
        explain(clf, {"GPA": "+"}, rival="-")
    with pytest.raises(bnx.ArgumentError):
        Report.from_dict({"decision": "+"})
    with pytest.raises(bnx.ArgumentError):
        Report.from_dict([1, 2])
    with pytest.raises(bnx.ArgumentError, match="Classifier"):
        bnx.plot_network("clf", ADMIT)
    with pytest.raises(bnx.ArgumentError, match="report"):
        bnx.plot_network(clf, ADMIT, report=explain(admissions, {"GPA": "+"}))


def test_bnx_explain_is_the_report_function(admissions):
    import bnx.explanation.pi
    assert callable(bnx.explain)
    assert bnx.explain(admissions, ADMIT) == explain(admissions, ADMIT)


# ---------------------------------------------------------------------- pictures
def test_pictures_return_axes(admissions):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    r = explain(admissions, ADMIT, background={})
    for made in (r.plot(), explain(admissions, ADMIT).plot(), explain(admissions,
                                                                      {"GPA": "+"}).plot(),
                 bnx.plot_network(admissions, ADMIT, r),
                 bnx.plot_network(bnx.examples.asia(), {"xray": "yes"})):
        assert isinstance(made, matplotlib.axes.Axes)
    ax = bnx.plot_network(admissions.classifier, ADMIT, r)
    labels = {t.get_text() for t in ax.texts}
    assert "GPA\n= +" in labels and any(t.startswith("Admit\nPr(+) = 0.906") for t in labels)
    bold = {t.get_text().split("\n")[0] for t in ax.texts if t.get_fontweight() == "bold"}
    assert bold == {"Admit", "WorkExperience", "GPA"}
    plt.close("all")


# ---------------------------------------------------------------------- saved ODDs, the CLI
def test_a_saved_odd_reports_as_the_compiled_one(admissions, tmp_path):
    path = admissions.save(str(tmp_path / "admissions.bnx"))
    loaded = bnx.ODD.load(path, backend="autoref")
    assert explain(loaded, ADMIT) == explain(admissions, ADMIT)
    assert loaded._classifier is None  # the posterior came from the file's tables


SCRIPT = """
import sys
from bnx.cli import main
code = main(["explain", sys.argv[1], "--instance", sys.argv[2]])
print("pgmpy" in sys.modules, "sklearn" in sys.modules, file=sys.stderr)
sys.exit(code)
"""


def test_the_command_explains_a_saved_odd_without_pgmpy(admissions, tmp_path):
    path = admissions.save(str(tmp_path / "admissions.bnx"))
    arg = ",".join(f"{k}={v}" for k, v in ADMIT.items())
    out = subprocess.run([sys.executable, "-c", SCRIPT, path, arg], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == explain(admissions, ADMIT).text()
    assert out.stderr.split() == ["False", "False"]


def test_the_command_explains_a_general_networks_saved_odd_without_pgmpy(tmp_path):
    # the file records that its decision is not unate (least_states null), so pi-inst
    # does not rebuild the classifier (pgmpy) to find out
    odd = bnx.compile(bnx.examples.asia())
    path = odd.save(str(tmp_path / "asia.bnx"))
    x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
    out = subprocess.run([sys.executable, "-c", SCRIPT, path,
                          ",".join(f"{k}={v}" for k, v in x.items())],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == explain(odd, x).text()
    assert out.stderr.split() == ["False", "False"]


def test_the_command_options_still_select_single_answers(admissions, tmp_path, capsys):
    from bnx.cli import main
    path = admissions.save(str(tmp_path / "admissions.bnx"))
    arg = ",".join(f"{k}={v}" for k, v in ADMIT.items())
    assert main(["explain", path, "--pi", "--instance", arg]) == 0
    out = capsys.readouterr().out
    assert "PI-explanation" in out
    assert out.startswith("Decided: Admit = + (Pr(Admit = +) = 0.906, threshold 0.5).\n")
    assert main(["explain", path, "--instance", "GPA=+"]) == 0
    assert capsys.readouterr().out.startswith("So far: Admit = +")


def test_the_report_shows_the_general_reasons_that_say_more():
    from tests._support.builders import multivalued_classifier
    odd = bnx.compile(multivalued_classifier())
    shown = 0
    for states in itertools.product(*(odd.states(f) for f in odd.display_order)):
        x = dict(zip(odd.display_order, states))
        r = explain(odd, x)
        found = bnx.general_reasons(odd, x)
        more = [e for e in found if any(len(s) > 1 for s in e.values())][:MAX_SHOWN]
        assert r.general_count == found.count
        assert [dict(e) for e in r.general_reasons] == more
        assert r.general_words == tuple(found.terms(e) for e in more)
        assert ("More generally: " in r.text()) == bool(more)
        assert ("More generally" in render_report(r)) == bool(more)
        assert Report.from_dict(json.loads(json.dumps(r.to_dict()))) == r
        shown += bool(more)
    assert shown
    plain = explain(bnx.compile(bnx.examples.admissions()), ADMIT)  # two states each
    assert plain.general_count is None and plain.general_reasons == ()


def test_a_close_call_read_back_names_its_runner_up_s_probability():
    """A threshold on one of three states named by integers, decided negative near the
    threshold: read back from JSON (the states then text), the close call still gives the
    runner-up's probability (it was lost: ``None``)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "W")])
    net.add_cpds(TabularCPD("C", 3, [[0.26], [0.37], [0.37]]),
                 TabularCPD("W", 2, [[0.4, 0.6, 0.4], [0.6, 0.4, 0.6]], evidence=["C"],
                            evidence_card=[3]))
    clf = bnx.Classifier(net, "C", 0, threshold=Fraction(1, 4))
    r = explain(bnx.compile(clf, backend="autoref"), {"W": 0})  # Pr(C = 0 | W = 0) = 0.219
    m = r.margin
    assert r.positive is False and m is not None and m["runner_up"] == 0
    assert m["runner_up_probability"] == pytest.approx(0.104 / 0.474)
    back = Report.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back.margin["runner_up_probability"] == pytest.approx(0.104 / 0.474)
    assert back.to_dict() == r.to_dict()
