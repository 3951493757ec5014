"""Brute force over the instances of a set ``kappa`` (by default those the network allows):
the reasons, MC-explanations and counterfactuals of one instance, from every instance
enumerated and decided by the oracle (tests/_support/oracle.py: exact joints; independent
of bnx)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from tests._support import oracle

__all__ = ["Brute"]


class Brute:
    """Every instance of a case, its decision and probability, and a set ``kappa``."""

    def __init__(self, case, kappa: set | None = None) -> None:
        self.case = case
        self.features = list(case.features)
        self.states = {f: case.states(f) for f in self.features}
        self.all = list(itertools.product(*(self.states[f] for f in self.features)))
        self.table = oracle.decision_table(case.net, case.class_var, case.positive,
                                           case.threshold, self.features, rule=case.rule)
        joint = oracle.class_joint_table(case.net, case.class_var, self.features)
        self.prob = {c: sum(joint[c].values(), Fraction(0)) for c in self.all}
        self.kappa = {c for c in self.all if self.prob[c] > 0} if kappa is None else kappa

    def tup(self, x: dict) -> tuple:
        return tuple(x[f] for f in self.features)

    def agree(self, z: tuple, x: tuple, kept) -> bool:
        return all(z[k] == x[k] for k in kept)

    def sufficient(self, x: tuple, kept) -> bool:
        d = self.table[x]
        return all(self.table[z] == d for z in self.kappa if self.agree(z, x, kept))

    def pis(self, x: tuple) -> set:
        n = len(self.features)
        good = [frozenset(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)
                if self.sufficient(x, s)]
        return {frozenset((self.features[k], x[k]) for k in s) for s in good
                if not any(o < s for o in good)}

    def contrastive(self, x: tuple) -> set:
        n, d = len(self.features), self.table[x]
        good = [frozenset(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)
                if any(self.table[z] != d and self.agree(z, x, set(range(n)) - set(s))
                       for z in self.kappa)]
        return {frozenset((self.features[k], x[k]) for k in s) for s in good
                if not any(o < s for o in good)}

    def roles(self, x: tuple) -> dict:
        pis = [dict(p) for p in self.pis(x)]
        return {f: ("irrelevant" if not any(f in p for p in pis) else
                    "necessary" if all(f in p for p in pis) else "relevant")
                for f in self.features}

    def mc(self, x: tuple, on: dict) -> set:
        """The MC-explanations of ``x`` within kappa: the oracle's, on the table where the
        instances outside kappa take the other decision (so that none keeps it)."""
        d = self.table[x]
        table = {z: v if z in self.kappa else not d for z, v in self.table.items()}
        c = self.case
        return oracle.mc_explanations(c.net, c.class_var, c.positive, c.threshold,
                                      self.features, dict(zip(self.features, x)), on,
                                      rule=c.rule, table=table)

    def counterfactuals(self, x: tuple, price) -> tuple:
        """``(least price, {changes})`` over the instances of kappa with the other decision
        (``math.inf`` and no changes when there is none); ``price(k, state)`` is the price
        of moving feature k there (None: forbidden)."""
        best, found = math.inf, set()
        for z in self.kappa:
            if self.table[z] == self.table[x]:
                continue
            ps = [price(k, z[k]) for k in range(len(z)) if z[k] != x[k]]
            if any(p is None for p in ps):
                continue
            c = sum(ps, Fraction(0))
            ch = frozenset((self.features[k], z[k]) for k in range(len(z)) if z[k] != x[k])
            if c < best:
                best, found = c, {ch}
            elif c == best:
                found.add(ch)
        return best, found
