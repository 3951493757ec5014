"""The TAN engine (bnx/compilation/engines/tan.py) against brute force and the general engine.

Every hypothesis TAN (forests of features, zeros, exact ties at the threshold, both
rules) compiles to the oracle's decisions on every instance, and, under the threshold
rule, to the very node the general engine (``FactorEngine``) builds on the same order in
the same manager, on both backends and on any order (not only the depth-first default).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.compilation.engines import _tan_model as tm  # private: the engine's model
from bnx.compilation.engines._execution import prepare, prepared_scopes  # private: a unit
from tests._support import oracle
from tests._support.builders import net_from_columns, random_tan
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import general_networks, tan_networks
from tests._support.tan_engine import (
    against_oracle,
    argmax_through_the_tan_engine,
    same_node_as_general,
)


@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=60)
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
@settings(max_examples=40)
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
            assert odd.decide(dict(zip(["A", "B", "D"], combo))) == want
        same_node_as_general(clf, list(odd.order), backend)
    assert not math.isnan(bnx.estimate_size(clf))
