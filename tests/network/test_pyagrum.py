"""Classifier.from_pyagrum / to_pyagrum, checked against pyAgrum's own inference."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bnx
import bnx.network.pyagrum
from tests._support.strategies import general_networks, instances

gum = pytest.importorskip("pyagrum")


def _pyagrum_posterior(bn, class_var, positive, x):
    """Pr(class = positive | x) by pyAgrum's LazyPropagation, or None when pyAgrum finds
    the evidence has probability zero (it then refuses, or answers uniformly)."""
    ie = gum.LazyPropagation(bn)
    ie.setEvidence({str(f): str(s) for f, s in x.items()})
    try:
        ie.makeInference()
        if ie.evidenceProbability() == 0:
            return None
        dist = ie.posterior(str(class_var))
    except gum.IncompatibleEvidence:
        return None
    return float(dist[{str(class_var): str(positive)}])


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=general_networks(max_nodes=6), data=st.data())
def test_to_pyagrum_has_the_classifiers_posteriors(case, data):
    clf = bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                         **({"rule": "argmax"} if case.rule == "argmax" else
                            {"threshold": case.threshold}))
    bn = clf.to_pyagrum()
    assert bn.size() == len(case.net.nodes()) and bn.sizeArcs() == len(case.net.edges())
    x = data.draw(instances(case))
    theirs = _pyagrum_posterior(bn, case.class_var, case.positive, x)
    if theirs is None:  # an impossible instance: no posterior, as bnx says by name
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            clf.posterior(x)
    else:
        assert clf.posterior(x) == pytest.approx(theirs, rel=1e-9, abs=1e-12)
    # and back: the same tables, so the same exact decisions
    back = bnx.Classifier.from_pyagrum(bn, str(case.class_var), str(case.positive),
                                       features=[str(f) for f in case.features],
                                       **({"rule": "argmax"} if case.rule == "argmax" else
                                          {"threshold": case.threshold}))
    assert (back.decide({str(f): str(s) for f, s in x.items()}, within="all")
            == clf.decide(x, within="all"))


@pytest.mark.parametrize("seed", range(4))
def test_from_pyagrum_decides_as_pyagrum_infers(seed):
    gum.initRandom(seed + 1)
    bn = gum.fastBN("c{no|yes}->a[3];c->b;a->b;d->c;b->e[3];c->e")
    clf = bnx.Classifier.from_pyagrum(bn, "c", "yes", features=["a", "b", "d", "e"],
                                      threshold=0.4)
    assert clf.states("a") == tuple(bn.variable("a").labels())
    odd = bnx.compile(clf, backend="autoref")
    for values in itertools.product(*(clf.states(f) for f in clf.features)):
        x = dict(zip(clf.features, values))
        p = _pyagrum_posterior(bn, "c", "yes", x)
        assert clf.posterior(x) == pytest.approx(p, rel=1e-9, abs=1e-12)
        if abs(p - 0.4) > 1e-9:  # away from the threshold floats agree on the decision
            assert odd.decide(x, within="all") == (p >= 0.4)


def test_the_asia_network_round_trips_table_for_table():
    net = bnx.examples.asia_network()
    back = bnx.network.pyagrum.from_pyagrum(bnx.network.pyagrum.to_pyagrum(net))
    assert sorted(back.edges()) == sorted(net.edges())
    for node in net.nodes():
        assert back.get_cpds(node) == net.get_cpds(node)


def test_bad_input_is_refused():
    with pytest.raises(bnx.ArgumentError, match="pyagrum.BayesNet"):
        bnx.Classifier.from_pyagrum("asia.bif", "lung", "yes")
