"""Instances the network cannot produce are refused, with findings that conflict.

Against brute force: ``Pr(x)`` of every (partial) instance summed exactly from the joint
(:mod:`tests._support.oracle`), on networks with many zero entries
(:mod:`tests._support.zero_networks`). The refusal is an :class:`bnx.ImpossibleInstanceError`
whose ``conflict`` cannot hold (its brute-force probability is zero) while every part one
smaller can; asked everywhere an instance is taken: ``bnx.explain`` on the diagram and
without compiling, a question, ``bnx.explain_data``'s rows, the command line and the
explorer's API (a 400 with the conflict).
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import bnx
from tests._support import oracle
from tests._support.cli import run
from tests._support.zero_networks import classifier_of, zero_networks

ASIA = {"tub": "yes", "either": "no", "smoke": "yes"}
MESSAGE = "tub = yes and either = no cannot both hold under the network"


def _probability(case, x: dict) -> Fraction:
    """``Pr(x)`` of a (partial) instance, exactly, by enumeration."""
    joint = oracle.class_joint(case.net, case.class_var, x, list(x))
    return sum(joint.values(), Fraction(0))


@st.composite
def _partial(draw, case) -> dict:
    kept = draw(st.lists(st.sampled_from(case.features), unique=True, min_size=1))
    return {f: draw(st.sampled_from(case.states(f))) for f in case.features if f in kept}


def _refusal(model, x: dict):
    """The error ``bnx.explain`` refuses ``x`` with, or ``None`` when it explains it."""
    try:
        bnx.explain(model, x)
    except bnx.ImpossibleInstanceError as exc:
        return exc
    return None


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(case=zero_networks(), data=st.data())
def test_refused_exactly_when_impossible_with_a_minimal_conflict(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(_partial(case))
    complete = len(x) == len(case.features)
    got = _refusal(odd, x)
    if complete:  # a question takes it as the report does
        try:
            bnx.pi_explanations(odd, x)
            asked = None
        except bnx.ImpossibleInstanceError as exc:
            asked = exc
        assert (asked is None) == (got is None)
        try:  # the diagram decides it only where the network can produce it
            odd.decide(x)
            decided = None
        except bnx.ImpossibleInstanceError as exc:
            decided = exc
        assert (decided is None) == (got is None)
    if _probability(case, x) > 0:
        assert got is None
        return
    assert got is not None and isinstance(got, bnx.InstanceError)
    conflict = got.conflict
    assert conflict and conflict.items() <= x.items()
    assert _probability(case, conflict) == 0
    for f in conflict:  # none can be dropped
        assert _probability(case, {g: s for g, s in conflict.items() if g != f}) > 0
    assert str(got) == bnx.ImpossibleInstanceError(conflict).args[0]


@pytest.fixture(scope="module")
def asia():
    clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
                         features=["tub", "either", "smoke"])
    return clf, bnx.compile(clf, backend="autoref")


def test_asia_everywhere_in_python(asia):
    clf, odd = asia
    multi = bnx.compile(bnx.Classifier(clf.network, "lung", features=clf.features),
                        backend="autoref")  # a class state decided: the formulas asked once
    for ask in (lambda: bnx.explain(odd, ASIA), lambda: bnx.explain(clf, ASIA),
                lambda: bnx.pi_explanations(odd, ASIA), lambda: bnx.counterfactuals(odd, ASIA),
                lambda: bnx.mc_explanations(odd, ASIA), lambda: bnx.robustness(odd, ASIA),
                lambda: bnx.explain(odd, {"tub": "yes", "either": "no"}),  # partial too
                lambda: clf.posterior(ASIA), lambda: clf.posterior_exact(ASIA),
                lambda: clf.decide(ASIA), lambda: clf.predict(ASIA),
                lambda: clf.class_probabilities(ASIA),
                lambda: bnx.same_decision_probability(clf, {"tub": "yes", "either": "no"}),
                lambda: bnx.next_observations(clf, {"tub": "yes", "either": "no"}),
                lambda: bnx.probable_reasons(clf, ASIA),
                lambda: bnx.parameter_sensitivity(clf, ASIA),
                lambda: bnx.shap_values(odd, ASIA, {}),
                lambda: bnx.decision_bias(odd, ASIA, ["smoke"]),
                lambda: bnx.general_reasons(odd, ASIA),
                lambda: odd.decide(ASIA), lambda: odd.decide_many([{**ASIA, "tub": "no"}, ASIA]),
                lambda: multi.decide(ASIA), lambda: multi.decide_many(pd.DataFrame([ASIA]))):
        with pytest.raises(bnx.InstanceError, match=MESSAGE) as info:
            ask()
        assert info.value.conflict == {"tub": "yes", "either": "no"}
    # the total decision function decides it by the threshold's tie, as the diagram does
    assert clf.decide(ASIA, within="all") is True is odd.decide(ASIA, within="all")
    assert odd.decide_many([ASIA], within="all").tolist() == [True]
    assert multi.decide(ASIA, within="all") == "yes" == multi.decide_many([ASIA], within="all")[0]
    with pytest.raises(bnx.ImpossibleInstanceError, match=f"^row 1: {MESSAGE}"):
        odd.decide_many([{**ASIA, "tub": "no"}, ASIA])  # the row named by its position
    possible = {**ASIA, "tub": "no"}
    assert bnx.explain(odd, possible).decision == bnx.explain(clf, possible).decision
    error = pickle.loads(pickle.dumps(bnx.ImpossibleInstanceError({"tub": "yes"}, "row 3: ")))
    assert str(error) == "row 3: tub = yes cannot hold under the network"
    assert error.conflict == {"tub": "yes"}


def test_the_messages_name_one_two_or_more_findings():
    assert str(bnx.ImpossibleInstanceError({"a": "x"})) == "a = x cannot hold under the network"
    assert str(bnx.ImpossibleInstanceError({"a": "x", "b": "y", "c": "z"})) == (
        "a = x, b = y and c = z cannot all hold under the network")


def test_asia_on_a_saved_odd_with_and_without_its_classifier(asia, tmp_path):
    _, odd = asia
    loaded = bnx.ODD.load(odd.save(tmp_path / "asia.bnx"))
    with pytest.raises(bnx.ImpossibleInstanceError, match=MESSAGE):
        bnx.explain(loaded, ASIA)  # the file's tables: no pgmpy classifier rebuilt
    with pytest.raises(bnx.ImpossibleInstanceError, match=MESSAGE):
        loaded.decide(ASIA)
    assert loaded._classifier is None


def test_asia_rows_of_explain_data(asia):
    clf, odd = asia
    rows = pd.DataFrame([{**ASIA, "tub": "no"}, {**ASIA, "smoke": None}], index=["a", "b"])
    for model in (odd, clf):
        with pytest.raises(bnx.ImpossibleInstanceError, match=f"row 'b': {MESSAGE}"):
            bnx.explain_data(model, rows, progress=False)
    assert len(bnx.explain_data(odd, rows.iloc[:1], progress=False)) == 1


def test_asia_on_the_command_line(capsys):
    path = bnx.examples.network_path("asia.bif")
    argv = ("explain", str(path), "--class", "lung", "--positive", "yes", "--features",
            "tub,either,smoke", "--instance", "tub=yes,either=no,smoke=yes")
    for extra in ((), ("--pi",), ("--compile", "no")):
        code, out, err = run(capsys, *argv, *extra)
        assert code == 1 and out == ""
        assert err == f"bnx: error: {MESSAGE}\n"


def test_asia_in_the_explorer_api(asia):
    clf, odd = asia
    for model in (odd, clf):
        client = TestClient(bnx.serve.create_app(model))
        r = client.post("/api/explain", json={"instance": ASIA})
        assert r.status_code == 400
        assert r.json() == {"error": MESSAGE, "conflict": {"tub": "yes", "either": "no"}}
        r = client.post("/api/explain", json={"instance": {"tub": "yes", "either": "no"}})
        assert r.status_code == 400 and r.json()["conflict"] == {"tub": "yes", "either": "no"}
        assert client.get("/", params={"tub": "yes", "either": "no"}).status_code == 400
        assert client.post("/api/explain", json={"instance": {**ASIA, "tub": "no"}}
                           ).status_code == 200


@settings(max_examples=40, deadline=None)
@given(case=zero_networks())
def test_no_zero_entry_that_matters_means_every_instance_is_possible(case):
    """``may_be_impossible`` is never wrong when it says no: a classifier with a complete
    instance of brute-force probability zero is always announced, by its compiled ODD
    too."""
    from itertools import product

    from bnx.classifier._possible import may_be_impossible
    clf = classifier_of(case)
    said = may_be_impossible(clf)
    assert said is may_be_impossible(bnx.compile(clf, backend="autoref"))
    zero = any(_probability(case, dict(zip(case.features, xs))) == 0
               for xs in product(*(case.states(f) for f in case.features)))
    if zero:
        assert said is True


def test_the_report_says_which_instances_it_answers_among(asia, tmp_path):
    """A report on a network that may rule instances out says which ones it answers among:
    the instances it allows by default (``within="all"``: every one), without compiling
    and on the diagram, a loaded one too; in the text, the HTML and the JSON read back. A
    network whose tables are all positive, and a partial instance, say nothing of it."""
    clf, odd = asia
    x = {"tub": "no", "either": "yes", "smoke": "yes"}
    said = {"support": "Among the instances the network allows",
            "all": "Over every instance, whether or not the network allows it"}
    for model, within, world in ((clf, "support", "support"), (clf, "all", "all"),
                                 (odd, "support", "support"), (odd, "all", "all")):
        r = bnx.explain(model, x, within=within)
        assert r.world == world
        assert said[world] in r.text() and said[world] in r._repr_html_()
        assert said["support" if world == "all" else "all"] not in r.text()
        back = bnx.Report.from_dict(r.to_dict())
        assert back == r and back.world == world
    partial = bnx.explain(clf, {"smoke": "yes"})
    assert partial.world is None and "network allows" not in partial.text()
    path = tmp_path / "asia.bnx"
    odd.save(path)
    loaded = bnx.ODD.load(path)
    assert bnx.explain(loaded, x) == bnx.explain(odd, x)  # the support from the file's tables
    assert bnx.explain(loaded, x, within="all").world == "all"
    admissions = bnx.compile(bnx.examples.admissions(), backend="autoref")
    r = bnx.explain(admissions, dict.fromkeys(admissions.features, "+"))
    assert r.world is None and "network allows" not in r.text()
    with pytest.raises(bnx.ArgumentError, match="world"):
        bnx.Report.from_dict({**r.to_dict(), "world": "elsewhere"})
