"""What the reports say beyond their fields (issue 48), on every surface (text, HTML, JSON):
headings from what was proven, a close call and whether one finding could change it, a
constant classifier said to be constant, a long reason summarised, and what to find out
next ranked by what the observation can do to the decision."""

from __future__ import annotations

import dataclasses
import itertools
import re
from fractions import Fraction

import pytest

import bnx
from bnx.report import GLOSSARY, explain
from bnx.report._plain import LONG, NEAR
from bnx.report._text import number
from tests._support.words import constant_classifier

ADMIT = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


def wide_classifier(n: int = 12):
    """A naive Bayes of ``n`` binary features, each nearly as strong: long reasons."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    features = [f"F{i:02d}" for i in range(n)]
    names = {"C": ["yes", "no"], **{f: ["on", "off"] for f in features}}
    net = DiscreteBayesianNetwork([("C", f) for f in features])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names=names)]
    for i, f in enumerate(features):
        p = 0.7 + 0.001 * i
        cpds.append(TabularCPD(f, 2, [[p, 1 - p], [1 - p, p]], evidence=["C"],
                               evidence_card=[2], state_names=names))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", "yes", threshold=0.999)


# ------------------------------------------------------------------ a constant classifier
def test_a_constant_classifier_is_said_to_be_constant_on_every_surface():
    clf = constant_classifier()
    odd = bnx.compile(clf, backend="autoref")
    # by hand: Pr(yes) Pr(a | yes) Pr(b | yes) > Pr(no) Pr(a | no) Pr(b | no) everywhere
    a = {"a0": (Fraction(6, 10), Fraction(5, 10)), "a1": (Fraction(4, 10), Fraction(5, 10))}
    b = {"b0": (Fraction(3, 10), Fraction(4, 10)), "b1": (Fraction(3, 10), Fraction(3, 10)),
         "b2": (Fraction(4, 10), Fraction(3, 10))}
    every = list(itertools.product(a, b))
    assert all(Fraction(99, 100) * a[i][0] * b[j][0] > Fraction(1, 100) * a[i][1] * b[j][1]
               for i, j in every)
    assert odd.count() == len(every)
    for x in ({"A": "a1", "B": "b2"}, {}):
        r = explain(odd, x)
        assert r.constant and r.to_dict()["constant"] is True
        said = "decides C = yes whatever the findings say"
        assert said in r.text() and "do not matter" not in r.text()
        html = r._repr_html_()
        assert "decides C&nbsp;=&nbsp;yes whatever the findings say" in html
        assert "Does not matter" not in html and "What would change it" not in html
        assert r.margin is None
    assert not explain(odd, {"A": "a1"}).constant  # something observed: not shown
    assert not explain(bnx.compile(bnx.examples.admissions(), backend="autoref"),
                       ADMIT).constant


def test_the_explorer_says_a_constant_classifier_is_constant():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient
    client = TestClient(bnx.serve.create_app(bnx.compile(constant_classifier(),
                                                         backend="autoref")))
    for params in ({}, {"A": "a0", "B": "b1"}):
        page = client.get("/", params=params).text
        assert 'class="detail constant"' in page and "whatever the findings say" in page
    assert client.post("/api/explain", json={"instance": {}}).json()["constant"] is True


# ------------------------------------------------------------------ proven headings
def test_the_why_heading_says_what_was_proven():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    r = explain(odd, ADMIT)
    assert r.reasons_proven == "shortest"
    cases = {"shortest": GLOSSARY["shortest_reason"].label,
             "minimal": GLOSSARY["minimal_reason"].label,
             "sufficient": GLOSSARY["sufficient_reason"].label}
    for proven, label in cases.items():
        s = dataclasses.replace(r, reasons_proven=proven, method="search", reason_count=None,
                                reason_lengths=None)
        html = s._repr_html_()
        assert label in html and s.to_dict()["labels"]["reasons"] == f"{proven}_reason"
        assert f">{label}, whatever the other features say" in html
        for other in set(cases.values()) - {label}:
            assert f">{other}, whatever" not in html
        text = s.text().replace("\n  ", " ")
        if proven != "shortest":  # never "shortest" above "not proven minimal"
            assert "fewest" not in html.split("not proven")[0] or proven == "minimal"
            assert "the fewest findings that settle" not in html
        if proven == "sufficient":
            assert "did not prove it minimal" in text
        if proven == "minimal":
            assert "not proven the shortest" in text


def test_a_whole_instance_reason_claims_no_feature_needed_unless_proven():
    """munin1's report (a bound cut the search short) said "no feature can be left out",
    then "some of its features may not be needed": a reason that is the whole instance,
    short or long, says each feature is needed only where proven minimal."""
    votes = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    x = bnx.datasets.load_votes().drop(columns="party").dropna().iloc[0].to_dict()
    for odd, inst in ((bnx.compile(bnx.examples.admissions(), backend="autoref"), ADMIT),
                      (votes, x)):
        assert (len(inst) > LONG) == (odd is votes)  # a short and a long reason
        r = explain(odd, inst)
        whole = {f: inst[f] for f in odd.features}
        for proven in ("sufficient", "minimal"):
            s = dataclasses.replace(r, reasons=(whole,), reasons_proven=proven,
                                    method="search", reason_count=None, reason_lengths=None)
            text = s.text().replace("\n  ", " ")
            claims = [c for c in ("no feature can be left out", "every feature is needed",
                                  "it takes all of") if c in text]
            assert bool(claims) == (proven == "minimal"), (proven, claims)
            assert ("may not be needed" in text) == (proven == "sufficient")


def test_a_search_with_five_shortest_reasons_says_there_are_at_least_five():
    """hailfinder's report held five reasons and said "this is a shortest one"."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    r = explain(odd, ADMIT)
    reason = r.reasons[0]
    for shown, said in ((5, "At least five reasons have two features, the fewest"),
                        (3, "Three reasons have two features, the fewest"),
                        (1, "This is the only reason of the fewest features")):
        s = dataclasses.replace(r, reasons=(reason,) * shown, method="search",
                                reason_count=None, reason_lengths=None)
        assert said in s.text().replace("\n  ", " ")
        assert "this is a shortest one" not in s.text()


