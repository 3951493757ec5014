"""The compilation engines' private parts, each tested directly against brute force, exact
arithmetic or another engine.

They have no public face: the TAN engine's model and orders (``engines/_tan_model.py``,
``_context_order.py``), the factors its plan prepares (``_execution.py``), the float
contraction of the general engine's tail and its proven error bound (``_contraction.py``),
the tail's float filter against exact integers (``_truth.py``), the tail's size limits
(``_tail.py``, patched: no public argument chooses them, and only a network too large to
check by enumeration would pass them), and the argmax rule's conjunction of arrays
(``bnx/compilation/conjunction.py``) on arrays no compile makes. ``bnx.compile`` reaches
them only whole; the engines themselves, each run alone by their public contract, are
tested in tests/compilation/test_engines.py and test_deep.py."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.conjunction import conjoin
from bnx.compilation.engines import _tail as tail  # private: the tail's size limits, patched
from bnx.compilation.engines import _tan_model as tm  # private: the TAN engine's model and orders
from bnx.compilation.engines._context_order import context_widths  # private: a unit
from bnx.compilation.engines._contraction import contract, plan  # private: a float contraction
from bnx.compilation.engines._execution import prepare, prepared_scopes  # private: the plan
from bnx.compilation.engines._truth import (  # private: the tail's float filter, exact twins
    floats,
    tail_truth,
    weighted_truth,
)
from bnx.compilation.engines.general import FactorElimination
from bnx.compilation.engines.tan import TanLevels
from bnx.diagram import _arrays as A  # private: arrays built and negated for the conjunction
from bnx.diagram import _dd as D  # private: arrays to and from dd
from bnx.diagram._dd import to_dd  # private: arrays into an engine's manager
from bnx.diagram.backends import new_manager
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.builders import check_against_oracle, dd_function, net_from_columns, random_tan
from tests._support.strategies import classifier_of, general_networks, kdb_networks, tan_networks
from tests._support.strategies import classifier_of as _classifier

# ---------------------------------------- (was _support/tan_engine.py)
# Checks of the TAN engine against the oracle and the general engine (the TAN and k-DB tests).

def against_oracle(case, clf, backend, order=None):
    odd = bnx.compile(clf, order, backend=backend)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  list(clf.features), rule=case.rule)
    for combo, want in table.items():
        x = dict(zip(clf.features, combo))
        assert odd.decide(x, within="all") == want, x
    assert odd.count() == sum(table.values())
    return odd


def same_node_as_general(clf, order, backend):
    """The TAN engine and the general engine build the same node on ``order``."""
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(backend, enc.variables)
    model = tm.tan_model(clf, order)
    assert model is not None
    mine = TanLevels(enc, Budget(None), model).run()  # arrays, false on unused codes
    mine = to_dd(mine, bdd, enc.variables)
    pos = clf.class_states.index(clf.positive)
    t = clf.threshold
    theirs = FactorElimination(clf, enc, bdd, Budget(None), pair=(pos, 1 - pos),
                          weights=(1 - t, t)).run()
    dom = enc.domain(bdd)
    assert mine == (mine & dom)  # already false on unused codes
    assert mine == (theirs & dom)


def _general_argmax(clf, order, backend):
    """The argmax rule's function through the general engine alone (dd root, domain)."""
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(backend, enc.variables)
    pos = clf.class_states.index(clf.positive)
    root = bdd.true
    for c in range(len(clf.class_states)):
        if c != pos:
            pair = (pos, c) if c > pos else (c, pos)
            ge = FactorElimination(clf, enc, bdd, Budget(None), pair=pair, weights=(1, 1)).run()
            root = root & (ge if c > pos else ~ge)
    return enc, bdd, root & enc.domain(bdd)


def argmax_through_the_tan_engine(case, backend, data):
    """The oracle's decisions and the general engine's node, default and random order."""
    clf = classifier_of(case)
    assume(len(clf.class_states) > 2)
    order = data.draw(st.permutations(list(clf.features)))
    pos = clf.class_states.index(clf.positive)
    assert tm.tan_model(clf, order, pair=(pos, (pos + 1) % len(clf.class_states))) is not None
    for o in (None, order):
        odd = against_oracle(case, clf, backend, o)
        enc, bdd, theirs = _general_argmax(clf, list(odd.order), backend)
        assert to_dd(odd.arrays, bdd, enc.variables) == theirs


# ---------------------------------------- (was compilation/test_tan_engine.py)
# The TAN engine (bnx/compilation/engines/tan.py) against brute force and the general engine.
#
# Every hypothesis TAN (forests of features, zeros, exact ties at the threshold, both
# rules) compiles to the oracle's decisions on every instance, and, under the threshold
# rule, to the very node the general engine (``FactorEngine``) builds on the same order in
# the same manager, on both backends and on any order (not only the depth-first default).

@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=30)
@given(case=tan_networks(max_features=7, max_instances=600, binary_class=True),
       data=st.data())
