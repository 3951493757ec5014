"""Instances from pandas rows; ODD pickling and saved classifiers (issue 10)."""

from __future__ import annotations

import itertools
import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import bnx
from tests._support.legacy_files import resign, write_legacy

X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}


def all_instances(odd):
    for combo in itertools.product(*odd.encoding.states):
        yield dict(zip(odd.features, combo))


@pytest.fixture(scope="module")
def clf():
    return bnx.examples.admissions()


# ---------------------------------------------------------------------- instances
@pytest.mark.parametrize("make", [
    lambda x: pd.Series(x),
    lambda x: pd.DataFrame([x]),
    lambda x: pd.DataFrame([x], index=["row7"]),
])
def test_pandas_rows_are_instances(clf, backend, make):
    odd = bnx.compile(clf, backend=backend)
    for x in all_instances(odd):
        row = make(x)
        assert odd.decide(row) == odd.decide(x) == clf.decide(row, within="all")
        assert clf.posterior_exact(row) == clf.posterior_exact(x)
        assert bnx.pi_explanations(odd, row).to_set() == bnx.pi_explanations(odd, x).to_set()
        assert bnx.mc_explanations(odd, row).to_set() == bnx.mc_explanations(odd, x).to_set()


@pytest.mark.parametrize("make", [
    lambda x: {**x, "Admit": "-"},
    lambda x: {"GPA": "+", "Admit": "+"},              # a partial instance too
    lambda x: pd.Series({"Admit": "-", **x}),
    lambda x: pd.DataFrame([{**x, "Admit": "+"}], index=["row7"]),
])
def test_an_instance_that_gives_the_class_a_state_is_refused(clf, make):
    odd = bnx.compile(clf, backend="autoref")
    row = make(X)
    calls = [clf.decide, lambda r: clf.decide(r, partial=True, within="all"), clf.posterior,
             lambda r: clf.posterior_exact(r, partial=True), clf.encode,
             odd.decide, odd.encode, lambda r: odd.encode(r, partial=True),
             lambda r: bnx.explain(odd, r), lambda r: bnx.pi_explanations(odd, r),
             lambda r: bnx.robustness(odd, r)]
    if isinstance(row, dict):  # bnx.linear takes mappings
        calls += [lambda r: bnx.explain(clf, r), lambda r: bnx.linear.pi_explanations(clf, r)]
    for call in calls:
        with pytest.raises(bnx.InstanceError, match="gives the class variable 'Admit' a "
                           "state .* leave 'Admit' out"):
            call(row)


def test_a_data_sets_class_column_is_still_ignored(clf):
    odd = bnx.compile(clf, backend="autoref")
    rows = pd.DataFrame([{**x, "Admit": "+"} for x in all_instances(odd)])
    want = [odd.decide(x, within="all") for x in all_instances(odd)]
    assert odd.decide_many(rows, within="all").tolist() == want
    assert bnx.explain_data(odd, rows, what=["decision"], progress=False)[
        "decision"].tolist() == want


@pytest.mark.parametrize("bad, error, match", [
    (pd.Series({**X, "Age": 3}), bnx.UnknownFeatureError, "'Age'"),
    (pd.DataFrame([X, X]), bnx.InstanceError, "exactly one row, got 2"),
    (pd.DataFrame([X]).iloc[:0], bnx.InstanceError, "exactly one row, got 0"),
    ([("GPA", "+")], bnx.InstanceError, "got list"),
    (pd.Series({**X, "GPA": np.nan}), bnx.MissingFeatureError, "'GPA'"),
    (pd.Series({**X, "GPA": "?"}), bnx.UnknownStateError, "states, closest first: -, \\+"),
])
def test_bad_rows_name_the_problem(clf, bad, error, match):
    odd = bnx.compile(clf, backend="autoref")
    fns = [clf.decide, lambda r: bnx.pi_explanations(odd, r)]
    if error is not bnx.MissingFeatureError:  # odd.decide leaves a missing value unobserved
        fns.append(odd.decide)
    for fn in fns:
        with pytest.raises(error, match=match):
            fn(bad)


def test_missing_values_in_a_row_are_unobserved(clf):
    row = pd.Series({**X, "GPA": None, "EntranceExam": np.nan})
    part = {k: v for k, v in X.items() if k not in ("GPA", "EntranceExam")}
    assert clf.posterior_exact(row, partial=True) == clf.posterior_exact(part, partial=True)


# ---------------------------------------------------------------------- pickling, saved files
def test_pickle_round_trip_on_both_backends(clf, backend):
    odd = bnx.compile(clf, backend=backend)
    back = pickle.loads(pickle.dumps(odd))
    assert back.backend == backend and back is not odd
    assert back.size == odd.size and back.count() == odd.count()
    for x in all_instances(odd):
        assert back.decide(x, within="all") == odd.decide(x, within="all")
        assert back.classifier.posterior(x) == odd.classifier.posterior(x)
        assert bnx.pi_explanations(back, x).to_set() == bnx.pi_explanations(odd, x).to_set()
        assert bnx.mc_explanations(back, x).to_set() == bnx.mc_explanations(odd, x).to_set()
    again = pickle.loads(pickle.dumps(back))  # a loaded ODD pickles without rebuilding twice
    assert again.classifier.fingerprint == clf.fingerprint


def test_saved_file_holds_the_classifier_exactly(tmp_path, backend):
    clf = bnx.case_study.votes_classifier(threshold=0.3)
    odd = bnx.compile(clf, backend=backend)
    back = bnx.ODD.load(odd.save(tmp_path / "votes.bnx"), backend=backend)
    assert back.display_order == clf.features
    votes = bnx.datasets.load_votes()
    for _, row in votes.drop(columns="party").iloc[:60].iterrows():
        assert back.classifier.posterior_exact(row, partial=True) == \
            clf.posterior_exact(row, partial=True)
    assert back.classifier.threshold == clf.threshold


def test_version_1_files_keep_loading(tmp_path, clf):
    odd = bnx.compile(clf, backend="autoref")
    path = write_legacy(odd, tmp_path / "a.bnx.json", version=1)  # bnx's old writer
    back = bnx.ODD.load(path)
    assert back.classifier is None and back.count() == 6
    resign(path, lambda doc: doc.update(classifier={}))
    with pytest.raises(bnx.ODDFileError, match="unexpected 'classifier'"):
        bnx.ODD.load(path)


def test_a_foreign_classifier_is_refused(tmp_path, clf):
    path = bnx.compile(clf, backend="autoref").save(tmp_path / "a.bnx")
    resign(path, lambda doc: doc["classifier"]["cpds"][0].update(values=[0.25, 0.75]))
    # the diagram is fine, but the classifier is not its source: the load's cross-check
    # finds an instance they decide differently (or the fingerprint, on first use)
    with pytest.raises(bnx.ODDFileError, match="disagree|fingerprint mismatch"):
        _ = bnx.ODD.load(path).classifier
    resign(path, lambda doc: doc["classifier"]["cpds"][0].update(values=[0.5]))
    with pytest.raises(bnx.ODDFileError, match="invalid classifier"):
        _ = bnx.ODD.load(path).classifier


@pytest.mark.slow
def test_loading_does_not_import_pgmpy(tmp_path, clf):
    path = bnx.compile(clf, backend="autoref").save(tmp_path / "a.bnx")
    code = (f"import sys, bnx; odd = bnx.ODD.load({str(path)!r}); x = {X!r}; "
            "d = odd.decide(x); before = 'pgmpy' in sys.modules; "
            "p = odd.classifier.posterior(x); print(d, before, 'pgmpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "True"]
