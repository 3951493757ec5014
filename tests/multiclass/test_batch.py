"""Explaining data sets with a multi-class classifier (issue 33): ``bnx.explain_data`` and
``bnx.batch.decide_many`` give the decided class states, and the explanations of the
decided class per row (rows with missing values: the classifier restricted to the observed
features), against the brute-force oracle (tests/_support/oracle_multiclass.py) of the
network with those features; the answers about one positive state are refused."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import is_possible, multiclass_classifier_of, multiclass_networks

WHAT = ["decision", "observed", "mc_count", "mc_shortest", "pi_count", "pi_shortest",
        "pi_shortest_count", "robustness"]


def _rows(data, case, n):
    return [{f: (None if data.draw(st.integers(0, 3)) == 0
                 else data.draw(st.sampled_from(case.states(f)))) for f in case.features}
            for _ in range(n)]


def _brute(case, row, on):
    """The answers ``WHAT`` of one row by the oracle of the observed features."""
    kept = [f for f in case.features if row[f] is not None]
    x = {f: row[f] for f in kept}
    whole = MultiOracle.of(case)
    d = whole.decide(x, partial=True)
    if not kept:
        return {"decision": d, "observed": 0, "mc_count": 1, "mc_shortest": 0, "pi_count": 1,
                "pi_shortest": 0, "pi_shortest_count": 1, "robustness": math.inf}
    brute = MultiOracle(case.net, case.class_var, kept)
    assert brute.decide(x) == d
    # every answer among the instances the network allows (the default)
    possible = MultiOracle(case.net, case.class_var, kept, within="support")
    pis = possible.pi_explanations(x)
    lengths = [len(p) for p in pis]
    mcs = possible.mc_explanations(x, {f: on[f] for f in kept})
    cost = {sum(1 for f, s in m if s == on[f]) for m in mcs}
    assert len(cost) == 1
    return {"decision": d, "observed": len(kept), "mc_count": len(mcs),
            "mc_shortest": cost.pop(), "pi_count": len(pis), "pi_shortest": min(lengths),
            "pi_shortest_count": lengths.count(min(lengths)),
            "robustness": float(possible.robustness(x))}


@given(case=multiclass_networks(max_features=4, max_instances=36), data=st.data())
@settings(max_examples=15, deadline=None)
def test_explain_data_answers_each_row_for_its_decided_class(case, data):
    clf = multiclass_classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    rows = [r for r in _rows(data, case, 4) if is_possible(case, r)]  # bnx refuses the rest
    assume(rows)
    on = {f: case.states(f)[0] for f in case.features}
    note(f"rows={rows}")
    frame = bnx.explain_data(odd, rows, what=WHAT, on=on, progress=False)
    for k, row in enumerate(rows):
        assert frame.iloc[k].to_dict() == _brute(case, row, on)
    decided = bnx.batch.decide_many(odd, rows)
    assert decided.tolist() == odd.decide_many(rows).tolist() == frame["decision"].tolist()
    assert frame["decision"].dtype == object


def test_answers_about_one_positive_state_are_refused():
    asia = bnx.examples.asia()
    many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
                       backend="autoref")
    rows = [{"xray": "yes", "dysp": "yes"}]
    what, note = bnx.batch.default_what(many)
    assert "posterior" not in what and note == ""
    assert list(bnx.explain_data(many, rows, progress=False).columns) == list(what)
    for w in ("posterior", "sensitivity"):
        with pytest.raises(bnx.ArgumentError, match="picks one of 2 class states"):
            bnx.explain_data(many, rows, what=[w], progress=False)
    empty = bnx.explain_data(many, pd.DataFrame(columns=["xray", "dysp"]), what=["decision"],
                             progress=False)
    assert len(empty) == 0 and empty["decision"].dtype == object


@pytest.mark.slow
def test_workers_load_the_multiclass_odd():
    asia = bnx.examples.asia()
    many = bnx.compile(bnx.Classifier(asia.network, "either",
                                      features=["xray", "dysp", "smoke"]), backend="autoref")
    rows = [{"xray": x, "dysp": d, "smoke": s} for x in ("yes", "no") for d in ("yes", None)
            for s in ("yes", "no")]
    what = ["decision", "pi_count", "robustness"]
    here = bnx.explain_data(many, rows, what=what, progress=False)
    there = bnx.explain_data(many, rows, what=what, progress=False, n_jobs=2)
    assert here.equals(there)
    assert set(here["decision"]) == {"yes", "no"}
