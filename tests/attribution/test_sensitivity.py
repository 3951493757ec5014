"""Parameter sensitivity, checked by recomputing decisions with the changed network.

For every CPT entry of the frame, the oracle (``tests/_support/oracle.py``, exact enumeration,
independent of bnx) recomputes the decision with the entry set to points strictly
inside the interval (the decision must not change) and at or just past each endpoint
that lies inside (0, 1) (it must change), the rest of the column co-varied
proportionally, everything in fractions.
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction

import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import (
    classifiers,
    general_networks,
    instances,
    naive_bayes,
    tan_networks,
)

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


@pytest.mark.slow
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
        check_row(case, row, lambda t, row=row: decide(case, changed(case, row, t), x))
    fl = bnx.parameter_sensitivity(clf, x)
    assert (abs(fl.low - frame.low.astype(float)) < 1e-15).all()


def test_floats_and_roots():
    clf = bnx.examples.admissions()
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    s = bnx.parameter_sensitivity(clf, x)
    root = s[s.variable == "Admit"]
    assert all(p == {} for p in root.parents)
    assert s.value.dtype == float and len(s) == 18
    assert bnx.parameter_sensitivity(bnx.compile(clf, backend="autoref"), x).equals(s)
    with pytest.raises(bnx.ArgumentError, match="got str"):
        bnx.parameter_sensitivity("admissions.net", x)
    with pytest.raises(bnx.MissingFeatureError):
        bnx.parameter_sensitivity(clf, {"GPA": "+"})


WHOLE = st.one_of(naive_bayes(max_features=3, max_instances=12),
                  tan_networks(max_features=3, max_instances=12))


def _all_decisions(case, row):
    xs = oracle.all_instances(case.net, case.features)
    return lambda t: tuple(decide(case, changed(case, row, t), x) for x in xs)


@pytest.mark.slow
@given(case=WHOLE, argmax=st.booleans())
@settings(max_examples=15, deadline=None)
def test_whole_classifier_intervals(case, argmax):
    """No instance: inside the interval no decision changes; at or just past an end
    inside (0, 1) some decision does (every instance recomputed by the oracle, with the
    changed network in fractions). Naive Bayes and TANs with two to four class states,
    zero entries (entries at 0 and at 1), thresholds 0 and 1 and exact ties, argmax."""
    assume(all((c.values <= 1).all() for c in case.net.get_cpds()))
    if argmax:
        case.rule, case.threshold = "argmax", None
    note(repr(case))
    clf = _classifier(case)
    assume(clf.structure in ("naive_bayes", "tan"))
    frame = bnx.parameter_sensitivity(clf, exact=True)
    assert len(frame) == sum(c.values.size for c in case.net.get_cpds())
    event(f"{len(clf.class_states)} class states, " + ("argmax" if argmax else (
        f"threshold {case.threshold}" if case.threshold in (0, 1) else "threshold in (0, 1)")))
    event(f"zero entries: {any((c.values == 0).any() for c in case.net.get_cpds())}")
    event(f"a flip point: {bool(((frame.low > 0) | (frame.high < 1)).any())}")
    for row in frame.itertuples():
        check_row(case, row, _all_decisions(case, row))


@pytest.mark.slow
@given(case=WHOLE, argmax=st.booleans())
@settings(max_examples=20, deadline=None)
def test_whole_classifier_intervals_many_classes(case, argmax):
    """The same with three or four class states only (Pareto frontiers of more than one
    coordinate: every one of them matters)."""
    assume(len(oracle.node_states(case.net, case.class_var)) > 2)
    test_whole_classifier_intervals.hypothesis.inner_test(case, argmax)


def _nb(prior, tables, rule="argmax", threshold=None, positive="c0"):
    """A naive Bayes over features F0.. (each table: one column per class state)."""
    from pgmpy.models import DiscreteBayesianNetwork

    from tests._support.strategies import Case, _general_cpd
    k = len(prior)
    cls = [f"c{i}" for i in range(k)]
    cpds = [_general_cpd("C", cls, [prior], [], [])]
    feats = []
    for i, cols in enumerate(tables):
        f = f"F{i}"
        feats.append(f)
        cpds.append(_general_cpd(f, [f"s{j}" for j in range(len(cols[0]))], cols, ["C"], [cls]))
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    net.add_cpds(*cpds)
    assert net.check_model()
    return Case(net, "C", positive, threshold, feats, rule)


@pytest.mark.parametrize("case", [
    # a prior entry at 1: the instances class c0 cannot explain are ties at theta = 1
    _nb([1.0, 0.0, 0.0], [[[0.0, 1.0], [0.5, 0.5], [0.25, 0.75]]], positive="c1"),
    _nb([1.0, 0.0], [[[0.0, 1.0], [0.5, 0.5]]], rule="threshold", threshold=1, positive="c1"),
    # deterministic columns, a zero prior entry, three classes under a threshold
    _nb([0.5, 0.0, 0.5], [[[1.0, 0.0, 0.0], [0.25, 0.5, 0.25], [0.0, 0.5, 0.5]],
                          [[0.5, 0.5], [1.0, 0.0], [0.25, 0.75]]],
        rule="threshold", threshold=Fraction(1, 3), positive="c2"),
    _nb([0.25, 0.25, 0.5], [[[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]],
                            [[0.0, 1.0], [0.5, 0.5], [1.0, 0.0]]], rule="threshold", threshold=0),
], ids=["prior-one-argmax", "prior-one-threshold-1", "zeros-threshold", "threshold-0"])
def test_whole_classifier_zero_entries(case):
    frame = bnx.parameter_sensitivity(_classifier(case), exact=True)
    for row in frame.itertuples():
        check_row(case, row, _all_decisions(case, row))


def test_whole_classifier_barren_node():
    """A barren node (below the class and a feature, not a feature) sums out to 1 for
    every value of its entries: they keep every decision on [0, 1]; the others as
    without it. A barren node whose columns do not sum to 1 is refused."""
    from tests._support.strategies import _general_cpd
    case = _nb([0.25, 0.25, 0.5], [[[0.5, 0.5], [0.75, 0.25], [0.25, 0.75]],
                                   [[0.0, 1.0], [0.5, 0.5], [1.0, 0.0]]], rule="threshold",
               threshold=Fraction(1, 3), positive="c1")
    cls, fs = ["c0", "c1", "c2"], ["s0", "s1"]
    net = case.net.copy()
    net.add_node("B")
    net.add_edges_from([("C", "B"), ("F0", "B")])
    net.add_cpds(_general_cpd("B", ["b0", "b1", "b2"],
                              [[0.5, 0.25, 0.25], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5],
                               [0.25, 0.25, 0.5], [0.125, 0.875, 0.0], [0.0, 0.0, 1.0]],
                              ["C", "F0"], [cls, fs]))
    case.net = net
    frame = bnx.parameter_sensitivity(_classifier(case), exact=True)
    assert len(frame) == 3 + 12 + 18
    assert ((frame.low == 0) & (frame.high == 1))[frame.variable == "B"].all()
    assert ((frame.low > 0) | (frame.high < 1)).any()
    for row in frame.itertuples():
        check_row(case, row, _all_decisions(case, row))
    sloppy = net.get_cpds("B").copy()
    vals = sloppy.values.copy()
    vals[0, 0, 0] += 1 / 256
    sloppy.values = vals
    net.remove_cpds(net.get_cpds("B"))
    net.add_cpds(sloppy)
    with pytest.raises(bnx.StructureError, match="sum to 1"):
        bnx.parameter_sensitivity(_classifier(case))


def test_changed_network_is_pgmpy_network():
    """The oracle's co-variation is a network pgmpy accepts (each column still sums to 1)
    and pgmpy's inference on it agrees with the oracle's joints: an entry at 1 (the
    others share 1 - t equally) and an entry at 0 of a column with another 0."""
    import numpy as np
    from pgmpy.inference import VariableElimination
    case = _nb([0.5, 0.25, 0.25], [[[1.0, 0.0, 0.0], [0.0, 0.25, 0.75], [0.5, 0.25, 0.25]]])
    t = Fraction(3, 8)
    for state, column in (("s0", [t, (1 - t) / 2, (1 - t) / 2]),  # the entry at 1
                          ("s1", [1 - t, t, 0])):  # an entry at 0 beside another 0
        row = type("Row", (), {"variable": "F0", "state": state, "parents": {"C": "c0"}})
        n = changed(case, row, t)
        table = dict(next(tb for v, tb in n.factors if v[0] == "F0"))
        assert [table[(s, "c0")] for s in ["s0", "s1", "s2"]] == column
        net = case.net.copy()
        cpd = net.get_cpds("F0").copy()
        vals = np.array([[float(table[(s, c)]) for c in ["c0", "c1", "c2"]]
                         for s in ["s0", "s1", "s2"]])
        assert np.allclose(vals.sum(axis=0), 1)
        cpd.values = vals
        net.remove_cpds(net.get_cpds("F0"))
        net.add_cpds(cpd)
        assert net.check_model()
        q = VariableElimination(net).query(["C"], evidence={"F0": "s1"}, show_progress=False)
        cj = oracle._class_joint(n, "C", {"F0": "s1"}, ["F0"])
        total = sum(cj.values())
        for c in ["c0", "c1", "c2"]:
            assert abs(q.get_value(C=c) - float(cj[c] / total)) < 1e-12


def test_whole_classifier_refused_with_a_clear_error():
    clf = bnx.examples.asia()
    with pytest.raises(bnx.StructureError, match="naive Bayes and TAN"):
        bnx.parameter_sensitivity(clf)


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


@given(case=naive_bayes(max_features=3, max_instances=24), data=st.data())
@settings(max_examples=25, deadline=None)
def test_explain_data_sensitivity_names_the_entry_closest_to_flipping(case, data):
    assume(all((c.values <= 1).all() for c in case.net.get_cpds()))
    clf = _classifier(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case), label="x")
    rows = [x, {**x, case.features[0]: None}]
    got = bnx.explain_data(odd, rows, what=["decision", "sensitivity"], progress=False)
    assert list(got.columns) == ["decision", "sensitivity", "sensitivity_entry"]
    assert got["sensitivity"].isna().iloc[1] and got["sensitivity_entry"].isna().iloc[1]
    frame = bnx.parameter_sensitivity(clf, x, exact=True)
    room, label = got["sensitivity"].iloc[0], got["sensitivity_entry"].iloc[0]
    flips = []  # (exact distance to the nearer flip point, entry) of every entry
    for row in frame.itertuples():
        ends = ([row.value - row.low] if row.low > 0 else []) + \
               ([row.high - row.value] if row.high < 1 else [])
        if ends:
            given = ", ".join(f"{k}={s}" for k, s in row.parents.items())
            name = f"Pr({row.variable}={row.state}" + (f" | {given})" if given else ")")
            flips.append((min(ends), name, row))
    if not flips:
        assert room == float("inf") and label is None  # no entry named: none flips it
        return
    best = min(d for d, _, _ in flips)
    assert room == float(best)
    d, name, row = next(f for f in flips if f[1] == label)
    assert d == best
    # the named entry moved just past its room flips the decision; just short of it, not
    want = clf.decide(x, within="all")
    eps = Fraction(1, 2 ** 30)
    if row.low > 0 and row.value - row.low == d:  # (as check_row steps past an end)
        toward, beyond = row.low, row.low - row.low * eps
    else:
        toward, beyond = row.high, row.high + (1 - row.high) * eps
    assert decide(case, changed(case, row, row.value + (toward - row.value) * (1 - eps)),
                  x) == want
    assert any(decide(case, changed(case, row, t), x) != want for t in (toward, beyond))


def test_flip_room_ranks_exactly_where_floats_tie():
    """Two entries whose rooms differ by less than a float's precision: the exact rooms
    rank them (explain_data names the closer one), the float rooms cannot."""
    import pandas as pd

    from bnx.attribution.entries import flip_room
    F = Fraction
    tiny = F(1, 10 ** 20)
    frame = pd.DataFrame({"value": [F(1, 2), F(1, 2), F(1, 2)],
                          "low": [F(1, 4), F(1, 4) + tiny, F(0)],
                          "high": [F(1), F(1), F(1)]})
    exact = flip_room(frame, exact=True).tolist()
    assert exact == [F(1, 4), F(1, 4) - tiny, math.inf]
    assert min(range(3), key=exact.__getitem__) == 1
    floats = flip_room(frame).tolist()
    assert floats[0] == floats[1] == 0.25 and floats[2] == math.inf


def test_explain_data_sensitivity_names_the_row_of_a_bad_state():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    good = dict.fromkeys(odd.features, "+")
    with pytest.raises(bnx.UnknownStateError, match=r"row 1: 'zz' is not a state of feature 'GPA'"):
        bnx.explain_data(odd, [good, {**good, "GPA": "zz"}], what=["sensitivity"],
                         progress=False)


def _decided_classes(case, row):
    """Every instance's decided class (argmax, the first state on ties), recomputed by the
    oracle with ``row``'s entry at ``t``."""
    xs = oracle.all_instances(case.net, case.features)

    def at(t):
        n = changed(case, row, t)
        out = []
        for x in xs:
            cj = oracle._class_joint(n, case.class_var, x, case.features)
            best = None
            for c, p in cj.items():
                if best is None or p > cj[best]:
                    best = c
            out.append(best)
        return tuple(out)
    return at


