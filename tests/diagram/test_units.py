"""The diagram's private units, each tested directly against ``dd`` itself or brute force.

They have no public face: the array form and its passes (``bnx/diagram/_arrays.py``,
``_dd.py``, ``_feature_view.py``, ``_problem.py``, ``_traversals.py``), ``dd``'s set
operations (``_setops.py``), the cache registry (``_memo.py``), the store and managers kept
per ODD (``bnx/question/_cache.py``) and the robustness profile's erosions on a store. A
question reaches them only whole, so it cannot say which pass went wrong, build arrays no
compile makes (broken, negated, constant) or force a path (a bound of one entry, a diagram
too deep for ``dd.autoref``); the questions themselves are tested through ``bnx.*`` in the
other files. On both backends."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.changes._erosion import eroded_counts  # private: the profile's pass on a store
from bnx.diagram import _arrays as A  # private: the array passes (units)
from bnx.diagram import _dd as D  # private: arrays to and from dd
from bnx.diagram import _memo  # private: the cache registry (bounds, kinds, owners)
from bnx.diagram import _setops as sets  # private: dd set operations, too deep for autoref
from bnx.diagram._feature_view import (  # private: the passes per feature state
    count_instances,
    decide,
    decide_states,
    feature_view,
)
from bnx.diagram._problem import problem  # private: the checks of a file's arrays
from bnx.diagram._traversals import count as dd_count  # private: dd's count, no recursion
from bnx.diagram.backends import available_backends, new_manager, write_nodes
from bnx.diagram.encoding import Encoding
from bnx.diagram.store import Store
from bnx.question import _cache  # private: the store and managers kept per ODD
from tests._support import oracle
from tests._support.builders import dd_function
from tests._support.deep import limit_untouched, majority
from tests._support.oracle_arrays import problem_by_nodes
from tests._support.strategies import classifiers, naive_bayes


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
        assert decide_states(arr, enc, bits.astype(int), r).tolist() == want
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
    got = decide_states(arr, enc, [[0, 0], [0, 1], [1, 0], [1, 1]]).tolist()
    assert got == [True, False, True, False]


def test_grouped_by_level_is_checked():
    """Columns whose nodes are not grouped by level, deepest first, are no valid diagram
    (the file loader refuses them), as the node-by-node reference finds too."""
    bad = A.DiagramArrays(2, [2, 2, 0, 1], [0, 1, 0, 0], [0, 1, 1, 1], 2)
    assert problem(bad) == ("grouped", 2)
    bad = A.DiagramArrays(3, [3, 3, 1, 2, 0], [0, 1, 0, 0, 2], [0, 1, 1, 1, 3], 4)
    assert problem(bad) == problem_by_nodes(bad) == ("grouped", 2)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_feature_view_decides_as_the_odd(data, backend):
    """Per-state children and decisions on state indices agree with ODD.decide."""
    case = data.draw(classifiers(max_features=4, max_instances=64))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    odd = bnx.compile(clf, backend=backend)
    fv = feature_view(odd.arrays, odd.encoding)
    states = odd.encoding.states
    rows = list(itertools.product(*[range(len(s)) for s in states]))
    got = decide_states(fv.arrays, fv.enc, rows).tolist()
    want = [odd.decide({f: s[j] for f, s, j in zip(odd.features, states, r)}, within="all")
            for r in rows]
    assert got == want


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_compiled_arrays_and_their_dd_form_agree(data, backend):
    """An ODD made as arrays (the level engine) has dd's node count and model count once
    its dd root is made, and saving and loading keeps the arrays as they are."""
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


def _shuffled(f, rng):
    """The same function with each level's nodes in another order (the blocks in place)."""
    perm = np.arange(f.size)
    for lvl in range(f.nvars):
        s = f.block(lvl)
        perm[s] = rng.sample(range(s.start, s.stop), s.stop - s.start)
    new = np.empty_like(perm)
    new[perm] = np.arange(f.size)  # node perm[i] is renumbered i
    level, lo, hi = (np.asarray(c) for c in f.columns)
    return A.DiagramArrays(f.nvars, level[perm], new[lo[perm]], new[hi[perm]],
                           int(new[f.root]) if f.root > 1 else f.root)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_passes_against_every_assignment(data):
    """Each pass over the arrays (count, dd size, instances over valid codes, negation,
    validation) against the function's value on every assignment of its levels, and dd's
    own node count; on the function, its negation and the two constants."""
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
        g = _shuffled(f, data.draw(st.randoms(use_true_random=False)))  # not in bnx's order
        assert (A.count(g), A.dd_size(g), problem(g)) == (A.count(f), A.dd_size(f), None)
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


