"""SHAP and Banzhaf values of a multi-class ODD: one game per class ``[decision = c]``, the
class the last axis, against brute force over every coalition in exact fractions (the
decisions taken from the classifier's exact posteriors, not from the diagram) and against
``shap.explainers.Exact`` with a one-hot multi-output model."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import bnx
from tests._support.bundled import bundled_network


@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    clf = bnx.Classifier(net, "Disease")
    return clf, bnx.compile(clf, backend="autoref")


def _rows(clf, seed, n):
    rng = np.random.default_rng(seed)
    return [{f: clf.states(f)[rng.integers(len(clf.states(f)))] for f in clf.features}
            for _ in range(n)]


def brute_force(clf, x, background, kind):
    """Values ``{(feature, class): Fraction}`` and ``{class: v(empty)}``, every coalition."""
    feats, n = list(clf.features), len(clf.features)
    decided: dict = {}

    def decide(inst):
        key = tuple(inst[f] for f in feats)
        if key not in decided:
            decided[key] = clf.predict(inst, within="all")
        return decided[key]

    def v(S, c):
        hits = sum(decide({f: x[f] if f in S else z[f] for f in feats}) == c
                   for z in background)
        return Fraction(hits, len(background))

    vals = {}
    for c in clf.classes:
        for f in feats:
            others = [g for g in feats if g != f]
            total = Fraction(0)
            for k in range(n):
                w = (Fraction(math.factorial(k) * math.factorial(n - k - 1), math.factorial(n))
                     if kind == "shap" else Fraction(1, 2 ** (n - 1)))
                for S in itertools.combinations(others, k):
                    total += w * (v(set(S) | {f}, c) - v(set(S), c))
            vals[f, c] = total
    return vals, {c: v(set(), c) for c in clf.classes}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["shap", "banzhaf"])
def test_each_class_game_against_every_coalition(child, kind):
    clf, odd = child
    x = _rows(clf, 1, 1)[0]
    background = _rows(clf, 2, 3)
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    got = fn(odd, x, pd.DataFrame(background), exact=True)
    want, base = brute_force(clf, x, background, kind)
    assert got.multiclass and got.output_names == clf.classes
    assert got.values.shape == (len(clf.features), len(clf.classes))
    for i, f in enumerate(got.feature_names):
        for j, c in enumerate(clf.classes):
            assert got.values[i, j] == want[f, c], (f, c)
    assert list(got.base_values) == [base[c] for c in clf.classes]
    assert got.decided == clf.predict(x, within="all")
    onehot = [int(c == clf.predict(x, within="all")) for c in clf.classes]
    assert list(got.decisions) == onehot
    if kind == "shap":  # local accuracy, per class
        assert [got.base_values[j] + sum(got.values[:, j]) for j in range(6)] == onehot
    one = got.for_class(got.decided)
    assert list(one.values) == list(got.values[:, clf.classes.index(got.decided)])


def test_rows_and_a_product_background(child):
    clf, odd = child
    xs = pd.DataFrame(_rows(clf, 3, 4))
    got = bnx.shap_values(odd, xs, {})
    assert got.values.shape == (4, len(clf.features), 6) and got.base_values.shape == (4, 6)
    assert list(got.decided) == [clf.predict(r, within="all") for _, r in xs.iterrows()]
    exact = bnx.shap_values(odd, xs.iloc[:1], {}, exact=True)
    assert np.abs(got.values[:1] - exact.values.astype(float)).max() < 1e-12
    frame = got.to_frame()
    assert frame.shape == (4, 6 * len(clf.features))
    assert frame[("PAIVS", "Age")].tolist() == got.values[:, got.feature_names.index("Age"),
                                                           3].tolist()
    toward = got.toward_decided()
    for r in range(4):
        j = clf.classes.index(got.decided[r])
        assert toward[r].tolist() == got.values[r, :, j].tolist()


@pytest.mark.slow
def test_equals_shap_exact_per_class(child):
    shap = pytest.importorskip("shap")
    clf, odd = child
    feats = list(odd.features)
    X = pd.DataFrame(_rows(clf, 4, 2))[feats]
    bg = pd.DataFrame(_rows(clf, 5, 6))[feats]
    codes = {f: {s: j for j, s in enumerate(odd.states(f))} for f in feats}

    def model(a):  # one column per class: [decision = c]
        out = np.zeros((len(a), len(odd.classes)))
        for r, row in enumerate(np.asarray(a, dtype=np.int64)):
            state = odd.decide({f: odd.states(f)[j] for f, j in zip(feats, row)}, within="all")
            out[r, odd.classes.index(state)] = 1
        return out

    num = lambda d: np.array([[codes[f][s] for f, s in zip(feats, r)] for r in d.values])
    explainer = shap.explainers.Exact(model, shap.maskers.Independent(num(bg),
                                                                      max_samples=len(bg)))
    ref = explainer(num(X))
    got = bnx.shap_values(odd, X, bg)
    perm = [feats.index(f) for f in got.feature_names]
    assert ref.values.shape == got.values.shape
    assert np.abs(got.values - ref.values[:, perm, :]).max() < 1e-9
    assert np.abs(got.base_values - ref.base_values).max() < 1e-9
    e = got.to_shap()
    assert e.values.shape == got.values.shape and list(e.output_names) == list(odd.classes)


def test_printing_and_plots(child):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    clf, odd = child
    x = _rows(clf, 6, 1)[0]
    a = bnx.shap_values(odd, x, {})
    assert f"decided Disease = {clf.predict(x, within='all')}" in str(a)
    assert a.plot() is not None and a.plot(of="TGA", kind="waterfall") is not None
    many = bnx.banzhaf_values(odd, pd.DataFrame(_rows(clf, 7, 3)), {})
    assert "among 6 classes" in str(many) and many.plot() is not None
    with pytest.raises(bnx.UnknownStateError):
        a.for_class("TG")
    with pytest.raises(bnx.ArgumentError):
        bnx.shap_values(odd.class_formula("TGA"), x, {}).for_class("TGA")
