"""SHAP and Banzhaf values with the network's own distribution as the background.

The oracle enumerates every instance ``z`` of the features with its probability under
the network (the sum of the network's joint over the class and every hidden node, by
``tests/_support/oracle.py``, independently of bnx), computes ``v(S) = sum_z Pr(z) f(x_S, z_rest)``
for every coalition and the values by their definition, in exact fractions.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD

import bnx
from tests._support import oracle
from tests._support.strategies import (
    classifier_of,
    classifiers,
    general_networks,
    instances,
    make_case,
    tan_networks,
)


def network_distribution(case):
    """``[(instance, Pr(instance))]`` over every instance of the features, normalised."""
    joint = oracle.class_joint_table(case.net, case.class_var, case.features)
    points = [(dict(zip(case.features, combo)), sum(cj.values(), Fraction(0)))
              for combo, cj in joint.items()]
    total = sum(p for _, p in points)
    return [(z, p / total) for z, p in points if p]


def by_definition(case, x, points, kind):
    """``(values by feature, v(empty))`` over every coalition."""
    feats = list(case.features)
    n = len(feats)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  feats, rule=case.rule)
    memo = {}

    def v(S):
        key = frozenset(S)
        if key not in memo:
            memo[key] = sum((p * table[tuple(x[f] if f in S else z[f] for f in feats)]
                             for z, p in points), Fraction(0))
        return memo[key]

    vals = {}
    for f in feats:
        others = [g for g in feats if g != f]
        total = Fraction(0)
        for k in range(n):
            w = (Fraction(math.factorial(k) * math.factorial(n - k - 1), math.factorial(n))
                 if kind == "shap" else Fraction(1, 2 ** (n - 1)))
            for S in itertools.combinations(others, k):
                total += w * (v(set(S) | {f}) - v(set(S)))
        vals[f] = total
    return vals, v(set())


@pytest.mark.slow
@given(case=classifiers(max_features=5, max_instances=48), data=st.data(),
       kind=st.sampled_from(["shap", "banzhaf"]),
       rule=st.sampled_from(["threshold", "argmax"]))
@settings(max_examples=30, deadline=None)
def test_equals_definition(case, data, kind, rule):
    """Naive Bayes and latent trees (multi-valued features, zeros in the CPTs), both
    rules: exact values and base value equal the definition; floats within 1e-12;
    SHAP's local accuracy."""
    case.rule = rule
    note(repr(case))
    clf = classifier_of(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend="autoref")
    xs = data.draw(st.lists(instances(case), min_size=1, max_size=3), label="X")
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    points = network_distribution(case)
    got = fn(odd, pd.DataFrame(xs, columns=case.features), clf, exact=True)
    fl = fn(odd, pd.DataFrame(xs, columns=case.features), background=clf)
    for j, x in enumerate(xs):
        want, base = by_definition(case, x, points, kind)
        assert got.feature_names == tuple(case.features)
        assert dict(zip(got.feature_names, got.values[j])) == want
        assert got.base_values[j] == base
        assert np.allclose(fl.values[j].astype(float), [float(want[f]) for f in case.features],
                           atol=1e-12, rtol=0)
        assert abs(float(fl.base_values[j]) - float(base)) < 1e-12
        if kind == "shap":
            assert base + sum(got.values[j]) == got.decisions[j]
    one = fn(odd, xs[0], clf, exact=True)  # one instance: one-dimensional values
    assert list(one.values) == list(got.values[0])


def _votes_like():
    """A naive Bayes whose marginal has denominator 2 * 4^3 = 128: a data set of 128
    rows represents it exactly (for shap, which weighs every background row alike)."""
    c = ["r", "d"]
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": c})]
    cols = {"A": [[0.25, 0.75], [0.75, 0.25]], "B": [[0.5, 0.25], [0.5, 0.75]],
            "D": [[0.25, 0.5], [0.25, 0.25], [0.5, 0.25]]}
    for f, col in cols.items():
        names = ["a", "b", "c"][:len(col)]
        cpds.append(TabularCPD(f, len(col), col, evidence=["C"], evidence_card=[2],
                               state_names={f: names, "C": c}))
    return make_case([("C", f) for f in cols], cpds, "C", "d", 0.5, list(cols))


