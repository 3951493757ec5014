"""Classifiers, networks and diagrams built for tests, shared by several test modules."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.engines import (
    FactorEngine,
    LevelEngine,
    RatioEngine,
    SplitEngine,
    TanEngine,
    TensorEngine,
)
from bnx.diagram.backends import new_manager
from tests._support import oracle

__all__ = ["ENGINES", "compiled_case", "dd_function", "multivalued_classifier",
           "net_from_columns", "observed_odd", "oracle_args", "random_tan", "run_engine",
           "small_tan", "check_against_oracle"]

#: The compilation engines in the order ``compile`` asks them (the fastest that fits first,
#: the general engine last), as :mod:`bnx.compilation.engines` documents it.
ENGINES = (LevelEngine, RatioEngine, SplitEngine, TanEngine, TensorEngine, FactorEngine)


def run_engine(engine, clf, enc, backend: str, budget=None):
    """``engine``'s arrays for ``clf`` along ``enc`` by the engines' contract (``accepts``,
    then ``run`` with its verdict's ``given``), or ``None`` when it refuses."""
    verdict = engine.accepts(clf, enc)
    if not verdict:
        return None
    return engine(clf, enc, Budget(None) if budget is None else budget, verdict.given,
                  backend=backend).run()


def multivalued_classifier(threshold=0.4):
    """A naive Bayes with 3-state features, int state names and a binary feature."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    cs = ["no", "yes"]
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B"), ("C", "D")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.6], [0.4]], state_names={"C": cs}),
        TabularCPD("A", 3, [[0.5, 0.1], [0.3, 0.3], [0.2, 0.6]], evidence=["C"],
                   evidence_card=[2], state_names={"A": ["lo", "mid", "hi"], "C": cs}),
        TabularCPD("B", 3, [[0.7, 0.2], [0.2, 0.3], [0.1, 0.5]], evidence=["C"],
                   evidence_card=[2], state_names={"B": [0, 1, 2], "C": cs}),
        TabularCPD("D", 2, [[0.8, 0.3], [0.2, 0.7]], evidence=["C"], evidence_card=[2],
                   state_names={"D": [0, 1], "C": cs}),
    )
    net.check_model()
    return bnx.Classifier(net, "C", "yes", threshold=threshold)


def net_from_columns(edges, cpts):
    net = DiscreteBayesianNetwork(edges)
    for node in cpts:
        if node not in net:
            net.add_node(node)
    for node, (parents, columns) in cpts.items():
        k = len(columns[0])
        cards = [len(cpts[p][1][0]) for p in parents]
        net.add_cpds(TabularCPD(node, k, np.array(columns, dtype=float).T.tolist(),
                                evidence=parents or None, evidence_card=cards or None))
    assert net.check_model()
    return net


def random_tan(n, seed, ternary=True, classes=2):
    """A random TAN: each feature's parent uniform among the earlier ones (more than two
    classes: the argmax rule)."""
    rng = np.random.default_rng(seed)
    feats = [f"F{i}" for i in range(n)]
    card = {f: int(rng.integers(2, 4)) if ternary else 2 for f in feats}
    parent = {f: feats[int(rng.integers(0, i))] if i else None for i, f in enumerate(feats)}
    cpts = {"C": ([], [list(rng.dirichlet([2] * classes))])}
    for f in feats:
        ps = ["C"] + ([parent[f]] if parent[f] else [])
        cols = classes * (card[parent[f]] if parent[f] else 1)
        cpts[f] = (ps, [list(c) for c in rng.dirichlet([1.0] * card[f], size=cols)])
    edges = [("C", f) for f in feats] + [(parent[f], f) for f in feats if parent[f]]
    kw = {"rule": "argmax"} if classes > 2 else {}
    return bnx.Classifier(net_from_columns(edges, cpts), "C", 1, features=feats, **kw)


def dd_function(backend, n, start, ops):
    """A dd function over ``n`` variables: ``start`` then each (op, variable, negated)."""
    names = [f"v{i}" for i in range(n)]
    bdd = new_manager(backend, names)
    u = bdd.true if start else bdd.false
    for op, i, neg in ops:
        x = bdd.var(names[i])
        x = ~x if neg else x
        u = u & x if op == "&" else u | x if op == "|" else bdd.apply("xor", u, x)
    return bdd, names, u


def compiled_case(case, backend, data):
    """The case's classifier, compiled on a random order of its features."""
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    order = data.draw(st.permutations(case.features))
    return clf, bnx.compile(clf, order, backend=backend)


def oracle_args(case):
    """The arguments that tests/_support/oracle.py takes for the case."""
    return case.net, case.class_var, case.positive, case.threshold, case.features



def observed_odd(odd, observed):
    """The ODD of a binary ``odd.classifier`` (threshold rule) on the features ``observed``
    only, compiled from scratch in ``odd``'s order: what a row with the others missing is
    explained on (``None`` when nothing is observed)."""
    kept = [f for f in odd.features if f in set(observed)]
    if not kept:
        return None
    clf = odd.classifier
    sub = bnx.Classifier(clf.network, clf.class_var, clf.positive, threshold=clf.threshold,
                         features=kept)
    return bnx.compile(sub, kept, backend=odd.backend)


def small_tan():
    """A TAN over four binary features (A -> B -> C, A -> D), states no/yes."""
    yn = ["no", "yes"]
    net = DiscreteBayesianNetwork([("Y", f) for f in "ABCD"] + [("A", "B"), ("B", "C"),
                                                                ("A", "D")])
    cpds = [TabularCPD("Y", 2, [[0.4], [0.6]], state_names={"Y": yn}),
            TabularCPD("A", 2, [[0.7, 0.2], [0.3, 0.8]], evidence=["Y"], evidence_card=[2],
                       state_names={"A": yn, "Y": yn})]
    for f, p, cols in (("B", "A", [0.6, 0.3, 0.25, 0.1]), ("C", "B", [0.5, 0.4, 0.2, 0.3]),
                       ("D", "A", [0.9, 0.5, 0.45, 0.15])):
        cpds.append(TabularCPD(f, 2, [cols, [1 - c for c in cols]], evidence=["Y", p],
                               evidence_card=[2, 2], state_names={f: yn, "Y": yn, p: yn}))
    net.add_cpds(*cpds)
    return net


def check_against_oracle(net, class_var, positive, features, backend, *, threshold=None,
                         rule="threshold", expect_structure=None):
    """Classifier and ODD equal the oracle on every instance; returns the classifier."""
    kw = {"rule": rule} if rule == "argmax" else {"threshold": threshold}
    clf = bnx.Classifier(net, class_var, positive, features=features, **kw)
    if expect_structure:
        assert clf.structure == expect_structure
    table = oracle.decision_table(net, class_var, positive, threshold, list(clf.features),
                                  rule=rule)
    odd = bnx.compile(clf, backend=backend)
    for combo, want in table.items():
        x = dict(zip(clf.features, combo))
        joint = oracle.class_joint(net, class_var, x, list(clf.features))
        assert clf.class_joint(x) == [joint[s] for s in clf.class_states]
        assert clf.decide(x, within="all") == want, x
        assert odd.decide(x, within="all") == want, x
    assert odd.count() == sum(table.values())
    return clf