# ---------------------------------------------------------------- the store and caches
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


def _walk(level, lo, hi, u, row) -> bool:
    """The function under ``u`` on ``row``, by a walk down the columns."""
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
    arrays, (ia, ib) = D.from_dd([_function(bdd, a), _function(bdd, b)], len(NAMES))
    enc = ENCODINGS[which]
    s = Store.from_arrays(arrays, enc)
    size = s.n
    (c,) = s.conj_many([ia], [ib]).tolist()
    lv, lo, hi = s.level, s.lo, s.hi
    assert [_walk(lv, lo, hi, c, r) for r in ROWS] == [bool(x and y) for x, y in zip(a, b)]
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
            want = all(_walk(s.level, s.lo, s.hi, u,
                              r[:first] + tuple(bool((j >> (m - 1 - t)) & 1) for t in range(m))
                              + r[first + m:]) for j in range(k))
            assert _walk(s.level, s.lo, s.hi, star, r) == want
    assert s.closed and min(s.star) >= 0  # closed: every star made
    # made one node at a time: the same stars, as functions (its new nodes may be
    # numbered otherwise)
    p = Store.from_arrays(arrays, enc)
    assert p.conj_many([ia], [ib]).tolist() == [p.conj(ia, ib)]
    for u in range(2, arrays.size):
        for r in ROWS:
            assert _walk(p.var, p.lo, p.hi, p.star_of(u), r) == _walk(s.level, s.lo, s.hi,
                                                                        star_of(s, u), r)


@settings(max_examples=30, deadline=None)
@given(a=tables)
def test_set_diagrams_read_and_write_dd(a, backend):
    bdd = new_manager(backend, NAMES)
    f = _function(bdd, a)
    d = Store(len(NAMES))
    u = d.read_dd(f)
    assert [_walk(d.var, d.lo, d.hi, u, r) for r in ROWS] == [bool(x) for x in a]
    assert d.read_dd(f) == u and d.count(u) == sum(a)  # one node per function
    other = new_manager(backend, NAMES)
    assert d.to_dd(other, NAMES, u) == _function(other, a)
    arrays, _ = D.from_dd([f], len(NAMES))
    e = Store.from_arrays(arrays)
    assert [_walk(e.var, e.lo, e.hi, arrays.root, r) for r in ROWS] == [bool(x) for x in a]
    assert e.node(arrays.level[arrays.root], arrays.lo[arrays.root],
                  arrays.hi[arrays.root]) == arrays.root  # its unique table holds them
    g = Store(len(NAMES))
    v = g.read_dd(~bdd.var(NAMES[0]) | (bdd.var(NAMES[1]) & ~f))  # negated edges resolved
    assert [_walk(g.var, g.lo, g.hi, v, r) for r in ROWS] == \
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
    assert [_walk(s.var, s.lo, s.hi, d, r) for r in ROWS] == \
        [bool(x and not y) for x, y in zip(a, b)]
    c = s.conj(fa, fb)
    assert [_walk(s.var, s.lo, s.hi, c, r) for r in ROWS] == [bool(x and y) for x, y in zip(a, b)]
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
    assert _cache.decide(odd, [1, 1, 1, 1]) == odd.decide(x, within="all")


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


# ---------------------------------------------------------------- dd operations too deep
#: levels of the chains too deep for dd.autoref's recursion
CHAIN = 1500