@pytest.mark.slow
def test_equals_shap_exact_on_a_data_set_that_is_the_distribution():
    """Against ``shap.explainers.Exact`` with an ``Independent`` masker over 128 rows
    that repeat each instance ``128 Pr(z)`` times (the network's distribution exactly)."""
    shap = pytest.importorskip("shap")
    case = _votes_like()
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    feats = list(odd.features)
    points = network_distribution(case)
    rows = []
    for z, p in points:
        k = p * 128
        assert k.denominator == 1
        rows += [[odd.states(f).index(z[f]) for f in feats]] * int(k)
    assert len(rows) == 128

    def model(a):
        return np.array([odd.decide({f: odd.states(f)[int(v)] for f, v in zip(feats, r)},
                                    within="all")
                         for r in np.asarray(a)], dtype=float)

    named = [{"A": 1, "B": 0, "D": 2}, {"A": 0, "B": 1, "D": 0}, {"A": 1, "B": 1, "D": 1}]
    X = np.array([[r[f] for f in feats] for r in named])
    explainer = shap.explainers.Exact(model, shap.maskers.Independent(np.array(rows),
                                                                      max_samples=128))
    ref = explainer(X)
    frame = pd.DataFrame([[odd.states(f)[v] for f, v in zip(feats, r)] for r in X],
                         columns=feats)
    got = bnx.shap_values(odd, frame, clf)
    perm = [feats.index(f) for f in got.feature_names]
    assert np.abs(got.values - ref.values[:, perm]).max() < 1e-12
    assert np.abs(got.base_values - ref.base_values).max() < 1e-12


def test_votes_differs_from_uniform_and_adds_up():
    """On votes: the values against the network's distribution add up to the decision,
    and are those of the two products ``Pr(. | class)`` weighted by the class prior."""
    from bnx.tabular.case_study import votes_classifier
    clf = votes_classifier()
    odd = bnx.compile(clf)
    X = bnx.datasets.load_votes().dropna()[list(clf.features)].iloc[:5]
    got = bnx.shap_values(odd, X, clf)
    assert np.allclose(got.base_values + got.values.sum(axis=1), got.decisions, atol=1e-12)
    prior = clf.table(clf.class_var)[0]
    mix = sum(float(prior[c]) * bnx.shap_values(odd, X, {
        f: dict(zip(clf.states(f), map(float, clf.table(f)[c]))) for f in clf.features}).values
        for c in range(len(prior)))
    assert np.allclose(got.values, mix, atol=1e-12)


@given(case=general_networks(max_features=4, max_hidden=2, max_instances=36),
       data=st.data())
@settings(max_examples=40, deadline=None)
def test_general_networks(case, data):
    """Networks with hidden nodes other than a latent tree's are refused with a
    StructureError naming what is supported; those without (features may be inner
    nodes, the class may have parents) equal the definition."""
    note(repr(case))
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case), label="x")
    kind = data.draw(st.sampled_from(["shap", "banzhaf"]), label="kind")
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    # the hidden nodes that matter: the ancestors of the class and the features (the rest
    # is pruned), read from the network itself rather than from the classifier's factors
    relevant = {case.class_var, *case.features}
    relevant |= {a for v in relevant for a in nx.ancestors(case.net, v)}
    hidden = relevant - set(case.features) - {case.class_var}
    if hidden and clf.structure not in ("naive_bayes", "latent_tree"):
        with pytest.raises(bnx.StructureError, match="naive Bayes and latent trees .* no "
                                                     "hidden node .* hidden nodes"):
            fn(odd, x, clf)
        return
    got = fn(odd, x, clf, exact=True)
    want, base = by_definition(case, x, network_distribution(case), kind)
    assert dict(zip(got.feature_names, got.values)) == want and got.base_values == base


