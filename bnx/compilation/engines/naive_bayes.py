"""The exact naive Bayes engine: binary-class naive Bayes.

Its states are odds ratios merged by exact intervals.

Algorithm 1 of Shih, Choi and Darwiche with a complete merge test: the states with
the same remaining decision function form an interval of ``rho``, computed exactly
while the node is built (see :mod:`bnx.compilation.engines._intervals`).
"""

from __future__ import annotations

from fractions import Fraction

from ...classifier._classifier import Classifier
from ...diagram import _setops as sets
from ...diagram._traversals import unwind
from ...diagram.encoding import Encoding
from ..budget import Budget
from ._base import DdEngine, Verdict, accept, refuse
from ._intervals import INF, Intervals, Meet, prior_odds, terminal

__all__ = ["RatioEngine", "binary_threshold"]


def binary_threshold(clf: Classifier) -> str | None:
    """Why ``clf`` is not a threshold on two class states (``None`` when it is)."""
    if clf.rule != "threshold":
        return f"the {clf.rule} rule, not a threshold"
    if len(clf.class_states) != 2:
        return f"{len(clf.class_states)} class states, not two"
    return None


class RatioEngine(DdEngine):
    """Binary-class naive Bayes: states are odds ratios, merged by exact intervals."""

    name = "naive Bayes, exact odds"

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        why = binary_threshold(clf)
        if why is None and clf.structure != "naive_bayes":
            why = f"a {clf.structure} network, not naive Bayes"
        return refuse(why) if why else accept("a binary-class naive Bayes threshold")

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, given=None, *,
                 backend: str = "autoref", memo: dict | None = None):
        super().__init__(clf, enc, budget, given, backend=backend, memo=memo)
        pos, neg, self.start = prior_odds(clf)
        # per position: per state, the ratio p/q (None: q == 0, the state forces positive)
        self.ratios = []
        for f in enc.features:
            table = clf.table(f)
            self.ratios.append([None if table[neg][v] == 0 else table[pos][v] / table[neg][v]
                                for v in range(len(clf.states(f)))])
        self.n = len(enc.features)
        self.levels = [Intervals() for _ in range(self.n)]

    def root(self):
        """Compile the decision function and return its root."""
        if self.start is INF:
            return sets.true(self.bdd)
        return unwind(self.visit(0, self.start))[0]

    def visit(self, i: int, rho: Fraction):
        """(node, lo, lo_closed, hi, hi_closed): the function at level ``i`` and its interval.

        ``hi is None`` means +infinity (finite states only reach here). A step of a
        recursion run by :func:`~bnx.diagram._traversals.unwind` (it yields its children's
        steps), so that no diagram is too deep for it.
        """
        bdd = self.bdd
        if i == self.n:
            return terminal(bdd, rho)
        level = self.levels[i]
        hit = level.find(rho)
        if hit is not None:
            return hit
        self.budget.spend()
        meet = Meet()
        children = []
        for r in self.ratios[i]:
            if r is None:  # Pr(v | not c) = 0: positive whatever comes next
                children.append(sets.true(bdd))
                continue
            child = yield self.visit(i + 1, rho * r)
            children.append(child[0])
            if r != 0:  # r == 0: the child state is 0 for every rho, no constraint
                meet.add(child, r)
        entry = meet.entry(self.enc.select(bdd, i, children, sets.false(bdd)))
        level.add(entry)
        return entry

