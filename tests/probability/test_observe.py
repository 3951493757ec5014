"""Questions under the network's distribution (the same-decision probability in floats,
next_observations, probable_reasons, group_fairness) against brute force.

The brute force enumerates every complete instance with the oracle's exact joint
(tests/_support/oracle.py: plain enumeration of the hidden nodes, never bnx), decides each from that
joint under the classifier's rule, and sums exact fractions.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bnx
from bnx.probability import observe, probable, under
from bnx.probability.same_decision import sdp_with_bound
from tests._support import oracle
from tests._support.strategies import classifier_of, classifiers, general_networks, instances

SOME = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
TOL = Fraction(1, 10 ** 9)
CASES = st.one_of(classifiers(max_features=5, max_instances=96),
                  general_networks(max_features=4, max_instances=48))


class Brute:
    """Every instance with its exact class joint and decision."""

    def __init__(self, case):
        self.case = case
        self.rows = []
        for combo in itertools.product(*(case.states(f) for f in case.features)):
            x = dict(zip(case.features, combo))
            cj = oracle.class_joint(case.net, case.class_var, x, case.features)
            self.rows.append((x, cj, self._decide(cj)))

    def _decide(self, cj):
        return oracle._decide_from_joint(cj, self.case.positive, self.case.threshold,
                                         self.case.rule)

    def match(self, e):
        return [r for r in self.rows if all(r[0][f] == s for f, s in e.items())]

    def mass(self, e, decision=None, cls=None):
        return sum((cj[cls] if cls is not None else sum(cj.values(), Fraction(0))
                    for x, cj, d in self.match(e) if decision is None or d == decision),
                   Fraction(0))

    def decide(self, e):
        summed: dict = {}
        for _, cj, _ in self.match(e):
            for c, p in cj.items():
                summed[c] = summed.get(c, Fraction(0)) + p
        return self._decide(summed)

    def sdp(self, e, decision=None):
        total = self.mass(e)
        if total == 0:
            return None
        return self.mass(e, self.decide(e) if decision is None else decision) / total

    def next_observations(self, e):
        total, own = self.mass(e), self.decide(e)
        out = {}
        for f in self.case.features:
            if f in e:
                continue
            same = flip = Fraction(0)
            for s in self.case.states(f):
                more = {**e, f: s}
                d = self.decide(more)
                same += self.mass(more, d) / total
                flip += self.mass(more) / total if d != own else 0
            out[f] = (same, flip)
        return out

    def probable(self, x, delta):
        d = self.decide(x)
        feats = self.case.features

        def ok(part):
            e = {f: x[f] for f in part}
            return self.mass(e) > 0 and self.mass(e, d) / self.mass(e) >= delta

        good = [frozenset(p) for r in range(len(feats) + 1)
                for p in itertools.combinations(feats, r) if ok(p)]
        return {p for p in good if not any(q < p for q in good)}, ok


@st.composite
def _evidence(draw, case):
    x = draw(instances(case))
    return {f: x[f] for f in draw(st.sets(st.sampled_from(case.features)))}


def _close(got, want):
    return abs(Fraction(got) - want) <= TOL


@SOME
@given(case=CASES, data=st.data())
def test_sdp_float_is_within_its_proven_bound(case, data):
    clf, brute = classifier_of(case), Brute(case)
    odd = bnx.compile(clf, data.draw(st.permutations(case.features)), backend="autoref")
    for _ in range(3):
        e = data.draw(_evidence(case))
        want = brute.sdp(e)
        if want is None:
            with pytest.raises(bnx.ExplanationError, match="probability zero"):
                bnx.same_decision_probability(clf, e, odd=odd)
            continue
        got = bnx.same_decision_probability(clf, e, odd=odd)
        assert isinstance(got, float) and _close(got, want) and 0 <= got <= 1
        value, bound = sdp_with_bound(clf, clf.encode(e, partial=True), None, odd)
        assert value == got and bound <= TOL and abs(Fraction(value) - want) <= bound
        for d in (True, False):
            assert _close(bnx.same_decision_probability(clf, e, decision=d, odd=odd),
                          brute.sdp(e, d))
        # the ODD, which holds its classifier, answers the same question
        assert bnx.same_decision_probability(odd, e, exact=True) == want


@SOME
@given(case=CASES, data=st.data())
def test_next_observations_is_the_exact_sum(case, data):
    clf, brute = classifier_of(case), Brute(case)
    odd = bnx.compile(clf, backend="autoref")
    e = data.draw(_evidence(case))
    if brute.mass(e) == 0:
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            bnx.next_observations(clf, e, odd=odd)
        return
    want = brute.next_observations(e)
    got = bnx.next_observations(clf, e, odd=odd, exact=True)
    assert list(got.index) == _brute_ranking(clf, want)
    for f, (same, flip) in want.items():
        assert got.loc[f, "expected_sdp"] == same and got.loc[f, "flip_probability"] == flip
    by_odd = bnx.next_observations(odd, e, exact=True)  # the ODD holds its classifier
    assert by_odd.equals(got)
    fast = bnx.next_observations(clf, e, odd=odd)
    assert list(fast.columns) == ["expected_sdp", "flip_probability"]
    _check_ranking(clf, fast, e)
    _check_ranking(clf, got, e)
    for f, (same, flip) in want.items():
        assert _close(fast.loc[f, "expected_sdp"], same)
        assert _close(fast.loc[f, "flip_probability"], flip)


def _check_ranking(clf, frame, e):
    """Probabilities in [0, 1]; the features that cannot flip the decision share one value,
    the SDP of ``e`` (E[SDP(e + F)] = SDP(e) for them); rows by the chance of a change,
    then the expected SDP, descending, equal values in the classifier's feature order."""
    assert all(0 <= v <= 1 for v in [*frame["expected_sdp"], *frame["flip_probability"]])
    kept = frame.loc[frame["flip_probability"] == 0, "expected_sdp"]
    assert len(set(kept)) <= 1
    if len(kept):
        exact = isinstance(kept.iloc[0], Fraction)
        sdp = bnx.same_decision_probability(clf, e, exact=exact)
        assert kept.iloc[0] == sdp if exact else _close(kept.iloc[0], Fraction(sdp))
    pos = {f: i for i, f in enumerate(clf.features)}
    want = sorted(frame.index, key=lambda f: (-frame.loc[f, "flip_probability"],
                                              -frame.loc[f, "expected_sdp"], pos[f]))
    assert list(frame.index) == want
    # a feature that cannot change the decision is ranked below every one that can
    flips = list(frame["flip_probability"])
    assert flips == sorted(flips, reverse=True)


