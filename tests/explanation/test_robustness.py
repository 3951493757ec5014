"""Bad input of every kind ends in a bnx.BnxError that names the problem (review findings)."""

from __future__ import annotations

import numpy as np
import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.explanation.explanations import positives

X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


@pytest.fixture(scope="module")
def odd():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


def test_numpy_thresholds_are_taken_exactly():
    for t in (np.float32(0.5), np.float16(0.25), np.float64(0.1), np.int64(1)):
        clf = bnx.Classifier(bnx.examples.admissions_network(), "Admit", "+", threshold=t)
        assert clf.threshold == float(t)


@pytest.mark.parametrize("call, error, match", [
    (lambda o: bnx.compile(o.classifier, 5), bnx.OrderError, "order must be a list"),
    (lambda o: bnx.compile(o.classifier, [["GPA"]]), bnx.OrderError, "not a feature"),
    (lambda o: bnx.mc_explanations(o, X, on=["GPA"]), bnx.ArgumentError, "on must map"),
    (lambda o: bnx.mc_explanations(o, X, on="GPA"), bnx.ArgumentError, "on must map"),
    (lambda o: bnx.mc_explanations(o, X, fixed=None), bnx.ArgumentError, "fixed must be"),
    (lambda o: bnx.mc_explanations(o, X, fixed=5), bnx.ArgumentError, "fixed must be"),
    (lambda o: bnx.mc_explanations(o, X, fixed="GPA"), bnx.ArgumentError, "fixed must be"),
    (lambda o: bnx.mc_explanations(o, X, fixed=[["GPA"]]), bnx.UnknownFeatureError, "fixed"),
    (lambda o: bnx.mc_explanations(o.classifier, X), bnx.ArgumentError, "compile it first"),
    (lambda o: bnx.pi_explanations(None, X), bnx.ArgumentError, "expected a bnx.ODD"),
    (lambda o: bnx.prime_implicants(o.classifier), bnx.ArgumentError, "expected a bnx.ODD"),
    (lambda o: bnx.check_monotone(o.classifier), bnx.ArgumentError, "expected a bnx.ODD"),
    (lambda o: bnx.prime_implicants(o, decision=1), bnx.ExplanationError, "True or False"),
    (lambda o: o.classifier.parent("zzz"), bnx.UnknownFeatureError, "'zzz'"),
    (lambda o: o.classifier.table("zzz"), bnx.UnknownFeatureError, "'zzz'"),
    (lambda o: o.classifier.children([1]), bnx.UnknownFeatureError, r"\[1\]"),
    (lambda o: o.classifier.state_index([1], "+"), bnx.UnknownFeatureError, r"\[1\]"),
    (lambda o: bnx.Classifier.from_file(None, "C", 1), bnx.ArgumentError, "path"),
    (lambda o: o.save(None), bnx.ArgumentError, "path"),
    (lambda o: bnx.ODD.load(7), bnx.ArgumentError, "path"),
    (lambda o: o.to_dot() and bnx.pi_explanations(o, X).to_frame(limit=-1),
     bnx.ArgumentError, "limit"),
])
def test_bad_arguments(odd, call, error, match):
    with pytest.raises(error, match=match):
        call(odd)


def test_draw_to_an_unwritable_place(odd, tmp_path):
    with pytest.raises(bnx.OutputError, match="cannot write"):
        odd.draw(str(tmp_path / "missing" / "odd.dot"))
    (tmp_path / "folder.dot").mkdir()
    with pytest.raises(bnx.OutputError, match="cannot write"):
        odd.draw(str(tmp_path / "folder.dot"))  # a directory
    with pytest.raises(bnx.ArgumentError, match="drawing format"):
        odd.draw(str(tmp_path / "noextension"))


def test_deeply_nested_json_is_not_an_odd_file(tmp_path):
    path = tmp_path / "nested.bnx"
    path.write_text("[" * 100_000)
    with pytest.raises(bnx.ODDFileError, match="nests too deeply|not valid JSON"):
        bnx.ODD.load(path)


def test_a_directory_is_not_a_network_file(tmp_path):
    with pytest.raises(bnx.NetworkFileError, match="is a directory"):
        bnx.Classifier.from_file(tmp_path, "C", 1)


def test_membership_is_exact(odd):
    pis = bnx.pi_explanations(odd, X)
    assert {"WorkExperience": "+", "GPA": "+"} in pis
    assert {"WorkExperience": "+", "GPA": "+", "Bogus": "zzz"} not in pis
    assert {"WorkExperience": "+"} not in pis
    assert [("GPA", "+")] not in pis


def test_membership_matches_states_by_text():
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                  TabularCPD("A", 2, [[0.75, 0.25], [0.25, 0.75]], evidence=["C"],
                             evidence_card=[2]),
                  TabularCPD("B", 2, [[0.75, 0.25], [0.25, 0.75]], evidence=["C"],
                             evidence_card=[2]))
    odd = bnx.compile(bnx.Classifier(net, "C", 1, threshold=0.8), backend="autoref")
    pis = bnx.pi_explanations(odd, {"A": 1, "B": 1})
    assert {"A": 1, "B": 1} in pis and {"A": "1", "B": "1"} in pis


def test_limit_zero(odd):
    assert len(bnx.pi_explanations(odd, X).to_frame(limit=0)) == 0


def test_fixed_multivalued_features_need_no_on_states():
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                 TabularCPD("A", 3, [[0.1, 0.5], [0.1, 0.25], [0.8, 0.25]], evidence=["C"],
                            evidence_card=[2]),
                  TabularCPD("B", 2, [[0.75, 0.25], [0.25, 0.75]], evidence=["C"],
                             evidence_card=[2]))
    odd = bnx.compile(bnx.Classifier(net, "C", 0), backend="autoref")
    with pytest.raises(bnx.OnStatesError, match="'A' \\(0 / 1 / 2\\)"):
        bnx.mc_explanations(odd, {"A": 2, "B": 0})
    mc = bnx.mc_explanations(odd, {"A": 2, "B": 0}, fixed=["A"])
    assert all(e["A"] == 2 for e in mc)


def test_positives_title_has_no_lengths(odd):
    assert str(positives(odd)).startswith("6 instances decided Admit = +:\n")
    assert positives(odd).title() == "6 instances decided Admit = +"


@pytest.mark.parametrize("text, match", [
    ("BAYES\n1\n1\n1\n1 0\n1\n 1.0\n", None),  # one state, one entry: loads
    ("BAYES\n2\n2 2\n3\n1 0\n2 0 1\n2 0 1\n2\n 0.5 0.5\n4\n 0.5 0.5 0.5 0.5\n4\n 0.5 0.5 0.5 0.5\n",
     "two tables for var_1"),
    ("MARKOV\n1\n2\n1\n1 0\n2\n 0.5 0.5\n", "MARKOV.*is not BAYES"),
])
def test_uai_edge_cases(tmp_path, text, match):
    path = tmp_path / "net.uai"
    path.write_text(text)
    if match is None:
        net = bnx.read_network(path)
        assert list(net.nodes()) == ["var_0"]
    else:
        with pytest.raises(bnx.NetworkFileError, match=match):
            bnx.read_network(path)


def test_uai_table_with_extra_entries(tmp_path):
    path = tmp_path / "long.uai"
    path.write_text("BAYES\n2\n2 2\n2\n1 0\n2 0 1\n2\n 0.5 0.5\n4\n 0.5 0.5 0.5 0.5 0.25 0.75\n")
    with pytest.raises(bnx.NetworkFileError, match="more or fewer entries"):
        bnx.read_network(path)
