"""Sets of instances on a diagram 200 levels deep, under Python's default recursion limit.

``bnx.support``, ``bnx.forbid``, the set algebra, the copy of a set into another manager
and the function asked ``within=`` a set (:func:`bnx.explanation._within.within_odd`) run
inside :func:`~tests._support.deep.limit_untouched` on ``majority(200)`` and on a network
with deterministic features, on both backends. Every answer is checked against a closed
form, counted independently of the code under test: through the arrays read from the set's
``dd`` node (:func:`bnx.diagram._dd.from_dd`, :func:`bnx.diagram._arrays.count`) and, on
``dd.autoref``, ``dd``'s own exact ``count``.
"""

from __future__ import annotations

import math

import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.diagram._arrays import count as array_count  # private: passes on a dd set
from bnx.diagram._dd import from_dd  # private: a dd set read into arrays
from bnx.diagram._traversals import evaluate  # private: a walk, no recursion
from bnx.diagram.backends import is_cudd
from bnx.explanation._within import within_odd  # private: the function asked within=
from tests._support.deep import limit_untouched, majority

N = 200
BACKENDS = bnx.backends.available_backends()


def models(root, nvars: int) -> int:
    """The number of assignments of ``nvars`` variables on which ``root`` is true."""
    arrays, (r,) = from_dd([root], nvars)
    got = array_count(arrays, r)
    if not is_cudd(root.bdd):
        assert root.bdd.count(root, nvars) == got  # dd's own count (exact on autoref)
    return got


def in_set(s, x: dict) -> bool:
    """Whether the complete instance ``x`` is in the set ``s`` (a walk down its node)."""
    enc = s.encoding
    values = {}
    for i, f in enumerate(enc.features):
        for v, bit in enc.code(i, enc.states[i].index(x[f])).items():
            values[enc.variables.index(v)] = bit
    return evaluate(s.root, values)


def no_two_adjacent(n: int) -> int:
    """Binary words of length ``n`` without two adjacent ones (Fibonacci ``F(n + 2)``)."""
    a, b = 1, 2
    for _ in range(n - 1):
        a, b = b, a + b
    return b


@pytest.fixture(scope="module", params=BACKENDS)
def deep(request):
    """``majority(200)`` compiled on one backend, its ``dd`` root made (outside the guard:
    making it is the ODD's business)."""
    clf = majority(N)
    odd = bnx.compile(clf, backend=request.param)
    assert odd.root is not None and odd.domain is not None
    return clf, odd


@pytest.mark.slow
def test_support_of_a_deep_classifier(deep):
    clf, odd = deep
    with limit_untouched():
        s = bnx.support(clf, odd=odd)
        alone = bnx.support(majority(N))  # in a manager of its own, default order
        assert models(s.root, N) == models(alone.root, N) == 2 ** N  # every CPT is positive
        assert alone.root_in(odd.bdd, odd.encoding) == s.root


def test_support_with_deterministic_features_is_exact():
    """Every third feature copies the class: the instances of positive probability are
    those whose copies all agree, 2 * 2 ** (features that do not copy)."""
    feats = [f"f{i}" for i in range(N)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]])]
    for i, f in enumerate(feats):
        lean = 1.0 if i % 3 == 0 else 0.75
        cpds.append(TabularCPD(f, 2, [[lean, 1 - lean], [1 - lean, lean]], evidence=["C"],
                               evidence_card=[2]))
    net.add_cpds(*cpds)
    clf = bnx.Classifier(net, "C", 1)
    copies = len(range(0, N, 3))
    with limit_untouched():
        s = bnx.support(clf)
        assert models(s.root, N) == 2 * 2 ** (N - copies)
        x = dict.fromkeys(feats, 0)
        assert in_set(s, x)
        x["f1"] = 1  # a feature that does not copy the class
        assert in_set(s, x)
        x["f198"] = 1  # a copy that disagrees with f0
        assert not in_set(s, x)
        assert in_set(s, {f: 1 if i % 3 == 0 else 0 for i, f in enumerate(feats)})
    assert s.count == 2 * 2 ** (N - copies)


@pytest.mark.slow
def test_forbid_and_the_set_algebra_on_a_deep_diagram(deep):
    clf, odd = deep
    with limit_untouched():
        s = bnx.forbid(odd, [{"f0": 1, "f199": 1}, {"f100": 0}])
        assert models(s.root, N) == 2 ** N - (2 ** 198 + 2 ** 199 - 2 ** 197)
        a, b = bnx.forbid(odd, [{"f0": 1}]), bnx.forbid(odd, [{"f199": 1}])
        assert [models(t.root, N) for t in (a & b, a | b, a - b, ~a)] == [
            2 ** 198, 3 * 2 ** 198, 2 ** 198, 2 ** 199]
        assert (a & bnx.support(clf, odd=odd)) == a
        chain = bnx.forbid(odd, [{f"f{i}": 1, f"f{i + 1}": 1} for i in range(N - 1)])
        assert models(chain.root, N) == no_two_adjacent(N)
        assert models((~chain).root, N) == 2 ** N - no_two_adjacent(N)
    assert chain.count == no_two_adjacent(N)


@pytest.mark.slow
@pytest.mark.parametrize("where", BACKENDS)
def test_a_deep_set_is_copied_into_another_order_and_backend(deep, where):
    clf, odd = deep
    combos = [{f"f{i}": 1, f"f{i + 1}": 1} for i in range(N - 1)] + [{"f7": 0}]
    rev = bnx.compile(clf, list(reversed(clf.features)), backend=where)
    assert rev.root is not None
    same = bnx.compile(clf, backend=where)
    assert same.root is not None
    with limit_untouched():
        chain = bnx.forbid(odd, combos)
        for other in (rev, same):
            copied = chain.root_in(other.bdd, other.encoding)
            assert copied == bnx.forbid(other, combos).root
            assert models(copied, N) == no_two_adjacent(6) * no_two_adjacent(N - 9)
        # and back: a set made in its own manager (backend "auto") into the ODD's
        alone = bnx.forbid(clf, combos)
        assert alone.root_in(odd.bdd, odd.encoding) == chain.root


def test_within_a_set_on_a_deep_diagram(deep):
    """``g = f or not kappa`` for a positive instance, ``f and kappa`` for a negative one,
    with ``kappa`` the instances where ``f0`` is off; ``f`` is "at least T features on"."""
    clf, odd = deep
    total = odd.count()
    t = next(t for t in (N // 2, N // 2 + 1)
             if sum(math.comb(N, k) for k in range(t, N + 1)) == total)
    on_rest = sum(math.comb(N - 1, k) for k in range(t, N))  # f and f0 off
    kappa = [{"f0": 1}]
    with limit_untouched():
        allowed = bnx.forbid(odd, kappa)
        pos = {f: int(1 <= i <= t) for i, f in enumerate(clf.features)}
        neg = dict.fromkeys(clf.features, 0)
        g = within_odd(odd, pos, allowed)
        assert models(g.root, N) == 2 ** (N - 1) + on_rest
        g = within_odd(odd, neg, kappa)  # a list of combinations works as well
        assert models(g.root, N) == on_rest
        with pytest.raises(bnx.ExplanationError, match="not in the set"):
            within_odd(odd, dict(neg, f0=1), allowed)
