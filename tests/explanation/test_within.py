"""Questions within a set of instances (within=) and counterfactuals with costs, against
brute force over every instance (tests/_support/oracle.py: exact joints; independent of bnx)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import bnx
from tests._support.within_brute import Brute
from tests._support.zero_networks import classifier_of, zero_networks

BACKENDS = bnx.backends.available_backends()


def _odd(case, data, backend):
    clf = classifier_of(case)
    return clf, bnx.compile(clf, data.draw(st.permutations(case.features)), backend=backend)


def _kappa(case, clf, odd, data, brute):
    """A set to answer within: the support, a forbid list, or both, and its brute twin."""
    kind = data.draw(st.sampled_from(["support", "forbid", "both", "classifier", "default",
                                      "all"]))
    combos = [{f: data.draw(st.sampled_from(brute.states[f])) for f in c}
              for c in data.draw(st.lists(st.sets(st.sampled_from(case.features),
                                                  min_size=1, max_size=2), max_size=2))]
    allowed = {c for c in brute.all
               if not any(all(c[brute.features.index(f)] == s for f, s in b.items())
                          for b in combos)}
    probable = {c for c in brute.all if brute.prob[c] > 0}
    if kind == "default":  # the default world: the instances the network allows
        return "support", probable
    if kind == "all":  # the total decision function
        return "all", set(brute.all)
    if kind == "support":
        return bnx.support(clf, odd=odd), probable
    if kind == "classifier":
        return clf, probable
    if kind == "forbid":
        return (combos if data.draw(st.booleans()) else bnx.forbid(odd, combos)), allowed
    return bnx.support(clf) & bnx.forbid(clf, combos), probable & allowed


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=zero_networks(), data=st.data())
def test_explanations_within_a_set_match_brute_force(case, data, backend):
    clf, odd = _odd(case, data, backend)
    brute = Brute(case)
    possible = set(brute.kappa)  # bnx refuses an instance the network cannot produce
    within, kappa = _kappa(case, clf, odd, data, brute)
    brute.kappa = kappa
    assume(kappa & possible)
    asked = sorted(kappa & possible)
    for xt in data.draw(st.lists(st.sampled_from(asked), min_size=1, max_size=2)):
        x = dict(zip(brute.features, xt))
        pis = brute.pis(xt)
        assert bnx.pi_explanations(odd, x, within=within).to_set() == pis
        assert bnx.pi_explanations(odd, x, within=within, method="cover").to_set() == pis
        if within == "support":  # the default
            assert bnx.pi_explanations(odd, x).to_set() == pis
            assert bnx.counterfactuals(odd, x).to_set() == brute.counterfactuals(
                xt, lambda k, s: Fraction(1))[1]
        got = bnx.contrastive_explanations(odd, x, within=within)
        assert got.to_set() == brute.contrastive(xt)
        assert got.decision == brute.table[xt]
        assert bnx.feature_roles(odd, x, within=within) == brute.roles(xt)
        on = {f: set(data.draw(st.sets(st.sampled_from(brute.states[f]), min_size=1)))
              for f in brute.features}
        assert bnx.mc_explanations(odd, x, on=on, within=within).to_set() == brute.mc(xt, on)
        unit = brute.counterfactuals(xt, lambda k, s: Fraction(1))
        assert bnx.robustness(odd, x, within=within) == unit[0]
        cfs = bnx.counterfactuals(odd, x, within=within)
        assert cfs.to_set() == unit[1] and cfs.cost == unit[0]
        # checking a random part of x, within the set
        kept = data.draw(st.sets(st.sampled_from(brute.features)))
        partial = {f: x[f] for f in kept}
        c = bnx.check_explanation(odd, x, partial, within=within)
        ks = [brute.features.index(f) for f in kept]
        assert c.sufficient == brute.sufficient(xt, ks)
        if c.sufficient:
            redundant = {f for f in kept
                         if brute.sufficient(xt, [k for k in ks if brute.features[k] != f])}
            assert set(c.redundant) == redundant and c.minimal == (not redundant)
            assert frozenset(c.reason.items()) in pis
        else:
            z = brute.tup({**x, **c.counterexample})
            assert z in kappa and brute.table[z] != brute.table[xt]
            assert all(c.counterexample[f] == x[f] for f in kept)
    outside = [c for c in brute.all if c not in kappa]
    if outside:
        y = dict(zip(brute.features, outside[0]))
        for question in (bnx.pi_explanations, bnx.robustness, bnx.counterfactuals,
                         bnx.contrastive_explanations, bnx.feature_roles):
            # outside the set; refused by name when the network cannot produce it at all
            with pytest.raises(bnx.ExplanationError,
                               match="not in the set|cannot .*hold under the network"):
                question(odd, y, within=within)


_PRICES = st.one_of(st.integers(0, 3), st.sampled_from([0.5, 0.25, Fraction(1, 3), 2.5]),
                    st.just(math.inf))


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=zero_networks(), data=st.data())
def test_counterfactuals_with_costs_match_brute_force(case, data, backend):
    clf, odd = _odd(case, data, backend)
    brute = Brute(case)
    possible = set(brute.kappa)  # bnx refuses an instance the network cannot produce
    within, kappa = data.draw(st.sampled_from([
        (bnx.support(clf, odd=odd), set(brute.kappa)), ("support", set(brute.kappa)),
        ("all", set(brute.all))]))
    brute.kappa = kappa
    assume(kappa & possible)
    xt = data.draw(st.sampled_from(sorted(kappa & possible)))
    x = dict(zip(brute.features, xt))
    cost = {}
    for f in data.draw(st.sets(st.sampled_from(brute.features))):
        if data.draw(st.booleans()):
            cost[f] = data.draw(_PRICES)
        else:
            cost[f] = {s: data.draw(_PRICES)
                       for s in data.draw(st.sets(st.sampled_from(brute.states[f])))}
    immutable = data.draw(st.sets(st.sampled_from(brute.features), max_size=1))

    def price(k, s):
        f = brute.features[k]
        if f in immutable:
            return None
        c = cost.get(f, 1)
        if isinstance(c, dict):
            c = c.get(s, 1)
        return None if c == math.inf else Fraction(c)

    best, want = brute.counterfactuals(xt, price)
    got = bnx.counterfactuals(odd, x, cost=cost, immutable=immutable, within=within)
    assert got.to_set() == want and got.count == len(want)
    assert got.cost == best and type(got.cost) in ((int, Fraction) if best < math.inf
                                                   else (float,))
    # listed most probable first
    probs = [brute.prob[brute.tup({**x, **r})] for r in got]
    assert probs == sorted(probs, reverse=True)
    assert [p for _, p in got.probabilities()] == probs
    # robustness keeps its meaning: the fewest changes, whatever the costs
    assert bnx.robustness(odd, x, immutable=immutable, within=within) == \
        brute.counterfactuals(xt, lambda k, s: None if brute.features[k] in immutable
                              else Fraction(1))[0]


def test_bad_costs_and_sets_raise_typed_errors():
    clf = bnx.examples.admissions()
    odd = bnx.compile(clf, backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    for cost, error, text in [
            ({"GPA": -1}, bnx.ArgumentError, "nonnegative"),
            ({"GPA": float("nan")}, bnx.ArgumentError, "nonnegative"),
            ({"GPA": "cheap"}, bnx.ArgumentError, "nonnegative"),
            ({"GPA": True}, bnx.ArgumentError, "nonnegative"),
            ({"GPA": {"-": -0.5}}, bnx.ArgumentError, "nonnegative"),
            ({"Gpa": 1}, bnx.UnknownFeatureError, "Gpa"),
            ({"GPA": {"A": 1}}, bnx.UnknownStateError, "'A'"),
            ([("GPA", 1)], bnx.ArgumentError, "mapping")]:
        with pytest.raises(error, match=text):
            bnx.counterfactuals(odd, x, cost=cost)
    with pytest.raises(bnx.UnknownFeatureError, match="Gpa"):
        bnx.counterfactuals(odd, x, immutable=["Gpa"])
    with pytest.raises(bnx.ArgumentError, match="within must be"):
        bnx.pi_explanations(odd, x, within="GPA")
    with pytest.raises(bnx.ExplanationError, match="not in the set"):
        bnx.check_explanation(odd, x, {"GPA": "+"}, within=[{"GPA": "+"}])
    other = bnx.compile(bnx.examples.asia(), backend="autoref")
    with pytest.raises(bnx.ArgumentError, match="other features"):
        bnx.robustness(odd, x, within=bnx.support(bnx.examples.asia(), odd=other))


def test_a_set_made_in_another_order_is_copied_across():
    clf = bnx.examples.admissions()
    a = bnx.compile(clf, backend="autoref")
    b = bnx.compile(clf, list(reversed(clf.features)), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    rare = bnx.forbid(a, [{"WorkExperience": "-", "EntranceExam": "-"}])
    assert bnx.pi_explanations(b, x, within=rare).to_set() == \
        bnx.pi_explanations(a, x, within=rare).to_set()


def _primes(brute, decision) -> set:
    """The prime implicants of ``decision`` within kappa: minimal partial instances that
    some instance of kappa completes and every one of them gets ``decision``."""
    feats = brute.features
    options = [[None, *brute.states[f]] for f in feats]

    def covered(t):
        return [z for z in brute.kappa if all(s is None or z[k] == s for k, s in enumerate(t))]

    implicants = set()
    for t in itertools.product(*options):
        inside = covered(t)
        if inside and all(brute.table[z] == decision for z in inside):
            implicants.add(t)

    def below(t):  # t with one more feature dropped
        return [t[:k] + (None,) + t[k + 1:] for k in range(len(t)) if t[k] is not None]

    return {frozenset((feats[k], s) for k, s in enumerate(t) if s is not None)
            for t in implicants if not any(u in implicants for u in below(t))}


def _distance(brute, z, allowed=None) -> float:
    """The fewest changes (of features in ``allowed``) to an instance of kappa with
    another decision; math.inf when there is none."""
    best = math.inf
    for y in brute.kappa:
        if brute.table[y] == brute.table[z]:
            continue
        moved = [k for k in range(len(z)) if y[k] != z[k]]
        if allowed is None or all(k in allowed for k in moved):
            best = min(best, len(moved))
    return best


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=zero_networks(), data=st.data())
def test_classifier_questions_within_a_set_match_brute_force(case, data, backend):
    clf, odd = _odd(case, data, backend)
    brute = Brute(case)
    possible = set(brute.kappa)
    within, kappa = _kappa(case, clf, odd, data, brute)
    brute.kappa = kappa
    for d in (True, False):
        assert bnx.prime_implicants(odd, decision=d, within=within).to_set() == \
            _primes(brute, d)
        assert bnx.count(odd, d, within=within) == sum(brute.table[z] == d for z in kappa)
    profile: dict = {}
    for z in kappa:
        k = _distance(brute, z)
        profile[k] = profile.get(k, 0) + 1
    assert bnx.robustness_profile(odd, within=within) == dict(sorted(profile.items()))
    protected = sorted(data.draw(st.sets(st.sampled_from(brute.features), min_size=1)))
    ks = {brute.features.index(f) for f in protected}
    assert bnx.count_biased(odd, protected, within=within) == sum(
        _distance(brute, z, ks) < math.inf for z in kappa)
    for zt in sorted(kappa & possible)[:2]:
        z = dict(zip(brute.features, zt))
        got = bnx.decision_bias(odd, z, protected, within=within)
        fewest = _distance(brute, zt, ks)
        assert got.biased == (fewest < math.inf)
        if got.biased:
            w = brute.tup(got.witness)
            assert w in kappa and brute.table[w] != brute.table[zt]
            assert len(got.changes) == fewest
    # a rule: a box of states, its instances of kappa and their decisions
    box = {f: set(data.draw(st.sets(st.sampled_from(brute.states[f]), min_size=1)))
           for f in data.draw(st.sets(st.sampled_from(brute.features)))}
    inside = [z for z in kappa if all(z[brute.features.index(f)] in s for f, s in box.items())]
    bad = [z for z in inside if not brute.table[z]]
    got = bnx.check_rule(odd, box, True, within=within, exact=True)
    assert (got.instances, got.violations, got.holds) == (len(inside), len(bad), not bad)
    total = sum(brute.prob.values())
    assert got.violation_probability == sum((brute.prob[z] for z in bad), Fraction(0)) / total
    if bad:
        w = brute.tup(got.counterexample)
        assert w in bad
        if any(brute.prob[z] for z in bad):  # the most probable of them
            assert brute.prob[w] == max(brute.prob[z] for z in bad)
