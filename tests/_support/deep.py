"""Deep diagrams and a guard that Python's recursion limit is left alone.

Besides :func:`majority`: networks of other shapes, ``n`` features of which only the first
matters (a diagram ``n`` levels deep with one inner node), as a naive Bayes, a latent tree,
a TAN whose tree is a path, and a latent tree whose hidden variables form a path
(:func:`one_matters`, :func:`latent_chain`); and what :func:`majority` decides, computed
without a diagram (:func:`majority_count`, :func:`majority_decides`); and the models of a
``dd`` node counted by a loop of the test's own (:func:`dd_count`: ``dd``'s count recurses).

``majority(n)`` is a naive Bayes whose features all weigh the same: its decision is
"at least half the features on", a diagram ``n`` levels deep and about ``n * n / 4`` nodes
wide, deep enough that a pass recursing once or more per level would pass Python's
default recursion limit (1,000) at ``n = 200``.
"""

from __future__ import annotations

import contextlib
import sys
from math import comb

from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx

__all__ = ["majority", "limit_untouched", "one_matters", "latent_chain", "majority_count",
           "majority_decides", "dd_count"]


def majority(n: int, *, lean: float = 0.75) -> bnx.Classifier:
    """A naive Bayes over ``n`` binary features ``f0 .. f{n-1}`` with one CPT each."""
    feats = [f"f{i}" for i in range(n)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]])]
    cpds += [TabularCPD(f, 2, [[lean, 1 - lean], [1 - lean, lean]], evidence=["C"],
                        evidence_card=[2]) for f in feats]
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", 1)


#: The recursion limit the deep tests run under: a third of Python's default (1,000), so
#: that a diagram of a few hundred levels is already too deep for one frame per level and
#: the tests stay quick (the suite's frames and pgmpy's take about a hundred).
LIMIT = 300


@contextlib.contextmanager
def limit_untouched(limit: int = LIMIT):
    """Run the block with Python's recursion limit at ``limit`` and fail if anything in
    it calls :func:`sys.setrecursionlimit`; the old limit is restored afterwards."""
    old, setter = sys.getrecursionlimit(), sys.setrecursionlimit
    setter(limit)

    def refuse(value):
        raise AssertionError(f"sys.setrecursionlimit({value}) called")

    sys.setrecursionlimit = refuse
    try:
        yield
    finally:
        sys.setrecursionlimit = setter
        setter(old)


_LEAN = [[0.75, 0.25], [0.25, 0.75]]


def _cpd(var, parents=(), values=None):
    if not parents:
        return TabularCPD(var, 2, values or [[0.5], [0.5]])
    values = values or [[0.5] * 2 ** len(parents), [0.5] * 2 ** len(parents)]
    return TabularCPD(var, 2, values, evidence=list(parents), evidence_card=[2] * len(parents))


def one_matters(n: int, shape: str = "naive_bayes") -> bnx.Classifier:
    """``n`` binary features ``f0 ..``, only ``f0`` informative: positive iff ``f0 = 1``.

    ``shape`` is ``"naive_bayes"`` (the class the parent of every feature),
    ``"latent_tree"`` (one hidden variable ``H`` between the class and the features)
    or ``"tan"`` (``f{i-1}`` the second parent of ``f{i}``)."""
    feats = [f"f{i}" for i in range(n)]
    top = "H" if shape == "latent_tree" else "C"
    edges = [(top, f) for f in feats]
    cpds = [_cpd("C"), _cpd("f0", [top], _LEAN)]
    if shape == "latent_tree":
        edges.append(("C", "H"))
        cpds.append(_cpd("H", ["C"], _LEAN))
    if shape == "tan":
        edges += list(zip(feats, feats[1:]))
        cpds += [_cpd(f, ["C", p]) for p, f in zip(feats, feats[1:])]
    else:
        cpds += [_cpd(f, [top]) for f in feats[1:]]
    net = DiscreteBayesianNetwork(edges)
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", 1, features=feats)


def latent_chain(k: int) -> bnx.Classifier:
    """Hidden variables ``H0 -> H1 -> .. -> H{k-1}`` below the class, each with one
    feature ``f{i}``: a network ``k`` deep."""
    hs = [f"H{i}" for i in range(k)]
    feats = [f"f{i}" for i in range(k)]
    net = DiscreteBayesianNetwork([("C", hs[0]), *zip(hs, hs[1:]), *zip(hs, feats)])
    net.add_cpds(_cpd("C"), *(_cpd(h, [p], _LEAN) for p, h in zip(["C", *hs], hs)),
                 *(_cpd(f, [h], _LEAN) for h, f in zip(hs, feats)))
    return bnx.Classifier(net, "C", 1, features=feats)


def majority_count(n: int) -> int:
    """The positive instances of ``majority(n)``: those with at least half the features
    on (an exact tie is positive: the posterior is then exactly the threshold 1/2)."""
    return sum(comb(n, k) for k in range(-(-n // 2), n + 1))


def majority_decides(x: dict) -> bool:
    """The decision of ``majority(len(x))`` on the complete instance ``x``."""
    return 2 * sum(x.values()) >= len(x)


def dd_count(u, nvars: int) -> int:
    """The assignments to ``nvars`` variables that satisfy the ``dd`` node ``u``.

    Counted children first on an explicit stack, through ``dd``'s public node attributes
    (``var``, ``level``, the cofactors of :func:`bnx.diagram.backends.branches`): a reference
    written apart from bnx's passes, for any depth (``dd``'s own ``count`` recurses once per
    level).
    """
    from bnx.diagram.backends import branches
    true = u.bdd.true

    def level(w):
        return nvars if w.var is None else w.level

    memo: dict = {}
    stack = [u]
    while stack:
        w = stack[-1]
        if w in memo:
            stack.pop()
        elif w.var is None:
            memo[w] = int(w == true)
            stack.pop()
        else:
            kids = branches(w)
            todo = [k for k in kids if k not in memo]
            if todo:
                stack.extend(todo)
                continue
            memo[w] = sum(memo[k] << (level(k) - w.level - 1) for k in kids)
            stack.pop()
    return memo[u] << level(u)
