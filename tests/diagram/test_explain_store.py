"""The explanation code's own diagrams against dd and brute force, on both backends:
the one store (bnx.diagram.store: diagrams made node by node, read from and written to
dd; conjunctions and stars on an ODD's nodes, in Python or in numpy), and the per-ODD managers
and caches (bnx.question._cache)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.diagram._dd import from_dd  # private: a dd function read into arrays
from bnx.diagram.backends import new_manager
from bnx.diagram.encoding import Encoding
from bnx.diagram.store import Store
from bnx.question import _cache  # private: the store kept per ODD

NAMES = [f"v{i}" for i in range(5)]
ROWS = list(itertools.product([False, True], repeat=len(NAMES)))


def _function(bdd, table):
    """The dd function over NAMES that is true on the rows where ``table`` is 1."""
    u = bdd.false
    for row, bit in zip(ROWS, table):
        if bit:
            cube = bdd.true
            for name, value in zip(NAMES, row):
                cube = cube & (bdd.var(name) if value else ~bdd.var(name))
            u = u | cube
    return u


def star_of(s, u):
    return int(s.star[u])


def _value(level, lo, hi, u, row) -> bool:
    while u > 1:
        u = hi[u] if row[level[u]] else lo[u]
    return u == 1


tables = st.lists(st.integers(0, 1), min_size=2 ** len(NAMES), max_size=2 ** len(NAMES))
#: five binary features, or a 4-state feature (two bits) then three binary ones
ENCODINGS = [Encoding(tuple(NAMES), (("0", "1"),) * 5),
             Encoding(("a", "b", "c", "d"), (("p", "q", "r", "s"),) + (("0", "1"),) * 3)]


@settings(max_examples=40, deadline=None)
@given(a=tables, b=tables, which=st.sampled_from([0, 1]))
def test_conjunctions_and_stars_against_brute_force(a, b, which, backend):
    bdd = new_manager(backend, NAMES)
    arrays, (ia, ib) = from_dd([_function(bdd, a), _function(bdd, b)], len(NAMES))
    enc = ENCODINGS[which]
    s = Store.from_arrays(arrays, enc)
    size = s.n
    (c,) = s.conj_many([ia], [ib]).tolist()
    lv, lo, hi = s.level, s.lo, s.hi
    assert [_value(lv, lo, hi, c, r) for r in ROWS] == [bool(x and y) for x, y in zip(a, b)]
    # canonical: the same conjunction again (either way round) makes no node
    assert s.conj_many([ib, ia], [ia, ib]).tolist() == [c, c] and s.n == max(s.n, size)
    n_after = s.n
    assert s.conj_many([c], [ia]).tolist() == [c] and s.n == n_after
    # (every code names a state in both encodings: the count is over all the rows)
    assert s.conj(ia, ib) == c and s.count(c) == sum(x and y for x, y in zip(a, b))
    # every node's star: the conjunction of its cofactors over its feature's states
    s.close()
    for u in range(2, s.n):
        i = int(s.feature_of[s.level[u]])
        first, m, k = enc.first_level[i], len(enc.bits[i]), len(enc.states[i])
        star = int(s.star[u])
        for r in ROWS:
            want = all(_value(s.level, s.lo, s.hi, u,
                              r[:first] + tuple(bool((j >> (m - 1 - t)) & 1) for t in range(m))
                              + r[first + m:]) for j in range(k))
            assert _value(s.level, s.lo, s.hi, star, r) == want
    assert s.closed and min(s.star) >= 0  # closed: every star made
    # made one node at a time: the same stars, as functions (its new nodes may be
    # numbered otherwise)
    p = Store.from_arrays(arrays, enc)
    assert p.conj_many([ia], [ib]).tolist() == [p.conj(ia, ib)]
    for u in range(2, arrays.size):
        for r in ROWS:
            assert _value(p.var, p.lo, p.hi, p.star_of(u), r) == _value(s.level, s.lo, s.hi,
                                                                        star_of(s, u), r)


@settings(max_examples=30, deadline=None)
@given(a=tables)
def test_set_diagrams_read_and_write_dd(a, backend):
    bdd = new_manager(backend, NAMES)
    f = _function(bdd, a)
    d = Store(len(NAMES))
    u = d.read_dd(f)
    assert [_value(d.var, d.lo, d.hi, u, r) for r in ROWS] == [bool(x) for x in a]
    assert d.read_dd(f) == u and d.count(u) == sum(a)  # one node per function
    other = new_manager(backend, NAMES)
    assert d.to_dd(other, NAMES, u) == _function(other, a)
    arrays, _ = from_dd([f], len(NAMES))
    e = Store.from_arrays(arrays)
    assert [_value(e.var, e.lo, e.hi, arrays.root, r) for r in ROWS] == [bool(x) for x in a]
    assert e.node(arrays.level[arrays.root], arrays.lo[arrays.root],
                  arrays.hi[arrays.root]) == arrays.root  # its unique table holds them
    g = Store(len(NAMES))
    v = g.read_dd(~bdd.var(NAMES[0]) | (bdd.var(NAMES[1]) & ~f))  # negated edges resolved
    assert [_value(g.var, g.lo, g.hi, v, r) for r in ROWS] == \
        [not r[0] or (r[1] and not x) for r, x in zip(ROWS, a)]


@settings(max_examples=40, deadline=None)
@given(a=tables, b=tables, levels=st.lists(st.integers(0, len(NAMES) - 1), max_size=3))
def test_set_store_against_brute_force(a, b, levels):
    """The store (pi-inst's output, small erosions) makes reduced diagrams, one node per
    function; its ``a and not b`` and ``a and b`` are right on every row, its sizes dd's."""
    s = Store(len(NAMES))

    def build(table):  # the function of ``table`` by Shannon expansion, node by node
        def rec(level, rows):
            if level == len(NAMES):
                return 1 if table[ROWS.index(rows)] else 0
            return s.node(level, rec(level + 1, rows + (False,)), rec(level + 1, rows + (True,)))
        return rec(0, ())

    fa, fb = build(a), build(b)
    assert build(a) == fa and len(s.var) == len(s.lo) == len(s.hi)
    assert all(s.lo[u] != s.hi[u] and s.var[u] < min(s.var[s.lo[u]], s.var[s.hi[u]])
               for u in range(2, len(s)))
    d = s.diff(fa, fb)
    assert [_value(s.var, s.lo, s.hi, d, r) for r in ROWS] == \
        [bool(x and not y) for x, y in zip(a, b)]
    c = s.conj(fa, fb)
    assert [_value(s.var, s.lo, s.hi, c, r) for r in ROWS] == [bool(x and y) for x, y in zip(a, b)]
    assert s.conj(fb, fa) == c
    assert s.count(fa) == sum(a) and s.count(d) == sum(x and not y for x, y in zip(a, b))
    assert s.count(0) == 0 and s.count(1) == len(ROWS)
    bdd = new_manager("autoref", NAMES)
    assert s.size(fa) == _function(bdd, a).dag_size
    for lv in levels:  # a node over a level with equal children is its child
        assert s.node(lv, fa, fa) == fa


def test_explanation_sets_are_dd_diagrams(backend):
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    x = dict.fromkeys(odd.features, "+")
    pis = bnx.pi_explanations(odd, x)
    table, u = pis.nodes
    again = Store(pis.layout.nvars)
    v = again.read_dd(pis.root)  # written into dd, read back
    assert again.nodes_of(v) == table.nodes_of(u) and again.count(v) == table.count(u)
    assert pis.root.bdd is pis.bdd
    assert pis.bdd is _cache.aux_manager(odd, pis.layout.variables)
    assert len(pis) == 3 and len(pis.shortest()) == 1
    assert _cache.decide(odd, [1, 1, 1, 1]) == odd.decide(x)


def test_sets_sharing_a_table_stay_intact(backend, monkeypatch):
    """Explanation sets of one ODD and layout are built in one shared node table (its
    nodes and memos reused across calls); later calls, and the table's replacement once
    large, leave the sets already returned unchanged."""
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    xs = [{f: "+" if code >> i & 1 else "-" for i, f in enumerate(odd.features)}
          for code in range(16)]
    first = [bnx.pi_explanations(odd, x) for x in xs]
    sets = [e.to_set() for e in first]
    variables = first[0].layout.variables
    table = _cache.node_table(odd, variables)  # where pi-inst and pi-cover build sets
    cover_table = _cache.node_table(odd, _cache.layout(odd, "partial").variables)
    monkeypatch.setattr(bnx.explanation._pi_memo, "CORE_LIMIT", 0)  # "large": replaced
    again = [bnx.pi_explanations(odd, x, method="cover") for x in xs]
    inst = [bnx.pi_explanations(odd, x) for x in xs]
    assert _cache.node_table(odd, variables) is not table
    assert _cache.node_table(odd, _cache.layout(odd, "partial").variables) is not cover_table
    assert [e.to_set() for e in first] == sets == [e.to_set() for e in again] == \
        [e.to_set() for e in inst]
    assert [len(e) for e in first] == [len(e) for e in again]
    # the size read from the store is dd's
    assert [e.size for e in first] == [e.size for e in again] == \
        [e.root.dag_size for e in inst]


def test_stars_serve_later_calls(backend):
    """pi-inst and pi-cover keep each node's star in the ODD's store; later calls
    (other instances, the other method) read them and give the same sets."""
    odd = bnx.compile(bnx.examples.asia(), backend=backend)
    xs = [dict(zip(odd.features, combo))
          for combo in itertools.product(*(odd.states(f) for f in odd.features))]
    first = [bnx.pi_explanations(odd, x).to_set() for x in xs]
    s = bnx.explanation.pi._store(odd, True)
    assert s.closed and min(s.star) >= 0
    assert [bnx.pi_explanations(odd, x, method="cover").to_set() for x in xs] == first
    # a store whose stars are made on demand only gives the same sets
    odd2 = bnx.compile(bnx.examples.asia(), backend=backend)
    for d in (True, False):
        key = (odd2.encoding.first_level,
               tuple(len(s) for s in odd2.encoding.states), _cache.least_states(odd2, d))
        arrays = odd2.arrays if d else bnx.explanation.pi._store(odd2, False) and \
            odd2.arrays.cache.get("negated")
        made = arrays.cache.put("conj_store", key, Store.from_arrays(arrays, odd2.encoding))
        assert bnx.explanation.pi._store(odd2, d) is made and not made.closed  # the one used
    assert [bnx.pi_explanations(odd2, x).to_set() for x in xs] == first
    assert [bnx.prime_implicants(odd2, decision=d).to_set() for d in (True, False)] == \
        [bnx.prime_implicants(odd, decision=d).to_set() for d in (True, False)]
