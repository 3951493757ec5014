"""Compiling deep diagrams leaves Python's recursion limit alone: every engine, the
feature orders and ``compile`` run as loops, however many levels the diagram has (under
``limit_untouched``, the limit at 300 and any change to it an error); the answers are
checked against what the networks decide, computed without a diagram."""

from __future__ import annotations

import itertools

import pytest

import bnx
from bnx.compilation.engines import FactorEngine, SplitEngine, TanEngine, TensorEngine
from bnx.diagram.encoding import Encoding
from tests._support.builders import ENGINES, run_engine
from tests._support.deep import (
    latent_chain,
    limit_untouched,
    majority,
    majority_count,
    majority_decides,
    one_matters,
)

BACKENDS = bnx.backends.available_backends()


def _encoding(clf) -> Encoding:
    order = bnx.compilation.default_order(clf)
    return Encoding(tuple(order), tuple(clf.states(f) for f in order))


def _run(engine, clf, enc, backend):
    """``engine``'s arrays for ``clf``, or ``None`` when it refuses."""
    return run_engine(engine, clf, enc, backend)


def test_the_majority_count_is_a_sum_of_binomials():
    """The closed forms below, against small majorities compiled and decided normally."""
    for n in range(1, 8):
        clf = majority(n)
        odd = bnx.compile(clf, backend="autoref")
        xs = [dict(zip(clf.features, v)) for v in itertools.product((0, 1), repeat=n)]
        assert sum(clf.decide(x, within="all") for x in xs) == odd.count() == majority_count(n)
        assert all(majority_decides(x) == clf.decide(x, within="all") == odd.decide(x) for x in xs)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
def test_every_engine_compiles_a_deep_majority(engine, backend):
    """200 levels and 10,000 nodes: each engine that takes a naive Bayes gives the
    majority function."""
    n = 200
    clf = majority(n)
    enc = _encoding(clf)
    with limit_untouched():
        arrays = _run(engine, clf, enc, backend)
    if engine is SplitEngine:  # not a latent tree
        assert arrays is None
        return
    odd = bnx.ODD(clf, enc, backend=backend, arrays=arrays)
    assert odd.count() == majority_count(n)
    for k in (0, 99, 100, 101, n):
        x = {f: int(i < k) for i, f in enumerate(clf.features)}
        assert odd.decide(x) == majority_decides(x)


#: (shape, engine, features, backend): the fast engines on every shape and backend; the
#: slow exact ones on fewer features (still past the tests' recursion limit of 300),
#: each shape that they take on one backend (the recursion is theirs, not the backend's).
SLOW = {(TensorEngine, "latent_tree"): "autoref", (TensorEngine, "naive_bayes"): "cudd",
        (FactorEngine, "naive_bayes"): "autoref", (FactorEngine, "latent_tree"): "cudd"}
SHAPES = [(shape, engine, 500, backend)
          for shape in ("naive_bayes", "latent_tree", "tan")
          for engine in ENGINES if engine not in (TensorEngine, FactorEngine)
          for backend in BACKENDS]
SHAPES += [(shape, engine, 400, backend) for (engine, shape), backend in SLOW.items()
           if backend in BACKENDS]


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "engine", "n", "backend"), SHAPES,
                         ids=[f"{s}-{e.__name__}-{b}" for s, e, _, b in SHAPES])
def test_every_engine_compiles_a_diagram_deeper_than_the_limit(shape, engine, n, backend):
    """``n`` features, only the first informative: positive iff ``f0 = 1``. A recursion
    per level would need more than the limit's 300 frames."""
    clf = one_matters(n, shape)
    with limit_untouched():
        enc = _encoding(clf)
        arrays = _run(engine, clf, enc, backend)
    if arrays is None:
        assert engine.accepts(clf, enc).reason
        return
    odd = bnx.ODD(clf, enc, backend=backend, arrays=arrays)
    assert odd.count() == 2 ** (n - 1)
    x = dict.fromkeys(clf.features, 0)
    assert not odd.decide(x) and odd.decide({**x, "f0": 1})


def test_the_engines_that_should_accept_the_deep_shapes_do():
    """(So that the test above cannot pass by refusals alone.)"""
    takes = {shape: [e for e in ENGINES if e.accepts(clf := one_matters(30, shape),
                                                     _encoding(clf))]
             for shape in ("naive_bayes", "latent_tree", "tan")}
    assert TensorEngine in takes["naive_bayes"] and FactorEngine in takes["naive_bayes"]
    assert SplitEngine in takes["latent_tree"] and TensorEngine in takes["latent_tree"]
    assert TanEngine in takes["tan"]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_compile_a_deep_majority_and_a_tan_path(backend):
    with limit_untouched():
        odd = bnx.compile(majority(200), backend=backend)
        assert odd.count() == majority_count(200)
        path = bnx.compile(one_matters(450, "tan"), backend=backend)
        assert path.count() == 2 ** 449 and path.size == 2  # one node, one terminal


@pytest.mark.slow
def test_orders_of_deep_networks():
    """``tan_order`` plans a tree that is a path of 450 features (its subtrees as a
    loop); ``latent_tree_order`` walks hidden variables 420 deep."""
    with limit_untouched():
        tan = one_matters(450, "tan")
        assert bnx.compilation.tan_order(tan) == list(tan.features)  # down the path from its end
        chain = latent_chain(420)
        order = bnx.compilation.default_order(chain)
    assert sorted(order) == sorted(chain.features)
    # Algorithm 2 on the path: the feature of H{i} first, unless the rest below is as small
    want = [f"f{i}" for i in range(418)] + ["f419", "f418"]
    assert order == want
