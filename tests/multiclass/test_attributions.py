"""SHAP and Banzhaf values of multi-class ODDs against the oracle (every coalition, exact
fractions, decisions by enumeration of the network, no bnx), on random multi-class networks:
ties, zeros, hidden nodes, 3-6 classes; background rows and product distributions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import instances, multiclass_classifier_of, multiclass_networks

CASES = multiclass_networks(max_features=4, max_instances=36)


@st.composite
def _product(draw, case):
    """``{feature: {state: Fraction}}`` for some features (the others uniform)."""
    out = {}
    for f in case.features:
        if draw(st.booleans()):
            continue
        states = case.states(f)
        w = draw(st.lists(st.integers(0, 3), min_size=len(states), max_size=len(states)))
        if sum(w) == 0:
            w[0] = 1
        out[f] = {s: Fraction(a, sum(w)) for s, a in zip(states, w)}
    return out


@given(case=CASES, data=st.data(), kind=st.sampled_from(["shap", "banzhaf"]))
@settings(max_examples=15, deadline=None)
def test_values_per_class_equal_the_oracles(case, data, kind):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend="autoref")
    x = data.draw(instances(case), label="x")
    if data.draw(st.booleans(), label="rows"):
        rows = data.draw(st.lists(instances(case), min_size=1, max_size=4), label="rows")
        background, given_bg = rows, pd.DataFrame(rows, columns=case.features)
    else:
        background = given_bg = data.draw(_product(case), label="product")
    values, base = getattr(brute, f"{kind}_values")(x, background)
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    got = fn(odd, x, given_bg, exact=True, within="all")  # (the oracle's: every instance)
    assert tuple(got.output_names) == brute.classes
    assert got.decided == brute.decide(x)
    assert got.values.shape == (len(case.features), len(brute.classes))
    want = dict(zip(brute.features, brute.as_array(values)))
    assert {f: list(row) for f, row in zip(got.feature_names, got.values)} == want
    assert list(got.base_values) == [base[c] for c in brute.classes]
    floats = fn(odd, x, given_bg, within="all")
    wanted = np.array([want[f] for f in floats.feature_names], dtype=float)
    assert np.abs(floats.values - wanted).max() < 1e-12
