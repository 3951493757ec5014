"""explain_data on a classifier explained without compiling: each row's answers are its
report's (bnx.explain(clf, row)), on one process, joblib workers and a Dask cluster, and
agree with brute force."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bnx
from bnx import report
from tests._support import oracle
from tests._support.linear_brute import Brute
from tests._support.strategies import naive_bayes, possible_instances

#: what a classifier's complete rows are asked (explain_data's answers without compiling,
#: less ``posterior`` and ``sdp``)
EVERY = ("decision", "probabilities", "pi_shortest", "reason", "robustness", "counterfactual",
         "observed", "method")
EXPLAIN = report.explain  # the real one, kept before a test patches bnx.report's name


def _worded(cf):
    """A counterfactual as the column words it: 'f from old to new, ... and g from old to
    new makes (make) it state'."""
    parts = [f"{f} from {old} to {new}" for f, (old, new) in cf.items()]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{text} {'makes' if len(parts) == 1 else 'make'} it {cf.decision}"


@pytest.fixture(scope="module")
def votes():
    """The votes naive Bayes and TAN, and the complete rows of the votes data."""
    data = bnx.datasets.load_votes()
    rows = data.dropna().iloc[::3].reset_index(drop=True)
    nb = bnx.case_study.votes_classifier()
    tan = bnx.Classifier(bnx.learn_tan(data, "party"), "party", "republican")
    return nb, tan, rows


def _one_row(clf, row, what):
    """The answers by the one-row call: bnx.explain(clf, row)'s report, read by hand."""
    x = {f: row[f] for f in clf.features}
    r = EXPLAIN(clf, x)
    got = {"decision": bool(r.positive), "posterior": r.posterior,
           "pi_shortest": float(len(r.reasons[0])),
           "reason": ", ".join(f"{f} = {s}" for f, s in r.reasons[0].items()),
           "robustness": float(r.robustness), "observed": len(x), "method": r.method}
    cf = r.counterfactuals[0] if r.counterfactuals else None
    got["counterfactual"] = "" if cf is None else _worded(cf)
    for s, p in r.class_probabilities.items():
        got[f"probability:{s}"] = p
    return {k: got[k] for k in what}