def test_tan_engine_equals_oracle_and_general_engine(backend, case, data):
    clf = _classifier(case)
    assert clf.structure in ("tan", "naive_bayes")  # a forest without edges: naive Bayes
    odd = against_oracle(case, clf, backend)
    if clf.rule == "threshold":
        same_node_as_general(clf, list(odd.order), backend)
        shuffled = data.draw(st.permutations(list(clf.features)))  # any order works
        same_node_as_general(clf, shuffled, backend)
        against_oracle(case, clf, backend, shuffled)


@pytest.mark.parametrize("switch, value", [("_FEW", 0), ("_GROUP", 1)])
@settings(max_examples=30)
@given(case=tan_networks(max_features=6, max_instances=400, binary_class=True,
                         rule="threshold"), data=st.data())
def test_the_paths_for_large_levels_equal_the_general_engine(switch, value, case, data):
    """With every level searched through the complex ``(context, value)`` keys (``_FEW``
    0, as for levels with many contexts), or its children sorted one context at a time
    (``_GROUP`` 1, as for levels with many children per context), the same node as the
    general engine."""
    from bnx.compilation.engines import tan
    clf = _classifier(case)
    order = data.draw(st.permutations(list(clf.features)))
    saved = getattr(tan, switch)
    setattr(tan, switch, value)
    try:
        same_node_as_general(clf, order, "autoref")
    finally:
        setattr(tan, switch, saved)


@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=20)
@given(case=tan_networks(max_features=6, max_instances=400, rule="argmax"), data=st.data())
def test_argmax_over_many_classes_through_the_tan_engine(backend, case, data):
    """Under the argmax rule with 3 or 4 classes, each comparison Pr(a, x) >= Pr(b, x)
    of a TAN goes through the TAN engine: the oracle's decisions, and the very node the
    general engine's pairwise comparisons give on the same order (default and random)."""
    argmax_through_the_tan_engine(case, backend, data)


@pytest.mark.slow
@settings(max_examples=60)
@given(case=general_networks(max_instances=64, binary_class=True))
def test_pairwise_general_networks_through_the_tan_engine(case):
    """Networks that prune to pairwise factors over a forest (a class with a feature
    parent, barren nodes folded in) take the TAN engine; all match the oracle."""
    clf = _classifier(case)
    # the look at the scopes that guards the TAN model sees what prepare makes
    scopes, hidden = prepared_scopes(clf)
    static, _, const, hidden2, _ = prepare(clf, (0, 1))
    assert hidden == hidden2
    assert sorted(map(repr, scopes)) == sorted(
        repr(s) for s, _ in [*static.values(), *const])
    against_oracle(case, clf, "autoref")
    if clf.rule == "threshold" and tm.tan_model(clf, clf.features) is not None:
        same_node_as_general(clf, list(clf.features), "autoref")


def test_routing_latent_node_and_class_parent():
    """A latent node above three features: no TAN model (the general engine); above two,
    summing it out leaves a pairwise factor (TAN engine); a class whose parent is a
    feature: a pairwise forest too."""
    cpt = [[0.5, 0.5], [0.25, 0.75], [0.875, 0.125], [0.5, 0.5]]
    latent = net_from_columns([("C", "H")] + [(p, f) for f in "ABD" for p in "CH"], {
        "C": ([], [[0.4, 0.6]]),
        "H": (["C"], [[0.3, 0.7], [0.8, 0.2]]),
        "A": (["C", "H"], cpt), "B": (["C", "H"], cpt[::-1]), "D": (["C", "H"], cpt),
    })
    clf = bnx.Classifier(latent, "C", 1, features=["A", "B", "D"])
    assert tm.tan_model(clf, clf.features) is None
    clf = bnx.Classifier(latent, "C", 1, features=["A", "B"])
    assert clf.latent and tm.tan_model(clf, clf.features) is not None
    same_node_as_general(clf, ["B", "A"], "autoref")
    parent = net_from_columns([("A", "C"), ("C", "B"), ("A", "B")], {
        "A": ([], [[0.3, 0.7]]),
        "C": (["A"], [[0.25, 0.75], [0.5, 0.5]]),
        "B": (["C", "A"], [[0.5, 0.5], [0.25, 0.75], [0.875, 0.125], [0.5, 0.5]]),
    })
    clf = bnx.Classifier(parent, "C", 1, features=["A", "B"])
    assert clf.structure == "general" and tm.tan_model(clf, clf.features) is not None
    same_node_as_general(clf, ["B", "A"], "autoref")


