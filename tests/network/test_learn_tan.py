"""bnx.learn_tan against an independent computation of the TAN tree and tables."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.errors import DataError
from tests._support import oracle

# --------------------------------------------------------------------------- by hand


def _present(value) -> bool:
    return not (isinstance(value, float) and math.isnan(value)) and value is not None


def hand_weight(rows, c, f, g):
    """sum_k P(c=k) I(f; g | c=k): P over rows with the class, I over complete triples."""
    with_class = [r for r in rows if _present(r[c])]
    total = 0.0
    for k, nk in Counter(r[c] for r in with_class).items():
        pairs = [(r[f], r[g]) for r in with_class
                 if r[c] == k and _present(r[f]) and _present(r[g])]
        if not pairs:
            continue
        n = len(pairs)
        joint = Counter(pairs)
        left = Counter(a for a, _ in pairs)
        right = Counter(b for _, b in pairs)
        mi = sum(m / n * math.log(m * n / (left[a] * right[b])) for (a, b), m in joint.items())
        total += nk / len(rows) * mi
    return total


def hand_tree(rows, c, features):
    """Kruskal's maximum spanning tree over the hand weights, as undirected edges."""
    weighted = sorted(((hand_weight(rows, c, f, g), f, g)
                       for f, g in itertools.combinations(features, 2)), reverse=True)
    component = {f: f for f in features}

    def find(f):
        while component[f] != f:
            f = component[f]
        return f

    edges = set()
    for _, f, g in weighted:
        a, b = find(f), find(g)
        if a != b:
            component[a] = b
            edges.add(frozenset((f, g)))
    return edges


def random_frame(seed, n_rows, n_features, missing):
    """Dependent categorical data: each feature copies a random earlier one with noise."""
    rng = np.random.default_rng(seed)
    cls = rng.choice(["no", "yes"], size=n_rows, p=[0.4, 0.6])
    columns = {"C": cls}
    names = [f"F{i}" for i in range(n_features)]
    for i, name in enumerate(names):
        k = int(rng.integers(2, 4))
        states = [f"s{j}" for j in range(k)]
        base = rng.integers(0, k, size=n_rows)
        if i:
            source = columns[names[int(rng.integers(0, i))]]
            copy = rng.random(n_rows) < rng.uniform(0.3, 0.9)
            mapped = np.array([int(str(v)[1:]) % k if isinstance(v, str) and v[0] == "s" else 0
                               for v in source])
            base = np.where(copy, mapped, base)
        shift = (cls == "yes") & (rng.random(n_rows) < 0.3)
        columns[name] = np.array([states[(b + s) % k] for b, s in zip(base, shift)], dtype=object)
    frame = pd.DataFrame(columns)
    if missing:
        for name in ["C", *names]:
            holes = rng.random(n_rows) < missing
            frame.loc[holes, name] = np.nan
    return frame, names


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("seed, missing", [(0, 0.0), (1, 0.0), (2, 0.1), (3, 0.2)])
def test_tree_is_the_maximum_spanning_tree_of_conditional_mutual_information(seed, missing):
    frame, names = random_frame(seed, 300, 6, missing)
    model = bnx.learn_tan(frame, "C", root="F2")
    rows = frame.to_dict("records")
    tree = {frozenset(e) for e in model.edges() if "C" not in e}
    assert tree == hand_tree(rows, "C", names)
    assert set(model.nodes()) == {"C", *names}
    for f in names:
        parents = set(model.get_parents(f))
        assert "C" in parents
        assert len(parents) == (1 if f == "F2" else 2)
    assert model.get_parents("C") == []


def test_default_root_is_the_first_feature():
    frame, names = random_frame(4, 200, 5, 0.0)
    model = bnx.learn_tan(frame, "C", features=names[::-1])
    assert model.get_parents(names[-1]) == ["C"]


def test_edges_point_away_from_the_root():
    frame, names = random_frame(5, 200, 6, 0.0)
    for root in names:
        model = bnx.learn_tan(frame, "C", root=root)
        for f in names:  # every feature is reached from the root along the tree
            node, steps = f, 0
            while node != root:
                (parent,) = [p for p in model.get_parents(node) if p != "C"]
                node, steps = parent, steps + 1
                assert steps <= len(names)


def test_single_feature_is_naive_bayes():
    frame = pd.DataFrame({"C": list("abab"), "F": list("xxyy")})
    model = bnx.learn_tan(frame, "C")
    assert sorted(model.edges()) == [("C", "F")]


# --------------------------------------------------------------------------- tables


