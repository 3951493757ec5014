"""The conjunction of diagrams as arrays (bnx/compilation/conjunction.py) against dd's."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bnx.compilation.conjunction import conjoin
from bnx.diagram import _arrays as A  # private: the conjunction's arrays (a unit)
from bnx.diagram import _dd as D  # private: arrays to and from dd
from tests._support.builders import dd_function


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
