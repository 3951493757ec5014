"""PI-explanations, prime implicants, MC-explanations and the reasons on diagrams deeper
than Python's recursion limit allows a pass recursing per feature, with the limit left
alone (tests/_support/deep.py): answers against closed forms of the majority function.

``majority(n)`` decides positive exactly when at least ``n / 2`` features are on (``1``;
its posterior odds are ``3 ** (on - off)``, a tie is positive). For an instance with ``k``
features on:

* positive: its PI-explanations (sufficient reasons) are the sets of ``n / 2`` of its
  on-features, its contrastive explanations the sets of ``k - n / 2 + 1`` of them, its
  MC-explanations keep ``n / 2`` of them on; an off-feature is irrelevant, an on-feature
  necessary when ``k = n / 2`` and relevant otherwise;
* negative: the same with the ``n - k`` off-features and ``n / 2 + 1`` of them.

The prime implicants of the positive decision are the ``C(n, n / 2)`` sets of ``n / 2``
features on, those of the negative decision the ``C(n, n / 2 + 1)`` sets of features off.

Counts and lengths are read off the sets' node tables by the iterative :func:`_lengths`
(below, checked against :meth:`bnx.Explanations.lengths` on a small majority), so that
only the questions themselves are under test here.
"""

from __future__ import annotations

from math import comb

import pytest

import bnx
from tests._support.deep import limit_untouched, majority, one_matters

BACKENDS = [b for b in ("autoref", "cudd") if b in bnx.backends.available_backends()]
N = 200
HALF = N // 2


def _lengths(expl: bnx.Explanations) -> dict[int, int]:
    """``{length: number}`` of an explanation set, without recursion: the pairs
    ``(node, feature)`` reached, feature by feature down, then their length polynomials
    feature by feature up."""
    table, root = expl.nodes
    layout = expl.layout
    n, steps = layout.n, layout.steps
    rows = [{root}] if root else []
    for i in range(n):
        rows.append({table.restrict(u, bits) for u in rows[i] for _, _, bits in steps[i]} - {0})
    poly = {(u, n): {0: 1} for u in rows[n]} if root else {}
    for i in range(n - 1, -1, -1):
        for u in rows[i]:
            got: dict = {}
            for _, cost, bits in steps[i]:
                w = table.restrict(u, bits)
                for k, v in poly.get((w, i + 1), {}).items():
                    got[k + cost] = got.get(k + cost, 0) + v
            poly[(u, i)] = got
    return {k: v for k, v in sorted(poly.get((root, 0), {}).items()) if v}


@pytest.fixture(scope="module", params=BACKENDS)
def deep_odd(request):
    return bnx.compile(majority(N), backend=request.param)


def _instance(odd, k: int) -> dict:
    return {f: int(i < k) for i, f in enumerate(odd.features)}


def test_lengths_helper_matches_the_library_on_a_small_majority():
    odd = bnx.compile(majority(8), backend="autoref")
    for k in (3, 4, 6):
        x = _instance(odd, k)
        for expl in (bnx.pi_explanations(odd, x), bnx.mc_explanations(odd, x),
                     bnx.contrastive_explanations(odd, x), bnx.prime_implicants(odd),
                     bnx.prime_implicants(odd, decision=False)):
            assert _lengths(expl) == expl.lengths()


@pytest.mark.slow
@pytest.mark.parametrize("k", [HALF + 5, HALF, HALF - 3])
def test_pi_explanations_of_a_deep_majority(deep_odd, k):
    x = _instance(deep_odd, k)
    positive = k >= HALF
    size, pool = (HALF, k) if positive else (HALF + 1, N - k)
    with limit_untouched():
        assert deep_odd.decide(x) is positive
        pis = bnx.pi_explanations(deep_odd, x)
        assert pis.decision is positive
        assert pis.count == comb(pool, size)
        assert _lengths(pis) == {size: comb(pool, size)}
        first = next(iter(pis))
        assert len(first) == size and all(first[f] == int(positive) for f in first)


def test_pi_cover_agrees_with_pi_inst_on_a_deep_majority(deep_odd):
    x = _instance(deep_odd, HALF + 2)
    with limit_untouched():
        cover = bnx.pi_explanations(deep_odd, x, method="cover")
        inst = bnx.pi_explanations(deep_odd, x)
        assert cover.count == inst.count == comb(HALF + 2, HALF)
        assert _lengths(cover) == {HALF: comb(HALF + 2, HALF)}
        assert next(iter(cover)) in list(inst)


