"""The TAN engine (bnx/compilation/engines/tan.py) against brute force and the general engine.

Every hypothesis TAN (forests of features, zeros, exact ties at the threshold, both
rules) compiles to the oracle's decisions on every instance, and, under the threshold
rule, to the very node the general engine (``FactorEngine``) builds on the same order in
the same manager, on both backends and on any order (not only the depth-first default).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.engines import _tan_model as tm
from bnx.compilation.engines._execution import prepare, prepared_scopes
from bnx.compilation.engines.general import FactorElimination
from bnx.compilation.engines.tan import TanLevels
from bnx.diagram._dd import to_dd
from bnx.diagram.backends import new_manager
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import general_networks, tan_networks


def _against_oracle(case, clf, backend, order=None):
    odd = bnx.compile(clf, order, backend=backend)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  list(clf.features), rule=case.rule)
    for combo, want in table.items():
        x = dict(zip(clf.features, combo))
        assert odd.decide(x) == want, x
    assert odd.count() == sum(table.values())
    return odd


def _same_node_as_general(clf, order, backend):
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


@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=60)
@given(case=tan_networks(max_features=7, max_instances=600, binary_class=True),
       data=st.data())
def test_tan_engine_equals_oracle_and_general_engine(backend, case, data):
    clf = _classifier(case)
    assert clf.structure in ("tan", "naive_bayes")  # a forest without edges: naive Bayes
    odd = _against_oracle(case, clf, backend)
    if clf.rule == "threshold":
        _same_node_as_general(clf, list(odd.order), backend)
        shuffled = data.draw(st.permutations(list(clf.features)))  # any order works
        _same_node_as_general(clf, shuffled, backend)
        _against_oracle(case, clf, backend, shuffled)


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
        _same_node_as_general(clf, order, "autoref")
    finally:
        setattr(tan, switch, saved)


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


@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=40)
@given(case=tan_networks(max_features=6, max_instances=400, rule="argmax"), data=st.data())
def test_argmax_over_many_classes_through_the_tan_engine(backend, case, data):
    """Under the argmax rule with 3 or 4 classes, each comparison Pr(a, x) >= Pr(b, x)
    of a TAN goes through the TAN engine: the oracle's decisions, and the very node the
    general engine's pairwise comparisons give on the same order (default and random)."""
    argmax_through_the_tan_engine(case, backend, data)


def argmax_through_the_tan_engine(case, backend, data):
    """The oracle's decisions and the general engine's node, default and random order."""
    clf = _classifier(case)
    assume(len(clf.class_states) > 2)
    order = data.draw(st.permutations(list(clf.features)))
    pos = clf.class_states.index(clf.positive)
    assert tm.tan_model(clf, order, pair=(pos, (pos + 1) % len(clf.class_states))) is not None
    for o in (None, order):
        odd = _against_oracle(case, clf, backend, o)
        enc, bdd, theirs = _general_argmax(clf, list(odd.order), backend)
        assert to_dd(odd.arrays, bdd, enc.variables) == theirs


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
    _against_oracle(case, clf, "autoref")
    if clf.rule == "threshold" and tm.tan_model(clf, clf.features) is not None:
        _same_node_as_general(clf, list(clf.features), "autoref")


def _net(edges, cpts):
    net = DiscreteBayesianNetwork(edges)
    for node in cpts:
        if node not in net:
            net.add_node(node)
    for node, (parents, columns) in cpts.items():
        k = len(columns[0])
        cards = [len(cpts[p][1][0]) for p in parents]
        net.add_cpds(TabularCPD(node, k, np.array(columns, dtype=float).T.tolist(),
                                evidence=parents or None, evidence_card=cards or None))
    assert net.check_model()
    return net