def _brute_ranking(clf, want: dict) -> list:
    """The ranking by brute force: the chance of a change, then the expected SDP, both
    descending, then the classifier's order (``want``: {feature: (expected SDP, flip)})."""
    pos = {f: i for i, f in enumerate(clf.features)}
    return sorted(want, key=lambda f: (-want[f][1], -want[f][0], pos[f]))


def test_next_observations_on_votes_stay_within_0_and_1():
    """Evidence on which the ratio of rounded sums gave 1.0000000000000002, listed after
    (or before) the 1.0 of features it equals exactly."""
    clf = bnx.case_study.votes_classifier()
    odd = bnx.compile(clf)
    e = {"physician-fee-freeze": "n", "aid-to-nicaraguan-contras": "n", "el-salvador-aid": "n",
         "water-project-cost-sharing": "n", "handicapped-infants": "y", "crime": "n",
         "education-spending": "n", "immigration": "y", "superfund-right-to-sue": "n",
         "export-administration-act-south-africa": "n"}
    got = bnx.next_observations(odd, e)
    exact = bnx.next_observations(odd, e, exact=True)
    assert list(got.index) == list(exact.index)
    for f in got.index:
        assert got.loc[f, "expected_sdp"] == float(exact.loc[f, "expected_sdp"])
    assert got["expected_sdp"].max() == 1.0
    _check_ranking(clf, got, e)


