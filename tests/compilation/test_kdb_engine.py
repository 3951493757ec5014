"""The TAN engine on factors over the class and several features (k-dependence and BAN
classifiers): the open context along an order is the observed features that share a
factor with an unobserved one, whatever the interaction graph.

Every hypothesis KDB (k = 2 or 3: triangles and larger cliques of features, zeros,
exact ties, both rules) compiles to the oracle's decisions on every instance, and under
the threshold rule to the very node the general engine (``FactorEngine``) builds on the
same order (the default greedy order and a random one), on both backends; the argmax
rule over 3-4 classes matches the general engine's pairwise comparisons.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.compilation.engines import _tan_model as tm  # private: the engine's model
from bnx.compilation.engines._context_order import context_widths  # private: a unit
from tests._support.builders import net_from_columns
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import kdb_networks
from tests._support.tan_engine import (
    against_oracle,
    argmax_through_the_tan_engine,
    same_node_as_general,
)


def _not_a_forest(clf):
    got = tm._forest(clf, (0, 1))
    return got is not None and not got[3]


@pytest.mark.slow
@pytest.mark.parametrize("backend", bnx.backends.available_backends())
@settings(max_examples=60)
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