# ------------------------------------------------------------------ a close call
@pytest.fixture(scope="module")
def child():
    """pgmpy's child, class Disease (six states), compiled."""
    from tests._support.bundled import bundled_network
    return bnx.compile(bnx.Classifier(bundled_network("child"), "Disease"))


#: child's closest call among its 1,080 instances: TGA 0.309, Fallot 0.307
CLOSE = {"LVHreport": "no", "LowerBodyO2": "5-12", "RUQO2": "5-12", "CO2Report": "<7.5",
         "XrayReport": "Grd_Glass", "GruntingReport": "yes", "Age": "4-10_days"}


def test_a_close_call_says_the_runner_up_and_whether_one_finding_changes_it(child):
    r = explain(child, {})
    m = r.margin
    probs = r.class_probabilities
    assert r.decision == "TGA" and m["runner_up"] == "Fallot"
    assert m["gap"] == pytest.approx(probs["TGA"] - probs["Fallot"]) and m["gap"] < NEAR
    assert m["one_finding"] is True  # some finding still missing changes it
    assert any(n.flip_probability > 0 for n in r.next)
    assert "Close call: the next most probable, Disease = Fallot, has probability 0.291" \
        in r.text().replace("\n  ", " ")
    assert "Close call" in r._repr_html_() and r.to_dict()["margin"]["runner_up"] == "Fallot"
    # a complete instance decided by a small margin, changed by one finding
    r = explain(child, CLOSE)
    first, second = sorted(r.class_probabilities.values())[-1:-3:-1]
    assert r.margin["gap"] == pytest.approx(first - second) and r.margin["gap"] < 0.002
    assert r.margin["one_finding"] is True and r.robustness == 1
    assert child.decide({**CLOSE, "XrayReport": "Oligaemic"}) != r.decision
    assert "One finding could change the decision (XrayReport from Grd_Glass to Oligaemic)" \
        in r.text().replace("\n  ", " ")
    far = explain(child, {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5",
                          "CO2Report": "<7.5", "XrayReport": "Normal",
                          "GruntingReport": "yes", "Age": "0-3_days"})
    assert far.margin is None and "Close call" not in far.text()


def test_a_binary_close_call_names_the_threshold():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    for x in ({"GPA": "+"}, ADMIT):
        r = explain(odd, x)
        near = abs(r.posterior - r.threshold) < NEAR
        assert (r.margin is not None) == near
    r = dataclasses.replace(explain(odd, ADMIT), posterior=0.52)
    assert r.margin["threshold"] == 0.5 and "0.0200 above the threshold 0.500" in r.text()
    assert "One finding could change the decision (WorkExperience from + to -)" in \
        r.text().replace("\n  ", " ")


# ------------------------------------------------------------------ a long reason
def test_a_long_reason_is_summarised_with_what_matters_most():
    clf = wide_classifier()
    odd = bnx.compile(clf, backend="autoref")
    x = {f: "on" for f in clf.features}
    r = explain(odd, x)
    reason = r.reasons[0]
    assert len(reason) > LONG
    text = r.text().replace("\n  ", " ")
    assert f"these {number(len(reason))} findings are enough" in text
    changed = {f for c in r.counterfactuals for f in c}
    top = re.search(r"the ones whose change matters most: (.*?); the other", text).group(1)
    assert top and all(f.split(" = ")[0] in changed | set(r.necessary)
                       for f in re.split(r", | and ", top))
    html = r._repr_html_()
    assert f"these {len(reason)} findings" in html and "<details>" in html


# ------------------------------------------------------------------ what to find out next
def test_the_child_blank_page_ranks_lowerbodyo2_above_co2report(child):
    r = explain(child, {})
    order = [n.feature for n in r.next]
    assert order.index("LowerBodyO2") < order.index("CO2Report")
    cannot = [n.feature for n in r.next if n.flip_probability == 0]
    assert cannot and order[-len(cannot):] == cannot  # those that cannot change it: last
    assert "CO2Report and GruntingReport cannot change it" in r.text().replace("\n  ", " ")
    assert "(Sure on average: how likely the decision made once it is known" in \
        r.text().replace("\n  ", " ")
    html = r._repr_html_()
    assert "chance it changes the decision" in html and "cannot change it" in html


def test_a_tie_is_a_close_call_said_as_a_tie():
    """An exact tie is not "0 less" (barley's half instance): the runner-up is as probable."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "F")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["a", "b"]}),
                 TabularCPD("F", 3, [[0.5, 0.5], [0.3, 0.1], [0.2, 0.4]], evidence=["C"],
                            evidence_card=[2],
                            state_names={"F": ["x", "y", "z"], "C": ["a", "b"]}))
    text = " ".join(explain(bnx.Classifier(net, "C"), {"F": "x"}).text().split())
    assert "Close call: C = b is exactly as probable, 0.500." in text and "0 less" not in text
    binary = bnx.Classifier(net, "C", "a", threshold=0.5)
    text = " ".join(explain(binary, {"F": "x"}).text().split())
    assert "is exactly the threshold, 0.500." in text
