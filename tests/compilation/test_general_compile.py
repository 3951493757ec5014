"""The general classifier and compiler on hand-made networks, against brute force.

Each case is small enough to enumerate: the classifier's exact joints, decisions and
the compiled ODD are compared with ``tests/_support/oracle.py`` (which never imports bnx) on
every instance, on both backends. The engines are also compared with each other
on the structures that several of them can compile.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from bnx.compilation import general_order
from bnx.compilation.budget import Budget
from bnx.compilation.engines.general import FactorElimination
from bnx.diagram.backends import new_manager
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.builders import check_against_oracle, run_engine
from tests._support.strategies import classifiers, general_networks
from tests.conftest import shared_file


def _net(edges, tables, states=None):
    """A network from ``{node: (parents, columns)}``; ``columns[j]`` is the distribution
    of the node for the ``j``-th joint parent state (last parent fastest)."""
    states = states or {}
    net = DiscreteBayesianNetwork(edges)
    for node in tables:
        if node not in net:
            net.add_node(node)
    cards = {n: len(tables[n][1][0]) for n in tables}
    names = {n: states.get(n, list(range(cards[n]))) for n in tables}
    for node, (parents, columns) in tables.items():
        values = [[col[s] for col in columns] for s in range(cards[node])]
        net.add_cpds(TabularCPD(node, cards[node], values, evidence=parents or None,
                                evidence_card=[cards[p] for p in parents] or None,
                                state_names={v: names[v] for v in [node, *parents]}))
    assert net.check_model()
    return net


# ---------------------------------------------------------------------- hand-made networks
def test_class_with_parents_hidden_nodes_and_inner_features(backend):
    """The class has a parent and a child; a hidden node sits between features; a feature
    is an inner node with a hidden child that has a feature below it."""
    net = _net([("P", "C"), ("C", "H"), ("H", "X"), ("C", "F"), ("F", "G"), ("P", "Y"),
                ("F", "K"), ("K", "Z")], {
        "P": ([], [[0.3, 0.7]]),
        "C": (["P"], [[0.9, 0.1], [0.25, 0.75]]),
        "H": (["C"], [[0.6, 0.4], [0.125, 0.875]]),
        "X": (["H"], [[0.5, 0.25, 0.25], [0.0, 0.5, 0.5]]),
        "F": (["C"], [[0.75, 0.25], [0.375, 0.625]]),
        "G": (["F"], [[0.2, 0.8], [0.9, 0.1]]),
        "Y": (["P"], [[0.4, 0.6], [0.8, 0.2]]),
        "K": (["F"], [[0.5, 0.5], [0.3, 0.7]]),
        "Z": (["K"], [[0.6, 0.4], [0.1, 0.9]]),
    })
    for t in (Fraction(1, 2), 0.3, 0.8):
        check_against_oracle(net, "C", 1, ["X", "F", "Y", "Z"], backend, threshold=t,
               expect_structure="general")
    check_against_oracle(net, "C", 1, ["X", "F", "Y", "Z"], backend, rule="argmax")
    check_against_oracle(net, "C", 0, ["X", "F", "Y", "Z"], backend, rule="argmax")


def test_zero_factor_of_a_separated_part_keeps_pr_x_zero_positive(backend):
    """F separates G from the class, but Pr(G = 1 | F = 0) = 0: instances with F = 0 and
    G = 1 have probability 0 and are positive (threshold) / the first state (argmax).
    The part cannot be set aside."""
    net = _net([("C", "F"), ("F", "G")], {
        "C": ([], [[0.5, 0.5]]),
        "F": (["C"], [[0.9, 0.1], [0.2, 0.8]]),
        "G": (["F"], [[1.0, 0.0], [0.5, 0.5]]),
    })
    clf = check_against_oracle(net, "C", 1, ["F", "G"], backend, threshold=0.9)
    assert clf.decide({"F": 0, "G": 1}, within="all")
    for posterior in (clf.posterior, clf.posterior_exact):
        with pytest.raises(bnx.ExplanationError, match="undefined"):
            posterior({"F": 0, "G": 1})
    assert not clf.decide({"F": 0, "G": 0}, within="all")
    check_against_oracle(net, "C", 1, ["F", "G"], backend, rule="argmax")
    clf = check_against_oracle(net, "C", 0, ["F", "G"], backend, rule="argmax")
    assert clf.decide({"F": 0, "G": 1}, within="all")  # all joints 0: the first state wins


def test_positive_separated_part_is_set_aside_but_stays_exact(backend):
    """The same network without the zero: the part below F is set aside (the tree
    engines apply) and ``class_joint`` still multiplies it in."""
    net = _net([("C", "F"), ("F", "G"), ("Z", "G")], {
        "C": ([], [[0.5, 0.5]]),
        "F": (["C"], [[0.9, 0.1], [0.2, 0.8]]),
        "Z": ([], [[0.25, 0.75]]),
        "G": (["F", "Z"], [[0.75, 0.25], [0.5, 0.5], [0.125, 0.875], [0.5, 0.5]]),
    })
    clf = check_against_oracle(net, "C", 1, ["F", "G"], backend, threshold=0.4)
    assert clf.structure == "general" and clf.latent == ()
    partial = clf.class_joint({"G": 1}, partial=True)
    want = oracle.class_joint(net, "C", {"G": 1}, ["G"])
    assert partial == [want[s] for s in clf.class_states]


def test_three_and_four_state_classes_with_ties(backend):
    """k-state classes under both rules; states 0 and 2 tie exactly on every instance."""
    net = _net([("A", "C"), ("C", "X"), ("C", "Y"), ("X", "Y")], {
        "A": ([], [[0.5, 0.5]]),
        "C": (["A"], [[0.25, 0.5, 0.25], [0.375, 0.25, 0.375]]),
        "X": (["C"], [[0.5, 0.5], [0.875, 0.125], [0.5, 0.5]]),
        "Y": (["C", "X"], [[0.25, 0.5, 0.25], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0],
                           [0.25, 0.25, 0.5], [0.25, 0.5, 0.25], [0.5, 0.5, 0.0]]),
    })
    for positive in (0, 1, 2):
        check_against_oracle(net, "C", positive, ["X", "Y"], backend, rule="argmax")
        check_against_oracle(net, "C", positive, ["X", "Y"], backend, threshold=Fraction(1, 3))
    net4 = _net([("C", "X"), ("C", "H"), ("H", "Y")], {
        "C": ([], [[0.25, 0.25, 0.25, 0.25]]),
        "X": (["C"], [[0.5, 0.5], [0.25, 0.75], [0.75, 0.25], [0.0, 1.0]]),
        "H": (["C"], [[0.5, 0.5], [0.125, 0.875], [0.5, 0.5], [1.0, 0.0]]),
        "Y": (["H"], [[0.5, 0.25, 0.25], [0.125, 0.125, 0.75]]),
    })
    for positive in (0, 3):
        check_against_oracle(net4, "C", positive, ["X", "Y"], backend, rule="argmax")
        check_against_oracle(net4, "C", positive, ["X", "Y"], backend, threshold=0.25)


def test_tan_and_its_order(backend):
    """A TAN: the class is the root and every feature has the class and at most one
    feature as parents. The default order keeps the open features few."""
    edges = [("C", f) for f in "ABDE"] + [("A", "B"), ("A", "D"), ("D", "E")]
    net = _net(edges, {
        "C": ([], [[0.4, 0.6]]),
        "A": (["C"], [[0.7, 0.3], [0.2, 0.8]]),
        "B": (["C", "A"], [[0.9, 0.1], [0.5, 0.5], [0.3, 0.7], [0.0, 1.0]]),
        "D": (["C", "A"], [[0.6, 0.4], [0.1, 0.9], [0.5, 0.5], [0.25, 0.75]]),
        "E": (["C", "D"], [[0.8, 0.2], [0.4, 0.6], [0.3, 0.7], [0.5, 0.5]]),
    })
    clf = check_against_oracle(net, "C", 1, ["A", "B", "D", "E"], backend, threshold=0.5,
                 expect_structure="tan")
    order = general_order(clf)
    assert sorted(order) == ["A", "B", "D", "E"]
    check_against_oracle(net, "C", 0, ["A", "B", "D", "E"], backend, rule="argmax")


def test_rule_arguments():
    net = bnx.examples.admissions_network()
    with pytest.raises(bnx.ArgumentError, match="takes no threshold"):
        bnx.Classifier(net, "Admit", "+", 0.7, rule="argmax")
    with pytest.raises(bnx.ArgumentError, match="rule must be"):
        bnx.Classifier(net, "Admit", "+", rule="max")
    clf = bnx.Classifier(net, "Admit", "+", rule="argmax")
    assert clf.rule == "argmax" and clf.threshold is None
    assert clf.fingerprint != bnx.Classifier(net, "Admit", "+").fingerprint
    assert "argmax" in repr(clf)


# ---------------------------------------------------------------------- engines agree
def _engine_root(clf, order, bdd, pair, weights):
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    return FactorElimination(clf, enc, bdd, Budget(None), pair=pair, weights=weights).run(), enc


@settings(max_examples=25)
@given(classifiers(binary=True))
def test_general_engine_equals_tree_engines(case):
    """On naive Bayes and latent trees, the general engine builds the same function as the
    interval engines (same manager: the same node)."""
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    assume(len(clf.class_states) == 2)
    odd = bnx.compile(clf, backend="autoref")
    pos = clf.class_states.index(clf.positive)
    t = clf.threshold
    root, _ = _engine_root(clf, odd.order, odd.bdd, (pos, 1 - pos), (1 - t, t))
    assert (root & odd.domain) == odd.root


@settings(max_examples=25)
@given(general_networks(rule="threshold", max_instances=32))
def test_weight_vector_engine_equals_pairs_on_binary_classes(case):
    """The weight-vector mode (used for thresholds over 3+ class states) agrees with the
    interval mode wherever both apply, and with the oracle."""
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    assume(len(clf.class_states) == 2)
    order = general_order(clf)
    bdd = new_manager("autoref", Encoding(tuple(order), tuple(clf.states(f) for f in order))
                      .variables)
    pos = clf.class_states.index(clf.positive)
    t = clf.threshold
    w = tuple(1 - t if c == pos else -t for c in range(2))
    a, enc = _engine_root(clf, order, bdd, None, w)
    b, _ = _engine_root(clf, order, bdd, (pos, 1 - pos), (1 - t, t))
    dom = enc.domain(bdd)
    assert (a & dom) == (b & dom)


# ---------------------------------------------------------------------- shared networks
@pytest.mark.parametrize("name, class_var, positive, threshold", [
    ("asia.uai", "var_0", 1, 0.5),
    ("fire_alarm.uai", "var_0", 1, 0.5),
])
def test_small_shared_networks(backend, name, class_var, positive, threshold):
    net = bnx.read_network(shared_file("networks", name))
    check_against_oracle(net, class_var, positive, None, backend, threshold=threshold)
    check_against_oracle(net, class_var, positive, None, backend, rule="argmax")


@pytest.mark.slow
def test_child_network_agrees_with_elimination(backend):
    """child.net, BirthAsphyxia (the authors' configuration, threshold 0.9) and a class of
    our choice: the ODD equals the classifier's exact elimination on every instance."""
    net = bnx.read_network(shared_file("networks", "child.net"))
    for class_var, positive, kw in [("BirthAsphyxia", "yes", {"threshold": 0.9}),
                                    ("Disease", "TGA", {"rule": "argmax"})]:
        clf = bnx.Classifier(net, class_var, positive, **kw)
        odd = bnx.compile(clf, backend=backend)
        count = 0
        for combo in itertools.product(*(clf.states(f) for f in clf.features)):
            x = dict(zip(clf.features, combo))
            d = clf.decide(x, within="all")
            assert odd.decide(x, within="all") == d
            count += d
        assert odd.count() == count


def test_too_wide_an_elimination_is_a_typed_error(monkeypatch):
    """A plan that would make a table over the limit stops with CompilationLimitError
    naming the table size, before any work."""
    from bnx.compilation.engines import general
    net = _net([("C", "H"), ("H", "X"), ("C", "X"), ("H", "Y")], {  # X: two parents
        "C": ([], [[0.5, 0.5]]),
        "H": (["C"], [[0.5, 0.25, 0.25], [0.25, 0.25, 0.5]]),
        "X": (["H", "C"], [[0.5, 0.5], [0.25, 0.75], [0.25, 0.75], [0.75, 0.25],
                           [0.0, 1.0], [0.5, 0.5]]),
        "Y": (["H"], [[0.5, 0.5], [0.75, 0.25], [1.0, 0.0]]),
    })
    clf = bnx.Classifier(net, "C", 1, rule="argmax")
    monkeypatch.setattr(general, "MAX_TABLE", 1)
    # summing H out leaves pairwise factors, which the TAN engine takes (compile would
    # choose it): the general engine is run on its own, by the engines' contract
    order = bnx.compilation.default_order(clf)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    with pytest.raises(bnx.CompilationLimitError, match=r"a table of \d+ entries"):
        run_engine(general.FactorEngine, clf, enc, "autoref")
