"""The two reductions of docs/explanations.md ("What a TAN costs"), built and checked.

* A hypergraph ``H`` becomes a star TAN (a root ``R`` with one state per edge plus one,
  binary leaves): the PI-explanations of one decision are ``{R}`` and the minimal
  transversals of ``H``. Enumerating them with polynomial delay would enumerate minimal
  transversals output-polynomially, an open problem.
* An exact cover by 3-sets becomes a star TAN with every feature binary: its shortest
  PI-explanation has ``q`` features iff the 3-sets have an exact cover of ``3q`` elements.

Each construction is checked against brute force over every instance (tests/_support/oracle.py,
which never imports bnx) and bnx.linear's answers against both.

bnx.linear's private units (the searches of one TAN decision and their budgets, the race
over a forest, the rounded log) are tested here, and only here: see the last section.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx import linear
from tests._support import oracle
from tests._support.builders import small_tan
from tests._support.linear_brute import Brute, check_all, classifier, threshold_brute, two_class
from tests._support.strategies import (
    Case,
    classifier_of,
    instances,
    naive_bayes,
    on_maps,
    tan_networks,
)

SIGN = ["-", "+"]


def _star(net_states: list[str], children: list[str], root_cols, child_one, k0: float):
    """A star TAN: class ``C`` (prior odds ``k0``), root ``R`` (columns ``root_cols`` for
    ``C = -, +``), binary children with ``P(child = 1 | C, R)`` from ``child_one(i)``
    (columns ordered ``(C, R)``)."""
    feats = ["R"] + children
    net = DiscreteBayesianNetwork([("C", f) for f in feats] + [("R", f) for f in children])
    k = len(net_states)
    cpds = [TabularCPD("C", 2, [[1 / (1 + k0)], [k0 / (1 + k0)]], state_names={"C": SIGN}),
            TabularCPD("R", k, [list(r) for r in zip(*root_cols)], evidence=["C"],
                       evidence_card=[2], state_names={"R": net_states, "C": SIGN})]
    for i, f in enumerate(children):
        one = child_one(i)
        cpds.append(TabularCPD(f, 2, [[1 - v for v in one], one], evidence=["C", "R"],
                               evidence_card=[2, k],
                               state_names={f: ["0", "1"], "C": SIGN, "R": net_states}))
    net.add_cpds(*cpds)
    assert net.check_model()
    case = Case(net, "C", "+", 0.5, feats)
    return case, bnx.Classifier(net, "C", "+", features=feats)


def star_of_hypergraph(n: int, edges: list[tuple[int, ...]]):
    """Root states ``s0`` (the instance's) and one per edge; leaf ``Vi`` at 1 weighs 3 for
    the class (1/3 at 0: 3/4 against 1/4) when ``R`` names an edge holding ``i``, 1
    otherwise; the root and
    prior make the race at ``R = s`` equal ``(|E_s| - 1) log 3`` before the leaves, so it is
    kept iff at most ``|E_s| - 1`` of the edge's leaves are free."""
    m = len(edges)
    w = [3.0] + [3.0 ** (len(e) - 1) for e in edges]
    z = sum(w)
    cols = ([1 / (m + 1)] * (m + 1), [v / z for v in w])
    states = [f"s{j}" for j in range(m + 1)]

    def child_one(i):
        return ([0.5] + [0.25 if i in e else 0.5 for e in edges]
                + [0.5] + [0.75 if i in e else 0.5 for e in edges])
    case, clf = _star(states, [f"V{i}" for i in range(n)], cols, child_one, z / (m + 1))
    return case, clf, {"R": "s0", **{f"V{i}": "1" for i in range(n)}}


def minimal_transversals(n: int, edges) -> set[frozenset]:
    hits = [frozenset(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)
            if all(set(s) & set(e) for e in edges)]
    return {s for s in hits if not any(t < s for t in hits)}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), data=st.data())
def test_pi_explanations_of_the_star_are_the_minimal_transversals(n, data):
    edge = st.sets(st.integers(0, n - 1), min_size=1).map(lambda s: tuple(sorted(s)))
    edges = data.draw(st.lists(edge, min_size=1, max_size=4))
    case, clf, x = star_of_hypergraph(n, edges)
    want = {frozenset({"R"})} | {frozenset(f"V{i}" for i in t)
                                 for t in minimal_transversals(n, edges)}
    brute = Brute(case, oracle.decision_table(case.net, "C", "+", 0.5, case.features))
    assert brute.pis(x) == want  # the reduction itself, without bnx
    got = [frozenset(e) for e in linear.pi_explanations(clf, x)]
    assert set(got) == want and len(got) == len(want)
    _check_the_delay_bound(clf, x, len(want))


