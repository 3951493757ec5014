"""The private units of the questions on an ODD, each tested directly against brute force.

They have no public face, or a path no small input takes: the passes of
``bnx/question/_reach.py`` (reaches, reached, distances, the closest flip, distinct rows) and
the distinct-rows path of ``bnx/explanation/_contrastive.py`` that only large diagrams take;
the robustness profile's erosions (``bnx/changes/_erosion.py``) per decision, by stars of a
conjunction and by one gather, and in Python integers past int64 (a count over 2**62
instances); the least states read off the CPTs (``bnx/classifier/_unate.py``) against the
store's stars; the function asked ``within=`` a deep set (``bnx/explanation/_within.py``);
and what the questions keep per ODD, replaced when full (``_boxes.LIMIT``,
``_cache.GC_SLACK``: limits no small input reaches). A question reaches them only whole;
the questions themselves are tested through ``bnx.*`` in the other files."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.changes._erosion import eroded_counts  # private: the profile's pass (a unit)
from bnx.classifier._unate import least_pair, least_states  # private: read off the CPTs
from bnx.diagram import _feature_view  # private: BIG=0 forces Python integers
from bnx.diagram._arrays import negate  # private: the negative decision's arrays
from bnx.diagram.store import Store
from bnx.explanation import (
    _boxes,  # private: LIMIT forces a new store
    _contrastive,  # private: ROW_BY_ROW=0, the large diagrams' path
)
from bnx.explanation._within import within_odd  # private: the function asked within=
from bnx.question import (
    _cache,  # private: GC_SLACK forces collection
    _reach,  # private: the passes, against brute force
)
from tests._support import oracle
from tests._support import oracle_reasons as brute
from tests._support.builders import compiled_case, multivalued_classifier, oracle_args
from tests._support.deep import dd_count, limit_untouched, majority
from tests._support.strategies import (
    classifier_of,
    classifiers,
    general_networks,
    instances,
    naive_bayes,
    tan_networks,
)

BACKENDS = bnx.backends.available_backends()
N = 200  # the deep set's levels
FEW = settings(max_examples=settings.default.max_examples // 2)


# ---------------------------------------------------------------- the passes of _reach
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
    decide = bnx.diagram._feature_view.decide_states
    decisions = {bool(d) for d in decide(fv.arrays, fv.enc, completions)}
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
    r = bnx.robustness(odd, x, immutable=fixed, within="all")
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


# ---------------------------------------------------- the contrastive pass of large diagrams
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
            got = bnx.contrastive_explanations(odd, x, within="all")
            assert got.to_set() == brute.contrastive_explanations(args, x)
            assert bnx.feature_roles(odd, x, within="all") == brute.feature_roles(args, x)


# ---------------------------------------------------------------- the erosions
def erosion_engines_agree(odd, args, immutable, rule="threshold") -> None:
    """The erosion engine, with stars by conjunction and, where the decision is unate, by
    one gather, counts each decision's instances by robustness as the brute force does."""
    enc = odd.encoding
    mutable = [f not in immutable for f in enc.features]
    pair = odd.meta.get("least_states")
    for decision, arrays in ((True, odd.arrays), (False, negate(odd.arrays))):
        want = brute.robustness_profile(args, immutable, rule, decision)
        stuck = want.pop(math.inf, 0)
        for least in [None] + ([pair[0 if decision else 1]] if pair is not None else []):
            assert eroded_counts(arrays, enc, mutable, least) == (want, stuck)

@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@FEW
@given(case=classifiers(), data=st.data())
def test_erosions_per_decision_match_brute_force(case, data, backend):
    clf, odd = compiled_case(case, backend, data)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    erosion_engines_agree(odd, oracle_args(case), immutable)


@given(case=st.one_of(general_networks(), tan_networks()), data=st.data())
@settings(max_examples=30)
def test_erosions_of_general_networks_match_brute_force(case, data, backend):
    """Not unate in general: the erosions' stars are conjunctions of cofactors."""
    order = data.draw(st.permutations(case.features))
    odd = bnx.compile(classifier_of(case), order, backend=backend)
    immutable = data.draw(st.sets(st.sampled_from(case.features), max_size=2))
    args = (case.net, case.class_var, case.positive, case.threshold, case.features)
    erosion_engines_agree(odd, args, immutable, case.rule)


@pytest.mark.parametrize("example", ["asia", "admissions"])
def test_erosion_counts_in_python_integers_past_int64(monkeypatch, example):
    """Counts of 2**62 instances or more are Python integers (object arrays): the same
    answers as in int64 on a small classifier made to take that path."""
    odd = bnx.compile(getattr(bnx.examples, example)(), backend="autoref")
    enc = odd.encoding
    everything = [True] * len(enc.features)

    def both():
        return [eroded_counts(a, enc, everything)
                for a in (odd.arrays, negate(odd.arrays))]

    want = both()
    monkeypatch.setattr(_feature_view, "BIG", 0)
    got = both()
    assert got == want and sum(sum(c.values()) + s for c, s in got) == odd.total()


# ---------------------------------------------------------------- least states
def _argmax_or_threshold(case, argmax: bool):
    if argmax and len(case.net.get_cpds(case.class_var).state_names[case.class_var]) == 2:
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return classifier_of(case)


