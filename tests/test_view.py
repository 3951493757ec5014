"""The integer view of a diagram (bnx.view.Graph) against dd itself, on both backends."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.backends import new_manager
from bnx.view import read

NAMES = [f"v{i}" for i in range(5)]


def _function(bdd, table):
    """The dd function over NAMES that is true on the rows where ``table`` is 1."""
    u = bdd.false
    for row, bit in zip(itertools.product([False, True], repeat=len(NAMES)), table):
        if bit:
            cube = bdd.true
            for name, value in zip(NAMES, row):
                cube = cube & (bdd.var(name) if value else ~bdd.var(name))
            u = u | cube
    return u


tables = st.lists(st.integers(0, 1), min_size=2 ** len(NAMES), max_size=2 ** len(NAMES))


@settings(max_examples=40)
@given(a=tables, b=tables)
def test_read_conj_diff_count_write_back(a, b, backend):
    bdd = new_manager(backend, NAMES)
    fa, fb = _function(bdd, a), _function(bdd, b)
    g, (ia, ib, na) = read([fa, fb, ~fa], len(NAMES))
    assert g.count(ia) == sum(a) and g.count(na) == 2 ** len(NAMES) - sum(a)
    assert g.to_dd(ia, bdd, NAMES) == fa and g.to_dd(na, bdd, NAMES) == ~fa
    assert g.to_dd(g.conj(ia, ib), bdd, NAMES) == fa & fb
    assert g.to_dd(g.diff(ia, ib), bdd, NAMES) == fa & ~fb
    # reduced and canonical: the same function read again is the same node
    assert read([fa & fb], len(NAMES))[0].count(0) == 0
    assert g.conj(ia, ib) == g.conj(ib, ia) == g.diff(ia, g.diff(ia, ib))
    for row, bit in zip(itertools.product([False, True], repeat=len(NAMES)), a):
        assert g.restrict(ia, list(enumerate(row))) == bit  # evaluation along every row


def test_trim_forgets_new_nodes_only(backend):
    bdd = new_manager(backend, NAMES)
    f = bdd.var("v3") | bdd.var("v4")
    g, (u,) = read([f], len(NAMES))
    size = len(g)
    w = g.node(1, u, 0)
    assert len(g) == size + 1 and g.count(w) == g.count(u) // 2
    g.trim(size)
    assert len(g) == size and not g.memo and g.to_dd(u, bdd, NAMES) == f


def test_odd_view_decides_like_the_odd(backend):
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    g, root, negated = odd.view()
    assert g.count(root) == odd.count() and g.count(root) + g.count(negated) == 16
    for code in range(16):
        x = {f: "+" if code >> i & 1 else "-" for i, f in enumerate(odd.features)}
        assert odd._decide_indices(odd.encode(x)) == odd.decide(x)


def test_explanations_from_views_are_dd_diagrams(backend):
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    x = dict.fromkeys(odd.features, "+")
    pis = bnx.pi_explanations(odd, x)
    g, u = pis.view()
    again, (v,) = read([pis.root], pis.layout.nvars)  # written into dd, read back
    assert again.count(v) == g.count(u) and pis.root.bdd is pis.bdd
    assert len(pis) == 3 and len(pis.shortest()) == 1


@settings(max_examples=20)
@given(a=tables)
def test_evaluate_many_is_evaluation_row_by_row(a):
    import numpy as np
    bdd = new_manager("autoref", NAMES)
    g, (u,) = read([_function(bdd, a)], len(NAMES))
    rows = np.array(list(itertools.product([False, True], repeat=len(NAMES))))
    assert g.evaluate_many(u, rows).tolist() == [bool(x) for x in a]


def test_sets_sharing_an_output_graph_stay_intact(backend, monkeypatch):
    """Explanation sets of one ODD and layout share one output graph (nodes and caches
    reused across calls); later calls, and the graph's replacement once large, leave
    the sets already returned unchanged."""
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    xs = [{f: "+" if code >> i & 1 else "-" for i, f in enumerate(odd.features)}
          for code in range(16)]
    first = [bnx.pi_explanations(odd, x) for x in xs]
    assert first[0].view()[0] is first[-1].view()[0]
    sets = [e.to_set() for e in first]
    monkeypatch.setattr(bnx.view.Graph, "__len__", lambda self: 10 ** 6)  # "large": replaced
    again = [bnx.pi_explanations(odd, x, method="cover") for x in xs]
    assert again[0].view()[0] is not first[0].view()[0]
    assert [e.to_set() for e in first] == sets == [e.to_set() for e in again]
    assert [len(e) for e in first] == [len(e) for e in again]


def test_cached_cofactors_serve_later_calls_and_go_with_trim(backend):
    """pi-inst and pi-cover keep each node's cofactors on the ODD's view; later calls
    (other instances, the other method) read them, and trimming the view drops them."""
    odd = bnx.compile(bnx.examples.asia(), backend=backend)
    xs = [dict(zip(odd.features, combo))
          for combo in itertools.product(*(odd.states(f) for f in odd.features))]
    first = [bnx.pi_explanations(odd, x).to_set() for x in xs]
    g = odd.view()[0]
    assert g.cofactors
    assert [bnx.pi_explanations(odd, x, method="cover").to_set() for x in xs] == first
    g.trim(odd._view[3])
    assert not g.cofactors
    assert [bnx.pi_explanations(odd, x).to_set() for x in xs] == first
