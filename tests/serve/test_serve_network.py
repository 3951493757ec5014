"""The explorer of a classifier served without compiling (``bnx serve NETWORK``, a network
too large to compile): the same page and API, each answer the report ``bnx.explain(clf,
x)`` gives, a 400 for bad input, and ``--timeout`` forwarded to each report."""

from __future__ import annotations

import pytest

import bnx
from bnx import report
from bnx.serve.explorer import Explorer
from tests._support.cli import run

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

EXPLAIN = report.explain  # the real one, kept before a test patches bnx.report's name
X = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


@pytest.fixture
def calls(monkeypatch):
    """bnx.explain recording (model, instance, keywords); a partial instance is answered
    by the compiled diagram (the report without compiling gives one after issue 34)."""
    seen = []

    def recording(model, x, **kwargs):
        seen.append((model, dict(x), dict(kwargs)))
        kwargs.pop("timeout", None)
        if isinstance(model, bnx.Classifier) and set(x) < set(model.features):
            model = bnx.compile(model, backend="autoref")
        return EXPLAIN(model, x, **kwargs)

    monkeypatch.setattr(report, "explain", recording)
    return seen


@pytest.fixture
def clf():
    return bnx.examples.admissions()


def test_the_api_answers_with_the_classifiers_report(clf, calls):
    client = TestClient(bnx.serve.create_app(clf))
    model = client.get("/api/model").json()
    odd = bnx.compile(clf, backend="autoref")
    compiled = TestClient(bnx.serve.create_app(odd)).get("/api/model").json()
    assert model["class"] == "Admit" and model["positive"] == "+"
    assert model["features"] == {f: compiled["features"][f] for f in clf.features}
    got = client.post("/api/explain", json={"instance": X})
    assert got.status_code == 200
    assert got.json() == EXPLAIN(clf, X).to_dict()
    assert got.json()["method"] == "linear"  # explained without compiling
    assert isinstance(calls[-1][0], bnx.Classifier)
    assert calls[-1][2]["timeout"] == bnx.serve.DEADLINE  # each report keeps the deadline
    page = client.get("/", params=X)
    assert page.status_code == 200 and "Decision: <span id=\"decision\">+" in page.text


def test_bad_input_is_a_400_and_the_server_goes_on(clf, calls):
    client = TestClient(bnx.serve.create_app(clf))
    bad = client.post("/api/explain", json={"instance": {"GPA": "A"}})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("'A' is not a state of feature 'GPA'")
    bad = client.post("/api/explain", json={"instance": {"Age": "3"}})
    assert bad.status_code == 400 and "'Age' is not a feature" in bad.json()["error"]
    bad = client.post("/api/explain", json={"instance": X, "background": "uniform"})
    assert bad.status_code == 400 and "background must be one of none" in bad.json()["error"]
    assert client.get("/", params={"GPA": "A"}).status_code == 400
    assert client.post("/api/explain", json={"instance": X}).status_code == 200


def test_a_timeout_reaches_each_report(clf, calls):
    client = TestClient(bnx.serve.create_app(clf, timeout=2.5))
    assert client.post("/api/explain", json={"instance": X}).status_code == 200
    assert client.post("/api/explain", json={"instance": {"GPA": "+"}}).status_code == 200
    assert [c[2]["timeout"] for c in calls] == [2.5, 2.5]
    assert calls[1][1] == {"GPA": "+"}


def test_the_explorer_of_a_multiclass_classifier_checks_its_rival():
    explorer = Explorer(bnx.examples.illness())
    assert explorer.odd is None and explorer.rival("flu") == "flu"
    assert explorer.rival(None) is None and explorer.backgrounds() == {
        "none": "no attributions"}
    with pytest.raises(bnx.UnknownStateError, match="'flew' is not a state of the class "
                       "'Illness' \\(states, closest first: flu"):
        explorer.rival("flew")
    with pytest.raises(bnx.ArgumentError, match="rival names one of the classes"):
        Explorer(bnx.examples.admissions()).rival("+")


def test_the_explorer_refuses_what_it_cannot_serve(clf):
    with pytest.raises(bnx.ArgumentError, match="a bnx.Classifier, got DiscreteBayesianNetwork"):
        Explorer(clf.network)
    with pytest.raises(bnx.ArgumentError, match="timeout= bounds the reports of a classifier"):
        Explorer(bnx.compile(clf, backend="autoref"), timeout=1)
    with pytest.raises(bnx.ArgumentError, match="timeout must be a positive number"):
        Explorer(clf, timeout=0)


@pytest.fixture
def served(monkeypatch):
    """bnx.serve.run, recording what it was asked to serve instead of serving."""
    seen = []
    monkeypatch.setattr(bnx.serve, "run", lambda model, **kw: seen.append((model, kw)))
    return seen


def test_bnx_serve_a_network_file(capsys, tmp_path, served):
    path = bnx.examples.network_path("admission.net")
    argv = ["serve", str(path), "--class", "Admit", "--positive", "state1"]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert isinstance(served[-1][0], bnx.ODD) and "timeout" not in served[-1][1]  # small
    code, _, err = run(capsys, *argv, "--compile", "no", "--timeout", "3")
    assert code == 0 and err == ""
    model, kw = served[-1]
    assert isinstance(model, bnx.Classifier) and kw["timeout"] == 3  # (a large network
    # served without compiling by --compile auto: tests/cli/test_cli_network.py)
    code, out, err = run(capsys, *argv, "--compile", "no", "--order", "GPA")
    assert code == 1 and "--order needs the compiled decision function" in err