def test_tan_order_is_depth_first_with_small_contexts():
    clf = random_tan(30, 3)
    order = bnx.compilation.default_order(clf)
    assert sorted(order) == sorted(clf.features)
    pos = {f: i for i, f in enumerate(order)}
    for f in clf.features:
        ps = [p for p in clf.parents(f) if p != "C"]
        if ps:
            assert pos[ps[0]] < pos[f]  # each feature after its tree parent
    model = tm.tan_model(clf, order)
    worst = max(model.nctx)
    assert worst <= 3 ** 3
    assert worst <= max(tm.tan_model(clf, list(clf.features)).nctx)
    chain = {f"F{i}": {f"F{j}" for j in (i - 1, i + 1) if 0 <= j < 7} for i in range(7)}
    assert tm._centres(list(chain), chain) == ["F3"]
    chain.pop("F6")
    chain["F5"].discard("F6")
    assert sorted(tm._centres(list(chain), chain)) == ["F2", "F3"]


def test_budget_timeout_and_progress(capsys):
    clf = random_tan(40, 5, ternary=False)
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=2000"):
        bnx.compile(clf, backend="autoref", max_nodes=2000)
    with pytest.raises(bnx.CompilationLimitError, match="ran out of time"):
        bnx.compile(clf, backend="autoref", timeout=0.05, max_nodes=math.inf)
    small = random_tan(8, 6)
    odd = bnx.compile(small, backend="autoref", progress=True)
    assert odd.size >= 1


def test_budget_of_argmax_over_many_classes():
    """The pairwise TAN diagrams and their conjunction answer to max_nodes and timeout."""
    clf = random_tan(40, 5, ternary=False, classes=3)
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=2000"):
        bnx.compile(clf, backend="autoref", max_nodes=2000)
    with pytest.raises(bnx.CompilationLimitError, match="ran out of time"):
        bnx.compile(clf, backend="autoref", timeout=0.05, max_nodes=math.inf)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("classes", [3, 4])
def test_estimate_size_of_argmax_tans(seed, classes):
    """The argmax rule over 3-4 classes: sampled through the pairwise TAN models (the
    conjunction over-counts; the crude bound does not hold for it)."""
    clf = random_tan(14, seed, classes=classes)
    size = bnx.compile(clf, backend="autoref").size
    assert size / 4 <= bnx.estimate_size(clf) <= 16 * size


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_estimate_size_of_tans(seed):
    clf = random_tan(14, seed)
    est = bnx.estimate_size(clf)
    size = bnx.compile(clf, backend="autoref").size
    assert size / 8 <= est <= 8 * size + 16


@pytest.mark.parametrize("features,states", [(12, 3), (10, 5), (14, 4), (9, 7), (16, 2)])
def test_the_naive_bayes_estimate_counts_the_nodes_of_multi_state_features(features, states):
    """The estimate counted one node per function of a level; a feature of k states is
    k - 1 nodes of its bits, and counting only the first undercounted five-state naive
    Bayes 2.5 times (a 16-feature one: 549,770 estimated, 1,346,223 nodes)."""
    rng = np.random.default_rng(features * states)
    columns = {"C": ([], [[0.5, 0.5]])}
    for i in range(features):
        columns[f"F{i}"] = (["C"], rng.dirichlet(np.ones(states), size=2).tolist())
    net = net_from_columns([("C", f"F{i}") for i in range(features)], columns)
    clf = bnx.Classifier(net, "C", 1)
    size = bnx.compile(clf, backend="autoref").size
    assert 0.8 * size <= bnx.estimate_size(clf) <= 1.6 * size


def test_exact_ties_and_zeros_by_hand(backend):
    """Symmetric tables: every instance with A = B ties exactly at threshold 1/2; a zero
    in B's table forces the positive or the negative class."""
    net = net_from_columns([("C", "A"), ("C", "B"), ("A", "B"), ("C", "D")], {
        "C": ([], [[0.5, 0.5]]),
        "A": (["C"], [[0.25, 0.5, 0.25], [0.25, 0.5, 0.25]]),
        "B": (["C", "A"], [[0.5, 0.5], [0.0, 1.0], [0.75, 0.25],
                           [0.5, 0.5], [0.5, 0.5], [0.25, 0.75]]),
        "D": (["C"], [[0.5, 0.5], [0.5, 0.5]]),
    })
    for t in (0.5, 0.0, 1.0, 0.75, 5e-324, 1 - 2 ** -53):  # odds beyond the doubles too
        clf = bnx.Classifier(net, "C", 1, threshold=t, features=["A", "B", "D"])
        odd = bnx.compile(clf, backend=backend)
        table = oracle.decision_table(net, "C", 1, t, ["A", "B", "D"])
        for combo, want in table.items():
            assert odd.decide(dict(zip(["A", "B", "D"], combo)), within="all") == want
        same_node_as_general(clf, list(odd.order), backend)
    assert not math.isnan(bnx.estimate_size(clf))