@SOME
@given(case=CASES, data=st.data())
def test_next_observations_one_pass_per_state(case, data, monkeypatch):
    """Without the per-feature flows (a TAN or general network takes this path anyway),
    one pass per feature and state gives the same answers, exact and in floats."""
    clf, brute = classifier_of(case), Brute(case)
    e = data.draw(_evidence(case))
    if brute.mass(e) == 0:
        return
    with monkeypatch.context() as m:
        m.setattr(observe, "_flows", lambda *a, **k: None)
        got = bnx.next_observations(clf, e, exact=True)
        fast = bnx.next_observations(clf, e)
    _check_ranking(clf, fast, e)
    assert list(got.index) == _brute_ranking(clf, brute.next_observations(e))
    for f, (same, flip) in brute.next_observations(e).items():
        assert got.loc[f, "expected_sdp"] == same and got.loc[f, "flip_probability"] == flip
        assert _close(fast.loc[f, "expected_sdp"], same)
        assert _close(fast.loc[f, "flip_probability"], flip)


def _delta(data):
    return data.draw(st.sampled_from([Fraction(1, 2), 0.75, 0.9, 0.95, 1]))


@SOME
@given(case=CASES, data=st.data())
def test_probable_reasons_are_the_subset_minimal_ones(case, data, monkeypatch):
    clf, brute = classifier_of(case), Brute(case)
    x = data.draw(instances(case))
    delta = _delta(data)
    if brute.mass(x) == 0:
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            bnx.probable_reasons(clf, x, delta=delta)
        return
    want, ok = brute.probable(x, Fraction(delta))
    got = bnx.probable_reasons(clf, x, delta=delta)
    assert got.exact and got.minimality == "subset"
    assert {frozenset(r) for r in got} == want and len(got) == len(want)
    assert all(r == {f: x[f] for f in r} for r in got)
    assert [len(r) for r in got] == sorted(len(r) for r in got)
    with monkeypatch.context() as m:  # one part at a time, by size
        m.setattr(under, "view", lambda *a, **k: None)
        assert {frozenset(r) for r in bnx.probable_reasons(clf, x, delta=delta)} == want
    with monkeypatch.context() as m:  # greedy: locally minimal
        m.setattr(probable, "EXACT_FEATURES", 0)
        (one,), = [list(bnx.probable_reasons(clf, x, delta=delta))]
        local = bnx.probable_reasons(clf, x, delta=delta)
        assert not local.exact and local.minimality == "local"
        assert ok(one) and not any(ok([g for g in one if g != f]) for f in one)


@pytest.mark.slow
@SOME
@given(case=CASES, data=st.data())
def test_group_fairness_is_the_exact_ratio(case, data):
    clf, brute = classifier_of(case), Brute(case)
    protected = data.draw(st.lists(st.sampled_from(case.features), min_size=1,
                                   max_size=2, unique=True))
    got = bnx.group_fairness(clf, protected, exact=True)
    fast = bnx.group_fairness(clf, protected)
    assert ((fast >= 0) & (fast <= 1) | fast.isna()).all().all()  # probabilities
    cls = list(clf.class_states)
    assert list(got.columns) == ["all", *cls]
    assert len(got) == math.prod(len(case.states(f)) for f in protected)
    for combo in itertools.product(*(case.states(f) for f in protected)):
        g = dict(zip(protected, combo))
        key = combo if len(protected) > 1 else combo[0]
        total = brute.mass(g)
        want = brute.mass(g, True) / total if total else None
        assert _exactly(got.loc[key, "all"], want)
        assert (want is None and math.isnan(fast.loc[key, "all"])) or _close(
            fast.loc[key, "all"], want)
        for c in cls:
            tc = brute.mass(g, cls=c)
            wc = brute.mass(g, True, cls=c) / tc if tc else None
            assert _exactly(got.loc[key, c], wc)
            assert (wc is None and math.isnan(fast.loc[key, c])) or _close(
                fast.loc[key, c], wc)


def _exactly(got, want) -> bool:
    """An exact ratio equals the brute force's; an empty group (``want`` None) is NaN."""
    if want is None:
        return isinstance(got, float) and math.isnan(got)
    return got == want


