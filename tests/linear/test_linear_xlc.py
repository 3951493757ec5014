"""bnx.linear on xpxlc's wide classifiers (too wide to compile), checked independently.

The independent check works on the classifier's exact CPT entries with Fractions: the
decision is kept by a partial instance iff ``K * prod(fixed ratios) * prod(worst free
ratios)`` stays on the decision's side of 1, where ``ratio = Pr(v | 1) / Pr(v | 0)``.
It never calls bnx.linear.
"""

from __future__ import annotations

import itertools
import math
import pathlib
import random
from fractions import Fraction

import pytest

import bnx
from bnx import linear
from bnx.linear.xlc import parse_xlc

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "xpxlc"
NAMES = ["promoters", "spam_48", "backache"]


class Exact:
    """Independent exact answers for one instance of a zero-free naive Bayes classifier."""

    def __init__(self, clf, x):
        pos = clf.class_states.index(clf.positive)
        prior = clf.table(clf.class_var)[0]
        t = clf.threshold
        self.k = (1 - t) * prior[pos] / (t * prior[1 - pos])
        self.feats = list(clf.features)
        self.ratio = {}
        for f in self.feats:
            tab = clf.table(f)
            assert all(v > 0 for row in tab for v in row), "a zero entry: not a zero-free case"
            self.ratio[f] = [a / b for a, b in zip(tab[pos], tab[1 - pos])]
        self.x = {f: clf.states(f).index(x[f]) for f in self.feats}
        self.d = clf.decide(x, within="all")
        pick = min if self.d else max
        self.worst = {f: pick(self.ratio[f]) for f in self.feats}
        self.own = {f: self.ratio[f][self.x[f]] for f in self.feats}

    def keeps(self, value):
        return value >= 1 if self.d else value < 1

    def product(self, fixed):
        return self.k * math.prod((self.own[f] if f in fixed else self.worst[f]
                                   for f in self.feats), start=Fraction(1))

    def check(self, fixed):
        """(sufficient, minimal) of the feature set ``fixed``."""
        p = self.product(fixed)
        if not self.keeps(p):
            return False, False
        return True, all(not self.keeps(p * self.worst[f] / self.own[f]) for f in fixed)

    def shortest_length(self):
        gains = sorted((self.own[f] / self.worst[f] for f in self.feats),
                       reverse=self.d)
        p = self.product(())
        for k, g in enumerate([None, *gains]):
            if g is not None:
                p *= g
            if self.keeps(p):
                return k
        raise AssertionError("the instance itself does not keep its decision")

    def robustness(self):
        pick = min if self.d else max
        moves = []
        for f in self.feats:
            others = [r for j, r in enumerate(self.ratio[f]) if j != self.x[f]]
            if others:
                moves.append(pick(others) / self.own[f])
        moves.sort(reverse=not self.d)
        p = self.product(self.feats)
        for k, m in enumerate(moves, 1):
            p *= m
            if not self.keeps(p):
                return k
        return math.inf


@pytest.fixture(scope="module", params=NAMES)
def xlc(request):
    path = DATA / f"{request.param}.xlc"
    return request.param, parse_xlc(path), linear.read_xlc(path)


def _instances(clf, n, seed):
    rng = random.Random(seed)
    return [{f: rng.choice(clf.states(f)) for f in clf.features} for _ in range(n)]


def test_the_network_has_the_files_decision_function(xlc):
    name, (w0, weights), clf = xlc
    checked = 0
    for x in _instances(clf, 300, 1):
        score = w0 + sum(weights[i][int(x[f])] for i, f in enumerate(clf.features))
        if abs(score) > 1e-9:
            # class 1 iff the score is not positive
            assert clf.decide(x, within="all") == (score <= 0)
            assert linear.decide(clf, x, within="all") == clf.decide(x, within="all")
            checked += 1
    assert checked > 250