# ---------------------------------------- (was compilation/test_kdb_engine.py)
# The TAN engine on factors over the class and several features (k-dependence and BAN
# classifiers): the open context along an order is the observed features that share a
# factor with an unobserved one, whatever the interaction graph.
#
# Every hypothesis KDB (k = 2 or 3: triangles and larger cliques of features, zeros,
# exact ties, both rules) compiles to the oracle's decisions on every instance, and under
# the threshold rule to the very node the general engine (``FactorEngine``) builds on the
# same order (the default greedy order and a random one), on both backends; the argmax
# rule over 3-4 classes matches the general engine's pairwise comparisons.

def _not_a_forest(clf):
    got = tm._forest(clf, (0, 1))
    return got is not None and not got[3]


@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=30)
@given(case=kdb_networks(k=2, max_features=7, max_instances=600, binary_class=True),
       data=st.data())
def test_kdb_engine_equals_oracle_and_general_engine(backend, case, data):
    clf = _classifier(case)
    odd = against_oracle(case, clf, backend)
    if clf.rule == "threshold":
        assert tm.tan_model(clf, list(odd.order)) is not None  # small: always fits
        same_node_as_general(clf, list(odd.order), backend)
        shuffled = data.draw(st.permutations(list(clf.features)))  # any order works
        same_node_as_general(clf, shuffled, backend)
        against_oracle(case, clf, backend, shuffled)


@pytest.mark.slow
@settings(max_examples=40)
@given(case=kdb_networks(k=3, max_features=6, max_instances=400, binary_class=True,
                         rule="threshold"), data=st.data())
def test_three_dependence_equals_the_general_engine(case, data):
    """Cliques of four features (a feature with three feature parents); the complex-key
    search (``_FEW = 0``) too."""
    from bnx.compilation.engines import tan
    clf = _classifier(case)
    order = data.draw(st.permutations(list(clf.features)))
    same_node_as_general(clf, order, "autoref")
    with mock.patch.object(tan, "_FEW", 0):
        same_node_as_general(clf, order, "autoref")


@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=30)
@given(case=kdb_networks(k=2, max_features=6, max_instances=400, rule="argmax"),
       data=st.data())
def test_kdb_argmax_over_many_classes(backend, case, data):
    argmax_through_the_tan_engine(case, backend, data)


def random_kdb(n, seed, k=2):
    """A random KDB: each feature's feature parents up to ``k`` uniform earlier ones."""
    rng = np.random.default_rng(seed)
    feats = [f"F{i}" for i in range(n)]
    card = {f: int(rng.integers(2, 4)) for f in feats}
    par = {f: [feats[j] for j in sorted(rng.choice(i, min(i, k), replace=False))]
           for i, f in enumerate(feats)}
    cpts = {"C": ([], [[0.4, 0.6]])}
    for f in feats:
        ps = ["C"] + par[f]
        cols = 2 * int(np.prod([card[p] for p in par[f]]))
        cpts[f] = (ps, [list(c) for c in rng.dirichlet([1.0] * card[f], size=cols)])
    edges = [(p, f) for f in feats for p in ["C"] + par[f]]
    return bnx.Classifier(net_from_columns(edges, cpts), "C", 1, features=feats)


@pytest.mark.slow
def test_greedy_order_keeps_contexts_small_and_tans_keep_theirs():
    clf = random_kdb(16, 4)
    assert clf.structure == "general" and _not_a_forest(clf)
    order = bnx.compilation.default_order(clf)
    assert order == tm.tan_order(clf) and sorted(order) == sorted(clf.features)
    model = tm.tan_model(clf, order)
    assert model is not None
    nbrs = tm._forest(clf, (0, 1))[2]
    card = {f: len(clf.states(f)) for f in clf.features}
    widths = context_widths(order, nbrs, card)
    assert widths == [k * c for k, c in zip(model.nctx, model.card)]  # what the model makes
    from bnx.compilation import general_order
    for other in (list(clf.features), general_order(clf)):
        assert max(widths) <= max(context_widths(other, nbrs, card))
    odd = bnx.compile(clf, backend="autoref")
    same_node_as_general(clf, list(odd.order), "autoref")
    from tests._support.builders import random_tan
    tan = random_tan(12, 3)
    assert not _not_a_forest(tan) and tm._forest(tan, (0, 1))[3]


def test_too_wide_contexts_go_to_the_general_engine(monkeypatch):
    """A context over MAX_CONTEXT: no model (the general engine compiles), and the
    default order falls back to the general engine's."""
    clf = random_kdb(9, 2)
    monkeypatch.setattr(tm, "MAX_CONTEXT", 4)
    assert tm.tan_model(clf, clf.features) is None
    from bnx.compilation import general_order
    assert tm.tan_order(clf) == general_order(clf)
    odd = bnx.compile(clf, backend="autoref")
    assert list(odd.order) == general_order(clf)
    monkeypatch.undo()
    again = bnx.compile(clf, odd.order, backend="autoref")  # through the TAN engine
    assert (again.size, again.count()) == (odd.size, odd.count())


# ---------------------------------------- (was compilation/test_contraction.py)
# The float contraction of the general engine's tail factor: within its proven bound.

