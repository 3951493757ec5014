"""Multi-class classifiers and their one compile (issue 33), against the brute-force oracle.

``bnx.Classifier(net, class_var)`` decides the most probable class state (the first one on
ties, the first state on an instance of probability zero); ``bnx.compile`` of it is one ODD
deciding every class. Every answer here is checked on every instance of random networks
(``multiclass_networks``: 2-6 class states, zeros, exact ties, hidden nodes, a class with
parents) against :class:`tests._support.oracle_multiclass.MultiOracle`, which enumerates in
exact fractions without bnx.
"""

from __future__ import annotations

import pickle
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import (
    instances,
    multiclass_classifier_of,
    multiclass_networks,
    partial_instances,
)

BACKENDS = bnx.backends.available_backends()
CASES = multiclass_networks(max_instances=48)


def _compiled(case, data, backend):
    clf = multiclass_classifier_of(case)
    order = data.draw(st.permutations(case.features), label="order")
    return clf, bnx.compile(clf, order, backend=backend)


def _frame(brute, rows):
    return pd.DataFrame(rows, columns=list(brute.features))


# ---------------------------------------------------------------------------
# The classifier
# ---------------------------------------------------------------------------


def _same_probabilities(clf, brute, x, partial=False):
    """Each class probability within 1e-12 (relative) of the oracle's exact one, in class
    order, and rounded once from it with ``exact=True``; an instance of probability zero
    has none (a typed error)."""
    want = brute.class_probabilities(x, partial)
    if want is None:
        with pytest.raises(bnx.errors.ExplanationError, match="probability zero"):
            clf.class_probabilities(x, partial=partial)
        return
    probs = clf.class_probabilities(x, partial=partial)
    assert list(probs) == list(brute.classes)
    assert all(abs(Fraction(probs[c]) - p) <= Fraction(1, 10 ** 12) * p
               for c, p in want.items())
    assert clf.class_probabilities(x, partial=partial, exact=True) == {
        c: float(p) for c, p in want.items()}


