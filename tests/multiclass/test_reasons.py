"""The reasons of a multi-class decision, for the decided class and against a rival
(``rival=``), against brute force.

* Random multi-class networks (``multiclass_networks``: 3-6 class states, zeros, exact ties,
  hidden nodes, multi-valued features) against the exact-rational oracle
  (tests/_support/oracle_multiclass.py): PI-explanations (both methods), sufficient and
  necessary reasons, contrastive explanations, feature roles, MC-explanations, checks,
  prime implicants of each class, probable reasons, and ``within=``.
* pgmpy's child (class Disease, six states) against a decision table of the classifier's
  own exact posteriors (no ODD), enumerated instance by instance.
* What a set says: its decided class and rival, its title and text in the class's words,
  its table and picture; and the typed errors.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

import bnx
from bnx.explanation.explanations import positives
from tests._support.bundled import bundled_network
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import (
    instances,
    multiclass_classifier_of,
    multiclass_networks,
    possible_instances,
)

CASES = multiclass_networks()


def _parts(x):
    """Every part of ``x`` (a dict per subset of its features)."""
    fs = list(x)
    return [{f: x[f] for f in s} for r in range(len(fs) + 1)
            for s in itertools.combinations(fs, r)]


# ---------------------------------------------------------------------------
# Random networks against the oracle
# ---------------------------------------------------------------------------


@pytest.mark.slow
@given(case=CASES, data=st.data())
@settings(max_examples=25, deadline=None)
def test_reasons_for_the_decided_class_and_against_each_rival(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    x = data.draw(instances(case), label="x")
    a = brute.decide(x)
    assert odd.decide(x) == a
    on = {f: data.draw(st.sets(st.sampled_from(case.states(f))), label=f"on {f}")
          for f in case.features}
    fixed = data.draw(st.sets(st.sampled_from(case.features)), label="fixed")
    part = data.draw(st.sets(st.sampled_from(case.features)), label="part")
    part = {f: x[f] for f in case.features if f in part}
    for rival in (None, *(c for c in brute.classes if c != a)):
        want = brute.pi_explanations(x, rival)
        pis = bnx.pi_explanations(odd, x, rival=rival, within="all")
        assert pis.to_set() == want
        assert bnx.pi_explanations(odd, x, rival=rival, method="cover",
                                   within="all").to_set() == want
        assert (pis.decided, pis.rival, pis.decision) == (a, rival, rival is None)
        assert pis.shortest().rival == rival
        ces = brute.contrastive_explanations(x, rival)
        assert bnx.contrastive_explanations(odd, x, rival=rival, within="all").to_set() == ces
        assert bnx.feature_roles(odd, x, rival=rival, within="all") == brute.feature_roles(x, rival)
        mcs = bnx.mc_explanations(odd, x, rival=rival, on=on, fixed=fixed, within="all")
        assert mcs.to_set() == brute.mc_explanations(x, on, fixed, rival=rival)
        assert (mcs.decided, mcs.rival) == (a, rival)
        check = bnx.check_explanation(odd, x, part, rival=rival, within="all")
        sufficient, minimal, redundant = brute.check_explanation(x, part, rival)
        assert (check.sufficient, check.minimal, set(check.redundant)) == \
            (sufficient, minimal, redundant)
        assert (check.decided, check.rival) == (a, rival)
        if sufficient:
            assert frozenset(check.reason.items()) in want
        else:  # a completion of the part that the question excludes, and its class
            cx = check.counterexample
            assert all(cx[f] == s for f, s in part.items())
            got = brute.decide(cx)
            assert check.counterexample_decision == got
            assert got == rival if rival is not None else got != a


@pytest.mark.slow
@given(case=CASES)
@settings(max_examples=20, deadline=None)
def test_prime_implicants_and_instances_of_each_class(case):
    note(repr(case))
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    for c in brute.classes:
        pis = bnx.prime_implicants(odd, decision=c, within="all")
        assert pis.to_set() == brute.prime_implicants(c)
        assert (pis.decided, pis.decision) == (c, True)
        members = positives(odd, c)
        assert members.to_set() == {frozenset(x.items()) for x in brute.instances()
                                    if brute.decide(x) == c}
        assert len(members) == brute.count()[c] and members.decided == c


def _sdp(brute, x, part, keep):
    """``Pr(keep(decision) | x_part)`` under the network (None when ``Pr(x_part) = 0``)."""
    total = good = Fraction(0)
    for key in brute._completions({f: x[f] for f in part}):
        p = sum(brute._joint[key].values(), Fraction(0))
        total += p
        if keep(brute.decisions()[key]):
            good += p
    return None if total == 0 else good / total


@given(case=multiclass_networks(max_features=4), data=st.data())
@settings(max_examples=20, deadline=None)
def test_probable_reasons_against_the_oracle(case, data):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    x = data.draw(instances(case), label="x")
    assume(brute.probability(x) > 0)
    a = brute.decide(x)
    rival = data.draw(st.sampled_from([None, *(c for c in brute.classes if c != a)]),
                      label="rival")
    delta = data.draw(st.sampled_from([Fraction(1, 2), Fraction(3, 4), Fraction(9, 10), 1]),
                      label="delta")
    keep = (lambda d: d == a) if rival is None else (lambda d: d != rival)
    good = []
    for r in range(len(case.features) + 1):
        for part in itertools.combinations(case.features, r):
            p = _sdp(brute, x, part, keep)
            if p is not None and p >= delta and not any(set(g) <= set(part) for g in good):
                good.append(part)
    got = bnx.probable_reasons(clf, x, delta=delta, rival=rival)
    assert {frozenset(r.items()) for r in got} == {frozenset((f, x[f]) for f in g)
                                                    for g in good}
    assert (got.decided, got.rival, got.decision) == (a, rival, rival is None)
    want = f"{case.class_var} = {a}" + (f" and not {rival}" if rival is not None else "")
    assert got.decision_text == want and want in str(got)


@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_reasons_within_a_set_of_instances(case, data):
    """Within the instances that match no forbidden combination, only they count."""
    note(repr(case))
    brute = MultiOracle.of(case)
    odd = bnx.compile(multiclass_classifier_of(case), backend="autoref")
    x = data.draw(possible_instances(case), label="x")
    a = brute.decide(x)
    f = data.draw(st.sampled_from(case.features), label="f")
    s = data.draw(st.sampled_from([t for t in case.states(f) if t != x[f]] or [None]),
                  label="s")
    assume(s is not None)
    forbidden = [{f: s}]
    rival = data.draw(st.sampled_from([None, *(c for c in brute.classes if c != a)]),
                      label="rival")
    keep = (lambda d: d == a) if rival is None else (lambda d: d != rival)
    table = brute.decisions()
    allowed = {k for k in table if dict(zip(case.features, k))[f] != s}
    ok = [frozenset(p.items()) for p in _parts(x)
          if all(keep(table[k]) for k in brute._completions(p) if k in allowed)]
    want = {p for p in ok if not any(o < p for o in ok)}
    assert bnx.pi_explanations(odd, x, rival=rival, within=forbidden).to_set() == want
    roles = bnx.feature_roles(odd, x, rival=rival, within=forbidden)
    for g in case.features:
        inside = sum(1 for p in want if g in dict(p))
        assert roles[g] == ("irrelevant" if inside == 0 else
                            "necessary" if inside == len(want) else "relevant")


# ---------------------------------------------------------------------------
# child: six classes, against the classifier's own exact posteriors
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def child():
    net = bundled_network("child")
    return bnx.Classifier(net, "Disease")


@pytest.fixture(scope="module")
def child_brute(child):
    """The oracle's questions on child's decision table, made instance by instance from the
    classifier's exact posteriors (``clf.predict``: no ODD)."""
    brute = MultiOracle.__new__(MultiOracle)
    brute.class_var, brute.classes = child.class_var, tuple(child.classes)
    brute.features = tuple(child.features)
    brute.states = {f: tuple(child.states(f)) for f in brute.features}
    brute._table = {k: child.predict(dict(zip(brute.features, k)))
                    for k in itertools.product(*brute.states.values())}
    brute.within = "all"  # every instance (the tests ask within="all")
    return brute


