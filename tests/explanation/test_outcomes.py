"""No public function answers ``None`` for a meaningful outcome: a decision no change flips
has robustness ``math.inf`` (everywhere it is reported), "no counterexample" is a value,
and an undefined posterior is NaN as a float and an error as a fraction."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx import linear
from bnx.cli import main

X = {"F": "a", "G": "u"}


@pytest.fixture(scope="module")
def constant():
    """Naive Bayes whose features say nothing about the class: every instance is decided
    C = no (Pr(C = yes) = 0.1 whatever F and G are)."""
    net = DiscreteBayesianNetwork([("C", "F"), ("C", "G")])
    net.add_cpds(TabularCPD("C", 2, [[0.9], [0.1]], state_names={"C": ["no", "yes"]}),
                 TabularCPD("F", 2, [[0.3, 0.3], [0.7, 0.7]], evidence=["C"],
                            evidence_card=[2], state_names={"F": ["a", "b"], "C": ["no", "yes"]}),
                 TabularCPD("G", 2, [[0.6, 0.6], [0.4, 0.4]], evidence=["C"],
                            evidence_card=[2], state_names={"G": ["u", "v"], "C": ["no", "yes"]}))
    clf = bnx.Classifier(net, "C", "yes")
    return clf, bnx.compile(clf, backend="autoref")


def test_robustness_of_a_decision_no_change_flips_is_infinite(constant):
    clf, odd = constant
    assert bnx.robustness(odd, X) == math.inf
    assert linear.robustness(clf, X) == math.inf
    cfs = bnx.counterfactuals(odd, X)
    assert cfs.count == 0 and cfs.cost == math.inf
    assert bnx.contrastive_explanations(odd, X).count == 0
    assert bnx.robustness_profile(odd) == {math.inf: 4}
    # a flippable decision keeps its integer, and immutable features can make it infinite
    admit = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = dict.fromkeys(admit.features, "+")
    assert bnx.robustness(admit, x) == 2 and type(bnx.robustness(admit, x)) is int
    assert bnx.robustness(admit, x, immutable=["GPA", "WorkExperience"]) == math.inf
    assert bnx.robustness_profile(admit, immutable=["GPA", "WorkExperience"]) == {
        1: 6, 2: 2, math.inf: 8}


def test_linear_single_answers_raise_when_none_exists(constant):
    clf, _ = constant
    with pytest.raises(bnx.ExplanationError, match="another decision than C = no"):
        linear.shortest_contrastive_explanation(clf, X)
    cfs = linear.counterfactuals(clf, X)  # a set: empty, as on the diagram
    assert cfs.count == 0 and cfs.cost == math.inf and list(cfs) == []


def test_reports_say_infinite_in_every_form(constant):
    clf, odd = constant
    for r in (bnx.explain(odd, X), bnx.explain(clf, X)):
        assert r.robustness == math.inf and r.counterfactuals == ()
        # a constant classifier is said to be constant, not "no feature matters"
        assert "whatever the findings say" in r.text()
        assert "whatever the findings say" in r._repr_html_()
        d = r.to_dict()
        assert d["robustness"] == "Infinity"
        text = json.dumps(d, allow_nan=False)  # strict JSON
        assert bnx.Report.from_dict(json.loads(text)) == r
    with pytest.raises(bnx.ArgumentError, match="robustness"):
        bnx.Report.from_dict({**bnx.explain(odd, X).to_dict(), "robustness": "lots"})


def test_the_command_line_says_infinite(constant, tmp_path, capsys):
    _, odd = constant
    path = tmp_path / "constant.bnx"
    odd.save(path)
    assert main(["explain", str(path), "--instance", "F=a,G=u", "--robustness",
                 "--profile"]) == 0
    out = capsys.readouterr().out
    assert "robustness: infinite (no change flips the decision)" in out
    assert "infinite (never flips)  4" in out


def test_explain_data_robustness_is_a_float_column_with_inf(constant):
    _, odd = constant
    rows = pd.DataFrame([{"F": "a", "G": "u"}, {"F": "b", "G": None}, {"F": None, "G": None}])
    got = bnx.explain_data(odd, rows, what=["robustness"], progress=False)
    assert got["robustness"].dtype == float and list(got["robustness"]) == [math.inf] * 3
    admit = bnx.compile(bnx.examples.admissions(), backend="autoref")
    got = bnx.explain_data(admit, [dict.fromkeys(admit.features, "+")], what=["robustness"],
                           progress=False)
    assert list(got["robustness"]) == [2.0]
    assert bnx.batch.default_what(admit)[1] == ""


def test_monotone_check_is_a_value(constant):
    clf, _ = constant  # F and G ordered by their on states: a below b, u below v
    odd = bnx.compile(bnx.Classifier(clf.network, "C", "yes", on_states={"F": "b", "G": "v"}),
                      backend="autoref")
    none = bnx.check_monotone(odd, ["F", "G"])
    assert isinstance(none, bnx.MonotoneCheck)
    assert (none.holds, none.violations, none.counterexample) == (True, 0, None)
    assert none.low is None and none.high is None and none.feature is None
    assert str(none) == "Monotone: raising F or G never lowers the decision (C = no below C = yes)."
    votes = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    got = bnx.check_monotone(votes)
    assert not got.holds and got.violations == sum(got.by_feature.values()) > 0
    f = got.feature
    assert {g for g in votes.features if got.low[g] != got.high[g]} == {f}
    assert got.high[f] == "y" and votes.decide(got.low) and not votes.decide(got.high)
    assert str(got).startswith("Not monotone (") and f"raising {f} from n to y" in str(got)


@pytest.fixture(scope="module")
def impossible():
    """F = z has probability zero under both classes."""
    net = DiscreteBayesianNetwork([("C", "F")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["no", "yes"]}),
                 TabularCPD("F", 3, [[0.2, 0.7], [0.8, 0.3], [0.0, 0.0]], evidence=["C"],
                            evidence_card=[2],
                            state_names={"F": ["x", "y", "z"], "C": ["no", "yes"]}))
    return bnx.Classifier(net, "C", "yes")


def test_an_undefined_posterior_is_an_error_as_a_float_and_as_a_fraction(impossible):
    clf = impossible
    for posterior in (clf.posterior, clf.posterior_exact):
        with pytest.raises(bnx.ImpossibleInstanceError,
                           match="probability zero under the network \\(its posterior "
                           "Pr\\(class \\| instance\\) is undefined\\): F = z cannot hold"
                           ) as info:
            posterior({"F": "z"})
        assert info.value.conflict == {"F": "z"}
    assert float(clf.posterior_exact({"F": "x"})) == pytest.approx(0.7 / 0.9)
    table = bnx.group_fairness(clf, "F", exact=True)
    assert table.loc["z"].isna().all() and not table.loc["x"].isna().any()
    assert table.loc["x", "all"] == 1  # F = x: Pr(yes | x) = 0.7 / 0.9, decided yes
