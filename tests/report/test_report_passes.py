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