def _check_the_delay_bound(clf, x, count):
    """Between two answers the search meets at most ``n (n + 1 + D)`` nodes, ``D`` the
    dead ones (TanDecision.pi_sets)."""
    from bnx.linear._tan import TanDecision  # private: one decision's searches
    d = TanDecision(clf, x)
    n, before = d.n, None
    for _ in d.pi_sets():
        now = dict(d.nodes)
        if before is not None:
            met = sum(now.values()) - sum(before.values())
            assert met <= n * (n + 1 + now["dead"] - before["dead"])
        before = now
    assert d.nodes["answer"] == count


PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23]


def star_of_x3c(q: int, triples: list[tuple[int, int, int]]):
    """Binary root ``R`` (instance ``a``), one binary leaf ``Xi`` per triple, ``p_i`` the
    product of its elements' primes, ``T`` that of all ``3q``: fixing ``S`` keeps the race
    at ``R = a`` iff ``prod_S (L p_i) >= L^q (T - 1/2)`` and at ``R = c`` iff
    ``prod_S (L K / p_i) >= (L K)^q / (T + 1/2)`` (leaf odds ``L p_i`` and ``L K / p_i``)."""
    p = [math.prod(PRIMES[j] for j in t) for t in triples]
    big_t, big_l, big_k = math.prod(PRIMES[:3 * q]), max(p) ** (q - 1), max(p) + 1
    odds = [[big_l * v for v in p], [big_l * big_k / v for v in p]]
    need = [math.log(big_l ** q * (big_t - 0.5)), math.log((big_l * big_k) ** q / (big_t + 0.5))]
    alpha = [[g / (1 + g) for g in row] for row in odds]  # P(leaf = 1 | +, R), 1/2 under -
    log_tau = [-need[s] - sum(math.log(2 * (1 - a)) for a in alpha[s]) for s in (0, 1)]
    log_k0 = sum(log_tau) / 2  # prior odds between the two rows' needs: rho_a = 1 / rho_c
    rho = [math.exp(t - log_k0) for t in log_tau]
    y, one_minus_y = (rho[1] - 1) / (rho[1] - rho[0]), (1 - rho[0]) / (rho[1] - rho[0])
    cols = ([y, one_minus_y], [rho[0] * y, rho[1] * one_minus_y])
    case, clf = _star(["a", "c"], [f"X{i}" for i in range(len(triples))], cols,
                      lambda i: [0.5, 0.5, alpha[0][i], alpha[1][i]], math.exp(log_k0))
    return case, clf, {"R": "a", **{f"X{i}": "1" for i in range(len(triples))}}


@pytest.mark.parametrize("triples, covers", [
    ([(0, 1, 2), (3, 4, 5), (0, 3, 4), (1, 2, 5), (0, 1, 3)], True),
    ([(0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)], False),
    ([(0, 1, 2), (2, 3, 4), (4, 5, 0), (1, 3, 5), (0, 3, 5)], False),
    ([(1, 2, 3), (0, 4, 5), (0, 1, 2), (2, 3, 4)], True),
])
def test_a_shortest_pi_explanation_of_the_binary_star_decides_exact_cover(triples, covers):
    case, clf, x = star_of_x3c(2, triples)
    brute = Brute(case, oracle.decision_table(case.net, "C", "+", 0.5, case.features))
    pis = brute.pis(x)
    exact = {frozenset(f"X{i}" for i in pair) for pair in itertools.combinations(
        range(len(triples)), 2) if not set(triples[pair[0]]) & set(triples[pair[1]])}
    assert {s for s in pis if len(s) == 2} == exact  # the reduction itself
    assert min(map(len, pis)) == (2 if covers else 3)
    got = linear.shortest_pi_explanation(clf, x)
    assert frozenset(got) in pis and len(got) == min(map(len, pis))


def test_a_shortest_search_past_its_budget_says_why(monkeypatch):
    from bnx.linear import _branch, _fewest  # private: each search on its own
    from bnx.linear._tan import TanDecision  # private: one decision's searches
    case, clf, x = star_of_x3c(2, [(0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)])  # no cover
    first = next(linear.pi_explanations(clf, x))
    assert _branch.relaxation(TanDecision(clf, x))[0] == 2 < len(first) == 3  # a search runs
    monkeypatch.setattr(_fewest, "MAX_PROFILES", 5)
    monkeypatch.setattr(_branch, "MAX_NODES", 5)
    with pytest.raises(bnx.StructureError) as err:
        linear.shortest_pi_explanation(clf, x)
    msg = str(err.value)
    assert "5 features" in msg and "between 2 and 3 features" in msg
    assert "NP-complete" in msg and ".shortest()" in msg and "MAX_PROFILES" in msg
    assert "MAX_NODES" in msg and "`best`" in msg
    brute = Brute(case, oracle.decision_table(case.net, "C", "+", 0.5, case.features))
    assert frozenset(err.value.best) in brute.pis(x) and len(err.value.best) == 3


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=tan_networks(max_features=5, max_instances=96), data=st.data(),
       searches=st.sampled_from(["profiles", "branch", "branch without bounds"]))