@pytest.mark.slow
def test_child_reasons_against_its_decision_table(child, child_brute):
    odd = bnx.compile(child)
    brute = child_brute
    table = brute.decisions()
    chosen = []
    for c in brute.classes:  # four instances of every class decided on some, spread out
        keys = sorted(k for k, d in table.items() if d == c)
        chosen += keys[::max(1, len(keys) // 4)][:4]
    assert {table[k] for k in chosen} == {c for c, n in brute.count().items() if n}
    for key in chosen:
        x = dict(zip(brute.features, key))
        a = table[key]
        for rival in (None, *(c for c in brute.classes if c != a)):
            pis = bnx.pi_explanations(odd, x, rival=rival, within="all")
            assert pis.to_set() == brute.pi_explanations(x, rival), (x, rival)
            said = f"for Disease = {a}" + (f" and not {rival}" if rival is not None else " (")
            assert said in pis.title()
            assert (bnx.contrastive_explanations(odd, x, rival=rival, within="all").to_set()
                    == brute.contrastive_explanations(x, rival))
            assert bnx.feature_roles(odd, x, rival=rival, within="all") == \
                brute.feature_roles(x, rival)
            part = dict(list(x.items())[::2])
            check = bnx.check_explanation(odd, x, part, rival=rival, within="all")
            assert (check.sufficient, check.minimal, set(check.redundant)) == \
                brute.check_explanation(x, part, rival)


@pytest.mark.slow
def test_child_prime_implicants_of_each_class(child, child_brute):
    odd = bnx.compile(child)
    for c in child.classes:
        pis = bnx.prime_implicants(odd, decision=c)
        if child_brute.count()[c] == 0:
            assert pis.count == 0
        elif c == "Lung":  # the smallest class: its prime implicants by brute force
            assert pis.to_set() == child_brute.prime_implicants(c)
        for p in itertools.islice(pis, 20):  # each settles its class
            assert all(child_brute.decide(z) == c for z in child_brute.instances()
                       if all(z[f] == s for f, s in p.items()))


# ---------------------------------------------------------------------------
# What a set says, and what is refused
# ---------------------------------------------------------------------------

X = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}  # allergy


@pytest.fixture(scope="module")
def illness():
    return bnx.compile(bnx.examples.illness(), backend="autoref")


def test_sets_are_named_by_the_decided_class_and_the_rival(illness):
    pis = bnx.pi_explanations(illness, X)
    assert pis.title() == ("1 sufficient reason for Illness = allergy (PI-explanations; "
                           "length 3: 1)")
    assert pis.decision_text == "Illness = allergy" and pis.rival is None
    against = bnx.pi_explanations(illness, X, rival="flu")
    assert str(against).splitlines()[0] == ("4 sufficient reasons for Illness = allergy and "
                                            "not flu (PI-explanations), shortest first:")
    assert against.decision_text == "Illness = allergy and not flu"
    ces = bnx.contrastive_explanations(illness, X)
    assert "can give Illness other than allergy" in ces.title()
    assert "not allergy" not in str(ces)
    ces = bnx.contrastive_explanations(illness, X, rival="flu")
    assert ces.title().startswith("3 contrastive explanations of Illness = allergy and not "
                                  "flu (minimal sets of features whose change can give "
                                  "Illness = flu")
    mcs = bnx.mc_explanations(illness, X, on={"Season": "winter"}, rival="cold")
    assert "MC-explanation of Illness = allergy and not cold" in str(mcs)
    assert str(bnx.prime_implicants(illness, decision="flu")).startswith(
        "3 prime implicants of Illness = flu")
    frame = against.to_frame()
    assert list(frame.columns) == list(illness.features) and len(frame) == 4
    assert "Illness = allergy and not flu" in against._repr_html_()


def test_sets_plot(illness):
    import matplotlib
    matplotlib.use("Agg")
    ax = bnx.pi_explanations(illness, X, rival="flu").plot()
    assert ax is not None


def test_checks_say_the_class_of_the_counterexample(illness):
    c = bnx.check_explanation(illness, X, {"Fever": "no"})
    assert not c and c.counterexample_decision == "cold"
    assert str(c).endswith("gives Illness = cold.")
    assert "not allergy" not in str(c)
    c = bnx.check_explanation(illness, X, {"Fever": "no", "Aches": "no"}, rival="flu")
    assert c.minimal and str(c) == (
        "Sufficient and minimal: Fever = no, Aches = no rules out Illness = flu (a sufficient "
        "reason for Illness = allergy and not flu).")
    c = bnx.check_explanation(illness, X, {"Fever": "no"}, rival="flu")
    assert not c and c.counterexample_decision == "flu"
    assert str(c).startswith("Not sufficient: Fever = no does not rule out Illness = flu")


def test_a_rival_that_is_the_decided_class_or_no_class_is_refused(illness):
    for question in (bnx.pi_explanations, bnx.contrastive_explanations, bnx.feature_roles):
        with pytest.raises(bnx.ArgumentError, match="allergy"):
            question(illness, X, rival="allergy")
        with pytest.raises(bnx.UnknownStateError, match="measles"):
            question(illness, X, rival="measles")
    with pytest.raises(bnx.ArgumentError, match="rival"):
        bnx.check_explanation(illness, X, {}, rival="allergy")
    with pytest.raises(bnx.ArgumentError, match="rival"):
        bnx.mc_explanations(illness, X, on={"Season": "winter"}, rival="allergy")
    with pytest.raises(bnx.ArgumentError, match="rival"):
        bnx.probable_reasons(illness.classifier, X, rival="allergy")


def test_prime_implicants_and_instances_of_a_multiclass_odd_name_a_class(illness):
    for question in (bnx.prime_implicants, positives):
        with pytest.raises(bnx.ArgumentError, match="cold, flu, allergy"):
            question(illness)
        with pytest.raises(bnx.UnknownStateError, match="measles"):
            question(illness, decision="measles")
    assert str(positives(illness, "allergy")).startswith(
        "3 instances decided Illness = allergy:")
    admissions = bnx.compile(bnx.examples.admissions(), backend="autoref")
    with pytest.raises(bnx.ArgumentError, match="multi-class"):
        positives(admissions, "+")


def test_a_binary_odd_takes_its_other_decision_as_the_rival():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    pis = bnx.pi_explanations(odd, x, rival="-")
    assert pis.to_set() == bnx.pi_explanations(odd, x).to_set()
    assert (pis.decided, pis.rival) == (None, None)
    assert pis.title() == bnx.pi_explanations(odd, x).title()
    assert bnx.feature_roles(odd, x, rival="-") == bnx.feature_roles(odd, x)
    with pytest.raises(bnx.ArgumentError, match="other decision"):
        bnx.contrastive_explanations(odd, x, rival="+")
