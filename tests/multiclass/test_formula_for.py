"""The questions on a multi-class ODD, each asked of one class formula (the decided class's,
a rival's with ``rival=`` or a target's with ``target=``), against the multi-class oracle.

Each class formula lives in the one manager the multi-class compile shares; every question
must answer what the oracle answers by enumeration: "why a" (no rival), "why a and not b"
(``rival=b``), "the closest instances decided b" (``target=b``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support.oracle_multiclass import MultiOracle
from tests._support.strategies import instances, multiclass_classifier_of, multiclass_networks

BACKENDS = bnx.backends.available_backends()
CASES = multiclass_networks(max_features=4, max_instances=36)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=CASES, data=st.data())
@settings(max_examples=15, deadline=None)
def test_questions_on_class_formulas_answer_as_the_oracle(case, data, backend):
    note(repr(case))
    brute = MultiOracle.of(case)
    clf = multiclass_classifier_of(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend=backend)
    x = data.draw(instances(case), label="x")
    a = brute.decide(x)
    b = data.draw(st.sampled_from([c for c in brute.classes if c != a]), label="rival")
    immutable = data.draw(st.sets(st.sampled_from(case.features)), label="immutable")
    part = {f: x[f] for f in data.draw(st.sets(st.sampled_from(case.features)),
                                        label="part")}
    on = {f: data.draw(st.sets(st.sampled_from(case.states(f))), label=f"on {f}")
          for f in case.features}
    for rival in (None, b):
        assert bnx.pi_explanations(odd, x, rival=rival, within="all").to_set() == \
            brute.pi_explanations(x, rival)
        assert (bnx.contrastive_explanations(odd, x, rival=rival, within="all").to_set()
                == brute.contrastive_explanations(x, rival))
        assert bnx.feature_roles(odd, x, rival=rival, within="all") == brute.feature_roles(x, rival)
        check = bnx.check_explanation(odd, x, part, rival=rival, within="all")
        assert (check.sufficient, check.minimal, set(check.redundant)) == \
            brute.check_explanation(x, part, rival)
        assert bnx.mc_explanations(odd, x, rival=rival, on=on, within="all").to_set() == \
            brute.mc_explanations(x, on, rival=rival)
        cfs = brute.counterfactuals(x, target=rival, immutable=immutable)
        assert bnx.counterfactuals(odd, x, target=rival, immutable=immutable,
                                   within="all").to_set() == set(cfs)
        assert bnx.robustness(odd, x, target=rival, immutable=immutable,
                              within="all") == brute.robustness(x, target=rival,
                                                                immutable=immutable)
    s = data.draw(st.sampled_from(brute.classes), label="state")
    assert bnx.prime_implicants(odd.class_formula(s), within="all").to_set() == \
        brute.prime_implicants(s)


def test_a_rival_or_target_that_is_the_decided_class_or_no_state_is_refused():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    cs = ["a", "b", "c"]
    net = DiscreteBayesianNetwork([("C", "F")])
    net.add_cpds(TabularCPD("C", 3, [[0.5], [0.25], [0.25]], state_names={"C": cs}),
                 TabularCPD("F", 3, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                            evidence=["C"], evidence_card=[3],
                            state_names={"F": ["0", "1", "2"], "C": cs}))
    odd = bnx.compile(bnx.Classifier(net, "C"), backend="autoref")
    x = {"F": "1"}
    assert odd.decide(x) == "b"
    with pytest.raises(bnx.errors.ArgumentError, match="rival='b'"):
        bnx.pi_explanations(odd, x, rival="b")
    with pytest.raises(bnx.errors.ArgumentError, match="target='b'"):
        bnx.counterfactuals(odd, x, target="b")
    with pytest.raises(bnx.errors.UnknownStateError, match="d"):
        bnx.contrastive_explanations(odd, x, rival="d")
    with pytest.raises(bnx.errors.UnknownStateError, match="d"):
        bnx.robustness(odd, x, target="d")