def test_the_bound_and_each_search_find_a_shortest(case, data, searches):
    """The relaxation's bound never exceeds the size of a PI-explanation (brute force),
    and each search on its own (the other given no budget) answers one of the shortest."""
    import unittest.mock as mock

    from bnx.linear import _branch, _fewest, _tan  # private: each search on its own
    assume(len(case.states(case.class_var)) == 2)
    clf = classifier_of(case)
    assume(clf.structure == "tan")
    x = data.draw(instances(case))
    brute = Brute(case, {c: clf.decide(dict(zip(case.features, c)), within="all")
                         for c in itertools.product(*[case.states(f) for f in case.features])})
    fewest = min(map(len, brute.pis(x)))
    assert _branch.relaxation(_tan.TanDecision(clf, x))[0] <= fewest
    patches = [mock.patch.object(_tan, "relaxation", lambda d: (0, [], []))]  # always search
    if searches != "profiles":
        patches.append(mock.patch.object(_fewest, "MAX_PROFILES", -1))
    if searches == "branch":
        real = _branch.relaxation
        patches.append(mock.patch.object(_tan, "relaxation", lambda d: (0, *real(d)[1:])))
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        got = linear.shortest_pi_explanation(clf, x, within="all")  # the brute force's world
    assert frozenset(got) in brute.pis(x) and len(got) == fewest


def test_a_bound_that_meets_the_first_explanation_answers_without_search(monkeypatch):
    from bnx.linear import _branch, _fewest  # private: each search on its own
    from bnx.linear._tan import TanDecision  # private: one decision's searches
    case, clf, x = star_of_x3c(2, [(0, 1, 2), (3, 4, 5), (0, 3, 4), (1, 2, 5), (0, 1, 3)])
    first = next(linear.pi_explanations(clf, x))
    assert _branch.relaxation(TanDecision(clf, x))[0] == len(first) == 2
    monkeypatch.setattr(_fewest, "MAX_PROFILES", -1)  # any search would give up
    monkeypatch.setattr(_branch, "MAX_NODES", -1)
    assert linear.shortest_pi_explanation(clf, x) == first


# ---------------------------------------------------------------------- bnx.linear's units
# The private units of bnx.linear are tested here, and only here: the rounded log of
# _core (its error bound), the race over a TAN's forest with the rounding bound made huge
# (_forest), one decision's searches (_tan.TanDecision) and the shortest search's budgets
# (_fewest.MAX_PROFILES, _branch.MAX_NODES, _tan.relaxation, patched: no public argument
# sets them, and an input past them is a hard instance of an NP-complete problem).
def _brute(case, clf):
    table = {}
    for combo in itertools.product(*[case.states(f) for f in case.features]):
        table[combo] = clf.decide(dict(zip(case.features, combo)), within="all")
    return Brute(case, table)


@given(st.one_of(st.floats(5e-324, 1.0), st.fractions(Fraction(1, 10 ** 400), 1)),
       st.one_of(st.floats(5e-324, 1.0), st.fractions(Fraction(1, 10 ** 400), 1)))
def test_rounded_logs_are_within_their_bound(a, b):
    """log(a / b) in units of 2**-40 errs by at most the bound it reports (50 digits)."""
    import decimal

    from bnx.linear._core import SCALE, _log_ratio  # private: the rounded log (a unit)
    a, b = Fraction(a), Fraction(b)
    assume(a > 0 and b > 0)
    lg, err = _log_ratio(a, b)
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        D = decimal.Decimal
        true = ((D(a.numerator).ln() - D(a.denominator).ln())
                - (D(b.numerator).ln() - D(b.denominator).ln())) * SCALE
        assert abs(D(lg) - true) <= err