VARS = ("A", "B", "C", "D", "E")


@st.composite
def factor_sets(draw):
    card = {v: draw(st.integers(1, 3)) for v in VARS}
    big = draw(st.sampled_from([1, 10 ** 20]))
    factors = []
    for _ in range(draw(st.integers(1, 5))):
        scope = tuple(draw(st.lists(st.sampled_from(VARS), min_size=1, max_size=3,
                                    unique=True)))
        size = math.prod(card[v] for v in scope)
        vals = draw(st.lists(st.integers(0, 7).map(lambda x: x * big), min_size=size,
                             max_size=size))
        factors.append((scope, np.array(vals, dtype=object).reshape([card[v]
                                                                     for v in scope])))
    used = sorted({v for s, _ in factors for v in s})
    keep = tuple(draw(st.lists(st.sampled_from(used), max_size=3, unique=True)))
    return factors, keep, card


@settings(max_examples=150, deadline=None)
@given(factor_sets())
def test_contraction_within_its_bound(case):
    """Every entry is within the relative ``err`` of the exact sum of products, and 0
    exactly where that is 0."""
    factors, keep, card = case
    p = plan([s for s, _ in factors], keep, card)
    out = contract(p, factors)
    assert out is not None
    table, scale, err = out
    assert 0 < err < 2.0 ** -30
    hidden = sorted({v for s, _ in factors for v in s} - set(keep))
    assert table.shape == tuple(card[v] for v in keep)
    for idx in itertools.product(*(range(card[v]) for v in keep)):
        x = 0  # brute force: every assignment of the summed variables
        for h in itertools.product(*(range(card[v]) for v in hidden)):
            value = dict(zip(keep, idx)) | dict(zip(hidden, h))
            x += math.prod(int(t[tuple(value[v] for v in sc)]) for sc, t in factors)
        got = Fraction(float(table[idx])) * Fraction(2) ** scale
        if x == 0:
            assert got == 0
        else:
            assert abs(got - x) <= Fraction(err) * x


def test_contraction_refuses_too_wide_a_range():
    """A product whose smallest nonzero terms could underflow gets no float result: the
    entry ``1 * 1 * ...`` of twenty factors ``[1, 2**60]`` is ``2**-1220`` of the largest."""
    factors = [((f"X{j}",), np.array([1, 1 << 60], dtype=object)) for j in range(20)]
    keep = tuple(f"X{j}" for j in range(20))
    p = plan([s for s, _ in factors], keep, {f"X{j}": 2 for j in range(20)})
    assert contract(p, factors) is None


def test_contraction_rescales_a_range_that_only_looks_too_wide():
    """Summed out, the same factors leave numbers near 1: the tracked range is measured
    and rescaled instead of refused, and the result is within its bound."""
    factors = [((f"X{j}",), np.array([1, 1 << 60], dtype=object)) for j in range(20)]
    p = plan([s for s, _ in factors], (), {f"X{j}": 2 for j in range(20)})
    table, scale, err = contract(p, factors)
    exact = (1 + (1 << 60)) ** 20
    assert abs(Fraction(float(table)) * Fraction(2) ** scale - exact) <= Fraction(err) * exact


# ---------------------------------------- (was compilation/test_tail_weighted.py)
# The weight-vector tail's float filter agrees with exact integer arithmetic.