def test_errors():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    from bnx.tabular.case_study import votes_classifier
    with pytest.raises(bnx.ArgumentError, match="features differ"):
        bnx.shap_values(odd, x, votes_classifier())
    other = _votes_like()
    renamed = make_case(other.net.edges(), other.net.get_cpds(), "C", "d", 0.5, ["A", "B"])
    small = bnx.compile(classifier_of(renamed), backend="autoref")
    with pytest.raises(bnx.ArgumentError, match="features differ"):
        bnx.shap_values(small, {"A": "a", "B": "a"}, classifier_of(other))
    with pytest.raises(bnx.ArgumentError, match="or a Classifier"):
        bnx.shap_values(odd, x, 3)


@given(case=tan_networks(max_features=4, max_instances=36), data=st.data(),
       kind=st.sampled_from(["shap", "banzhaf"]))
@settings(max_examples=40, deadline=None)
def test_tan_equals_definition(case, data, kind):
    """TANs (the features linked by ``Pr(z_i | c, z_j)``), any order, both rules: the
    passes carrying a context equal the definition."""
    note(repr(case))
    clf = classifier_of(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend="autoref")
    xs = data.draw(st.lists(instances(case), min_size=1, max_size=2), label="X")
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    points = network_distribution(case)
    got = fn(odd, pd.DataFrame(xs, columns=case.features), clf, exact=True)
    fl = fn(odd, pd.DataFrame(xs, columns=case.features), clf)
    for j, x in enumerate(xs):
        want, base = by_definition(case, x, points, kind)
        assert dict(zip(got.feature_names, got.values[j])) == want
        assert got.base_values[j] == base
        assert np.allclose(fl.values[j].astype(float), [float(want[f]) for f in case.features],
                           atol=1e-12, rtol=0)


def test_state_mismatch_and_context_limit(monkeypatch):
    """A classifier whose feature has other states than the ODD's; an order that carries
    more contexts than the limit: ArgumentError saying so."""
    case = _votes_like()
    odd = bnx.compile(classifier_of(case), backend="autoref")
    cpds = [c.copy() for c in case.net.get_cpds()]
    for j, c in enumerate(cpds):
        if c.variable == "B":
            cpds[j] = TabularCPD("B", 2, c.values.reshape(2, 2), evidence=["C"],
                                 evidence_card=[2], state_names={"B": ["x", "y"],
                                                                 "C": ["r", "d"]})
    other = make_case(case.net.edges(), cpds, "C", "d", 0.5, ["A", "B", "D"])
    with pytest.raises(bnx.ArgumentError, match="'B' has the states x, y"):
        bnx.shap_values(odd, {"A": "a", "B": "a", "D": "a"}, classifier_of(other))
    from bnx.attribution import chain
    nb = bnx.examples.admissions()  # a naive Bayes: the mixture, no limit
    monkeypatch.setattr(chain, "MAX_CONTEXTS", 1)
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    bnx.shap_values(bnx.compile(nb, backend="autoref"), x, nb)
    edges = [("C", "A"), ("C", "B"), ("A", "B")]
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["r", "d"]}),
            TabularCPD("A", 2, [[0.25, 0.75], [0.75, 0.25]], evidence=["C"], evidence_card=[2],
                       state_names={"A": ["a", "b"], "C": ["r", "d"]}),
            TabularCPD("B", 2, [[0.5, 0.25, 0.5, 0.75], [0.5, 0.75, 0.5, 0.25]],
                       evidence=["C", "A"], evidence_card=[2, 2],
                       state_names={"B": ["a", "b"], "C": ["r", "d"], "A": ["a", "b"]})]
    clf = classifier_of(make_case(edges, cpds, "C", "d", 0.5, ["A", "B"]))
    assert clf.structure == "tan"
    with pytest.raises(bnx.ArgumentError, match="contexts"):
        bnx.shap_values(bnx.compile(clf, backend="autoref"), {"A": "a", "B": "b"}, clf)