@pytest.mark.slow
@settings(max_examples=30, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
@given(case=tan_networks(max_features=4, max_instances=64), data=st.data())
def test_the_exact_ratios_alone_give_the_same_answers(case, data, monkeypatch):
    """With the rounding bound made huge, every verdict is taken on the exact ratios."""
    from bnx.linear import _forest  # private: the race over the forest (a unit)
    assume(len(case.states(case.class_var)) == 2)
    clf = classifier_of(case)
    assume(clf.structure == "tan")
    brute = _brute(case, clf)
    x = data.draw(instances(case))
    forests = {}
    for support in (False, True):  # each world's race, its rounding bound made huge
        fr = forests[support] = _forest.Forest(clf, support=support)
        fr.tol = 10 ** 60
    with monkeypatch.context() as m:
        m.setattr("bnx.linear._tan.pair_forests",
                  lambda c, support=False: [forests[support]])
        check_all(clf, brute, x)


def test_a_shortest_search_past_its_budget_is_refused(monkeypatch):
    from bnx.linear import _branch, _fewest, _tan  # private: each search on its own
    clf = bnx.Classifier(small_tan(), "Y", "yes", features=list("ABCD"))
    x = {"A": "yes", "B": "yes", "C": "no", "D": "yes"}
    assert len(linear.shortest_pi_explanation(clf, x)) >= 1
    monkeypatch.setattr(_fewest, "MAX_PROFILES", 3)
    monkeypatch.setattr(_tan, "relaxation", lambda d: (0, [], []))  # no bound: searches run
    monkeypatch.setattr(_branch, "MAX_NODES", 0)
    with pytest.raises(bnx.StructureError, match="pi_explanations"):
        linear.shortest_pi_explanation(clf, x)


@settings(max_examples=25)
@given(case=naive_bayes(max_features=4, max_instances=64), data=st.data())
def test_the_sets_with_every_verdict_settled_exactly(case, data, monkeypatch):
    """With the rounding bound made huge, no interval of sums is trusted: every leaf of the
    MC-explanations' and counterfactuals' diagrams is decided on the exact products, and the
    sets are still those of brute force."""
    from bnx.linear import _core  # private: the race's rounding bound (a unit)
    assume(two_class(case))
    clf = classifier(case)
    brute = threshold_brute(case)
    x = data.draw(instances(case))
    on = data.draw(on_maps(case))
    want = oracle.mc_explanations(case.net, case.class_var, case.positive, case.threshold,
                                  case.features, x, on)
    with monkeypatch.context() as m:
        for side in (True, False):
            m.setattr(_core.weights(clf).race(side), "tol", 10 ** 60)
        assert linear.mc_explanations(clf, x, on=on, within="all").to_set() == want
        assert linear.counterfactuals(clf, x, within="all").to_set() == brute.counterfactuals(x)


def test_a_set_too_large_to_build_is_given_up_and_the_report_still_answers(monkeypatch):
    """Past its budget a set is refused by name (a StructureError saying what to do), and
    bnx.explain without compiling still shows a closest counterfactual (the greedy one)."""
    from bnx.linear import _changes, _every  # private: the budgets, made tiny (a unit)
    clf = bnx.examples.admissions()
    x = dict.fromkeys(clf.features, "+")
    monkeypatch.setattr(_every, "MAX_STATES", 1)
    with pytest.raises(bnx.StructureError, match="gave up the closest counterfactuals.*"
                                                 "bnx.compile"):
        linear.counterfactuals(clf, x)
    with pytest.raises(bnx.StructureError, match="gave up the MC-explanations"):
        linear.mc_explanations(clf, x)
    monkeypatch.setattr(_changes, "ONE_STATES", 1)
    report = bnx.explain(clf, x)
    assert report.method == "linear"
    (change,) = report.counterfactuals
    moved = {f: new for f, (_, new) in change.items()}
    assert len(moved) == report.robustness == 2 and not clf.decide({**x, **moved}, within="all")


def test_the_sets_of_a_small_tan_with_every_verdict_settled_exactly(monkeypatch):
    """With the rounding bound made huge, no bound prunes a branch and every member is decided
    on the exact ratios: the same sets as the compiled ODD's."""
    from bnx.linear import _forest  # private: the race over the forest (a unit)
    clf = bnx.Classifier(small_tan(), "Y", "yes", features=list("ABCD"))
    odd = bnx.compile(clf, backend="autoref")
    on = dict.fromkeys("ABCD", "yes")
    fr = _forest.Forest(clf)
    fr.tol = 10 ** 60
    monkeypatch.setattr("bnx.linear._tan.pair_forests", lambda c, **kw: [fr])
    for combo in itertools.product(["no", "yes"], repeat=4):
        x = dict(zip("ABCD", combo))
        assert linear.mc_explanations(clf, x, on=on).to_set() == \
            bnx.mc_explanations(odd, x, on=on).to_set()
        assert (linear.counterfactuals(clf, x, within="all").to_set()
                == bnx.counterfactuals(odd, x).to_set())
