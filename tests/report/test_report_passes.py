"""The passes that make a report fast, each against brute force: the features kept and
dropped by some sufficient reason (one walk over the reasons' diagram), the counterfactuals'
probabilities (the classifier's integer tables, or a saved file's tables) and the decision
on one instance by one walk."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bnx
from bnx.diagram.store import Store
from bnx.diagram.walks import feature_uses
from tests._support import oracle
from tests._support.strategies import classifier_of, classifiers, general_networks, instances


def _args(case):
    return (case.net, case.class_var, case.positive, case.threshold, case.features)


@pytest.mark.slow
@given(case=st.one_of(classifiers(), general_networks(rule="argmax"),
                      general_networks(tan=True)), data=st.data())
def test_feature_uses_are_those_of_the_listed_reasons(case, data):
    odd = bnx.compile(classifier_of(case), backend="autoref")
    x = data.draw(instances(case))
    pis = oracle.pi_explanations(*_args(case), x, rule=case.rule)
    got = bnx.pi_explanations(odd, x, within="all")  # the oracle's total function
    table, ref = got.nodes
    kept, dropped = feature_uses(table, ref, got.layout)
    position = odd.encoding.position
    for f in case.features:
        assert kept[position(f)] == any(f in dict(p) for p in pis)
        assert dropped[position(f)] == any(f not in dict(p) for p in pis)


def test_feature_uses_on_an_empty_set_and_on_the_empty_reason():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    pis = bnx.pi_explanations(odd, x)
    empty = Store.of(4, [4, 4], [0, 1], [0, 1])
    assert feature_uses(empty, 0, pis.layout) == ([False] * 4, [False] * 4)
    # the one member {} (every feature dropped), tested level by level
    nothing_kept = Store.of(4, [4, 4, 3, 2, 1, 0], [0, 1, 1, 2, 3, 4], [0, 1, 0, 0, 0, 0])
    assert feature_uses(nothing_kept, 5, pis.layout) == ([False] * 4, [True] * 4)


@pytest.mark.slow
@given(case=st.one_of(classifiers(), general_networks()), data=st.data())
def test_counterfactual_probabilities_from_the_classifier_and_the_file(case, data,
                                                                     tmp_path_factory):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case))
    cfs = bnx.counterfactuals(odd, x)
    rows = list(cfs)
    want = [sum(oracle.class_joint(case.net, case.class_var, {**x, **r}, case.features)
                .values()) for r in rows]
    assert want == sorted(want, reverse=True)
    assert [p for _, p in cfs.probabilities()] == want
    # a saved ODD: the file's tables (floats, read exactly) give what its classifier gives
    path = odd.save(str(tmp_path_factory.mktemp("cf") / "model.bnx"))
    loaded = bnx.ODD.load(path, backend="autoref")
    got = bnx.counterfactuals(loaded, x)
    from_file = [p for _, p in got.probabilities()]
    assert loaded._classifier is None  # the file's tables answered, not the classifier
    assert from_file == sorted(from_file, reverse=True) and got.to_set() == cfs.to_set()
    # equal: both sum out the nodes that are no ancestor of the class or a feature, with
    # their exact column sums where a CPT's floats do not sum to exactly 1
    assert from_file == want


@pytest.mark.slow
@given(case=st.one_of(classifiers(), general_networks(), general_networks(tan=True)),
       data=st.data())
def test_the_order_by_probability_is_the_exact_one_with_ties_in_place(case, data,
                                                                      tmp_path_factory):
    """probability_order (floats within their bounds, exact where two overlap) against the
    oracle's exact probabilities: a stable sort, so that equal ones, here each change
    listed twice, keep the order given; on the classifier and on a saved file's tables."""
    from bnx.odd._tables import probability_order
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case))
    rows = list(bnx.counterfactuals(odd, x, within="all"))
    rows = [dict(r) for r in rows for _ in (0, 1)] + [{}]  # ties, and x itself
    exact = [sum(oracle.class_joint(case.net, case.class_var, {**x, **r}, case.features)
                 .values()) for r in rows]
    want = sorted(range(len(rows)), key=lambda k: -exact[k])
    assert probability_order(odd, x, rows) == want
    assert probability_order(clf, x, rows) == want  # (the classifier itself, as linear asks)
    loaded = bnx.ODD.load(odd.save(str(tmp_path_factory.mktemp("order") / "m.bnx")),
                          backend="autoref")
    assert probability_order(loaded, x, rows) == want


def test_the_order_by_probability_keeps_its_deadline():
    """Past the deadline, or where an exact value it needs is too large under a deadline,
    no order (the caller keeps the diagram's); the report then says so."""
    from unittest import mock

    from bnx.classifier import _inference
    from bnx.odd import _tables
    asia = bnx.examples.asia()  # a general network: its probabilities in floats first
    clf = bnx.Classifier(asia.network, "lung", "yes", features=["asia", "smoke", "xray", "dysp"])
    odd = bnx.compile(clf, backend="autoref")
    x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
    rows = [dict(r) for r in bnx.counterfactuals(odd, x)]
    assert len(rows) > 1
    twice = rows + rows  # every bound overlaps its twin's: exact values are needed
    assert _tables.probability_order(odd, x, rows, deadline=0.0) is None  # long past
    far = 1e12  # a deadline that cannot pass
    assert _tables.probability_order(odd, x, twice, deadline=far) is not None
    with mock.patch.object(_inference, "EXACT_FLOPS", -1):  # every exact joint too large
        assert _tables.probability_order(odd, x, twice, deadline=far) is None
        assert _tables.probability_order(odd, x, twice) is not None  # no deadline: exact
    cfs = bnx.counterfactuals(odd, x, timeout=1e-9)
    assert not cfs.by_probability and sorted(map(str, cfs)) == sorted(map(str, rows))
    assert bnx.counterfactuals(odd, x).by_probability
    report = bnx.explain(odd, x, timeout=1e-9)
    assert "the diagram's order" in report.methods["counterfactuals"]
    assert bnx.explain(odd, x).methods["counterfactuals"] == "compiled diagram"
    with pytest.raises(bnx.ArgumentError, match="timeout"):
        bnx.counterfactuals(odd, x, timeout=0)


def test_a_counterfactual_yielded_twice_is_a_new_dict():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    cfs = bnx.counterfactuals(odd, x)
    first = next(iter(cfs))
    first.clear()
    assert all(c for c in cfs)


@pytest.mark.parametrize("backend", ["autoref", "cudd"])
def test_one_walk_decides_as_the_batch(backend):
    if backend == "cudd":
        pytest.importorskip("dd.cudd")
    odd = bnx.compile(bnx.case_study.votes_classifier(), backend=backend)
    rows = bnx.datasets.load_votes().dropna().drop(columns="party")
    batch = odd.decide_many(rows, within="all")
    assert [odd.decide(r, within="all") for r in rows.to_dict("records")] == batch.tolist()