@pytest.mark.slow
@given(case=WHOLE, data=st.data())
@settings(max_examples=12, deadline=None)
def test_multiclass_intervals_keep_the_decided_classes(case, data):
    """A multi-class classifier (no positive state): with an instance, inside each interval
    the instance keeps its decided class and at an end inside (0, 1) it does not; without
    one, no instance's decided class changes inside and some does at an end."""
    assume(all((c.values <= 1).all() for c in case.net.get_cpds()))
    assume(len(oracle.node_states(case.net, case.class_var)) > 2)
    many = bnx.Classifier(case.net, case.class_var, features=case.features)
    assume(many.structure in ("naive_bayes", "tan"))
    x = data.draw(instances(case), label="x")
    for row in bnx.parameter_sensitivity(many, x, exact=True).itertuples():
        check_row(case, row, lambda t, row=row: _decided_classes_of(case, row, x)(t))
    for row in bnx.parameter_sensitivity(many, exact=True).itertuples():
        check_row(case, row, _decided_classes(case, row))


def _decided_classes_of(case, row, x):
    def at(t):
        cj = oracle._class_joint(changed(case, row, t), case.class_var, x, case.features)
        best = None
        for c, p in cj.items():
            if best is None or p > cj[best]:
                best = c
        return best
    return at
