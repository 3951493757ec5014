"""A classifier restricted by evidence decides, on every completion, what the whole
classifier decides on the evidence and that completion (exact joints alike)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.classifier._restricted import restrict, threshold_form  # private: the restriction, a unit
from tests._support import oracle
from tests._support.strategies import classifier_of, general_networks, instances


@given(case=general_networks(max_features=4, max_hidden=2), data=st.data())
@settings(max_examples=30, deadline=None)
def test_restricted_decisions_and_joints_are_the_whole_ones(case, data):
    clf = classifier_of(case)
    x = data.draw(instances(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    e = {f: x[f] for f in fixed}
    part = restrict(clf, e)
    assert part.features == tuple(f for f in clf.features if f not in fixed)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  case.features, rule=case.rule)
    for combo in itertools.product(*(part.states(f) for f in part.features)):
        y = dict(zip(part.features, combo))
        whole = {**e, **y}
        assert part.decide(y) == table[tuple(whole[f] for f in case.features)]
        assert part.class_joint(y) == clf.class_joint(whole)


def test_a_two_state_argmax_classifier_as_a_threshold():
    asia = bnx.examples.asia()
    feats = ["asia", "smoke", "xray", "dysp"]
    for clf in (bnx.Classifier(asia.network, "lung", "yes", features=feats, rule="argmax"),
                bnx.Classifier(asia.network, "lung", features=feats)):
        same, negated = threshold_form(clf)
        assert same.rule == "threshold" and same.positive == clf.class_states[0]
        for combo in itertools.product(*(clf.states(f) for f in feats)):
            x = dict(zip(feats, combo))
            if clf.multiclass:
                assert (clf.predict(x) == clf.class_states[0]) == same.decide(x)
            else:
                assert clf.decide(x) == (same.decide(x) != negated)
