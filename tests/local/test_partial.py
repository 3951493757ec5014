"""bnx.local on a partial instance: the same-decision probability and what to observe next
without compiling, against brute force.

Every completion of the evidence is enumerated with the oracle's exact class joints
(``tests/_support/oracle.py``): the same-decision probability, and per missing feature the
expected same-decision probability and the flip probability. The branch and bound
(:class:`bnx.local.Interval`) must hold them at every step, close on them when run to the
end (also with every node settled by search rather than by a table), and agree with the
compiled diagram's :func:`bnx.same_decision_probability` and :func:`bnx.next_observations`;
the report must say which values are bounds.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from fractions import Fraction

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from bnx.local import (
    Interval,
    _answer,  # private: constants patched to force the search's paths
    next_interval,
)
from tests._support import oracle
from tests._support.oracle_multiclass import argmax
from tests._support.strategies import (
    classifier_of,
    general_networks,
    multiclass_classifier_of,
    multiclass_networks,
    partial_instances,
)

FEW = settings(max_examples=20, deadline=None)

#: (SETTLE_ENTRIES, FLIP_SHARE): the defaults; no table (every node settled by a flip
#: check or split to the end) with a check at every node; no table and a check only at
#: the first node (splits alone).
PATHS = [(_answer.SETTLE_ENTRIES, _answer.FLIP_SHARE), (0, math.inf), (0, 0.0)]


def brute(case, e, multiclass):
    """Return ``(sdp, {feature: (expected sdp, flip probability)})`` by enumeration.

    ``None`` when the evidence has probability zero.
    """
    classes = case.states(case.class_var)
    missing = [f for f in case.features if f not in e]

    def decide(cj):
        if multiclass:
            return argmax(cj, classes)
        return oracle._decide_from_joint(cj, case.positive, case.threshold, case.rule)

    def summed(joints):
        joints = list(joints)
        return {c: sum((cj[c] for cj in joints), Fraction(0)) for c in classes}

    rows = []  # (completion, its class joint, its decision)
    for combo in itertools.product(*(case.states(f) for f in missing)):
        y = dict(zip(missing, combo))
        cj = oracle.class_joint(case.net, case.class_var, {**e, **y}, case.features)
        rows.append((y, cj, decide(cj)))
    total = summed(cj for _, cj, _ in rows)
    whole = sum(total.values())
    if whole == 0:
        return None
    d = decide(total)
    sdp = sum((sum(cj.values()) for _, cj, lab in rows if lab == d), Fraction(0)) / whole
    per = {}
    for f in missing:
        expected, flip = Fraction(0), Fraction(0)
        for v in case.states(f):
            part = [(cj, lab) for y, cj, lab in rows if y[f] == v]
            cj_v = summed(cj for cj, _ in part)
            if not sum(cj_v.values()):
                continue
            dv = decide(cj_v)
            expected += sum((sum(cj.values()) for cj, lab in part if lab == dv),
                            Fraction(0)) / whole
            if dv != d:
                flip += sum(cj_v.values()) / whole
        per[f] = (expected, flip)
    return sdp, per


def _case(data, multiclass):
    if multiclass:
        case = data.draw(multiclass_networks(max_features=4))
        return case, multiclass_classifier_of(case)
    case = data.draw(general_networks(max_features=4, max_hidden=2))
    return case, classifier_of(case)


@pytest.mark.parametrize("settle,share", PATHS)
@pytest.mark.parametrize("multiclass", [False, True])
@given(data=st.data())
@FEW
def test_run_to_the_end_the_interval_closes_on_the_sdp(settle, share, multiclass, data):
    case, clf = _case(data, multiclass)
    e = data.draw(partial_instances(case))
    if len(e) == len(case.features):
        return
    want = brute(case, e, multiclass)
    if want is None:
        return
    sdp, per = want
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_answer, "SETTLE_ENTRIES", settle)
        mp.setattr(_answer, "FLIP_SHARE", share)
        (lo, hi), frame = next_interval(clf, e)
    note(f"{e}: {lo}, {hi}; brute {sdp} {per}\n{frame}")
    assert lo == hi == sdp == bnx.same_decision_probability(clf, e, exact=True)
    compiled = bnx.next_observations(clf, e, exact=True)
    assert list(frame.index) == list(compiled.index)
    for f, row in frame.iterrows():
        assert row["expected_sdp"] == row["expected_sdp_low"] == row["expected_sdp_high"]
        assert (row["expected_sdp"], row["flip_probability"]) == per[f]
        assert (row["expected_sdp"], row["flip_probability"]) == (
            compiled.loc[f, "expected_sdp"], compiled.loc[f, "flip_probability"])


@pytest.mark.parametrize("multiclass", [False, True])
@given(data=st.data())
@FEW
def test_every_step_of_the_search_holds_the_exact_values(multiclass, data):
    case, clf = _case(data, multiclass)
    e = data.draw(partial_instances(case))
    if len(e) == len(case.features):
        return
    want = brute(case, e, multiclass)
    if want is None:
        return
    sdp, per = want
    settle = data.draw(st.sampled_from([0, _answer.SETTLE_ENTRIES]))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_answer, "SETTLE_ENTRIES", settle)
        mp.setattr(_answer, "FLIP_SHARE", data.draw(st.sampled_from([0.0, math.inf])))
        iv = Interval(clf, e)
        widths = [iv.hi - iv.lo]
        for _ in range(data.draw(st.integers(0, 6))):
            iv.run(None, steps=1)
            assert iv.lo <= sdp <= iv.hi
            widths.append(iv.hi - iv.lo)
        # a deadline already passed: no split, the parts' bounds only; else splits too
        passed = data.draw(st.booleans())
        frame = iv.observations(time.monotonic() - 1 if passed else None)
    assert widths == sorted(widths, reverse=True)  # a step never widens the interval
    for f, row in frame.iterrows():
        expected, flip = per[f]
        assert row["flip_probability"] == flip
        assert row["expected_sdp_low"] <= expected <= row["expected_sdp_high"]
        if row["expected_sdp"] is not None:
            assert row["expected_sdp"] == expected


def test_the_shares_of_the_root_are_markov_bounds():
    """Only GPA = + known: Pr(Admit = + | GPA = +) = q; at least (q - 1/2) / (1 - 1/2) of
    the completions decide Admit = + before any split."""
    clf = bnx.examples.admissions()
    e = {"GPA": "+"}
    q = clf.posterior_exact(e, partial=True)
    iv = Interval(clf, e)
    assert (iv.lo, iv.hi) == ((q - Fraction(1, 2)) / Fraction(1, 2), 1)
    iv.run(None)
    assert iv.closed and iv.lo == iv.hi == bnx.same_decision_probability(clf, e, exact=True)


def _no_compile(mp):
    """The restricted compile fails, as it does on a network too large for the time."""
    import bnx.compilation

    def refuse(*args, **kwargs):
        raise bnx.CompilationLimitError("refused by the test")
    mp.setattr(bnx.compilation, "compile", refuse)


def test_a_report_by_the_interval_closed_is_the_compiled_one():
    clf = bnx.examples.admissions()
    e = {"GPA": "+"}
    sdp = bnx.same_decision_probability(clf, e, exact=True)
    compiled = bnx.next_observations(clf, e, exact=True)
    with pytest.MonkeyPatch.context() as mp:
        _no_compile(mp)
        got = bnx.explain(clf, e)
    assert got.method == "search" and got.methods["sdp"] == _answer.METHODS["interval"]
    assert got.sdp_exact == sdp and got.sdp_bounds is None
    assert [(n.feature, n.expected_sdp, n.flip_probability, n.expected_sdp_bounds)
            for n in got.next] == [(f, float(r.expected_sdp), float(r.flip_probability), None)
                                   for f, r in compiled.iterrows()]
    assert "between" not in got.text() and "proven interval" not in got.text()


def test_a_report_by_the_interval_states_its_bounds():
    clf = bnx.examples.admissions()
    e = {"GPA": "+"}
    sdp = bnx.same_decision_probability(clf, e, exact=True)
    exact = bnx.next_observations(clf, e, exact=True)
    with pytest.MonkeyPatch.context() as mp:
        _no_compile(mp)
        r = bnx.explain(clf, e, timeout=1e-9)  # no time: the root's bounds only
    assert r.sdp is None and r.sdp_bounds[0] <= sdp <= r.sdp_bounds[1]
    assert r.sdp_bounds[0] < r.sdp_bounds[1]
    bounded = [n for n in r.next if n.expected_sdp is None]
    assert bounded  # WorkExperience can change the decision: its expected SDP is bounded
    for n in r.next:
        want = exact.loc[n.feature]
        assert n.flip_probability == float(want["flip_probability"])
        if n.expected_sdp is None:
            lo, hi = n.expected_sdp_bounds
            assert lo <= want["expected_sdp"] <= hi
        else:
            assert n.expected_sdp == float(want["expected_sdp"])
    text, html = r.text(), r._repr_html_()
    said = " ".join(text.split())
    assert re.search(rf"{bounded[0].feature}: knowing it leaves you between [0-9.]+ and "
                     rf"[0-9.]+ sure on average", said)
    assert "proven interval" in text and "proven interval" in html
    assert bnx.Report.from_dict(r.to_dict()) == r
    r.plot()
