"""Parameter sensitivity, checked by recomputing decisions with the changed network.

For every CPT entry of the frame, the oracle (``tests/oracle.py``, exact enumeration,
independent of bnx) recomputes the decision with the entry set to points strictly
inside the interval (the decision must not change) and at or just past each endpoint
that lies inside (0, 1) (it must change), the rest of the column co-varied
proportionally, everything in fractions.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

import bnx
from tests import oracle
from tests.strategies import classifier_of as _classifier
from tests.strategies import (classifiers, general_networks, instances, naive_bayes,
                              tan_networks)

CASES = st.one_of(classifiers(max_features=4, max_instances=24),
                  general_networks(max_features=3, max_hidden=2, max_instances=24),
                  tan_networks(max_features=3, max_instances=24))


def changed(case, row, t):
    """The oracle's exact network with ``row``'s entry set to ``t``, its column co-varied."""
    n = copy.copy(oracle._compiled(case.net))
    n.factors = list(n.factors)
    var, state, given = row.variable, row.state, row.parents
    for i, (variables, table) in enumerate(n.factors):
        if variables[0] != var:
            continue
        table = dict(table)
        column = [k for k in table if all(k[variables.index(q)] == s for q, s in given.items())]
        theta = table[next(k for k in column if k[0] == state)]
        for k in column:
            if k[0] == state:
                table[k] = t
            elif theta != 1:
                table[k] = table[k] * (1 - t) / (1 - theta)
            else:
                table[k] = (1 - t) / (len(column) - 1)
        n.factors[i] = (variables, table)
    return n


def decide(case, n, x):
    cj = oracle._class_joint(n, case.class_var, x, case.features)
    return oracle._decide_from_joint(cj, case.positive, case.threshold, case.rule)


def check_row(case, row, decide_at):
    """``decide_at(t)`` is the decision (or decisions) with the entry at ``t``."""
    theta, lo, hi = row.value, row.low, row.high
    assert 0 <= lo <= theta <= hi <= 1
    want = decide_at(theta)
    eps = Fraction(1, 2 ** 30)
    inside = {(lo + theta) / 2, (theta + hi) / 2, lo + (hi - lo) * eps, hi - (hi - lo) * eps}
    for t in inside:
        if lo < t < hi:
            assert decide_at(t) == want, (row, t)
    if lo > 0:
        assert decide_at(lo) != want or decide_at(lo - lo * eps) != want, (row, "low")
    if hi < 1:
        assert decide_at(hi) != want or decide_at(hi + (1 - hi) * eps) != want, (row, "high")


@given(case=CASES, data=st.data())
@settings(max_examples=40, deadline=None)
def test_intervals_against_recomputed_decisions(case, data):
    note(repr(case))
    # pgmpy accepts columns that sum to 1 within 0.01, so the strategies can draw an entry
    # a little above 1; sensitivity speaks of probabilities in [0, 1]
    assume(all((c.values <= 1).all() for c in case.net.get_cpds()))
    clf = _classifier(case)
    x = data.draw(instances(case), label="x")
    frame = bnx.parameter_sensitivity(clf, x, exact=True)
    assert list(frame.columns) == ["variable", "state", "parents", "value", "low", "high"]
    assert len(frame) == sum(c.values.size for c in case.net.get_cpds())
    for row in frame.itertuples():
        check_row(case, row, lambda t: decide(case, changed(case, row, t), x))
    fl = bnx.parameter_sensitivity(clf, x)
    assert (abs(fl.low - frame.low.astype(float)) < 1e-15).all()


def test_floats_and_roots():
    clf = bnx.examples.admissions()
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    s = bnx.parameter_sensitivity(clf, x)
    root = s[s.variable == "Admit"]
    assert all(p == {} for p in root.parents)
    assert s.value.dtype == float and len(s) == 18
    with pytest.raises(bnx.ArgumentError):
        bnx.parameter_sensitivity(bnx.compile(clf, backend="autoref"), x)
    with pytest.raises(bnx.MissingFeatureError):
        bnx.parameter_sensitivity(clf, {"GPA": "+"})


def _positive_nb(case):
    return (len(oracle.node_states(case.net, case.class_var)) == 2
            and (case.rule == "argmax" or 0 < oracle.to_fraction(case.threshold) < 1)
            and all((c.values > 0).all() for c in case.net.get_cpds()))


@st.composite
def positive_tans(draw):
    """TANs with a two-state class and every CPT entry positive (some ties exact)."""
    import itertools
    from pgmpy.models import DiscreteBayesianNetwork
    from tests.strategies import Case, _general_cpd
    n = draw(st.integers(1, 4))
    feats = [f"F{i}" for i in range(n)]
    card = {f: draw(st.sampled_from([2, 2, 3])) for f in feats}
    while len(list(itertools.product(*[range(card[f]) for f in feats]))) > 24:
        card[feats[-1]] = 2
        break
    states = {"C": ["n", "y"], **{f: [f"s{j}" for j in range(card[f])] for f in feats}}
    parents = {"C": []}
    for i, f in enumerate(feats):
        pa = draw(st.sampled_from([None, *feats[:i]])) if i else None
        parents[f] = ["C"] + ([pa] if pa else [])

    def column(k):
        w = draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
        return [x / sum(w) for x in w]

    cpds = []
    for node in ["C", *feats]:
        ps = parents[node]
        configs = list(itertools.product(*[range(len(states[q])) for q in ps]))
        cpds.append(_general_cpd(node, states[node], [column(len(states[node])) for _ in configs],
                                 ps, [states[q] for q in ps]))
    net = DiscreteBayesianNetwork([(q, f) for f in feats for q in parents[f]])
    net.add_nodes_from(["C", *feats])
    net.add_cpds(*cpds)
    assert net.check_model()
    rule = draw(st.sampled_from(["threshold", "argmax"]))
    threshold = draw(st.sampled_from([0.5, 0.25, 0.75, Fraction(1, 3)])) if rule == "threshold" else None
    return Case(net, "C", draw(st.sampled_from(["n", "y"])), threshold, feats, rule)


@given(case=positive_tans())
@settings(max_examples=30, deadline=None)
def test_whole_classifier_intervals_tan(case):
    """The same check on TANs (pairwise factors between features)."""
    note(repr(case))
    clf = _classifier(case)
    assume(clf.structure == "tan")
    frame = bnx.parameter_sensitivity(clf, exact=True)
    xs = oracle.all_instances(case.net, case.features)
    for row in frame.itertuples():
        check_row(case, row, lambda t: tuple(decide(case, changed(case, row, t), x)
                                             for x in xs))


@given(case=naive_bayes(max_features=4, max_instances=24), data=st.data())
@settings(max_examples=30, deadline=None)
def test_whole_classifier_intervals_naive_bayes(case, data):
    """No instance: inside the interval no decision changes; at or just past an end
    inside (0, 1) some decision does (every instance recomputed by the oracle)."""
    assume(_positive_nb(case))
    note(repr(case))
    argmax = data.draw(st.booleans(), label="argmax")
    if argmax:
        case.rule, case.threshold = "argmax", None
    clf = _classifier(case)
    frame = bnx.parameter_sensitivity(clf, exact=True)
    xs = oracle.all_instances(case.net, case.features)
    for row in frame.itertuples():
        check_row(case, row, lambda t: tuple(decide(case, changed(case, row, t), x)
                                             for x in xs))


def test_whole_classifier_refused_with_a_clear_error():
    net = bnx.examples.admissions().network
    with pytest.raises(bnx.StructureError, match="two-state class"):
        bnx.parameter_sensitivity(bnx.Classifier(net, "Admit", "+", threshold=0))


def test_whole_classifier_admissions():
    s = bnx.parameter_sensitivity(bnx.examples.admissions())
    assert len(s) == 18 and ((s.low <= s.value) & (s.value <= s.high)).all()


def test_plot_sensitivity():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    clf = bnx.examples.admissions()
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    ax = bnx.plot_sensitivity(bnx.parameter_sensitivity(clf, x), top=5)
    assert len(ax.get_yticklabels()) == 5


def test_a_single_point_of_positive_is_no_flip_when_a_strict_test_is_tight():
    """argmax, the positive state second: Pr(first) = 3/32 t and every other joint 0 (an
    instance of probability zero at t = 0, where the first state wins the tie). The
    positive set {t >= 0 : 0 > 3/32 t} is empty, so no value of t flips the decision."""
    from bnx.attribution.sensitivity import flip_interval
    F = Fraction
    got = flip_interval([F(0)] * 3, [F(3, 32), F(0), F(0)], F(0), "argmax", 1, None)
    assert got == (F(0), F(1), False)