def _chains(backend: str):
    """Two functions ``CHAIN`` levels deep: "every variable on" and "every variable on but
    the last", written node by node (no recursion)."""
    names = [f"x{i}" for i in range(CHAIN)]
    bdd = new_manager(backend, names)
    var = [0, 0] + list(range(CHAIN - 1, -1, -1))  # node 2 + k tests level CHAIN - 1 - k
    lo = [0, 0] + [0] * CHAIN
    on = write_nodes(bdd, names, var, lo, [0, 0, 1] + list(range(2, CHAIN + 1)), CHAIN + 1)
    hi_last_off = [0, 0, 0] + list(range(2, CHAIN + 1))
    lo_last_off = [0, 0, 1] + [0] * (CHAIN - 1)
    but_last = write_nodes(bdd, names, var, lo_last_off, hi_last_off, CHAIN + 1)
    return bdd, on, but_last


@pytest.mark.parametrize("backend", available_backends())
def test_operations_too_deep_for_autoref_say_so(backend):
    bdd, on, but_last = _chains(backend)
    with limit_untouched():
        if backend == "autoref":
            for op in (lambda: sets.intersect(on, but_last), lambda: sets.union(on, but_last),
                       lambda: sets.difference(on, but_last)):
                with pytest.raises(bnx.BackendError, match="backend='cudd'"):
                    op()
        else:
            assert sets.intersect(on, but_last) == sets.false(bdd)
            assert sets.union(on, but_last) != on
            assert sets.difference(on, but_last) == on


# ---------------------------------------------------------------- the cache registry
def _pis(clf, x):
    args = (clf.network, clf.class_var, clf.positive, clf.threshold, list(clf.features))
    return {frozenset(p.items()) for p in
            (dict(p) for p in oracle.pi_explanations(*args, x))}


def _instances(odd):
    for combo in itertools.product(*(odd.states(f) for f in odd.features)):
        yield dict(zip(odd.features, combo))


def test_every_kind_is_bounded(monkeypatch):
    """With every kind bounded to one entry, questions that need several entries of a
    kind (both decisions, both layouts) still answer exactly."""
    clf = bnx.examples.admissions()
    warm = bnx.compile(clf, backend="autoref")  # the questions' modules register their kinds
    x = dict.fromkeys(warm.features, "+")
    bnx.pi_explanations(warm, x), bnx.robustness(warm, x), bnx.prime_implicants(warm)
    tight = {k: v._replace(bound=1) for k, v in _memo.KINDS.items()}
    monkeypatch.setattr(_memo, "KINDS", tight)
    odd = bnx.compile(clf, backend="autoref")
    for x in _instances(odd):
        got = bnx.pi_explanations(odd, x).to_set()
        assert got == _pis(clf, x)
        bnx.robustness(odd, x)
        assert all(n <= 1 for n in odd.arrays.cache.sizes().values())
    assert bnx.prime_implicants(odd).count + bnx.prime_implicants(odd, decision=False).count \
        == oracle_prime_count(clf)


def oracle_prime_count(clf) -> int:
    args = (clf.network, clf.class_var, clf.positive, clf.threshold, list(clf.features))
    return sum(len(oracle.prime_implicants(*args, decision=d)) for d in (True, False))


def test_a_cache_keeps_the_most_recently_used_and_knows_its_kinds():
    from bnx.explanation import _pi_memo  # noqa: F401 (registers the kind "pi_state")
    c = _memo.Caches()
    bound = _memo.KINDS["pi_state"].bound
    for k in range(bound):
        c.put("pi_state", k, k)
    assert c.get("pi_state", 0) == 0  # now the most recently used
    c.put("pi_state", "new", 1)
    assert c.get("pi_state", 1) is None and c.get("pi_state", 0) == 0
    assert c.make("pi_state", 0, lambda: "again") == 0
    with pytest.raises(KeyError, match="unknown cache kind"):
        c.put("no such kind", (), 1)
    c.clear("pi_state")
    assert len(c) == 0 and c.entries("pi_state") == []


def test_every_kind_says_what_it_holds():
    bnx.pi_explanations(bnx.compile(bnx.examples.admissions(), backend="autoref"),
                        dict.fromkeys(bnx.examples.admissions().features, "+"))
    assert {"feature_view", "layout", "node_table", "pi_state"} <= set(_memo.KINDS)
    for name, kind in _memo.KINDS.items():
        assert kind.bound >= 1 and kind.what, name


