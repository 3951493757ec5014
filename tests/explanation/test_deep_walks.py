"""The questions whose passes walk a diagram level by level, asked on a deep one
(``majority(200)``: 200 levels, about 10,000 nodes; the counterfactuals' partial layout
is 400 levels deep) with Python's recursion limit at 300 (a third of its default) and never set.

Every answer is checked against a closed form: the majority of ``n`` features decides
positive exactly when at least ``n / 2`` of them are on (each feature weighs the same, a
tie is positive), so robustness, counterfactuals, counts of instances by their number of
features on and of biased instances are binomial sums, and the same-decision
probability is a sum over the number of missing features on.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import pytest

import bnx
from bnx.diagram.layout import Layout
from bnx.explanation.explanations import Explanations
from tests._support.deep import limit_untouched, majority, one_matters

N = 200
T = N // 2  # positive exactly when at least T features are on
BACKENDS = [b for b in ("autoref", "cudd") if b in bnx.backends.available_backends()]


@pytest.fixture(scope="module", params=BACKENDS)
def deep(request):
    clf = majority(N)
    return clf, bnx.compile(clf, backend=request.param)  # (compiled outside the guard)


def _with_on(k: int, first: int = 0) -> dict:
    """The instance with features ``first .. first + k - 1`` on, the others off."""
    return {f"f{i}": int(first <= i < first + k) for i in range(N)}


def test_the_closed_forms_hold_on_a_small_majority():
    """The tie rule and the counterfactual counts below, on majority(8) by brute force."""
    import itertools
    n, t = 8, 4
    odd = bnx.compile(majority(n), backend="autoref")
    for bits in itertools.product((0, 1), repeat=n):
        assert odd.decide({f"f{i}": b for i, b in enumerate(bits)}) == (sum(bits) >= t)
    x = {f"f{i}": int(i < 6) for i in range(n)}  # 6 on: 3 must go
    cf = bnx.counterfactuals(odd, x)
    assert (cf.cost, cf.count, cf.lengths()) == (3, comb(6, 3), {3: comb(6, 3)})


@pytest.mark.slow
@pytest.mark.parametrize("k", [T + 20, T, T - 1, T - 30])
def test_robustness_and_counterfactuals(deep, k):
    _, odd = deep
    x = _with_on(k)
    change = k - T + 1 if k >= T else T - k  # turn on features off, or off ones on
    pool = k if k >= T else N - k  # the features that may change
    with limit_untouched():
        assert bnx.robustness(odd, x) == change
        cf = bnx.counterfactuals(odd, x)
        assert cf.cost == change
        assert cf.count == comb(pool, change)
        assert cf.lengths() == {change: comb(pool, change)}
        first = next(cf.shortest_first())
        assert len(first) == change and all(x[f] != v for f, v in first.items())
        assert first in cf
        # two of the changeable features immutable
        movable = [f for f in x if x[f] == (1 if k >= T else 0)]
        fixed = movable[:2]
        cf_fixed = bnx.counterfactuals(odd, x, immutable=fixed)
        assert cf_fixed.count == comb(pool - 2, change)
        assert bnx.robustness(odd, x, immutable=movable) == math.inf
        assert bnx.counterfactuals(odd, x, immutable=movable).count == 0


@pytest.mark.slow
def test_counterfactuals_with_costs(deep):
    """Half a unit for 25 of the on features, 3 for the other on ones: 21 must go."""
    _, odd = deep
    k = T + 20
    x = _with_on(k)
    cheap = [f"f{i}" for i in range(25)]
    cost = {**{f: 3 for f in x}, **dict.fromkeys(cheap, 0.5)}
    with limit_untouched():
        cf = bnx.counterfactuals(odd, x, cost=cost)
        assert cf.cost == Fraction(21, 2)
        assert cf.count == comb(25, 21) and cf.lengths() == {21: comb(25, 21)}
        assert all(set(e) <= set(cheap) for e in cf.shortest_first())
        # a per-state price: moving f0 to 0 is free, so 20 cheap ones are left to pay
        free = bnx.counterfactuals(odd, x, cost={**cost, "f0": {0: 0}})
        assert free.cost == 10 and free.count == comb(24, 20)


@pytest.mark.slow
def test_counts_lengths_and_shortest_of_a_deep_set(deep):
    """The positive instances, each weighed by its number of features on (the walks of
    an MC-explanation set): counted, by length, and the shortest of them."""
    _, odd = deep
    layout = Layout("complete", odd.encoding, weights=[{1}] * N)
    root = odd.root  # (ODD.root still raises the limit: not a question's pass)
    with limit_untouched():
        pos = Explanations(odd.bdd, root, layout, kind="instances")
        assert pos.count == sum(comb(N, j) for j in range(T, N + 1))
        assert pos.lengths() == {j: comb(N, j) for j in range(T, N + 1)}
        shortest = pos.shortest()
        assert shortest.count == comb(N, T) and shortest.lengths() == {T: comb(N, T)}
        first = next(pos.shortest_first())
        assert sum(first.values()) == T
        assert first in shortest and _with_on(T - 1) not in pos


@pytest.mark.parametrize("k", [T + 30, T, T - 1, T - 40])
def test_mc_explanation_sets(deep, k):
    """Positive with k on: keep T of them on (C(k, T), each of cardinality T); negative:
    keep N - T + 1 of the N - k off ones off. The set is made outside the guard
    (mc_explanations still raises the limit itself); its walks run inside."""
    _, odd = deep
    x = _with_on(k)
    mc = bnx.mc_explanations(odd, x)
    size = T if k >= T else N - T + 1
    count = comb(k, T) if k >= T else comb(N - k, size)
    with limit_untouched():
        assert mc.count == count and mc.lengths() == {size: count}
        assert mc.shortest().count == count
        first = next(mc.shortest_first())
        assert first in mc and sum(first.values()) == (T if k >= T else T - 1)


@pytest.mark.slow
def test_monotonicity(deep):
    clf, odd = deep
    with limit_untouched():
        assert bnx.check_monotone(odd).holds  # every feature 0 below 1
        # with the positive decision below the negative one, raising f0 can lower it
        got = bnx.check_monotone(odd, ["f0"], class_order=[1, odd.decision_state(False)])
    assert not got.holds and got.feature == "f0"
    assert (got.low["f0"], got.high["f0"]) == (0, 1)
    assert {f for f in clf.features if got.low[f] != got.high[f]} == {"f0"}
    assert sum(got.low.values()) == T - 1 and sum(got.high.values()) == T
    # the pairs: the other 199 features with T - 1 on
    assert got.violations == comb(N - 1, T - 1)


def test_bias(deep):
    _, odd = deep
    with limit_untouched():
        # biased exactly when the other 198 features have 98 or 99 on
        assert bnx.count_biased(odd, ["f0", "f1"]) == 4 * (comb(N - 2, T - 2) + comb(N - 2, T - 1))
        x = _with_on(T - 1)  # f0 .. f98 on: negative, one more on flips it
        b = bnx.decision_bias(odd, x, ["f150", "f151"])
        assert bnx.decision_bias(odd, x, ["f0", "f1"]).biased is False
    assert b.biased and len(b.changes) == 1 and set(b.changes.values()) == {1}


def _sdp(k: int, m: int, decision: bool) -> Fraction:
    """Pr(the decision on every completion is ``decision`` | ``k`` of the ``m`` observed
    features on), by the number ``j`` of the ``N - m`` missing ones on."""
    a, b = Fraction(3, 4), Fraction(1, 4)

    def joint(on: int, of: int) -> Fraction:
        return (a ** on * b ** (of - on) + b ** on * a ** (of - on)) / 2

    r = N - m
    same = sum(comb(r, j) * joint(k + j, N) for j in range(r + 1)
               if (k + j >= T) == decision)
    return same / joint(k, m)


def test_same_decision_probability_and_next_observations(deep):
    clf, odd = deep
    m, k = N - 4, T - 2  # f196 .. f199 missing; 98 of the others on: a tie, positive
    evidence = {f"f{i}": int(i < k) for i in range(m)}
    with limit_untouched():
        sdp = bnx.same_decision_probability(clf, evidence, odd=odd, exact=True)
        frame = bnx.next_observations(clf, evidence, odd=odd, exact=True)
    assert clf.decide(evidence, partial=True, within="all") is True
    assert sdp == _sdp(k, m, True)
    # observing one missing feature: on keeps the tie broken positive, off makes it negative
    p_on = Fraction(1, 2)  # by symmetry of the tie
    expected = p_on * _sdp(k + 1, m + 1, True) + (1 - p_on) * _sdp(k, m + 1, False)
    assert list(frame.index) == [f"f{i}" for i in range(m, N)]
    assert all(v == expected for v in frame["expected_sdp"])
    assert all(v == 1 - p_on for v in frame["flip_probability"])


@pytest.fixture(scope="module", params=BACKENDS)
def one_of_many(request):
    """500 features of which only f0 matters (the shape of test_explanations' deep
    test): a set's walks go 500 features deep, the counterfactuals' 1,000 levels, more
    than a recursion of one frame per level could under the limit of 300."""
    odd = bnx.compile(one_matters(500), backend=request.param)
    return odd, odd.root  # (both outside the guard: not the questions' passes)


@pytest.mark.slow
def test_walks_on_500_features(one_of_many):
    odd, root = one_of_many
    n = len(odd.features)
    x = dict.fromkeys(odd.features, 1)  # positive: f0 decides alone
    layout = Layout("complete", odd.encoding, weights=[{1}] * n)
    with limit_untouched():
        assert bnx.robustness(odd, x) == 1
        cf = bnx.counterfactuals(odd, x)
        assert (cf.cost, cf.count, cf.lengths()) == (1, 1, {1: 1})
        assert list(cf.shortest_first()) == [{"f0": 0}]
        priced = bnx.counterfactuals(odd, x, cost={"f0": 2.5})
        assert (priced.cost, priced.count) == (2.5, 1)
        pos = Explanations(odd.bdd, root, layout, kind="instances")
        assert pos.count == 2 ** (n - 1)
        assert pos.lengths() == {j: comb(n - 1, j - 1) for j in range(1, n + 1)}
        shortest = pos.shortest()
        assert shortest.count == 1 and shortest.lengths() == {1: 1}
        assert next(shortest.shortest_first()) == {"f0": 1, **dict.fromkeys(odd.features[1:], 0)}
        assert bnx.count_biased(odd, ["f0"]) == 2 ** n
        assert bnx.count_biased(odd, ["f1", "f2"]) == 0
        got = bnx.check_monotone(odd, ["f0"], class_order=[1, odd.decision_state(False)])
    assert not got.holds and got.feature == "f0" and got.violations == 2 ** (n - 1)