def test_bad_input_is_a_typed_error():
    clf = bnx.examples.admissions()
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    with pytest.raises(bnx.UnknownFeatureError, match="Age"):
        bnx.next_observations(clf, {"Age": "+"})
    with pytest.raises(bnx.UnknownStateError, match="maybe"):
        bnx.next_observations(clf, {"GPA": "maybe"})
    for delta in (0, -1, 1.5, "high", True):
        with pytest.raises(bnx.ArgumentError, match="delta"):
            bnx.probable_reasons(clf, x, delta=delta)
    with pytest.raises(bnx.MissingFeatureError):
        bnx.probable_reasons(clf, {"GPA": "-"})
    with pytest.raises(bnx.UnknownFeatureError, match="Admit"):
        bnx.group_fairness(clf, ["Admit"])
    with pytest.raises(bnx.ArgumentError, match="at least one"):
        bnx.group_fairness(clf, [])
    with pytest.raises(bnx.ArgumentError, match="twice"):
        bnx.group_fairness(clf, ["GPA", "GPA"])
    with pytest.raises(bnx.ArgumentError, match="decision"):
        bnx.same_decision_probability(clf, {}, decision="yes")
    for call in (bnx.next_observations, bnx.same_decision_probability):
        with pytest.raises(bnx.ArgumentError, match="a bnx.Classifier or an ODD that holds "
                           "one \\(odd.classifier\\), got str"):
            call("admissions.bnx", {})
        odd = bnx.compile(clf)
        with pytest.raises(bnx.ArgumentError, match="given twice"):
            call(odd, {}, odd=bnx.compile(clf))


def test_an_odd_without_its_classifier_is_named(tmp_path):
    from tests._support.legacy_files import write_legacy
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    old = bnx.ODD.load(write_legacy(odd, tmp_path / "a.bnx.json", version=1))
    assert old.classifier is None
    for call in (bnx.next_observations, bnx.same_decision_probability):
        with pytest.raises(bnx.ArgumentError, match="does not hold its classifier "
                           "\\(odd.classifier is None"):
            call(old, {"GPA": "+"})


@SOME
@given(case=CASES, data=st.data())
def test_decisions_from_float_masses_are_the_exact_ones(case, data):
    """The float decision (made without fractions when floats can tell) on masses off by
    at most their bound equals the exact decision; a tie is left to exact arithmetic."""
    clf, brute = classifier_of(case), Brute(case)
    e = data.draw(_evidence(case))
    exact = [sum((cj[c] for _, cj, _ in brute.match(e)), Fraction(0))
             for c in clf.class_states]
    if sum(exact) == 0:
        return
    idx = clf.encode(e, partial=True)
    depth = data.draw(st.integers(1, 40))
    u = 2.0 ** -53  # the unit roundoff of doubles
    g = depth * u / (1 - depth * u)  # Higham's gamma(depth): the bound the floats keep
    # each mass moved by at most a relative g, after its rounding to a float and with
    # the product's rounding: within the bound of depth + 2 roundings
    moved = [float(v) * (1 + data.draw(st.sampled_from([-1, -0.5, 0, 0.5, 1])) * g)
             for v in exact]
    assert under.decide_masses(clf, idx, moved, depth + 2) == brute.decide(e)


def test_float_decisions_defer_a_tie_to_exact_arithmetic():
    """Float masses in a tie are left to exact arithmetic on the instance itself (decided
    negative here, which a float >= on the tie would get wrong); masses floats can tell
    apart are decided by the floats alone (positive here, whatever the instance)."""
    clf = bnx.examples.admissions()
    x = dict.fromkeys(clf.features, "-")
    assert clf.decide(x, within="all") is False
    idx = clf.encode(x)
    p = clf.class_states.index(clf.positive)
    t = clf.threshold
    tie = [0.0, 0.0]
    tie[p], tie[1 - p] = float(t), float(1 - t)  # (1 - t) Pr(+) = t Pr(-): a tie
    assert (1 - t) * Fraction(tie[p]) == t * Fraction(tie[1 - p])
    assert under.decide_masses(clf, idx, tie, 3) is False
    clear = [0.0, 0.0]
    clear[p], clear[1 - p] = 0.9, 0.1
    assert under.decide_masses(clf, idx, clear, 3) is True