def test_each_kind_is_registered_by_its_owner_once():
    """The cache module on the diagram's floor names no kind of the floors above: each
    module that keeps something registers its kind when it is imported (in a fresh
    process, the kinds of the MC code appear with it); a second owner of one kind with
    another spec is refused."""
    import subprocess
    import sys
    code = ("from bnx.diagram import _memo; before = set(_memo.KINDS); "
            "import bnx.explanation.mc; print('mc' in before, 'mc' in _memo.KINDS, "
            "'layout' in _memo.KINDS)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "True", "True"], out.stderr
    import bnx.explanation.mc  # noqa: F401
    spec = _memo.KINDS["mc"]
    _memo.register("mc", spec.bound, spec.what)  # the same spec again: the module reloaded
    with pytest.raises(ValueError, match="one kind has one owner"):
        _memo.register("mc", spec.bound + 1, "something else")
    assert _memo.KINDS["mc"] == spec


def test_the_cache_module_names_no_module_of_a_floor_above():
    import inspect
    text = inspect.getsource(_memo)
    above = ["classifier", "odd", "compilation", "question", "probability", "explanation",
             "changes", "attribution", "linear", "tabular", "report", "serve", "cli"]
    assert [p for p in above if f"bnx.{p}" in text or f"bnx/{p}" in text] == []


# ---------------------------------------------------------------- erosions on a deep store
#: Below the majority's depth (200 levels): a pass recursing once per level would pass it.
LIMIT = 150


@pytest.fixture(scope="module", params=["autoref", "cudd"])
def deep(request):
    """``majority(200)`` compiled, and ``t``: the fewest features on that make it positive."""
    if request.param not in available_backends():
        pytest.skip("dd.cudd is not installed")
    odd = bnx.compile(majority(200), backend=request.param)
    t = next(k for k in range(201)
             if odd.decide({f: int(i < k) for i, f in enumerate(odd.features)}, within="all"))
    return odd, t


def _profile(t: int, free: int) -> tuple[dict, int]:
    """The robustness profile of the majority when only ``free`` features may change:
    a positive instance with ``k`` on, ``j`` of them free, flips after ``k - t + 1``
    changes when ``j`` allows, else never."""
    out: dict = {}
    stuck = 0
    for k in range(t, 201):
        for j in range(min(free, k) + 1):
            n = comb(free, j) * comb(200 - free, k - j)
            r = k - t + 1
            if r <= j:
                out[r] = out.get(r, 0) + n
            else:
                stuck += n
    return {r: c for r, c in sorted(out.items()) if c}, stuck


def test_erosion_on_a_deep_diagram(deep):
    """The robustness profile's erosions, with stars by one gather and by conjunction,
    against the closed form (three features mutable)."""
    odd, t = deep
    mutable = [i < 3 for i in range(200)]
    least = _cache.least_states(odd, True)
    want = _profile(t, 3)
    with limit_untouched(LIMIT):
        assert eroded_counts(odd.arrays, odd.encoding, mutable, least) == want
        assert eroded_counts(odd.arrays, odd.encoding, mutable, None) == want


# ---------------------------------------------------------------- a file's arrays checked
@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(-1, 4), st.integers(-1, 9), st.integers(-1, 9)),
                     min_size=0, max_size=8),
       root=st.integers(-1, 10), terminals=st.booleans(), nvars=st.integers(1, 4))
def test_the_checker_finds_what_a_node_by_node_walk_finds(rows, root, terminals, nvars):
    """The vectorised checker of a file's arrays finds the same first problem in any
    arrays as the same checks made node by node in Python (tests/_support/oracle_arrays),
    or accepts the same arrays."""
    head = [(nvars, 0, 0), (nvars, 1, 1)] if terminals else [(nvars, 1, 0), (0, 0, 1)]
    level, lo, hi = (list(c) for c in zip(*(head + rows)))
    arrays = A.DiagramArrays(nvars, level, lo, hi, root)
    want = problem_by_nodes(arrays)
    got = problem(arrays)
    assert (got if got is None else (got[0], *(int(v) for v in got[1:]))) == want