@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_classifier_decides_the_most_probable_class(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    assert clf.multiclass is True
    assert clf.positive is None
    assert tuple(clf.classes) == brute.classes
    assert tuple(clf.features) == tuple(case.features)
    for x in brute.instances():
        d = brute.decide(x)
        assert clf.decide(x, within="all") == d
        assert clf.predict(x, within="all") == d
    x = data.draw(instances(case), label="x")
    _same_probabilities(clf, brute, x)
    e = data.draw(partial_instances(case), label="e")
    assert clf.predict(e, partial=True, within="all") == brute.decide(e, partial=True)
    assert clf.decide(e, partial=True, within="all") == brute.decide(e, partial=True)
    _same_probabilities(clf, brute, e, partial=True)


@given(case=CASES)
@settings(max_examples=10, deadline=None)
def test_class_classifier_is_the_argmax_classifier_of_one_state(case):
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    for s in brute.classes:
        one = clf.class_classifier(s)
        assert one.multiclass is False
        assert one.positive == s and one.rule == "argmax" and one.threshold is None
        assert tuple(one.features) == tuple(clf.features)
        assert tuple(one.classes) == brute.classes
        for x in brute.instances():
            assert one.decide(x, within="all") == (brute.decide(x) == s)


@given(case=multiclass_networks(min_classes=2, max_classes=2, max_instances=32),
       data=st.data())
@settings(max_examples=10, deadline=None)
def test_two_class_states_without_a_positive_one(case, data):
    """A two-state class without a positive state is a multi-class classifier too."""
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    assert clf.multiclass is True and tuple(clf.classes) == brute.classes
    odd = bnx.compile(clf, backend="autoref")
    assert odd.count() == brute.count()
    for x in brute.instances():
        assert odd.decide(x, within="all") == clf.predict(x, within="all") == brute.decide(x)


@given(case=CASES, data=st.data())
@settings(max_examples=10, deadline=None)
def test_binary_classifiers_answer_the_new_questions(case, data):
    """Binary classifiers get ``classes``, ``class_probabilities`` and ``predict`` (the
    decision's state as the ODD words it) and keep deciding with booleans."""
    brute = MultiOracle.of(case)
    s = data.draw(st.sampled_from(brute.classes), label="positive")
    clf = bnx.Classifier(case.net, case.class_var, s, features=case.features)
    assert clf.multiclass is False and tuple(clf.classes) == brute.classes
    odd = bnx.compile(clf, backend="autoref")
    assert odd.multiclass is False and tuple(odd.classes) == brute.classes
    x = data.draw(instances(case), label="x")
    _same_probabilities(clf, brute, x)
    d = clf.decide(x, within="all")
    assert isinstance(d, bool) and odd.decide(x, within="all") == d
    assert clf.predict(x, within="all") == odd.decision_state(d)


# ---------------------------------------------------------------------------
# The compiled decision function
# ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=CASES, data=st.data())
@settings(max_examples=20, deadline=None)
def test_odd_decides_counts_and_decides_many(case, data, backend):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf, odd = _compiled(case, data, backend)
    assert odd.multiclass is True
    assert tuple(odd.classes) == brute.classes
    every = brute.instances()
    for x in every:
        assert odd.decide(x, within="all") == brute.decide(x)
    assert odd.count() == brute.count()
    assert list(odd.count()) == list(brute.classes)
    got = odd.decide_many(_frame(brute, every), within="all")
    assert isinstance(got, np.ndarray) and got.dtype == object
    assert got.tolist() == [brute.decide(x) for x in every]
    # rows with missing values are decided on what they observe
    rows = data.draw(st.lists(partial_instances(case), min_size=1, max_size=4), label="rows")
    got = odd.decide_many(_frame(brute, rows), within="all")
    assert got.tolist() == [brute.decide(e, partial=True) for e in rows]
    e = rows[0]
    assert (odd.decide({f: e.get(f) for f in case.features}, within="all")
            == brute.decide(e, partial=True))


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_class_formulas_are_the_per_class_argmax_compiles(case, data, backend):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf, odd = _compiled(case, data, backend)
    counts = brute.count()
    for s in brute.classes:
        formula = odd.class_formula(s)
        assert formula.multiclass is False
        assert formula.classifier.positive == s and formula.classifier.rule == "argmax"
        assert tuple(formula.classifier.features) == tuple(case.features)
        alone = bnx.compile(clf.class_classifier(s), backend=backend)
        for x in brute.instances():
            want = brute.decide(x) == s
            assert formula.decide(x, within="all") == want
            assert alone.decide(x, within="all") == want
        assert formula.count() == counts[s] == alone.count()
        x = data.draw(instances(case), label="x")
        assert (bnx.pi_explanations(formula, x).to_set()
                == bnx.pi_explanations(alone, x).to_set())


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=CASES, data=st.data())
@settings(max_examples=10, deadline=None)
def test_save_load_and_pickle_keep_every_decision(case, data, backend):
    brute = MultiOracle.of(case)
    clf, odd = _compiled(case, data, backend)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "multi.bnx"
        odd.save(path)
        loaded = bnx.ODD.load(path, backend=backend)
    copies = [loaded, pickle.loads(pickle.dumps(odd))]
    e = data.draw(partial_instances(case), label="e")
    for back in copies:
        assert back.multiclass is True and tuple(back.classes) == brute.classes
        assert back.count() == brute.count()
        for x in brute.instances():
            assert back.decide(x, within="all") == brute.decide(x)
        assert back.classifier.multiclass is True
        assert back.classifier.predict(e, partial=True, within="all") == \
            brute.decide(e, partial=True)
        s = brute.classes[-1]
        assert back.class_formula(s).count() == brute.count()[s]


def _small_case():
    """C in (a, b, c) with prior (1/2, 1/4, 1/4), F in (0, 1): a ties c on F = 0 and b on
    F = 1, and wins both."""
    cs = ["a", "b", "c"]
    net = DiscreteBayesianNetwork([("C", "F")])
    net.add_cpds(TabularCPD("C", 3, [[0.5], [0.25], [0.25]], state_names={"C": cs}),
                 TabularCPD("F", 2, [[0.5, 0.0, 1.0], [0.5, 1.0, 0.0]], evidence=["C"],
                            evidence_card=[3], state_names={"F": ["0", "1"], "C": cs}))
    return net


def test_bad_states_raise_typed_errors():
    net = _small_case()
    clf = bnx.Classifier(net, "C")
    odd = bnx.compile(clf, backend="autoref")
    assert (odd.decide({"F": "0"}, within="all") == "a"  # a tie: first
            and odd.decide({"F": "1"}, within="all") == "a")
    assert odd.count() == {"a": 2, "b": 0, "c": 0}
    with pytest.raises(bnx.BnxError, match="z"):
        odd.class_formula("z")
    with pytest.raises(bnx.BnxError, match="z"):
        clf.class_classifier("z")
    with pytest.raises(bnx.BnxError, match="F"):
        clf.predict({"F": "2"}, within="all")
    with pytest.raises(bnx.errors.ArgumentError, match="positive"):
        bnx.Classifier(net, "C", threshold=0.3)  # a threshold needs a positive state
    with pytest.raises(bnx.errors.ArgumentError, match="positive"):
        bnx.Classifier(net, "C", rule="threshold")
    with pytest.raises(bnx.errors.ArgumentError):
        clf.posterior({"F": "0"})  # one state's posterior: which state?