def _exact(w, k, r):
    nc, m, nz = r.shape
    return [sum(w[c] * sum(int(k[c, o]) * int(r[c, o, z]) for o in range(m))
                for c in range(nc)) >= 0 for z in range(nz)]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_weighted_truth_matches_exact(data):
    nc = data.draw(st.integers(2, 4))
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 4))
    big = data.draw(st.sampled_from([1, 10 ** 30]))
    ints = st.integers(0, 5).map(lambda x: x * big)
    k = np.array(data.draw(st.lists(ints, min_size=nc * m, max_size=nc * m)),
                 dtype=object).reshape(nc, m)
    r = np.array(data.draw(st.lists(ints, min_size=nc * m * nz, max_size=nc * m * nz)),
                 dtype=object).reshape(nc, m, nz)
    w = data.draw(st.lists(st.fractions(-1, 1, max_denominator=7), min_size=nc, max_size=nc))
    top = max((abs(x) for x in w), default=Fraction(0))
    if top:
        w = [x / top for x in w]
    w = tuple(Fraction(x) for x in w)
    kf, rf = floats(k), floats(r)
    af = None
    if (kf is not None and rf is not None
            and not ((kf > 0).any() and kf[kf > 0].min() < 2.0 ** -100)):
        af = (kf[:, :, None] * rf).sum(axis=1)
    got = weighted_truth(w, lambda zs: k[:, :, None], af, r).tolist()
    assert got == _exact(w, k, r)  # ties (sum exactly 0) included: they go to integers
    assert weighted_truth(w, lambda zs: k[:, :, None], None, r).tolist() == _exact(w, k, r)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_tail_truth_filter_matches_exact(data):
    """The pair mode's truth table and exact ``rho`` interval: the float filter (sums
    from a batched matrix product, as the engine makes them) gives what the exact
    integers give, ties and zero columns included, and every ``rho`` in the interval
    has the same table."""
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 6))
    big = data.draw(st.sampled_from([1, 10 ** 30]))
    ints = st.integers(0, 5).map(lambda x: x * big)
    scale = data.draw(st.sampled_from([1, 2 ** 300]))  # B / A far from 1
    k = np.array(data.draw(st.lists(ints, min_size=2 * m, max_size=2 * m)),
                 dtype=object).reshape(2, m)
    r = np.array(data.draw(st.lists(ints, min_size=2 * m * nz, max_size=2 * m * nz)),
                 dtype=object).reshape(2, m, nz)
    r[1] = r[1] * scale
    rho = data.draw(st.fractions(Fraction(1, 12), 20, max_denominator=12))
    rho *= Fraction(2) ** data.draw(st.sampled_from([0, 0, -300, -995, 90, 120]))
    kf, rf = floats(k), floats(r)
    sums = None
    if kf is not None and rf is not None and (
            not (kf > 0).any() or not (rf > 0).any()
            or kf[kf > 0].min() * rf[rf > 0].min() >= 2.0 ** -900):  # the engine's guard
        sums = np.matmul(kf.reshape(2, 1, m), rf)[:, 0, :]
    truth, lo, hi, _ = tail_truth(rho, lambda zs: k[:, :, None], None, r)
    got = tail_truth(rho, lambda zs: k[:, :, None], sums, r)
    assert (got[0].tolist(), got[1], got[2]) == (truth.tolist(), lo, hi)
    truth = truth.tolist()
    pairs = [(sum(int(k[0, o]) * int(r[0, o, z]) for o in range(m)),
              sum(int(k[1, o]) * int(r[1, o, z]) for o in range(m))) for z in range(nz)]
    def table(x):
        return [b == 0 if a == 0 else x * a >= b for a, b in pairs]
    assert truth == table(rho) == table(lo)
    if hi is not None:
        assert lo <= rho < hi and table(hi) != truth


class _Lazy:
    """Exact columns on demand, as a float tail factor's (``r[:, :, zs]``)."""

    def __init__(self, r):
        self.r, self.shape = r, r.shape

    def __getitem__(self, key):
        return self.r[key]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_tail_truth_with_float_factor_is_exact_and_its_interval_sound(data):
    """With a tail factor known only in floats within a relative ``err`` (its exact
    columns computed on demand), the truth table is still exact, and the interval it
    returns holds ``rho`` and gives every ``rho`` in it the same table."""
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 6))
    ints = st.integers(0, 5)
    k = np.array(data.draw(st.lists(ints, min_size=2 * m, max_size=2 * m)),
                 dtype=object).reshape(2, m)
    r = np.array(data.draw(st.lists(ints, min_size=2 * m * nz, max_size=2 * m * nz)),
                 dtype=object).reshape(2, m, nz)
    rho = data.draw(st.fractions(Fraction(0), 6, max_denominator=6))
    err = 2.0 ** -40
    rf = floats(r)
    noise = np.array(data.draw(st.lists(st.floats(-1, 1), min_size=r.size,
                                        max_size=r.size))).reshape(r.shape)
    rf = rf * (1 + err * noise)  # a float factor off by up to err, zeros exact
    sums = np.matmul(floats(k).reshape(2, 1, m), rf)[:, 0, :] if (k > 0).any() else \
        np.zeros((2, nz))
    truth, lo, hi, hi_closed = tail_truth(rho, lambda zs: k[:, :, None], sums, _Lazy(r),
                                          err=err)
    pairs = [(sum(int(k[0, o]) * int(r[0, o, z]) for o in range(m)),
              sum(int(k[1, o]) * int(r[1, o, z]) for o in range(m))) for z in range(nz)]

    def table(x):
        return [b == 0 if a == 0 else x * a >= b for a, b in pairs]
    assert truth.tolist() == table(rho)
    assert lo <= rho and (hi is None or rho < hi or (hi_closed and rho == hi))
    for x in [lo, (lo + rho) / 2] + ([] if hi is None else [hi] if hi_closed else
                                      [(rho + hi) / 2]):
        assert table(x) == table(rho)


# ---------------------------------------- (was compilation/test_conjunction.py)
# The conjunction of diagrams as arrays (bnx/compilation/conjunction.py) against dd's.

@st.composite
def two_functions(draw):
    """Two random Boolean functions over the same 1-6 variables (dd operations)."""
    n = draw(st.integers(1, 6))
    ops = st.lists(st.tuples(st.sampled_from("&|^"), st.integers(0, n - 1), st.booleans()),
                   max_size=8)
    return n, [(draw(st.booleans()), draw(ops)) for _ in range(2)]