@pytest.mark.slow
@pytest.mark.parametrize("which", ["naive_bayes", "tan"])
def test_answers_equal_the_one_row_calls_on_one_and_two_workers(votes, which):
    nb, tan, rows = votes
    clf = nb if which == "naive_bayes" else tan
    assert clf.structure == which
    frame = pd.concat([rows, rows.iloc[:3]], ignore_index=True)  # duplicates: one report
    got = bnx.explain_data(clf, frame, what=EVERY, progress=False)
    columns = [c for w in EVERY for c in (
        [f"probability:{s}" for s in clf.class_states] if w == "probabilities" else [w])]
    assert list(got.columns) == columns and list(got.index) == list(frame.index)
    assert got["decision"].dtype == bool and got["observed"].dtype == np.int64
    for i, row in frame.iterrows():
        assert got.loc[i].to_dict() == _one_row(clf, row, columns), i
    pd.testing.assert_frame_equal(got.iloc[-3:].reset_index(drop=True),
                                  got.iloc[:3].reset_index(drop=True))
    two = bnx.explain_data(clf, frame, what=EVERY, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(two, got)


@pytest.mark.slow
def test_answers_on_a_dask_cluster(votes):
    distributed = pytest.importorskip("dask.distributed")
    nb, _, rows = votes
    some = rows.iloc[::2]
    want = bnx.explain_data(nb, some, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = bnx.explain_data(nb, some, client=client, progress=False)
    pd.testing.assert_frame_equal(got, want)
    assert list(want.columns) == ["decision", "posterior", "pi_shortest", "reason",
                                  "robustness"]


def _brute_robustness(case, x, decision):
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  case.features)
    flips = [sum(a != x[f] for a, f in zip(combo, case.features))
             for combo, d in table.items() if d != decision]
    return min(flips) if flips else math.inf


@given(case=naive_bayes(max_features=4, max_instances=48), data=st.data())
@settings(max_examples=20, deadline=None)
def test_answers_match_brute_force(case, data):
    assume(len(oracle.node_states(case.net, case.class_var)) == 2)
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    rows = [data.draw(possible_instances(case)) for _ in range(3)]
    frame = pd.DataFrame(rows, columns=case.features)
    got = bnx.explain_data(clf, frame, what=["decision", "posterior", "pi_shortest",
                                             "robustness", "observed"], progress=False)
    head = (case.net, case.class_var, case.positive, case.threshold)
    possible = Brute(case, oracle.decision_table(*head, case.features)).within_support()
    for k, x in enumerate(rows):
        decision = oracle.decide(*head, x, case.features)
        post = oracle.posterior(*head, x, case.features)
        assert got.loc[k, "decision"] == decision
        if post is None:
            assert np.isnan(got.loc[k, "posterior"])
        else:
            assert got.loc[k, "posterior"] == float(post)
        # a classifier's rows are explained among the instances the network allows
        pis = possible.pis(x)
        assert got.loc[k, "pi_shortest"] == min(len(z) for z in pis)
        assert got.loc[k, "robustness"] == possible.robustness(x)
        assert got.loc[k, "observed"] == len(case.features)


def test_a_timeout_goes_to_each_rows_report_only_when_given(votes, monkeypatch):
    nb, _, rows = votes
    real, calls = report.explain, []

    def recording(clf, x, **kwargs):
        calls.append(dict(kwargs))
        kwargs.pop("timeout", None)  # the real one may not take it yet
        return real(clf, x, **kwargs)

    monkeypatch.setattr(report, "explain", recording)
    some = rows.iloc[:4]
    bnx.explain_data(nb, some, progress=False)
    assert calls and all(c == {} for c in calls)
    calls.clear()
    bnx.explain_data(nb, some, timeout=2.5, progress=False)
    assert len(calls) == len(some.drop_duplicates()) and all(c == {"timeout": 2.5}
                                                             for c in calls)


def test_multiclass_rows_name_every_class(monkeypatch):
    clf = bnx.examples.illness()
    assert clf.multiclass
    calls = []

    def fake(model, x, **kwargs):  # bnx.explain answers a multi-class classifier in issue 34
        calls.append(x)
        return EXPLAIN(bnx.compile(model), x)

    monkeypatch.setattr(report, "explain", fake)
    rows = [{"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}]
    got = bnx.explain_data(clf, rows, progress=False)
    assert list(got.columns) == ["decision", *(f"probability:{s}" for s in clf.class_states),
                                 "pi_shortest", "reason", "robustness"]
    assert got.loc[0, "decision"] == "allergy" and calls == rows
    probs = clf.class_probabilities(rows[0])
    for s in clf.class_states:
        assert got.loc[0, f"probability:{s}"] == pytest.approx(float(probs[s]), abs=1e-12)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"what": ["mc_count"]}, bnx.ArgumentError, "compiled decision function"),
    ({"what": ["colour"]}, bnx.ArgumentError, "'colour'"),
    ({"on": {"crime": "y"}}, bnx.ArgumentError, "on= needs the compiled"),
    ({"background": {}}, bnx.ArgumentError, "background= needs the compiled"),
    ({"timeout": 0}, bnx.ArgumentError, "timeout must be a positive number"),
    ({"n_jobs": 0}, bnx.ArgumentError, "n_jobs"),
])
def test_bad_arguments_name_the_problem(votes, kwargs, error, match):
    nb, _, rows = votes
    with pytest.raises(error, match=match):
        bnx.explain_data(nb, rows.iloc[:2], progress=False, **kwargs)


def test_bad_rows_name_the_problem(votes):
    nb, _, rows = votes
    with pytest.raises(bnx.UnknownFeatureError, match="'age'"):
        bnx.explain_data(nb, rows.iloc[:2].assign(age=3), progress=False)
    with pytest.raises(bnx.UnknownStateError, match="'maybe'"):
        bnx.explain_data(nb, rows.iloc[:2].replace({"crime": {"y": "maybe", "n": "maybe"}}),
                         progress=False)
    with pytest.raises(bnx.ArgumentError, match="timeout= bounds"):
        bnx.explain_data(bnx.compile(nb), rows.iloc[:2], timeout=1, progress=False)


def test_no_rows_give_the_columns():
    clf = bnx.examples.admissions()
    got = bnx.explain_data(clf, pd.DataFrame(columns=list(clf.features)), progress=False)
    assert len(got) == 0 and list(got.columns) == ["decision", "posterior", "pi_shortest",
                                                   "reason", "robustness"]
