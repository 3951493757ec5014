"""Classifier.from_sklearn against the estimator's own predict, on every instance."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bnx

naive_bayes = pytest.importorskip("sklearn.naive_bayes")


def _jll(est, X):
    return est.predict_joint_log_proba(X) if hasattr(est, "predict_joint_log_proba") \
        else est._joint_log_likelihood(X)


def _agree(est, clf, positive, X, rows):
    """bnx decides as predict on every row whose best two joint log-likelihoods are not
    equal up to float rounding (there scikit-learn's own answer is rounding noise)."""
    pred = est.predict(X)
    jll = np.sort(_jll(est, X), axis=1)
    checked = 0
    for x, p, j in zip(rows, pred, jll):
        if j.shape[0] > 1 and abs(j[-1] - j[-2]) < 1e-9 * max(1.0, abs(j[-1])):
            assert clf.posterior(x) == pytest.approx(0.5, abs=1e-6) or len(j) > 2
            continue
        assert clf.decide(x, within="all") == (p == positive), (x, p)
        checked += 1
    return checked


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4), card=st.integers(2, 4),
       rows=st.integers(2, 40), alpha=st.sampled_from([1.0, 0.5, 1e-3]),
       labels=st.sampled_from([(0, 1), ("no", "yes"), ("b", "a")]), pos=st.integers(0, 1))
@settings(max_examples=40)
def test_categorical_nb_agrees_with_predict(seed, n, card, rows, alpha, labels, pos):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, card, size=(rows, n))
    ks = rng.integers(0, 2, size=rows)
    ks[0], ks[-1] = 0, 1
    y = [labels[k] for k in ks]
    est = naive_bayes.CategoricalNB(alpha=alpha, min_categories=card).fit(X, y)
    positive = est.classes_[pos]
    clf = bnx.Classifier.from_sklearn(est, positive)
    assert clf.features == tuple(f"x{i}" for i in range(n))
    every = np.array(list(itertools.product(range(card), repeat=n)))
    rows_ = [dict(zip(clf.features, map(int, r))) for r in every]
    # (two classes fitted on the same counts tie on every row: nothing to compare there)
    assume(_agree(est, clf, positive, every, rows_) > 0 or len(every) < 8)
    odd = bnx.compile(clf, backend="autoref")
    assert list(odd.decide_many(rows_)) == [clf.decide(r, within="all") for r in rows_]


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), rows=st.integers(2, 40),
       binarize=st.sampled_from([0.0, 0.5, None]), pos=st.integers(0, 1))
@settings(max_examples=40)
def test_bernoulli_nb_agrees_with_predict(seed, n, rows, binarize, pos):
    rng = np.random.default_rng(seed)
    X = rng.random(size=(rows, n)) if binarize is not None else rng.integers(0, 2, (rows, n))
    y = rng.integers(0, 2, size=rows)
    y[0], y[1] = 0, 1
    est = naive_bayes.BernoulliNB(binarize=binarize).fit(X, y)
    clf = bnx.Classifier.from_sklearn(est, est.classes_[pos])
    every = np.array(list(itertools.product([0, 1], repeat=n)))  # binarised instances
    rows_ = [dict(zip(clf.features, map(int, r))) for r in every]
    raw = every if binarize is None else np.where(every == 1, binarize + 0.25, binarize)
    _agree(est, clf, est.classes_[pos], raw, rows_)


def test_ties_go_to_the_first_class():
    # every count balanced: every probability is 1/2 and every instance ties exactly
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
    est = naive_bayes.CategoricalNB().fit(X, [0, 0, 1, 1])
    first, second = (bnx.Classifier.from_sklearn(est, c) for c in est.classes_)
    tie = {"x0": 0, "x1": 1}
    assert first.posterior_exact(tie) == second.posterior_exact(tie) == 0.5
    assert first.decide(tie) and not second.decide(tie)
    assert list(est.predict([[0, 1], [1, 1]])) == [0, 0]
    assert first.rule == second.rule == "argmax" and first.threshold is None


def test_names_and_errors():
    import pandas as pd
    X = pd.DataFrame({"colour": [0, 1, 2, 1], "size": [1, 0, 1, 1]})
    est = naive_bayes.CategoricalNB().fit(X, ["a", "b", "a", "b"])
    assert bnx.Classifier.from_sklearn(est).features == ("colour", "size")
    assert bnx.Classifier.from_sklearn(est, feature_names=["c", "s"]).features == ("c", "s")
    with pytest.raises(bnx.ArgumentError, match="not one of the estimator's classes"):
        bnx.Classifier.from_sklearn(est, "z")
    with pytest.raises(bnx.ArgumentError, match="2 distinct names"):
        bnx.Classifier.from_sklearn(est, feature_names=["c"])
    with pytest.raises(bnx.ArgumentError, match="not fitted"):
        bnx.Classifier.from_sklearn(naive_bayes.CategoricalNB())
    with pytest.raises(bnx.ArgumentError, match="GaussianNB"):
        bnx.Classifier.from_sklearn(naive_bayes.GaussianNB().fit([[0.0], [1.0]], [0, 1]))
    three = naive_bayes.CategoricalNB().fit([[0], [1], [2]], ["a", "b", "c"])
    with pytest.raises(bnx.ArgumentError, match="say which is positive"):
        bnx.Classifier.from_sklearn(three)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3), k=st.integers(3, 4),
       alpha=st.sampled_from([1.0, 1e-3]))
@settings(max_examples=15)
def test_many_classes_agree_with_predict(seed, n, k, alpha):
    """With three or four classes every class is positive in turn (the argmax rule)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(30, n))
    y = rng.integers(0, k, size=30)
    y[:k] = np.arange(k)
    est = naive_bayes.CategoricalNB(alpha=alpha, min_categories=3).fit(X, y)
    every = np.array(list(itertools.product(range(3), repeat=n)))
    for positive in est.classes_:
        clf = bnx.Classifier.from_sklearn(est, positive)
        assert clf.rule == "argmax"
        rows_ = [dict(zip(clf.features, map(int, r))) for r in every]
        _agree(est, clf, positive, every, rows_)
        odd = bnx.compile(clf, backend="autoref")
        assert [odd.decide(r) for r in rows_] == [clf.decide(r, within="all") for r in rows_]
