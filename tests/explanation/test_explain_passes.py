"""The linear passes of the questions on the array form (issue 17): the vectorised paths
that small diagrams skip, the per-instance memo, and the passes one by one, against the
brute force of tests/_support/oracle_reasons.py and tests/_support/oracle.py (independent of
bnx)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.explanation import _contrastive  # private: the passes, against brute force
from bnx.question import _reach  # private: the passes, against brute force
from tests._support import oracle
from tests._support import oracle_reasons as brute
from tests._support.builders import compiled_case, oracle_args
from tests._support.strategies import classifiers, instances

BACKENDS = bnx.backends.available_backends()
FEW = settings(max_examples=settings.default.max_examples // 2)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_vectorised_contrastive_pass_matches_brute_force(case, data, backend):
    """Every feature through the distinct-rows path that large diagrams take."""
    clf, odd = compiled_case(case, backend, data)
    args = oracle_args(case)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_contrastive, "ROW_BY_ROW", 0)
        for x in [data.draw(instances(case)) for _ in range(2)]:
            got = bnx.contrastive_explanations(odd, x)
            assert got.to_set() == brute.contrastive_explanations(args, x)
            assert bnx.feature_roles(odd, x) == brute.feature_roles(args, x)


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
        "robustness": lambda z: bnx.robustness(odd, z),
        "robustness fixed": lambda z: bnx.robustness(odd, z, immutable=fixed),
        "counterfactuals fixed": lambda z: bnx.counterfactuals(odd, z, immutable=fixed).to_set(),
        "counterfactuals": lambda z: bnx.counterfactuals(odd, z).to_set(),
        "contrastive": lambda z: bnx.contrastive_explanations(odd, z).to_set(),
        "roles": lambda z: bnx.feature_roles(odd, z),
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
@given(case=classifiers(), data=st.data())
def test_reaches_and_reached_match_completions(case, data, backend):
    """``reaches`` at the root is "some completion of the partial instance gets the
    terminal's decision"; ``reached`` marks the nodes of the paths of its completions."""
    clf, odd = compiled_case(case, backend, data)
    fv = _reach.view(odd)
    enc = odd.encoding
    x = data.draw(instances(case))
    kept = data.draw(st.sets(st.sampled_from(case.features)))
    idx = odd.encode(x)
    fixed = [idx[f] if f in kept else None for f in enc.features]
    completions = list(itertools.product(*(
        [fixed[i]] if fixed[i] is not None else range(len(enc.states[i]))
        for i in range(len(enc.features)))))
    decisions = {bool(d) for d in bnx.diagram._feature_view.decide_states(fv, completions)}
    for target in (_reach.FALSE, _reach.TRUE):
        assert bool(_reach.reaches(fv, fixed, target)[fv.root]) == (bool(target) in decisions)
    on_paths = np.zeros(fv.arrays.size, dtype=bool)
    for y in completions:  # walk each completion down
        u = fv.root
        on_paths[u] = True
        while u > _reach.TRUE:
            u = fv.child(u, y[int(fv.feature[u])])
            on_paths[u] = True
    assert (_reach.reached(fv, fixed) == on_paths).all()


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(), data=st.data())
def test_distances_are_hamming_distances_from_the_root(case, data, backend):
    """The root's distance to each terminal is the fewest mutable features to change,
    by enumeration of all instances; the closest flip is one such instance."""
    clf, odd = compiled_case(case, backend, data)
    fv = _reach.view(odd)
    enc = odd.encoding
    x = data.draw(instances(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    mutable = [f not in fixed for f in enc.features]
    idx = odd.encode(x)
    xs = [idx[f] for f in enc.features]
    everything = list(itertools.product(*(range(len(s)) for s in enc.states)))
    table = oracle.decision_table(*oracle_args(case))  # by states in the classifier's order
    pos = [enc.position(f) for f in case.features]
    decided = [table[tuple(enc.states[i][y[i]] for i in pos)] for y in everything]
    for target in (_reach.FALSE, _reach.TRUE):
        best = min((sum(a != b for a, b in zip(y, xs)) for y, d in zip(everything, decided)
                    if d == bool(target)
                    and all(m or a == b for m, a, b in zip(mutable, y, xs))), default=None)
        d = int(_reach.distances(fv, xs, target, mutable)[fv.root])
        assert (None if d >= _reach.INF else d) == best
    y = _reach.closest_flip(fv, xs, mutable)
    r = bnx.robustness(odd, x, immutable=fixed)
    if y is None:
        assert r == math.inf
    else:
        assert _reach.decide(fv, y) != _reach.decide(fv, xs)
        assert sum(a != b for a, b in zip(y, xs)) == r
        assert all(m or a == b for m, a, b in zip(mutable, y, xs))


def test_distinct_rows_past_the_integer_keys():
    """Rows too wide for one int64 key are made distinct by numpy's row sort."""
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, size=(200, 5))
    for bound in (3, 1 << 20):
        rows, inverse = _reach.distinct_rows(a, bound)
        assert len({tuple(r) for r in a.tolist()}) == len(rows)
        assert (rows[inverse] == a).all()


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
    got = bnx.check_explanation(odd, x, partial)
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
            assert bnx.count_biased(odd, protected) == want, limit
