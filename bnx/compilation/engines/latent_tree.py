"""The latent tree engine: binary-class latent trees.

Its states are ``(rho, K)`` with exact intervals of ``rho``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ...classifier._classifier import Classifier
from ...diagram import _setops as sets
from ...diagram._traversals import unwind
from ...diagram.encoding import Encoding
from ..budget import Budget
from ._base import Verdict, accept, refuse
from ._intervals import INF, Intervals, Meet, prior_odds, terminal
from .naive_bayes import binary_threshold
from .tensor import TensorEngine, advance

__all__ = ["SplitEngine"]


def _int_table(table) -> np.ndarray:
    """Scale a CPT by the common denominator of its entries: exact Python ints.

    Every state is multiplied by the same table at a step, so the factor cancels in
    every ratio and in the normalised keys.
    """
    den = 1
    for row in table:
        for v in row:
            den = den * v.denominator // math.gcd(den, v.denominator)
    out = np.empty((len(table), len(table[0])), dtype=object)
    for a, row in enumerate(table):
        for b, v in enumerate(row):
            out[a, b] = v.numerator * (den // v.denominator)
    return out


class SplitEngine(TensorEngine):
    """Binary class, latent tree: states ``(rho, K)`` with exact intervals of ``rho``.

    The separator tensor is ``m(c, s) = w(c) K(c, s)`` with ``w(positive) = rho``,
    ``w(negative) = -1`` and ``K >= 0`` in exact integers. For a fixed ``K`` (up to a
    positive factor) the remaining decision ``rho A(z) - B(z) >= 0`` (``A, B >= 0``) is
    monotone in ``rho``, so its classes are intervals, computed from the children's
    intervals exactly as in the naive Bayes engine. When the separator shrinks to
    the class alone, ``K`` folds into ``rho`` (``rho *= K(pos) / K(neg)``).
    """

    name = "latent tree, exact odds"
    with_bounds = False

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        why = binary_threshold(clf)
        if why is None and clf.structure != "latent_tree":
            why = f"a {clf.structure} network, not a latent tree"
        return refuse(why) if why else accept("a binary-class latent tree threshold")

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, given=None, *,
                 backend: str = "autoref", memo: dict | None = None):
        super().__init__(clf, enc, budget, given, backend=backend, memo=memo)
        self.pos, self.neg, self.rho0 = prior_odds(clf)
        self.one = np.array([1, 1], dtype=object)
        # integer versions of the plan's tables
        self.isteps = []
        for (_, _, opens, (pax, ftable), closes, k) in self.steps:
            iopens = [(u, paxis, _int_table(table)) for u, paxis, table in opens]
            self.isteps.append((iopens, pax, _int_table(ftable), closes, k))
        self.imemo: list[dict] = [dict() for _ in range(self.n)]

    def root(self):
        """Compile the decision function and return its root."""
        if self.rho0 is INF:
            return sets.true(self.bdd)
        return unwind(self.visit2(0, self.rho0, self.one))[0]

    def step(self, i: int, K: np.ndarray, v: int) -> np.ndarray:
        """Return the integer separator tensor after observing state ``v`` at step ``i``."""
        opens, pax, ftable, closes, _ = self.isteps[i]
        return advance(K, [(paxis, cpt) for _, paxis, cpt in opens], pax, ftable[:, v], closes)

    def visit2(self, i: int, rho: Fraction, K: np.ndarray):
        """Return (node, lo, lo_closed, hi, hi_closed) for the state ``(rho, K)`` at level ``i``.

        A step of :func:`~bnx.diagram._traversals.unwind`: it yields its children's steps.
        """
        bdd = self.bdd
        if i == self.n:  # K was folded: the decision is rho >= 1
            return terminal(bdd, rho)
        flat = K.reshape(-1)
        g = math.gcd(*flat)
        if g == 0:  # K = 0: S = 0 >= 0 whatever rho and whatever comes next
            return sets.true(bdd), Fraction(0), True, None, False, 0.0, math.inf
        key = tuple(x // g for x in flat) if g != 1 else tuple(flat)
        level = self.imemo[i].get(key)
        if level is None:
            level = self.imemo[i][key] = Intervals()
        hit = level.find(rho)
        if hit is not None:
            return hit
        self.budget.spend()
        meet = Meet()
        children = []
        for v in range(self.isteps[i][4]):
            K2 = self.step(i, K, v)
            if K2.ndim == 1:  # only the class is left: fold K into rho
                kp, kn = K2[self.pos], K2[self.neg]
                if kn == 0:  # m(neg) = 0: S = rho K(pos) >= 0 for every rho
                    children.append(sets.true(bdd))
                    continue
                r = Fraction(kp, kn)
                child = yield self.visit2(i + 1, rho * r, self.one)
                if r != 0:
                    meet.add(child, r)
            else:  # inside a subtree: rho is unchanged
                child = yield self.visit2(i + 1, rho, K2)
                meet.add(child)
            children.append(child[0])
        entry = meet.entry(self.enc.select(bdd, i, children, sets.false(bdd)))
        level.add(entry)
        return entry