@pytest.mark.parametrize("backend", ["autoref", "cudd"])
@settings(max_examples=80, deadline=None)
@given(spec=two_functions())
def test_conjoin_equals_dd_conjunction(backend, spec):
    n, ((s1, o1), (s2, o2)) = spec
    bdd, names, u = dd_function(backend, n, s1, o1)
    v = dd_function(backend, n, s2, o2)[2]
    v = D.to_dd(D.from_dd([v], n)[0], bdd, names)  # into the same manager
    (a, _), (b, _) = D.from_dd([u], n), D.from_dd([v], n)
    got = conjoin(a, b)
    assert D.to_dd(got, bdd, names) == u & v
    assert D.to_dd(conjoin(a, A.negate(b)), bdd, names) == u & ~v
    assert got.size == D.from_dd([u & v], n)[0].size  # reduced: the canonical arrays


def test_conjoin_needs_the_same_levels():
    with pytest.raises(ValueError, match="same levels"):
        conjoin(A.Builder(2).finish(A.TRUE), A.Builder(3).finish(A.TRUE))


def test_conjoin_answers_to_the_node_budget(monkeypatch):
    """The conjunction of two large diagrams charges its nodes to the compiler's budget:
    over max_nodes it raises, and the argmax rule's conjunction is bounded with it."""
    import bnx
    from bnx.compilation.budget import Budget
    from tests._support.builders import random_tan
    n = 12
    parity = [A.Builder(n) for _ in range(2)]
    roots = []
    for k, b in enumerate(parity):  # x_k xor ... : a diagram of two nodes per level
        even, odd = [A.TRUE], [A.FALSE]
        for lvl in reversed(range(n)):
            even, odd = (b.nodes(lvl, even, odd), b.nodes(lvl, odd, even))
        roots.append(b.finish(int((even if k else odd)[0])))
    a, c = roots
    free = Budget()
    assert A.count(conjoin(a, c, budget=free)) == 0 and free.used <= 2 * 2 * n
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=5"):
        conjoin(a, A.negate(c), budget=Budget(5))
    # a whole argmax compilation charges each conjunction's nodes to its budget
    from bnx.compilation.engines import tan as C
    seen = []

    def spy(x, y, *, budget=None):
        before = budget.used
        got = conjoin(x, y, budget=budget)
        seen.append((budget.used - before, got.size))
        return got

    monkeypatch.setattr(C, "conjoin", spy)
    bnx.compile(random_tan(16, 1, ternary=False, classes=3), backend="autoref")
    assert seen and all(spent >= size - 2 for spent, size in seen)


# ---------------------------------------- the general engine's tail (was test_general_compile.py)
def _check_tail(case, backend: str = "autoref", **patches) -> None:
    """:func:`_check` with attributes of :mod:`bnx.compilation.engines._tail` patched."""
    saved = {name: getattr(tail, name) for name in patches}
    for name, value in patches.items():
        setattr(tail, name, value)
    try:
        check_against_oracle(case.net, case.class_var, case.positive, case.features, backend,
               threshold=case.threshold, rule=case.rule)
    finally:
        for name, value in saved.items():
            setattr(tail, name, value)


@pytest.mark.slow
@pytest.mark.parametrize("completions", [0, 4, 1024])
@settings(max_examples=20)
@given(case=general_networks(max_instances=48))
def test_every_tail_size_matches_the_oracle(completions, case):
    """The general engine with no tail (expand-then-merge to the end), a tail of the last
    features' 4 completions, and 1024 (small networks: one truth table, as by default)."""
    _check_tail(case, TAIL_COMPLETIONS=completions)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["autoref", "cudd"])
@settings(max_examples=30)
@given(case=general_networks(max_instances=64))
def test_float_tail_factor_matches_the_oracle(backend, case):
    """The float tail factor (chosen when no exact one is allowed), its near-ties settled
    on exact columns computed on demand, compiles what the oracle decides."""
    _check_tail(case, backend, TAIL_WIDTH=0)


@settings(max_examples=15)
@given(case=general_networks(max_instances=32))
def test_float_tail_refused_runs_without_a_tail(case):
    """A planned float tail factor whose inputs fail the contraction's guarantees is not
    replaced by a wide exact elimination: the engine runs without a tail, still exact."""
    _check_tail(case, TAIL_WIDTH=0, contract=lambda p, factors, tick=None: None)


