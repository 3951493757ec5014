"""The linear passes of the questions on the array form (issue 17), through the questions:
the per-instance memo, the greedy reason, the biased count both ways, against the brute
force of tests/_support/oracle_reasons.py and tests/_support/oracle.py (independent of bnx).
The passes one by one, and the vectorised paths small diagrams skip:
tests/explanation/test_units.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle_reasons as brute
from tests._support.builders import compiled_case, oracle_args
from tests._support.strategies import classifiers, instances

BACKENDS = bnx.backends.available_backends()
FEW = settings(max_examples=settings.default.max_examples // 2)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_questions_in_any_order_on_one_instance(case, data, backend):
    """The instance's memo (distances, contrastive set) never answers another question
    or another instance: the answers do not depend on what was asked before."""
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    x, y = data.draw(instances(case)), data.draw(instances(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    asks = {
        "robustness": lambda z: bnx.robustness(odd, z, within="all"),
        "robustness fixed": lambda z: bnx.robustness(odd, z, immutable=fixed, within="all"),
        "counterfactuals fixed": lambda z: bnx.counterfactuals(odd, z, immutable=fixed,
                                                               within="all").to_set(),
        "counterfactuals": lambda z: bnx.counterfactuals(odd, z, within="all").to_set(),
        "contrastive": lambda z: bnx.contrastive_explanations(odd, z, within="all").to_set(),
        "roles": lambda z: bnx.feature_roles(odd, z, within="all"),
    }
    want = {
        "robustness": lambda z: brute.robustness(args, z, set()),
        "robustness fixed": lambda z: brute.robustness(args, z, fixed),
        "counterfactuals fixed": lambda z: brute.counterfactuals(args, z, fixed),
        "counterfactuals": lambda z: brute.counterfactuals(args, z, set()),
        "contrastive": lambda z: brute.contrastive_explanations(args, z),
        "roles": lambda z: brute.feature_roles(args, z),
    }
    order = data.draw(st.permutations([(k, z) for k in asks for z in ("x", "y")]))
    for name, which in order:
        z = x if which == "x" else y
        assert asks[name](z) == want[name](z), (name, which)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_check_explanation_reason_is_the_greedy_one(case, data, backend):
    """``.reason`` drops the redundant features in the ODD's order while the rest stays
    sufficient (as before issue 17, when it was one pass per feature)."""
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    x = data.draw(instances(case))
    kept = data.draw(st.sets(st.sampled_from(case.features)))
    partial = {f: x[f] for f in kept}
    got = bnx.check_explanation(odd, x, partial, within="all")
    if not got.sufficient:
        assert got.reason is None
        return
    reason = dict(partial)
    for f in odd.features:  # the ODD's order
        if f in got.redundant:
            trial = {g: s for g, s in reason.items() if g != f}
            if brute.sufficient(args, x, trial):
                reason = trial
    assert got.reason == {f: reason[f] for f in clf.features if f in reason}
    assert list(got.reason) == [f for f in clf.features if f in got.reason]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data())
def test_count_biased_by_frontiers_and_by_quantification(case, data, backend):
    """Both ways of counting the biased instances match the brute force."""
    from bnx.changes import bias
    clf, odd = compiled_case(case, backend, data)
    protected = data.draw(st.sets(st.sampled_from(case.features)))
    want = brute.count_biased(oracle_args(case), protected)
    for limit in (0, 1 << 30):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(bias, "MAX_FRONTIER", limit)
            assert bnx.count_biased(odd, protected, within="all") == want, limit