@settings(max_examples=60, deadline=None)
@given(case=naive_bayes(max_features=4, max_instances=64), argmax=st.booleans())
def test_least_state_cofactor_is_the_conjunction_of_all(case, argmax):
    clf = _argmax_or_threshold(case, argmax)
    odd = bnx.compile(clf, backend="autoref")
    pair = least_pair(clf, odd.encoding.features)
    if len(clf.class_states) != 2:
        assert pair is None
        return
    assert odd.meta["least_states"] == pair
    enc = odd.encoding
    for decision, arrays in ((True, odd.arrays), (False, negate(odd.arrays))):
        least = least_states(clf, enc.features, decision)
        assert least == pair[0 if decision else 1]
        plain = Store.from_arrays(arrays, enc)  # stars by conjunction
        plain.close()
        fast = Store.from_arrays(arrays, enc, least=least)
        fast.close()
        # same function at every node pi-inst can meet (reached at a feature boundary; a
        # node inside a multi-bit feature only is no function of whole states)
        for u in _at_boundaries(plain, enc, arrays.root):
            assert _table(plain, int(plain.star[u])) == _table(fast, int(fast.star[u]))


def _at_boundaries(store: Store, enc, root: int) -> set:
    """The inner nodes reached from ``root`` through whole features."""
    out, reached = set(), {root}
    for i in range(len(enc.features)):
        end = enc.first_level[i + 1]
        test = {u for u in reached if u > 1 and store.level[u] < end}
        out |= test
        reached = (reached - test) | {int(store.cofactor(u, i, j)) for u in test
                                      for j in range(len(enc.states[i]))}
    return out


def _table(store: Store, u: int) -> tuple:
    """The truth table of store node ``u`` over all the variables."""
    out = []
    for bits in itertools.product((0, 1), repeat=store.nvars):
        v = u
        while v > 1:
            v = int(store.hi[v] if bits[store.level[v]] else store.lo[v])
        out.append(v)
    return tuple(out)


def test_general_networks_have_no_least_states():
    clf = bnx.case_study.votes_tan_classifier()
    assert least_pair(clf, clf.features) is None


# ---------------------------------------------------------------- within a deep set
@pytest.fixture(scope="module", params=BACKENDS)
def deep(request):
    """``majority(200)`` compiled on one backend, its ``dd`` root made."""
    clf = majority(N)
    odd = bnx.compile(clf, backend=request.param)
    assert odd.root is not None and odd.domain is not None
    return clf, odd


def test_within_a_set_on_a_deep_diagram(deep):
    """``g = f or not kappa`` for a positive instance, ``f and kappa`` for a negative one,
    with ``kappa`` the instances where ``f0`` is off; ``f`` is "at least T features on"."""
    clf, odd = deep
    total = odd.count()
    t = next(t for t in (N // 2, N // 2 + 1)
             if sum(math.comb(N, k) for k in range(t, N + 1)) == total)
    on_rest = sum(math.comb(N - 1, k) for k in range(t, N))  # f and f0 off
    kappa = [{"f0": 1}]
    with limit_untouched():
        allowed = bnx.forbid(odd, kappa)
        pos = {f: int(1 <= i <= t) for i, f in enumerate(clf.features)}
        neg = dict.fromkeys(clf.features, 0)
        g = within_odd(odd, pos, allowed)
        assert dd_count(g.root, N) == 2 ** (N - 1) + on_rest
        g = within_odd(odd, neg, kappa)  # a list of combinations works as well
        assert dd_count(g.root, N) == on_rest
        with pytest.raises(bnx.ExplanationError, match="not in the set"):
            within_odd(odd, dict(neg, f0=1), allowed)


# ---------------------------------------------------------------- what is kept, replaced
def test_what_is_kept_between_questions_changes_no_answer(monkeypatch):
    odd = bnx.compile(multivalued_classifier())
    xs = [dict(zip(odd.display_order, s))
          for s in itertools.product(*(odd.states(f) for f in odd.display_order))]
    fresh = []
    for x in xs:
        odd.clear_caches()
        fresh.append(list(bnx.general_reasons(odd, x)))
    assert [list(bnx.general_reasons(odd, x)) for x in reversed(xs)] == fresh[::-1]
    kept = bnx.general_reasons(odd, xs[0])
    monkeypatch.setattr(_boxes, "LIMIT", 0)  # every question on a new store
    assert [list(bnx.general_reasons(odd, x)) for x in xs] == fresh
    assert list(kept) == fresh[0] and all(r in kept for r in fresh[0])


def test_autoref_managers_are_tidied(monkeypatch):
    """Explanations leave dead nodes in the shared autoref managers (kept in the ODD's
    arrays cache); they are collected once a manager has doubled (here with no slack),
    and the sets still held stay intact."""
    sizes = {}
    for slack in (0, 10**9):
        odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        monkeypatch.setattr(_cache, "GC_SLACK", slack)
        kept = bnx.pi_explanations(odd, dict.fromkeys(odd.features, "+"))
        assert kept.root is not None
        for _ in range(3):
            for code in range(16):
                x = {f: "+" if code >> i & 1 else "-" for i, f in enumerate(odd.features)}
                # .root writes each set into its dd manager (sets are built in private
                # managers and written on first use); dropping them leaves dead nodes
                assert bnx.pi_explanations(odd, x, method="cover").root is not None
                assert bnx.mc_explanations(odd, x).root is not None
        sizes[slack] = sum(len(b) for _, b in odd.arrays.cache.entries("aux_manager"))
        assert kept.count == 3 and len(kept.to_set()) == 3
        assert list(kept.root.bdd.pick_iter(kept.root))  # still intact in dd
    assert sizes[0] < sizes[10**9]