@pytest.mark.parametrize("prior", ["K2", "MLE"])
def test_tables_are_counted_over_complete_families(prior):
    frame, names = random_frame(6, 250, 5, 0.15)
    model = bnx.learn_tan(frame, "C", root="F0", prior=prior)
    rows = frame.to_dict("records")
    pseudo = 1 if prior == "K2" else 0
    for f in names:
        parent = [p for p in model.get_parents(f) if p != "C"]
        cpd = model.get_cpds(f)
        states = {v: list(cpd.state_names[v]) for v in cpd.variables}
        family = [f, "C", *parent]
        complete = [r for r in rows if all(_present(r[v]) for v in family)]
        for config in itertools.product(*(states[v] for v in family[1:])):
            match = [r for r in complete if all(r[v] == s for v, s in zip(family[1:], config))]
            for s in states[f]:
                n = sum(1 for r in match if r[f] == s)
                denom = len(match) + pseudo * len(states[f])
                want = (n + pseudo) / denom if denom else 1 / len(states[f])
                got = cpd.get_value(**{f: s}, **dict(zip(family[1:], config)))
                assert math.isclose(float(got), want, rel_tol=1e-9), (f, config, s)


def test_votes_tan_fits_with_missing_votes():
    votes = bnx.datasets.load_votes()
    model = bnx.learn_tan(votes, "party")
    assert model.check_model()
    assert len(model.edges()) == 2 * 16 - 1
    rows = votes.to_dict("records")
    tree = {frozenset(e) for e in model.edges() if "party" not in e}
    assert tree == hand_tree(rows, "party", [c for c in votes.columns if c != "party"])


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("kwargs, match", [
    ({"root": "nope"}, "root 'nope'"),
    ({"root": "C"}, "root 'C'"),
    ({"features": ["F0", "F0"]}, "more than once"),
    ({"features": ["C"]}, "class variable"),
    ({"prior": "Dirichlet"}, "prior"),
])
def test_bad_arguments_are_data_errors(kwargs, match):
    frame, _ = random_frame(7, 50, 3, 0.0)
    with pytest.raises(DataError, match=match):
        bnx.learn_tan(frame, "C", **kwargs)


def test_missing_class_column_is_a_data_error():
    frame, _ = random_frame(7, 50, 3, 0.0)
    with pytest.raises(DataError, match="'D'"):
        bnx.learn_tan(frame, "D")


# --------------------------------------------------------------------------- compiled


@pytest.mark.slow
@given(seed=st.integers(0, 10_000), rule=st.sampled_from(["threshold", "argmax"]))
@settings(max_examples=8)
def test_learned_tan_compiles_to_its_brute_force_decisions(seed, rule, backend):
    frame, names = random_frame(seed, 120, 4, 0.05)
    model = bnx.learn_tan(frame, "C")
    if rule == "argmax":
        clf = bnx.Classifier(model, "C", "yes", features=names, rule="argmax")
    else:
        clf = bnx.Classifier(model, "C", "yes", threshold=0.6, features=names)
    odd = bnx.compile(clf, backend=backend)
    table = oracle.decision_table(model, "C", "yes", 0.6, names, rule=rule)
    for combo, want in table.items():
        x = dict(zip(names, combo))
        assert odd.decide(x, within="all") == want == clf.decide(x, within="all"), x
    assert odd.count() == sum(table.values())


def test_votes_tan_agrees_with_variable_elimination():
    """Positive count over all 2^16 instances from pgmpy's joint posterior; decisions on 2,000."""
    from pgmpy.inference import VariableElimination

    from bnx.tabular.case_study import votes_tan_classifier
    clf = votes_tan_classifier()
    odd = bnx.compile(clf, backend="autoref")
    features = list(clf.features)
    factor = VariableElimination(clf.network).query(["party", *features], joint=True,
                                                    show_progress=False)
    values = np.moveaxis(factor.values, [factor.variables.index(v) for v in ["party", *features]],
                         range(len(features) + 1))
    names = [list(factor.state_names[v]) for v in ["party", *features]]
    posterior = values[names[0].index("republican")] / values.sum(axis=0)
    assert not (np.abs(posterior - 0.5) < 1e-9).any()  # no float tie to worry about
    positive = posterior >= 0.5
    assert odd.count() == int(positive.sum())
    rng = np.random.default_rng(11)
    for idx in rng.integers(0, 2, size=(2000, len(features))):
        x = {f: names[k + 1][j] for k, (f, j) in enumerate(zip(features, idx))}
        assert odd.decide(x, within="all") == bool(positive[tuple(idx)]), x