def test_prime_implicants_of_a_deep_majority(deep_odd):
    with limit_untouched():
        pos = bnx.prime_implicants(deep_odd)
        neg = bnx.prime_implicants(deep_odd, decision=False)
    assert _lengths(pos) == {HALF: comb(N, HALF)}
    assert _lengths(neg) == {HALF + 1: comb(N, HALF + 1)}


@pytest.mark.parametrize("k", [HALF + 5, HALF - 4])
def test_mc_explanations_of_a_deep_majority(deep_odd, k):
    x = _instance(deep_odd, k)
    positive = k >= HALF
    size, pool = (HALF, k) if positive else (HALF + 1, N - k)
    with limit_untouched():
        mc = bnx.mc_explanations(deep_odd, x)
        assert mc.decision is positive
        assert _lengths(mc) == {size: comb(pool, size)}
        table, root = mc.nodes
        assert table.count(root) == comb(pool, size)  # binary features: models are members
        first = next(iter(mc))
        kept = [f for f in first if first[f] == x[f]]
        assert len(first) == N and sum(first[f] == int(positive) for f in first) == size
        assert len(kept) == N - (k - size if positive else N - k - size)


@pytest.mark.parametrize("k", [HALF + 5, HALF, HALF - 3])
def test_contrastive_explanations_and_roles_of_a_deep_majority(deep_odd, k):
    x = _instance(deep_odd, k)
    positive = k >= HALF
    pool = k if positive else N - k
    flip = pool - (HALF if positive else HALF + 1) + 1  # features to change to flip
    with limit_untouched():
        ces = bnx.contrastive_explanations(deep_odd, x)
        assert ces.count == comb(pool, flip)
        assert _lengths(ces) == {flip: comb(pool, flip)}
        roles = bnx.feature_roles(deep_odd, x)
    side = [f for f in deep_odd.features if x[f] == int(positive)]
    assert {f for f, r in roles.items() if r == "irrelevant"} == set(roles) - set(side)
    assert {roles[f] for f in side} == {"necessary" if flip == 1 else "relevant"}


def test_checking_an_explanation_of_a_deep_majority(deep_odd):
    x = _instance(deep_odd, HALF + 3)
    on = [f for f in deep_odd.features if x[f]]
    with limit_untouched():
        exact = bnx.check_explanation(deep_odd, x, {f: 1 for f in on[:HALF]})
        more = bnx.check_explanation(deep_odd, x, {f: 1 for f in on[:HALF + 1]})
        less = bnx.check_explanation(deep_odd, x, {f: 1 for f in on[:HALF - 1]})
    assert exact.sufficient and exact.minimal
    assert more.sufficient and not more.minimal and len(more.redundant) == HALF + 1
    assert len([f for f in more.reason if more.reason[f] == 1]) == HALF
    assert not less.sufficient
    assert sum(less.counterexample.values()) == HALF - 1  # the fewest changes: four off


def _one_of_500(backend: str):
    """The shape of test_deep_diagrams_do_not_hit_the_recursion_limit: 500 features of
    which one matters, every feature-by-feature pass 500 levels deep."""
    n = 500
    feats = [f"f{i}" for i in range(n)]
    return bnx.compile(one_matters(n), backend=backend), dict.fromkeys(feats, 1)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_one_feature_of_500_with_the_limit_untouched(backend):
    odd, x = _one_of_500(backend)
    with limit_untouched():
        assert bnx.pi_explanations(odd, x).to_set() == {frozenset({("f0", 1)})}
        assert bnx.pi_explanations(odd, x, method="cover").to_set() == {frozenset({("f0", 1)})}
        assert _lengths(bnx.prime_implicants(odd)) == {1: 1}
        assert bnx.contrastive_explanations(odd, x).to_set() == {frozenset({("f0", 1)})}
        roles = bnx.feature_roles(odd, x)
    assert roles["f0"] == "necessary" and set(roles.values()) == {"necessary", "irrelevant"}


@pytest.mark.slow
def test_mc_explanations_of_one_feature_of_500_with_the_limit_untouched():
    odd, x = _one_of_500("autoref")
    with limit_untouched():
        mc = bnx.mc_explanations(odd, x)
    assert _lengths(mc) == {1: 1}
