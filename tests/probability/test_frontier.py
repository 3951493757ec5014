"""The same-decision probability on TANs and general networks, against brute force.

The brute force sums ``Pr(e, z)`` over every completion ``z`` of the evidence with the
oracle's exact joint (tests/_support/oracle.py: plain enumeration of the hidden nodes, never
bnx) and decides each completion from that joint under the classifier's rule.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bnx
from bnx.probability import frontier
from tests._support import oracle
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import general_networks, instances, tan_networks

SLOW = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


def _brute(case, evidence, decision):
    """``(sdp, decision on the evidence)``; ``(None, None)`` when ``Pr(e) = 0``."""
    missing = [f for f in case.features if f not in evidence]
    mass = {True: Fraction(0), False: Fraction(0)}
    summed: dict = {}
    for combo in itertools.product(*(case.states(f) for f in missing)):
        inst = {**evidence, **dict(zip(missing, combo))}
        cj = oracle.class_joint(case.net, case.class_var, inst, case.features)
        d = oracle._decide_from_joint(cj, case.positive, case.threshold, case.rule)
        mass[d] += sum(cj.values(), Fraction(0))
        for c, p in cj.items():
            summed[c] = summed.get(c, Fraction(0)) + p
    total = mass[True] + mass[False]
    if total == 0:
        return None, None
    own = oracle._decide_from_joint(summed, case.positive, case.threshold, case.rule)
    d = own if decision is None else decision
    return mass[d] / total, own


@st.composite
def _evidence(draw, case):
    x = draw(instances(case))
    kept = draw(st.sets(st.sampled_from(case.features)))
    return {f: x[f] for f in kept}


def _check(case, data, backend):
    clf = _classifier(case)
    order = data.draw(st.permutations(case.features))
    odd = bnx.compile(clf, order, backend=backend)
    for _ in range(3):
        e = data.draw(_evidence(case))
        want, own = _brute(case, e, None)
        if want is None:
            with pytest.raises(bnx.ExplanationError, match="probability zero"):
                bnx.same_decision_probability(clf, e, odd=odd)
            continue
        got = bnx.same_decision_probability(clf, e, odd=odd, exact=True)
        assert isinstance(got, Fraction) and got == want
        assert clf.decide(e, partial=True, within="all") == own
        pos = bnx.same_decision_probability(clf, e, decision=True, odd=odd, exact=True)
        assert pos == _brute(case, e, True)[0]
        assert pos + bnx.same_decision_probability(clf, e, decision=False, odd=odd,
                                                   exact=True) == 1
        # the float within its proven bound, for the same decision
        fast = bnx.same_decision_probability(clf, e, odd=odd)
        assert isinstance(fast, float) and abs(Fraction(fast) - want) <= Fraction(1, 10 ** 9)
        # the elimination along the diagram directly, whatever the structure
        idx = clf.encode(e, partial=True)
        assert frontier.same_decision_fraction(clf, odd, idx, True) == pos


@pytest.mark.slow
@SLOW
@given(case=tan_networks(max_features=5, max_instances=96), data=st.data())
def test_tan_same_decision_probability_is_the_exact_sum(case, data, backend):
    _check(case, data, backend)


@pytest.mark.slow
@SLOW
@given(case=general_networks(max_features=4, max_instances=48), data=st.data())
def test_general_same_decision_probability_is_the_exact_sum(case, data, backend):
    _check(case, data, backend)


def test_a_threshold_below_the_doubles_is_decided_exactly():
    """A threshold that floats to 0 (or a subnormal) must not decide in floating point:
    with Pr(positive) = 0 every decision is negative, and the same-decision probability
    of the empty evidence is 1 (hypothesis found 0.0 here)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "F"), ("C", "G")])
    net.add_cpds(TabularCPD("C", 2, [[1], [0]]),
                 TabularCPD("F", 2, [[0.25, 0.5], [0.75, 0.5]], evidence=["C"],
                            evidence_card=[2]),
                 TabularCPD("G", 3, [[0.5, 0.2], [0.25, 0.3], [0.25, 0.5]], evidence=["C"],
                            evidence_card=[2]))
    for t in (Fraction(1, 10 ** 400), Fraction(5, 10 ** 320)):
        clf = bnx.Classifier(net, "C", 1, threshold=t)
        odd = bnx.compile(clf, backend="autoref")
        assert odd.count() == 0 and not clf.decide({}, partial=True, within="all")
        for e in ({}, {"F": 0}, {"G": 2}):
            assert bnx.same_decision_probability(clf, e, odd=odd) == 1.0
            assert bnx.same_decision_probability(clf, e, odd=odd, exact=True) == 1