def test_routing_latent_node_and_class_parent():
    """A latent node above three features: no TAN model (the general engine); above two,
    summing it out leaves a pairwise factor (TAN engine); a class whose parent is a
    feature: a pairwise forest too."""
    cpt = [[0.5, 0.5], [0.25, 0.75], [0.875, 0.125], [0.5, 0.5]]
    latent = _net([("C", "H")] + [(p, f) for f in "ABD" for p in "CH"], {
        "C": ([], [[0.4, 0.6]]),
        "H": (["C"], [[0.3, 0.7], [0.8, 0.2]]),
        "A": (["C", "H"], cpt), "B": (["C", "H"], cpt[::-1]), "D": (["C", "H"], cpt),
    })
    clf = bnx.Classifier(latent, "C", 1, features=["A", "B", "D"])
    assert tm.tan_model(clf, clf.features) is None
    clf = bnx.Classifier(latent, "C", 1, features=["A", "B"])
    assert clf.latent and tm.tan_model(clf, clf.features) is not None
    _same_node_as_general(clf, ["B", "A"], "autoref")
    parent = _net([("A", "C"), ("C", "B"), ("A", "B")], {
        "A": ([], [[0.3, 0.7]]),
        "C": (["A"], [[0.25, 0.75], [0.5, 0.5]]),
        "B": (["C", "A"], [[0.5, 0.5], [0.25, 0.75], [0.875, 0.125], [0.5, 0.5]]),
    })
    clf = bnx.Classifier(parent, "C", 1, features=["A", "B"])
    assert clf.structure == "general" and tm.tan_model(clf, clf.features) is not None
    _same_node_as_general(clf, ["B", "A"], "autoref")


def random_tan(n, seed, ternary=True, classes=2):
    """A random TAN: each feature's parent uniform among the earlier ones (more than two
    classes: the argmax rule)."""
    rng = np.random.default_rng(seed)
    feats = [f"F{i}" for i in range(n)]
    card = {f: int(rng.integers(2, 4)) if ternary else 2 for f in feats}
    parent = {f: feats[int(rng.integers(0, i))] if i else None for i, f in enumerate(feats)}
    cpts = {"C": ([], [list(rng.dirichlet([2] * classes))])}
    for f in feats:
        ps = ["C"] + ([parent[f]] if parent[f] else [])
        cols = classes * (card[parent[f]] if parent[f] else 1)
        cpts[f] = (ps, [list(c) for c in rng.dirichlet([1.0] * card[f], size=cols)])
    edges = [("C", f) for f in feats] + [(parent[f], f) for f in feats if parent[f]]
    kw = {"rule": "argmax"} if classes > 2 else {}
    return bnx.Classifier(_net(edges, cpts), "C", 1, features=feats, **kw)


def test_tan_order_is_depth_first_with_small_contexts():
    clf = random_tan(30, 3)
    order = bnx.default_order(clf)
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
        bnx.compile(clf, backend="autoref", timeout=0.05)
    small = random_tan(8, 6)
    odd = bnx.compile(small, backend="autoref", progress=True)
    assert odd.size >= 1


def test_budget_of_argmax_over_many_classes():
    """The pairwise TAN diagrams and their conjunction answer to max_nodes and timeout."""
    clf = random_tan(40, 5, ternary=False, classes=3)
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=2000"):
        bnx.compile(clf, backend="autoref", max_nodes=2000)
    with pytest.raises(bnx.CompilationLimitError, match="ran out of time"):
        bnx.compile(clf, backend="autoref", timeout=0.05)


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


def test_exact_ties_and_zeros_by_hand(backend):
    """Symmetric tables: every instance with A = B ties exactly at threshold 1/2; a zero
    in B's table forces the positive or the negative class."""
    net = _net([("C", "A"), ("C", "B"), ("A", "B"), ("C", "D")], {
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
            assert odd.decide(dict(zip(["A", "B", "D"], combo))) == want
        _same_node_as_general(clf, list(odd.order), backend)
    assert not math.isnan(bnx.estimate_size(clf))
