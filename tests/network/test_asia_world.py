"""asia with every other node a feature: the questions on every instance the network allows,
on the compiled diagram (both backends) and by the search without compiling, equal the brute
force over the possible instances only (exact joints, tests/_support/oracle.py).

``either`` is ``tub`` or ``lung``, so a quarter of the 128 instances cannot occur
(``tub = yes`` with ``either = no``) and the total decision function decides them by its
threshold's tie; no answer may mention them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import bnx
from bnx.local._answer import answer
from tests._support.strategies import Case
from tests._support.within_brute import Brute

BACKENDS = bnx.backends.available_backends()


@pytest.fixture(scope="module")
def asia():
    net = bnx.examples.asia().network
    feats = [n for n in net.nodes() if n != "lung"]
    clf = bnx.Classifier(net, "lung", "yes", features=feats, threshold=0.5)
    brute = Brute(Case(net, "lung", "yes", Fraction(1, 2), feats))
    assert len(brute.kappa) == 96 and len(brute.all) == 128
    return clf, brute


def _closest(brute, xt):
    return brute.counterfactuals(xt, lambda k, s: Fraction(1))


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_possible_instance_on_the_diagram(asia, backend):
    clf, brute = asia
    odd = bnx.compile(clf, backend=backend)
    on = {f: {"yes"} for f in brute.features}
    for xt in sorted(brute.kappa):
        x = dict(zip(brute.features, xt))
        pis = brute.pis(xt)
        assert bnx.pi_explanations(odd, x).to_set() == pis
        assert bnx.feature_roles(odd, x) == brute.roles(xt)
        assert bnx.contrastive_explanations(odd, x).to_set() == brute.contrastive(xt)
        assert bnx.mc_explanations(odd, x, on=on).to_set() == brute.mc(xt, on)
        least, closest = _closest(brute, xt)
        assert bnx.robustness(odd, x) == least
        assert bnx.counterfactuals(odd, x).to_set() == closest
    # the total function answers otherwise somewhere: the world matters here
    assert any(bnx.pi_explanations(odd, dict(zip(brute.features, xt)), within="all").to_set()
               != brute.pis(xt) for xt in sorted(brute.kappa))


@pytest.mark.slow
def test_every_possible_instance_without_compiling(asia):
    clf, brute = asia
    for xt in sorted(brute.kappa):
        x = dict(zip(brute.features, xt))
        a = answer(clf, clf.encode(x), most=10 ** 6)
        assert a.label == brute.table[xt] and a.shortest and a.minimal
        pis = brute.pis(xt)
        least = min(len(p) for p in pis)
        assert {frozenset((f, x[f]) for f in e) for e in a.reasons} == \
            {p for p in pis if len(p) == least}
        roles = brute.roles(xt)
        assert a.necessary_known
        assert set(a.necessary) == {f for f, r in roles.items() if r == "necessary"}
        robust, closest = _closest(brute, xt)
        assert a.robustness == robust
        assert {frozenset((f, clf.states(f)[j]) for f, j in s.items()) for s, _ in a.changes} \
            == closest
