"""The explorer of a multi-class classifier (issue 33): the model names its classes, every
answer is ``bnx.explain``'s (with ``rival`` too), the page shows the class probabilities
and a rival picker, and ``bnx serve`` takes a network file without ``--positive``.

Checked against the exact-rational oracle (``tests/_support/oracle_multiclass.py``) on a
small network with three classes, and against ``bnx.explain`` on child."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import bnx
from tests._support.bundled import bundled_network
from tests._support.oracle_multiclass import MultiOracle

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient


def _three_classes():
    """A naive Bayes with a three-state class and two three-state features (exact
    rationals: halves and quarters, an exact tie between two classes on some instances)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    names = {"C": ["lo", "mid", "hi"], "A": ["a0", "a1", "a2"], "B": ["b0", "b1", "b2"]}
    net.add_cpds(
        TabularCPD("C", 3, [[0.25], [0.25], [0.5]], state_names={"C": names["C"]}),
        TabularCPD("A", 3, [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]],
                   evidence=["C"], evidence_card=[3],
                   state_names={"A": names["A"], "C": names["C"]}),
        TabularCPD("B", 3, [[0.5, 0.5, 0.25], [0.5, 0.25, 0.25], [0, 0.25, 0.5]],
                   evidence=["C"], evidence_card=[3],
                   state_names={"B": names["B"], "C": names["C"]}))
    return net


@pytest.fixture(scope="module")
def small():
    net = _three_classes()
    odd = bnx.compile(bnx.Classifier(net, "C", features=["A", "B"]), backend="autoref")
    return odd, MultiOracle(net, "C", ["A", "B"]), TestClient(bnx.serve.create_app(odd))


def test_model_names_the_classes(small):
    odd, _, client = small
    model = client.get("/api/model").json()
    assert model["class"] == "C" and model["positive"] is None and model["multiclass"]
    assert model["classes"] == ["lo", "mid", "hi"]


def test_every_answer_against_the_oracle(small):
    odd, brute, client = small
    for a, b in itertools.product(odd.states("A"), odd.states("B")):
        x = {"A": a, "B": b}
        decided = brute.decide(x)
        for rival in (None, *(c for c in brute.classes if c != decided)):
            data = client.post("/api/explain", json={"instance": x, "rival": rival}).json()
            assert data["decision"] == decided and data["rival"] == rival
            probs = brute.class_probabilities(x)
            assert data["class_probabilities"] == {c: float(p) for c, p in probs.items()}
            cfs = brute.counterfactuals(x, target=rival)
            assert data["counterfactual_count"] == len(cfs)
            for c in data["counterfactuals"]:
                key = frozenset((f, ch["to"]) for f, ch in c["changes"].items())
                assert cfs[key] == c["decision"]
            assert {frozenset(e.items()) for e in data["reasons"]} <= brute.pi_explanations(
                x, rival=rival)
            assert data == bnx.explain(odd, x, rival=rival).to_dict()


def test_a_rival_that_is_the_decision_asks_nothing_more(small):
    odd, brute, client = small
    x = {"A": "a2", "B": "b2"}
    decided = brute.decide(x)
    data = client.post("/api/explain", json={"instance": x, "rival": decided}).json()
    assert data["rival"] is None and data == bnx.explain(odd, x).to_dict()


def test_partial_instances_ignore_the_rival(small):
    odd, brute, client = small
    data = client.post("/api/explain", json={"instance": {"A": "a0"}, "rival": "hi"}).json()
    assert data["rival"] is None and data["decision"] == brute.decide({"A": "a0"}, partial=True)
    assert Fraction(data["sdp_exact"]) == brute.same_decision_probability({"A": "a0"})
    got = {n["feature"]: (n["expected_sdp"], n["flip_probability"]) for n in data["next"]}
    want = brute.next_observations({"A": "a0"})
    assert set(got) == set(want)
    for f, (s, p) in want.items():  # floats within 1e-9 of the exact values
        assert got[f] == pytest.approx((float(s), float(p)), abs=1e-9)


@pytest.mark.parametrize("rival, message", [
    ("top", "'top' is not a state of the class 'C'"),
    (3, "3 is not a state of the class 'C'"),
])
def test_bad_rivals(small, rival, message):
    _, _, client = small
    r = client.post("/api/explain", json={"instance": {"A": "a0", "B": "b0"}, "rival": rival})
    assert r.status_code == 400 and r.json()["error"].startswith(message)
    assert client.get("/api/model").status_code == 200  # still serving


def test_page_has_the_bars_and_the_rival_picker(small):
    odd, brute, client = small
    x = {"A": "a0", "B": "b0"}
    decided = brute.decide(x)
    rival = next(c for c in brute.classes if c != decided)
    page = client.get("/", params={**x, "rival": rival}).text
    assert '<select id="rival" name="rival"' in page
    assert f'<option value="{rival}" selected>' in page
    assert 'id="class-probabilities"' in page and "<tr class=decided>" in page
    assert f"Why not {rival}" in page and "the most probable <b>C</b>" in page
    html = client.post("/explain.html", json={"instance": x, "rival": rival}).text
    assert f"What would make it {rival}" in html


X = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
     "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}


@pytest.mark.slow
def test_child(tmp_path):
    net = bundled_network("child")
    odd = bnx.compile(bnx.Classifier(net, "Disease"))
    client = TestClient(bnx.serve.create_app(odd))
    data = client.post("/api/explain", json={"instance": X, "rival": "TGA"}).json()
    assert data == bnx.explain(odd, X, rival="TGA").to_dict()
    assert {"changes": {"XrayReport": {"from": "Normal", "to": "Plethoric"}},
            "decision": "TGA"} in data["counterfactuals"]
    # a saved multi-class ODD is served as the compiled one
    saved = bnx.ODD.load(odd.save(str(tmp_path / "child.bnx")))
    again = TestClient(bnx.serve.create_app(saved))
    assert again.post("/api/explain", json={"instance": X}).json() == bnx.explain(
        odd, X).to_dict()


def test_attributions_against_each_background(small):
    """The attributions of the decided class, as bnx.shap_values of the multi-class ODD
    gives them for that class, against every background the page offers."""
    odd, brute, client = small
    explorer = client.app.state.explorer
    assert set(explorer.backgrounds()) == {"none", "network", "uniform", "marginals"}
    x = {"A": "a1", "B": "b0"}
    for name in ("network", "uniform", "marginals"):
        data = client.post("/api/explain", json={"instance": x, "background": name}).json()
        want = bnx.shap_values(odd, x, explorer.background(name)).for_class(brute.decide(x))
        assert data["attributions"] == pytest.approx(dict(zip(want.feature_names,
                                                              want.values.tolist())))
        assert data["base_value"] == pytest.approx(float(want.base_values))
