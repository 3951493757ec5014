"""The one store (bnx.diagram.store) on a deep diagram, with Python's recursion limit
untouched: the majority of 200 features (200 levels, ~10,000 nodes) on both backends, its
operations (conj, diff, count, dd size, stars, to dd and back) checked against
closed forms and against dd's own operations on the same functions."""

from __future__ import annotations

from math import comb, isclose

import pytest

import bnx
from bnx.diagram.store import Store
from tests._support.deep import limit_untouched, majority

N = 200
#: Below the diagram's depth: a pass recursing once per level would pass it.
LIMIT = 150


@pytest.fixture(scope="module", params=["autoref", "cudd"])
def deep(request):
    if request.param not in bnx.diagram.backends.available_backends():
        pytest.skip("dd.cudd is not installed")
    odd = bnx.compile(majority(N), backend=request.param)
    # t: the fewest features on that make the decision positive (all features alike)
    t = next(k for k in range(N + 1)
             if odd.decide({f: int(i < k) for i, f in enumerate(odd.features)}))
    return odd, t


def _at_least(t: int, n: int = N) -> int:
    return sum(comb(n, k) for k in range(t, n + 1))


def _as_dd(exact: int, counted) -> bool:
    """Whether ``dd``'s count is ``exact`` (CUDD counts in doubles)."""
    return exact == counted if isinstance(counted, int) else isclose(exact, counted,
                                                                     rel_tol=1e-12)


@pytest.mark.slow
def test_set_operations_against_dd(deep):
    odd, t = deep
    bdd, names, f_dd = odd.bdd, odd.encoding.variables, odd.root
    g_dd = bdd.let({names[0]: ~bdd.var(names[0]), names[-1]: ~bdd.var(names[-1])}, f_dd)
    both_dd, only_dd = f_dd & g_dd, f_dd & ~g_dd  # dd's own (recursing once per level)
    with limit_untouched(LIMIT):
        s = Store(N)
        f, g = s.read_dd(f_dd), s.read_dd(g_dd)
        assert s.read_dd(f_dd) == f  # one node per function
        both, only = s.conj(f, g), s.diff(f, g)
        assert s.conj(g, f) == both and s.count(both) + s.count(only) == s.count(f)
        assert s.to_dd(bdd, names, both) == both_dd
        assert s.to_dd(bdd, names, only) == only_dd
        back = s.to_dd(bdd, names, f)  # to dd and back, into a new store
        again = Store(N)
        v = again.read_dd(back)
        assert again.nodes_of(v) == s.nodes_of(f) and again.count(v) == s.count(f)
        assert s.diff(f, f) == 0 and s.conj(f, 1) == f and s.diff(f, 0) == f
        counts = [s.count(u) for u in (f, both)]
        sizes = [s.size(u) for u in (f, g, only)]
    assert back == f_dd and counts[0] == _at_least(t)
    assert all(_as_dd(c, bdd.count(u, nvars=N)) for c, u in zip(counts, (f_dd, both_dd)))
    assert sizes == [u.dag_size for u in (f_dd, g_dd, only_dd)]


def test_odd_store_counts_and_stars(deep):
    """The ODD's nodes in a store: the count of the decision, and the star of the root
    (``f0`` dropped: at least ``t`` of the 199 others), made by a conjunction."""
    odd, t = deep
    with limit_untouched(LIMIT):
        st = Store.from_arrays(odd.arrays, odd.encoding)
        root = odd.arrays.root
        assert st.count(root) == _at_least(t)
        star = st.star_of(root)
        assert st.count(star) == 2 * _at_least(t, N - 1)
        assert st.conj(root, star) == star  # the star implies the function
        lo = st.cofactor(root, 0, 0)
        assert st.count(lo) == 2 * _at_least(t, N - 1) and st.conj(lo, root) == lo
