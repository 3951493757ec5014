"""Subnormal and extreme thresholds (issue 45): answered exactly on every path.

A threshold of ``5e-324`` (the least subnormal), ``1e-300`` or ``1 - 2**-53`` is the exact
rational its float holds, with a denominator of up to ``2**1074``: the float passes must
not turn it into a float they cannot hold (``OverflowError: int too large to convert to
float`` in :mod:`bnx.local._table`, found by hypothesis) nor into a subnormal that voids
their rounding bound. Networks with CPT entries as skewed as the thresholds (zeros,
``5e-324``, ``1e-300``, ``1e-17``), so that posteriors come near them; each path's decisions
are compared with the brute-force oracle's exact rational decision on every instance:
:meth:`bnx.Classifier.decide`, the compiled ODD, :mod:`bnx.local` (its tables and the
bound of its search, the tables made too small to hold), and :mod:`bnx.linear`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD

import bnx
from bnx.local import _search, _table
from tests._support import oracle
from tests._support.strategies import make_case

EXTREME = [5e-324, 1 - 2 ** -53, 1e-300]
_ENTRIES = [0.0, 5e-324, 1e-300, 1e-17, 2.0 ** -60, 0.25, 0.5]


@st.composite
def _column(draw, k):
    """A distribution over ``k`` states with entries as small as the thresholds."""
    col = draw(st.lists(st.sampled_from(_ENTRIES), min_size=k, max_size=k))
    big = draw(st.integers(0, k - 1))
    col[big] = 0.0
    col[big] = 1.0 - math.fsum(col)  # sums to 1 within pgmpy's tolerance
    return col


@st.composite
def skewed_cases(draw):
    """A naive Bayes, or a network with a hidden parent of the class, its entries skewed."""
    n = draw(st.integers(1, 3))
    feats = [f"F{i}" for i in range(n)]
    card = {f: draw(st.integers(2, 3)) for f in feats}
    hidden = draw(st.booleans())
    card["C"] = 2
    edges = [("C", f) for f in feats]
    parents = {"C": ["H"] if hidden else [], **{f: ["C"] for f in feats}}
    if hidden:
        card["H"] = 2
        edges.append(("H", "C"))
        parents["H"] = []
        if n > 1 and draw(st.booleans()):  # a feature with a second parent
            edges.append(("F0", "F1"))
            parents["F1"].append("F0")
    cpds = []
    for v, ps in parents.items():
        cols = [draw(_column(card[v])) for _ in range(math.prod(card[p] for p in ps))]
        values = [[c[i] for c in cols] for i in range(card[v])]
        names = {w: [f"s{j}" for j in range(card[w])] for w in (v, *ps)}
        cpds.append(TabularCPD(v, card[v], values, evidence=ps or None,
                               evidence_card=[card[p] for p in ps] or None,
                               state_names=names))
    t = draw(st.sampled_from(EXTREME))
    case = make_case(edges, cpds, "C", "s1", t, feats)
    if draw(st.booleans()):  # a threshold at (or a float next to) an exact posterior
        posts = sorted({cj["s1"] / sum(cj.values()) for cj in
                        oracle.class_joint_table(case.net, "C", feats).values()
                        if sum(cj.values())})
        p = draw(st.sampled_from(posts))
        case.threshold = draw(st.sampled_from([p, math.nextafter(float(p), 0.0),
                                               math.nextafter(float(p), 1.0)]))
    return case


def _instances(case):
    states = [case.states(f) for f in case.features]
    return [dict(zip(case.features, v)) for v in itertools.product(*states)]


def _truth(case, xs):
    return [oracle.decide(case.net, "C", "s1", case.threshold, x, case.features) for x in xs]


def _classifier(case):
    return bnx.Classifier(case.net, "C", "s1", threshold=case.threshold,
                          features=case.features)


FEW = settings(max_examples=25, deadline=None)


@pytest.mark.slow
@given(case=skewed_cases())
@FEW
def test_the_classifier_and_its_diagram_decide_exactly(case):
    note(repr(case))
    clf = _classifier(case)
    xs = _instances(case)
    want = _truth(case, xs)
    assert [clf.decide(x, within="all") for x in xs] == want
    odd = bnx.compile(clf, backend="autoref")
    assert [odd.decide(x, within="all") for x in xs] == want


@pytest.mark.slow
@given(case=skewed_cases(), bound=st.booleans())
@FEW
def test_the_search_without_compiling_decides_exactly(case, bound):
    note(repr(case))
    clf = _classifier(case)
    xs = _instances(case)
    want = dict(zip(map(lambda x: tuple(x.values()), xs), _truth(case, xs)))
    q = _table.Question(clf)
    labels, _ = _table.open_labels(clf, q, {}, case.features)
    assert [bool(labels[tuple(clf.encode(x).values())]) for x in xs] == list(want.values())
    # the search's one check: the bound of bnx.local._bound when the tables cannot hold
    possible = [y for y in xs if sum(clf.class_joint(y)) > 0]
    if not possible:
        return
    x = possible[len(possible) // 2]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_search, "MAX_ENTRIES", 0 if bound else _table.MAX_ENTRIES)
        _check_flips(case, clf, possible, want, x)


def _check_flips(case, clf, xs, want, x):
    """The search's flips of ``x`` against the brute force over ``xs``, the instances the
    network allows (the search never flips to one it gives probability zero)."""
    s = _search.Search(clf, clf.encode(x))
    assert s.label == want[tuple(x.values())]
    for k in range(len(case.features) + 1):
        for free in itertools.combinations(case.features, k):
            got = s.flip(free, branches=math.inf)
            flips = [y for y in xs if all(y[f] == x[f] for f in case.features if f not in free)
                     and want[tuple(y.values())] != s.label]
            if got is False:
                assert not flips, free
            elif got is not None:
                y = {f: clf.states(f)[j] for f, j in got.items()}
                assert want[tuple({**x, **y}.values())] != s.label


@pytest.mark.slow
@given(case=skewed_cases())
@FEW
def test_the_linear_engine_decides_and_explains_exactly(case):
    note(repr(case))
    clf = _classifier(case)
    if clf.structure != "naive_bayes":
        return
    xs = _instances(case)
    want = _truth(case, xs)
    odd = bnx.compile(clf, backend="autoref")
    kappa = bnx.support(clf, odd=odd)  # bnx.linear answers among the possible instances
    for x, w in zip(xs, want):
        assert bnx.linear.decide(clf, x, within="all") == w
        if not sum(clf.class_joint(x)) > 0:  # no question is asked of an impossible one
            continue
        assert bnx.linear.robustness(clf, x) == bnx.robustness(odd, x, within=kappa)
        got = {frozenset(e.items()) for e in bnx.linear.pi_explanations(clf, x)}
        assert got == {frozenset(e.items())
                       for e in bnx.pi_explanations(odd, x, within=kappa)}


@pytest.mark.parametrize("t", EXTREME)
def test_a_subnormal_threshold_is_compared_exactly_by_the_tables(t):
    """The case hypothesis found: an asia classifier's search at ``t`` (it raised)."""
    asia = bnx.examples.asia()
    feats = ["asia", "smoke", "xray", "dysp"]
    clf = bnx.Classifier(asia.network, "lung", "yes", threshold=t, features=feats)
    xs = [dict(zip(feats, v)) for v in itertools.product(*(clf.states(f) for f in feats))]
    want = [oracle.decide(asia.network, "lung", "yes", Fraction(t), x, feats) for x in xs]
    q = _table.Question(clf)
    labels, _ = _table.open_labels(clf, q, {}, feats)
    assert [bool(labels[tuple(clf.encode(x).values())]) for x in xs] == want
    assert [clf.decide(x, within="all") for x in xs] == want
    decided = "yes" if want[0] else "no"
    assert bnx.explain(clf, xs[0]).decision == decided  # by bnx.local's search
