"""The array form of a diagram (bnx.diagram._arrays) against dd itself, on both backends."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnx.diagram import _arrays as A  # private: the array passes (units)
from bnx.diagram import _dd as D  # private: arrays to and from dd
from bnx.diagram._feature_view import decide, decide_states, feature_view  # private: passes
from bnx.diagram.encoding import Encoding
from tests._support.builders import dd_function


@st.composite
def functions(draw):
    """A random Boolean function over 1-6 variables, as a list of dd operations."""
    n = draw(st.integers(1, 6))
    ops = draw(st.lists(st.tuples(st.sampled_from("&|^"), st.integers(0, n - 1), st.booleans()),
                        max_size=8))
    start = draw(st.booleans())
    return n, start, ops


@pytest.mark.parametrize("backend", ["autoref", "cudd"])
@settings(max_examples=60, deadline=None)
@given(spec=functions())
def test_from_dd_to_dd_count_decide(backend, spec):
    bdd, names, u = dd_function(backend, *spec)
    n = len(names)
    arr, ids = D.from_dd([u, ~u], n)
    bits = np.array(list(itertools.product([False, True], repeat=n)), dtype=bool)
    for r, fn in zip(ids, (u, ~u)):
        assert A.count(arr, r) == int(fn.count(nvars=n))
        want = [bdd.let(dict(zip(names, map(bool, b))), fn) == bdd.true for b in bits]
        enc = Encoding(tuple(names), (("0", "1"),) * n)  # binary: a state is its bit
        assert decide_states(feature_view(arr, enc), bits.astype(int), r).tolist() == want
        assert [decide(arr, enc, b.astype(int).tolist(), r) for b in bits] == want
        assert D.to_dd(arr, bdd, names, r) == fn
    one, _ = D.from_dd([u], n)
    # the negation pass agrees with dd's negation
    assert A.count(A.negate(one)) == int((~u).count(nvars=n))
    # dd's own node count (complemented edges shared) is recovered from the arrays
    assert A.dd_size(one) == u.dag_size


def test_builder_reduces_and_merges():
    b = A.Builder(3)
    x2 = b.nodes(2, [A.FALSE, A.FALSE], [A.TRUE, A.TRUE])  # two copies of one node
    red = b.nodes(1, [x2[0]], [x2[1]])  # a redundant test
    top = b.nodes(0, red, [A.TRUE])
    arr = b.finish(int(top[0]))
    assert arr.size == 4 and A.count(arr) == 6


def test_builder_select_encodes_states_msb_first():
    b = A.Builder(2)
    # a feature with 3 states on two bits: state j goes to kids[j]; code 3 names none
    root = b.select(0, 2, [[A.TRUE, A.FALSE, A.TRUE]])
    arr = b.finish(int(root[0]))
    enc = Encoding(("a", "b"), (("0", "1"),) * 2)
    got = decide_states(feature_view(arr, enc), [[0, 0], [0, 1], [1, 0], [1, 1]]).tolist()
    assert got == [True, False, True, False]


def test_grouped_by_level_is_checked():
    """Columns whose nodes are not grouped by level, deepest first, are no valid diagram
    (the file loader refuses them), as the node-by-node reference finds too."""
    from bnx.diagram._problem import problem  # private: the arrays' checks
    from tests._support.oracle_arrays import problem_by_nodes
    bad = A.DiagramArrays(2, [2, 2, 0, 1], [0, 1, 0, 0], [0, 1, 1, 1], 2)
    assert problem(bad) == ("grouped", 2)
    bad = A.DiagramArrays(3, [3, 3, 1, 2, 0], [0, 1, 0, 0, 2], [0, 1, 1, 1, 3], 4)
    assert problem(bad) == problem_by_nodes(bad) == ("grouped", 2)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_feature_view_decides_as_the_odd(data, backend):
    """Per-state children and decisions on state indices agree with ODD.decide."""
    import bnx
    from bnx.diagram._feature_view import decide_states, feature_view  # private: a pass
    from tests._support.strategies import classifiers
    case = data.draw(classifiers(max_features=4, max_instances=64))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    odd = bnx.compile(clf, backend=backend)
    fv = feature_view(odd.arrays, odd.encoding)
    states = odd.encoding.states
    rows = list(itertools.product(*[range(len(s)) for s in states]))
    got = decide_states(fv, rows).tolist()
    want = [odd.decide({f: s[j] for f, s, j in zip(odd.features, states, r)}) for r in rows]
    assert got == want


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_compiled_arrays_and_their_dd_form_agree(data, backend):
    """An ODD made as arrays (the level engine) has dd's node count and model count once
    its dd root is made, and saving and loading keeps the arrays as they are."""
    import bnx
    from bnx.diagram._traversals import count as dd_count  # private: dd's count, no recursion
    from tests._support.strategies import naive_bayes
    case = data.draw(naive_bayes(max_features=5, max_instances=128))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    odd = bnx.compile(clf, backend=backend)
    size, count = odd.size, odd.count()  # from the arrays
    root = odd.root  # made now
    assert size == root.dag_size
    assert count == dd_count(root, odd.encoding.nvars)
    assert root == root & odd.domain
    again = D.from_dd([root], odd.encoding.nvars)[0]
    assert [x.tolist() for x in (again.level, again.lo, again.hi)] == \
        [x.tolist() for x in (odd.arrays.level, odd.arrays.lo, odd.arrays.hi)]


def _value(f, bits) -> bool:
    """The function ``f`` on one assignment of its levels, by a walk down its columns."""
    level, lo, hi = f.columns
    u = f.root
    while u > A.TRUE:
        u = hi[u] if bits[level[u]] else lo[u]
    return u == A.TRUE


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_passes_against_every_assignment(data):
    """Each pass over the arrays (count, dd size, instances over valid codes, negation,
    validation) against the function's value on every assignment of its levels, and dd's
    own node count; on the function, its negation and the two constants."""
    import bnx
    from bnx.diagram._feature_view import count_instances  # private: a pass
    from bnx.diagram._problem import problem  # private: the arrays' checks
    from bnx.diagram.backends import new_manager
    from tests._support.oracle_arrays import problem_by_nodes
    from tests._support.strategies import classifiers
    case = data.draw(classifiers(max_features=4, max_instances=64))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    odd = bnx.compile(clf, backend="autoref")
    a, enc = odd.arrays, odd.encoding
    fs = [a, A.negate(a), *(A.DiagramArrays(a.nvars, [a.nvars] * 2, [0, 1], [0, 1], root)
                            for root in (0, 1))]
    assignments = list(itertools.product([0, 1], repeat=a.nvars))
    valid = [[(j >> (len(bs) - 1 - b)) & 1 for i, bs in enumerate(enc.bits)
              for b in range(len(bs)) for j in [x[i]]]
             for x in itertools.product(*(range(len(s)) for s in enc.states))]
    names = [f"v{k}" for k in range(a.nvars)]
    bdd = new_manager("autoref", names)
    for f in fs:
        values = [_value(f, bits) for bits in assignments]
        assert A.count(f) == sum(values)
        assert count_instances(f, enc) == sum(_value(f, bits) for bits in valid)
        neg = A.negate(f)
        assert [_value(neg, bits) for bits in assignments] == [not v for v in values]
        assert A.dd_size(f) == D.to_dd(f, bdd, names, f.root).dag_size
        assert problem(f) is None and problem_by_nodes(f) is None
    assert fs[1].root == (a.root if a.root > 1 else 1 - a.root)
    assert fs[2 + 0].root == 0 and A.negate(fs[2]).root == 1  # the negation of false


def test_columns_are_held_once():
    """The numpy arrays are read-only views of the columns (the same memory)."""
    f = A.DiagramArrays(2, [2, 2, 1, 0], [0, 1, 0, 2], [0, 1, 1, 1], 3)
    assert f.level.tolist() == list(f.columns[0]) and not f.level.flags.writeable
    assert np.shares_memory(f.lo, np.frombuffer(f.columns[1], dtype=np.int64))
    assert f.starts == (4, 3, 2) and f.block(0) == slice(3, 4) and A.count(f) == 3


@pytest.mark.parametrize("example", ["admissions", "asia"])
def test_both_decisions_in_one_node_space(example):
    """``_cache.both`` holds the function and its negation in one node space: node ``u``
    of the arrays, and its negation at ``u + size - 2`` (the terminals swapped)."""
    import bnx
    from bnx.question import _cache  # private: what is kept per ODD
    odd = bnx.compile(getattr(bnx.examples, example)(), backend="autoref")
    g, root, neg = _cache.both(odd)
    n = odd.arrays.size
    assert neg == (root + n - 2 if root > 1 else 1 - root)
    level, lo, hi = odd.arrays.lists()
    assert [list(g.var[:n]), list(g.lo[:n]), list(g.hi[:n])] == [level, lo, hi]
    for u in range(2, len(level)):  # the negation of node u is node u + size - 2
        v = u + len(level) - 2
        assert g.var[v] == level[u]
        assert [g.lo[v], g.hi[v]] == [c + len(level) - 2 if c > 1 else 1 - c
                                      for c in (lo[u], hi[u])]
