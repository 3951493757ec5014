"""The brute force that bnx.linear is checked against: every answer by enumerating a
decision table."""

from __future__ import annotations

import itertools
import math

import pytest

import bnx
from bnx import linear
from tests._support import oracle

__all__ = ["Brute", "check_all"]


class Brute:
    """Every answer of bnx.linear by enumerating a decision table (``table``: its
    instances, all of them or those the network allows, :meth:`within_support`)."""

    def __init__(self, case, table):
        self.case = case
        self.features = list(case.features)
        self.states = {f: case.states(f) for f in self.features}
        self.table = table

    def within_support(self):
        """The same brute force over the instances of positive probability only."""
        c = self.case
        keep = {combo: v for combo, v in self.table.items()
                if sum(oracle.class_joint(c.net, c.class_var, dict(zip(self.features, combo)),
                                          self.features).values()) > 0}
        return Brute(c, keep)

    def decide(self, x):
        return self.table[tuple(x[f] for f in self.features)]

    def completions(self, partial):
        doms = [[partial[f]] if f in partial else self.states[f] for f in self.features]
        return itertools.product(*doms)

    def sufficient(self, x, partial):
        d = self.decide(x)
        return all(self.table[c] == d for c in self.completions(partial) if c in self.table)

    def pis(self, x):
        ok = [frozenset(s) for r in range(len(self.features) + 1)
              for s in itertools.combinations(self.features, r)
              if self.sufficient(x, {f: x[f] for f in s})]
        return {s for s in ok if not any(o < s for o in ok)}

    def robustness(self, x):
        d = self.decide(x)
        dists = [sum(a != x[f] for a, f in zip(c, self.features))
                 for c, v in self.table.items() if v != d]
        return min(dists) if dists else math.inf

    def counterfactuals(self, x):
        """Every closest instance with the other decision, as ``frozenset`` of its changes."""
        d, r = self.decide(x), self.robustness(x)
        return {frozenset((f, a) for a, f in zip(c, self.features) if a != x[f])
                for c, v in self.table.items()
                if v != d and sum(a != x[f] for a, f in zip(c, self.features)) == r}


def check_all(clf, brute, x):
    """Every function of bnx.linear on ``x`` against the brute force, in both worlds.

    ``within="all"`` against every instance; the default (the network's support) against
    the instances of positive probability when ``x`` is one, else refused. Returns the
    PI-explanations of every instance's world.
    """
    want = _check_within(clf, brute, x, "all")
    support = brute.within_support()
    if tuple(x[f] for f in brute.features) in support.table:
        _check_within(clf, support, x, "support")
        assert linear.check_explanation(clf, x, x).sufficient
    else:
        with pytest.raises(bnx.InstanceError, match="probability zero"):
            linear.robustness(clf, x)
    return want


def _check_within(clf, brute, x, within):
    d = brute.decide(x)
    assert linear.decide(clf, x, within="all") == d
    pis = list(linear.pi_explanations(clf, x, within=within))
    got = [frozenset(e) for e in pis]
    assert len(got) == len(set(got)), "a PI-explanation came twice"
    want = brute.pis(x)
    assert set(got) == want
    assert all(e == {f: x[f] for f in e} for e in pis)
    shortest = linear.shortest_pi_explanation(clf, x, within=within)
    assert frozenset(shortest) in want and len(shortest) == min(map(len, want))
    for e in want:
        check = linear.check_explanation(clf, x, {f: x[f] for f in e}, within=within)
        assert check.sufficient and check.minimal
    r = brute.robustness(x)
    assert linear.robustness(clf, x, within=within) == r
    cfs = linear.counterfactuals(clf, x, within=within)
    assert cfs.to_set() == brute.counterfactuals(x) and cfs.cost == r
    assert cfs.count == len(list(cfs)) and all(len(c) == r for c in cfs)
    if r == math.inf:
        with pytest.raises(bnx.ExplanationError, match="no change of the features"):
            linear.shortest_contrastive_explanation(clf, x, within=within)
    else:
        cx = linear.shortest_contrastive_explanation(clf, x, within=within)
        assert frozenset(cx) in {frozenset(f for f, _ in c) for c in cfs.to_set()}
        assert all(cx[f] == x[f] for f in cx)
        assert not brute.sufficient(x, {f: x[f] for f in brute.features if f not in cx})
    return want


# ---------------------------------------------------------------- the tests' cases
def threshold_brute(case):
    return Brute(case, oracle.decision_table(case.net, case.class_var, case.positive,
                                             case.threshold, case.features))


def two_class(case):
    return len(case.states(case.class_var)) == 2


def classifier(case, rule="threshold"):
    if rule == "argmax":
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                          features=case.features)