def test_a_step_that_would_end_past_the_deadline_is_refused_before_it_starts():
    """The level engines size each vectorised step before it starts (Budget.pace): at the
    rate of the last large step, one that would end past the deadline is refused at once
    (a 60-feature naive Bayes with timeout=5 ran a last unchecked step to 12.8 s, 5.5 GB)."""
    from bnx.compilation import budget as B
    clock = [100.0]
    with mock.patch.object(B.time, "monotonic", lambda: clock[0]):
        b = Budget(None, timeout=10)  # deadline at 110
        b.pace(100)  # small steps teach no rate (their fixed cost would dominate)
        clock[0] += 1.0
        b.pace(B.PACED)  # the small step took 1 s: still no rate, so no refusal
        clock[0] += 1.0  # PACED units in 1 s: 1 / (PACED * 16) s per u log2 u
        b.pace(3 * B.PACED)  # at 102, about 3.3 s (1.25 times: 4.1 s): ends before 110
        clock[0] += 3 * math.log2(3 * B.PACED) / 16  # at the same rate
        b.pace(9 * B.PACED, "other")  # another kind of step: no rate of its own yet
        clock[0] += 0.5
        with pytest.raises(bnx.CompilationLimitError,
                           match=r"next step \(327,680 states\) would end about 5\.7 s later"):
            b.pace(5 * B.PACED)  # at 105.8, 1.25 * 5.7 s: past 110, refused before it starts
    untimed = Budget(None)  # no timeout: never refused, however large the step
    untimed.pace(B.PACED)
    untimed.pace(1 << 40)


def test_the_timeout_counts_from_the_call_the_order_too():
    """diabetes spent about a minute choosing the order (its TAN forest, the greedy
    elimination order) before the compile's budget started its clock."""
    from bnx.compilation import _compile as C
    slow = C.check_order

    def check_order(clf, order, timeout=None):
        import time
        time.sleep(0.3)  # an order that takes longer than the whole timeout
        return slow(clf, order)

    clf = bnx.examples.admissions()
    with mock.patch.object(C, "check_order", check_order):
        with pytest.raises(bnx.CompilationLimitError, match="before building: choosing"):
            bnx.compile(clf, backend="autoref", timeout=0.2)
        assert bnx.compile(clf, backend="autoref", timeout=30).size == 6


def test_the_greedy_order_stops_at_its_timeout(monkeypatch):
    """The greedy orders try every feature left at every step (munin: about ten seconds):
    a compile's timeout bounds them, each trial checked against it (munin's timeout=5
    compile ended at 12 s, link's at 9.8 s)."""
    from bnx.compilation import budget
    from bnx.compilation.engines._tan_model import tan_order
    from bnx.compilation.engines.general import general_order
    asia = bnx.examples.asia()
    clf = bnx.Classifier(asia.network, "lung", "yes", features=["asia", "smoke", "xray", "dysp"])
    want = general_order(clf)
    assert general_order(clf, timeout=60) == tan_order(clf, timeout=60) == want
    assert bnx.compilation.default_order(clf, timeout=60) == want
    clock = [0.0]

    def tick():  # each reading a second later: the trials pass any deadline
        clock[0] += 1.0
        return clock[0]

    import types
    monkeypatch.setattr(budget, "time", types.SimpleNamespace(monotonic=tick))
    for order in (general_order, tan_order, bnx.compilation.default_order):
        with pytest.raises(bnx.CompilationLimitError,
                           match=r"timeout=3 s\) before building: choosing the variable"):
            order(clf, timeout=3)
    monkeypatch.undo()
    with pytest.raises(bnx.ArgumentError, match="timeout must be a positive number"):
        general_order(clf, timeout=0)


def test_an_op_of_large_exact_tables_is_ticked_between_slices():
    """One op of the general engine's step multiplies exact tables of up to MAX_TABLE
    entries (barley: a single state's step ran past 100 s and 5 GB under timeout=5): its
    products and its sum are sliced, the budget's check called between the slices, and the
    result is the same as without."""
    from bnx.classifier._inference import TICK_ENTRIES
    from bnx.compilation.engines._execution import run_ops
    a, b = 600, 300  # 180,000 entries: several slices
    rng = np.random.default_rng(0)
    ta = np.array([int(v) << 80 for v in rng.integers(1, 1000, a * b)], dtype=object)
    tb = np.array([int(v) for v in rng.integers(1, 1000, b)], dtype=object)
    static = {0: (("A", "B"), ta.reshape(a, b)), 1: (("B",), tb)}
    card = {"A": a, "B": b}
    ops = [("sum", [0, 1], "B", ("A",), 2), ("mul", [2, 2], 3)]
    ticks = []
    plain, ticked = {}, {}
    run_ops(ops, plain, static, card)
    run_ops(ops, ticked, static, card, tick=lambda: ticks.append(1))
    assert len(ticks) >= 2 * (a * b) // TICK_ENTRIES
    want = (ta.reshape(a, b) * tb).sum(axis=1) ** 2
    assert plain[3][0] == ticked[3][0] == ("A",)
    assert (plain[3][1] == want).all() and (ticked[3][1] == want).all()

    def stop():
        raise bnx.CompilationLimitError("out of time (the test's)")

    with pytest.raises(bnx.CompilationLimitError):
        run_ops(ops, {}, static, card, tick=stop)
