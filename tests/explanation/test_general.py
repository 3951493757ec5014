"""Issue 35: general reasons (maximal boxes of states), against the brute force of
tests/_support/oracle_general.py: every box enumerated, every instance decided from the
network's joint in exact rationals (tests/_support/oracle.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.explanation import general
from tests._support import oracle
from tests._support import oracle_general as brute
from tests._support.strategies import (
    classifier_of,
    general_networks,
    possible_instances,
)

FEW = settings(max_examples=max(10, settings.default.max_examples // 3), deadline=None)


def _as_sets(reasons) -> set:
    return {frozenset((f, frozenset(s)) for f, s in r.items()) for r in reasons}


def _table(case):
    return oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                 case.features, rule=case.rule)


def _possible(case) -> set:
    """The complete instances of positive probability (as tuples in the features' order)."""
    joints = oracle.class_joint_table(case.net, case.class_var, case.features)
    return {c for c, j in joints.items() if sum(j.values()) > 0}


def _check(case, odd, x, ordinal=None):
    """bnx's general reasons of ``x`` against the brute force, and their properties: among
    the instances the network allows (the others are decided as ``x``: they never break a
    box), and with ``within="all"`` over every instance."""
    _check_in(case, odd, x, ordinal, None)
    return _check_in(case, odd, x, ordinal, _possible(case))


def _check_in(case, odd, x, ordinal, possible):
    table = _table(case)
    features = list(case.features)
    states = {f: case.states(f) for f in features}
    decision = table[tuple(x[f] for f in features)]
    if possible is None:  # every instance: the brute force's total function
        got = bnx.general_reasons(odd, x, within="all")
    else:
        table = {z: d if z in possible else decision for z, d in table.items()}
        got = bnx.general_reasons(odd, x)
    want = brute.general_reasons(table, features, states, x, lambda d: d == decision, ordinal)
    listed = list(got)
    assert _as_sets(listed) == _as_sets(want)
    assert len(listed) == got.count == len(got) == len(want)
    sizes = [len(r) for r in listed]
    assert sizes == sorted(sizes)  # fewest constrained features first
    assert got.lengths() == {k: sizes.count(k) for k in sorted(set(sizes))}
    for r in listed:
        assert r in got
        for f, s in r.items():
            assert x[f] in s
            if ordinal and f in ordinal:  # an interval, in increasing order
                order = ordinal[f]
                i = [order.index(v) for v in s]
                assert i == list(range(i[0], i[0] + len(i)))
            else:
                assert list(s) == [v for v in states[f] if v in s]
    # every PI-explanation lies in some general reason
    for pi in oracle.pi_explanations(case.net, case.class_var, case.positive, case.threshold,
                                     features, x, rule=case.rule, table=table):
        assert any(all(f in dict(pi) for f in r) for r in listed)
    # a box one state too small is not a reason
    for r in listed:
        for f, s in r.items():
            if len(s) > 1:
                smaller = dict(r)
                smaller[f] = tuple(v for v in s if v != x[f])[:-1] + (x[f],)
                assert smaller not in got
    return got


@FEW
@given(case=general_networks(max_features=3, max_hidden=2, states=(3, 5)), data=st.data())
def test_general_reasons_match_brute_force(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, data.draw(st.permutations(case.features)))
    for _ in range(2):
        _check(case, odd, data.draw(possible_instances(case)))


def _ordinal(case, data) -> dict:
    """Some features of ``case`` made ordinal, each in a drawn order of its states."""
    return {f: list(data.draw(st.permutations(case.states(f))))
            for f in data.draw(st.lists(st.sampled_from(case.features), unique=True))}


@FEW
@given(case=general_networks(max_features=3, max_hidden=1, states=(3, 5)), data=st.data())
def test_ordinal_general_reasons_are_maximal_intervals(case, data):
    ordinal = _ordinal(case, data)
    kw = {"rule": "argmax"} if case.rule == "argmax" else {"threshold": case.threshold}
    clf = bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                         ordinal=ordinal, **kw)
    odd = bnx.compile(clf, data.draw(st.permutations(case.features)))
    for _ in range(2):
        got = _check(case, odd, data.draw(possible_instances(case)), ordinal)
        assert got.ordinal == {f: tuple(o) for f, o in ordinal.items()}


@FEW
@given(case=general_networks(max_features=3, max_hidden=1, states=(3, 5)), data=st.data())
def test_multiclass_general_reasons_for_the_class_and_against_each_rival(case, data):
    ordinal = _ordinal(case, data) if data.draw(st.booleans()) else None
    clf = bnx.Classifier(case.net, case.class_var, features=case.features, ordinal=ordinal)
    odd = bnx.compile(clf, data.draw(st.permutations(case.features)))
    classes = oracle.node_states(case.net, case.class_var)
    joints = oracle.class_joint_table(case.net, case.class_var, case.features)
    table = {c: max(classes, key=lambda s, j=j: (j[s], -classes.index(s)))  # first wins ties
             for c, j in joints.items()}
    features = list(case.features)
    states = {f: case.states(f) for f in features}
    x = data.draw(possible_instances(case))
    a = table[tuple(x[f] for f in features)]
    assert odd.decide(x) == a
    # among the instances the network allows: the others never break a box
    table = {c: d if sum(joints[c].values()) > 0 else a for c, d in table.items()}
    for rival in [None, *classes]:
        if rival == a:
            with pytest.raises(bnx.ArgumentError, match="is the class this instance is decided"):
                bnx.general_reasons(odd, x, rival=rival)
            continue
        keep = (lambda d: d == a) if rival is None else (lambda d, b=rival: d != b)
        want = brute.general_reasons(table, features, states, x, keep, ordinal)
        got = bnx.general_reasons(odd, x, rival=rival)
        assert _as_sets(got) == _as_sets(want) and got.count == len(want)
        assert got.decision_text == f"{case.class_var} = {a}" and got.rival == rival


def test_the_words_of_a_set():
    levels = ("a1_0", "a6_2", "a19_7", "a88_20")
    assert general.term("bilirubin", ("a1_0", "a6_2"), levels, levels) == "bilirubin ≤ a6_2"
    assert general.term("bilirubin", ("a6_2",), levels, levels) == "bilirubin = a6_2"
    colours = ("red", "green", "blue", "grey", "black")
    assert general.term("c", ("red", "green", "blue", "grey"), colours) == "c ≠ black"
    assert general.term("c", ("red", "green", "blue"), colours) == "c ∉ {grey, black}"
    assert general.term("c", ("red", "blue"), colours) == "c ∈ {red, blue}"


def test_rival_on_a_binary_odd():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    plain = list(bnx.general_reasons(odd, x))
    against = bnx.general_reasons(odd, x, rival="-")
    assert list(against) == plain
    assert str(against).startswith("3 general reasons for Admit = + and not - (sets of "
                                   "states on which it is never -)")
    for wrong in ("+", "maybe"):
        with pytest.raises(bnx.ArgumentError, match="the only other decision here is '-'"):
            bnx.general_reasons(odd, x, rival=wrong)
    with pytest.raises(bnx.ArgumentError):
        bnx.general_reasons(bnx.examples.admissions(), x)
