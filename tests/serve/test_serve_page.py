"""What the explorer's answer shows beside the report: every class state's probability
(checked against the brute-force oracle), and what "does not matter" and a SHAP value each
measure where a feature that does not matter has a nonzero SHAP value."""

from __future__ import annotations

import itertools
import re

import pytest

import bnx
from bnx.report import explain
from tests._support import oracle

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

ADMIT = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


def _three_classes():
    """C with three states, two features."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    names = {"C": ["low", "mid", "high"], "A": ["a0", "a1"], "B": ["b0", "b1", "b2"]}
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(TabularCPD("C", 3, [[0.5], [0.3], [0.2]], state_names=names),
                 TabularCPD("A", 2, [[0.9, 0.4, 0.2], [0.1, 0.6, 0.8]], evidence=["C"],
                            evidence_card=[3], state_names=names),
                 TabularCPD("B", 3, [[0.6, 0.3, 0.1], [0.3, 0.4, 0.2], [0.1, 0.3, 0.7]],
                            evidence=["C"], evidence_card=[3], state_names=names))
    return bnx.Classifier(net, "C", "high", threshold=0.3)


def _shown_probabilities(html: str) -> dict:
    table = re.search(r'<table class="classes" id="class-probabilities">(.*?)</table>', html)
    assert table, html
    return {s: float(p) for s, p in re.findall(
        r'<th scope="row">([^<]*)</th><td class="num">([0-9.]+)</td>', table.group(1))}


def test_the_answer_shows_every_class_state_s_probability():
    clf = _three_classes()
    client = TestClient(bnx.serve.create_app(bnx.compile(clf, backend="autoref")))
    choices = [(None, *clf.states(f)) for f in clf.features]
    for states in itertools.product(*choices):
        x = {f: s for f, s in zip(clf.features, states) if s is not None}
        html = client.post("/explain.html", json={"instance": x}).text
        joint = oracle.class_joint(clf.network, "C", x, list(x))
        total = sum(joint.values())
        assert _shown_probabilities(html) == {s: round(float(p / total), 3)
                                              for s, p in joint.items()}, x
        decided = explain(client.app.state.explorer.odd, x).decision
        if decided in clf.class_states:  # the decided state stands out
            assert f'<tr class=decided><th scope="row">{decided}</th>' in html, x
        else:  # "not high": no one state
            assert "class=decided" not in html, x


def test_does_not_matter_beside_a_nonzero_shap_value_says_what_each_measures():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    client = TestClient(bnx.serve.create_app(odd))
    report = explain(odd, ADMIT, background=client.app.state.explorer.background("uniform"))
    assert set(report.irrelevant) == {"FirstTimeApplicant", "EntranceExam"}
    assert any(report.attributions[f] != 0 for f in report.irrelevant)  # the puzzle
    html = client.post("/explain.html", json={"instance": ADMIT,
                                              "background": "uniform"}).text
    assert "with the other features as they are, no state of one of them changes this " \
        "decision" in html
    assert "Their attributions below measure something else: what a feature contributes on " \
        "average over the background instances" in html
    assert "a feature that does not matter to this decision can still move it there" in html
    # without attributions there is nothing to reconcile
    plain = client.post("/explain.html", json={"instance": ADMIT}).text
    assert "no state of one of them changes" in plain and "attributions below" not in plain