def test_explanations_are_verified_independently(xlc):
    name, _, clf = xlc
    for x in _instances(clf, 3, 2):
        ex = Exact(clf, x)
        pis = list(itertools.islice(linear.pi_explanations(clf, x), 150))
        assert len({frozenset(e) for e in pis}) == len(pis)
        for e in pis:
            assert all(x[f] == s for f, s in e.items())
            assert ex.check(set(e)) == (True, True), (name, e)
        shortest = linear.shortest_pi_explanation(clf, x)
        assert ex.check(set(shortest)) == (True, True)
        assert len(shortest) == ex.shortest_length() <= min(map(len, pis))
        r = linear.robustness(clf, x)
        assert r == ex.robustness()
        cfs = linear.counterfactuals(clf, x)
        assert cfs.cost == r and cfs.count >= 1
        for changes in itertools.islice(cfs, 20):
            assert len(changes) == r and \
                clf.decide({**x, **changes}, within="all") != clf.decide(x, within="all")
        chk = linear.check_explanation(clf, x, pis[0])
        assert (chk.sufficient, chk.minimal, chk.redundant) == (True, True, ())
        assert chk.reason == pis[0] and chk.decision == clf.decide(x, within="all")
        extra = next(f for f in clf.features if f not in pis[0])
        chk = linear.check_explanation(clf, x, {**pis[0], extra: x[extra]})
        assert chk.sufficient and not chk.minimal and extra in chk.redundant


@pytest.mark.slow
def test_mc_explanations_keep_the_decision_with_fewest_on_features(xlc):
    """Each of the sets' members keeps the decision with as few kept, and no fewer do (on
    spam_48 the set has billions of members: its diagram takes a few seconds)."""
    name, _, clf = xlc
    for x in _instances(clf, 2, 0):
        on = {}  # the states that favour class 1 (the upper half by likelihood ratio) are on
        for f in clf.features:
            t = clf.table(f)
            r = [a / b for a, b in zip(t[1], t[0])]
            median = sorted(r)[len(r) // 2]
            on[f] = [s for s, v in zip(clf.states(f), r) if v >= median]
        mcs = linear.mc_explanations(clf, x, on=on)
        d = clf.decide(x, within="all")
        ex = Exact(clf, x)
        pick = max if d else min
        switch = {}  # feature -> best ratio among the states it may move to
        for f in clf.features:
            if (x[f] in on[f]) == d:
                repl = [r for j, r in enumerate(ex.ratio[f]) if (clf.states(f)[j] in on[f]) != d]
                if repl:
                    switch[f] = pick(repl)
        sizes = set()
        for e in itertools.islice(mcs, 30):  # each keeps the decision with as few kept
            assert clf.decide(e, within="all") == d
            assert all(e[f] == x[f] or (f in switch and (e[f] in on[f]) != d)
                       for f in clf.features)
            sizes.add(sum(e[f] == x[f] for f in switch))
        assert len(sizes) == 1 and len(mcs.lengths()) == 1
        # the members that switch to the best states keep the fewest, as the greedy does
        best = [e for e in itertools.islice(mcs, 30) if all(
            ex.ratio[f][clf.states(f).index(e[f])] == switch[f] for f in switch if e[f] != x[f])]
        kept = [f for f in switch if best[0][f] == x[f]] if best else [None] * sizes.pop()
        # no smaller kept set works: the k - 1 most helpful keeps fail
        value = ex.k * math.prod((switch.get(f, ex.own[f]) for f in clf.features),
                                 start=Fraction(1))
        factors = sorted((ex.own[f] / switch[f] for f in switch), reverse=d)
        for g in factors[:len(kept) - 1]:
            value *= g
        assert kept and not ex.keeps(value)


def test_bad_xlc_files_are_named(tmp_path):
    for text, match in [("2\n0.5\n1\n0.3\n1\n2 0 1\n", "real-valued"),
                        ("2\n0.5\n0\n2\n2 0 1\n", "ends early"),
                        ("1\n0.5\n0\n1\n2 0 x\n", "expected a number"),
                        ("1\n0.5\n0\n1\n2 0 1\n7\n", "after its last feature")]:
        path = tmp_path / "bad.xlc"
        path.write_text(text)
        with pytest.raises(bnx.NetworkFileError, match=match):
            linear.read_xlc(path)
    with pytest.raises(bnx.NetworkFileError, match="cannot read"):
        linear.read_xlc(tmp_path / "missing.xlc")
