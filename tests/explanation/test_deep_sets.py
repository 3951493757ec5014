"""Sets of instances on a diagram 200 levels deep, under Python's default recursion limit.

``bnx.support``, ``bnx.forbid``, the set algebra and the copy of a set into another manager
run inside :func:`~tests._support.deep.limit_untouched` on ``majority(200)`` and on a
network with deterministic features, on both backends (the function asked ``within=`` a
deep set: tests/explanation/test_units.py). Every answer is checked against a closed form,
counted independently of the code under test: by a loop over the set's ``dd`` node
(:func:`tests._support.deep.dd_count`) and, on ``dd.autoref``, ``dd``'s own exact
``count``.
"""

from __future__ import annotations

import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.diagram.backends import branches, is_cudd
from tests._support.deep import dd_count, limit_untouched, majority

N = 200
BACKENDS = bnx.backends.available_backends()


def models(root, nvars: int) -> int:
    """The number of assignments of ``nvars`` variables on which ``root`` is true."""
    got = dd_count(root, nvars)
    if not is_cudd(root.bdd):
        assert root.bdd.count(root, nvars) == got  # dd's own count (exact on autoref)
    return got


def in_set(s, x: dict) -> bool:
    """Whether the complete instance ``x`` is in the set ``s`` (a walk down its node)."""
    enc = s.encoding
    values = {}
    for i, f in enumerate(enc.features):
        values.update(enc.code(i, enc.states[i].index(x[f])))
    u = s.root
    while u.var is not None:
        u = branches(u)[int(values[u.var])]
    return u == u.bdd.true


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
