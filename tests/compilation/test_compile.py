"""The compiled decision function against an independent brute force (tests/_support/oracle.py)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.strategies import (
    classifier_of,
    classifiers,
    general_networks,
    latent_tree,
    multiclass_classifier_of,
    multiclass_networks,
    tan_networks,
)


def _classifier(case):
    return bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                          features=case.features)


def _check_against_oracle(case, odd, clf):
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  case.features)
    positives = 0
    for x in oracle.all_instances(case.net, case.features):
        want = oracle.decide(case.net, case.class_var, case.positive, case.threshold, x,
                             case.features)
        assert clf.decide(x, within="all") == want, x
        assert odd.decide(x, within="all") == want, x
        positives += want
    assert odd.count() == positives
    assert positives == oracle.count_positive(case.net, case.class_var, case.positive,
                                              case.threshold, case.features)
    assert isinstance(odd.count(), int)
    del table


@pytest.mark.slow
@given(case=classifiers(), data=st.data())
def test_decisions_and_count_match_brute_force(case, data, backend):
    clf = _classifier(case)
    order = data.draw(st.permutations(case.features))
    odd = bnx.compile(clf, order, backend=backend)
    assert odd.features == tuple(order)
    _check_against_oracle(case, odd, clf)


@given(case=classifiers())
@settings(max_examples=25)
def test_backends_give_the_same_function(case):
    clf = _classifier(case)
    odds = [bnx.compile(clf, backend=b) for b in bnx.backends.available_backends()]
    assert len({o.count() for o in odds}) == 1
    assert len({o.size for o in odds}) == 1  # same reduced diagram, same order


@given(case=latent_tree())
@settings(max_examples=30)
def test_latent_tree_default_order_is_algorithm_2(case):
    clf = _classifier(case)
    order = bnx.compilation.latent_tree_order(clf)
    assert sorted(order, key=repr) == sorted(case.features, key=repr)
    # subtrees are contiguous in the order: every inner node's features form one run
    for node in clf.latent:
        below = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n in set(case.features):
                below.add(n)
            stack.extend(clf.children(n))
        where = [i for i, f in enumerate(order) if f in below]
        assert where == list(range(where[0], where[0] + len(where)))


def test_exact_tie_is_positive(backend):
    """Pr(c|x) == T exactly for x = (+, -): decided positive (>=), not lost to rounding."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                  TabularCPD("A", 2, [[0.25, 0.75], [0.75, 0.25]], evidence=["C"],
                             evidence_card=[2]),
                  TabularCPD("B", 2, [[0.75, 0.25], [0.25, 0.75]], evidence=["C"],
                             evidence_card=[2]))
    clf = bnx.Classifier(net, "C", 1, threshold=0.5)
    odd = bnx.compile(clf, backend=backend)
    tie = {"A": 0, "B": 0}
    assert clf.posterior_exact(tie) == 0.5
    assert clf.decide(tie, within="all") and odd.decide(tie, within="all")
    assert odd.count() == 3


def test_number_partitioning_ties(backend):
    """The paper's NP-hardness construction: feature log-odds +-a_i, uniform prior, T = 1/2.

    With a_i = log 3 for four features (Pr = 3/4 and 1/4, exact in binary), every
    instance with two features on solves the partition {1, 1 | 1, 1} and sits
    exactly on the threshold: 6 ties, all positive, besides the 5 strict positives.
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    feats = [f"X{i}" for i in range(4)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]])]
    for f in feats:
        cpds.append(TabularCPD(f, 2, [[0.75, 0.25], [0.25, 0.75]], evidence=["C"],
                               evidence_card=[2]))
    net.add_cpds(*cpds)
    clf = bnx.Classifier(net, "C", 0, threshold=0.5)
    odd = bnx.compile(clf, backend=backend)
    ties = [v for v in itertools.product([0, 1], repeat=4) if sum(v) == 2]
    for v in ties:
        x = dict(zip(feats, v))
        assert clf.posterior_exact(x) == 0.5
        assert odd.decide(x, within="all") and clf.decide(x, within="all")
    assert odd.count() == 11


def test_max_nodes_budget():
    clf = bnx.examples.admissions()
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=1"):
        bnx.compile(clf, backend="autoref", max_nodes=1)
    assert bnx.compile(clf, backend="autoref", max_nodes=100).count() == 6


def test_order_errors():
    clf = bnx.examples.admissions()
    with pytest.raises(bnx.OrderError, match="'Nope'"):
        bnx.compile(clf, ["Nope", "GPA", "EntranceExam", "FirstTimeApplicant"])
    with pytest.raises(bnx.OrderError, match="leaves out"):
        bnx.compile(clf, ["GPA"])
    with pytest.raises(bnx.OrderError, match="twice"):
        bnx.compile(clf, ["GPA", "GPA", "EntranceExam", "FirstTimeApplicant", "WorkExperience"])
    with pytest.raises(bnx.BackendError, match="unknown backend"):
        bnx.compile(clf, backend="sylvan")


def test_cudd_order_is_fixed():
    if "cudd" not in bnx.backends.available_backends():
        pytest.skip("dd.cudd not available")
    odd = bnx.compile(bnx.examples.admissions(), backend="cudd")
    assert odd.bdd.configure()["reordering"] is False
    assert [odd.bdd.var_levels[v] for v in odd.encoding.variables] == list(range(4))


def test_multivalued_domain_constraint(backend):
    """Codes that name no state are outside the decision function and its domain."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "A")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["n", "y"]}),
                 TabularCPD("A", 3, [[0.1, 0.5], [0.1, 0.25], [0.8, 0.25]], evidence=["C"],
                            evidence_card=[2], state_names={"A": ["a", "b", "c"], "C": ["n", "y"]}))
    clf = bnx.Classifier(net, "C", "n", threshold=0.5)
    odd = bnx.compile(clf, backend=backend)
    assert odd.count() == 1  # only A=c: Pr(n|c) = 0.8/1.05
    assert odd.domain.count(nvars=odd.encoding.nvars) == 3  # dd's own count of the codes
    assert odd.total() == 3


def test_to_dot_and_draw(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    dot = odd.to_dot()
    assert dot.startswith("digraph") and "GPA" in dot and dot.count("->") == 2 * (odd.size - 1)
    path = odd.draw(str(tmp_path / "odd.dot"))
    assert open(path).read() == dot


@pytest.mark.parametrize("bad", [0, -5, 2.5, "100", True])
def test_max_nodes_must_be_a_positive_int(bad):
    with pytest.raises(bnx.ArgumentError, match="max_nodes must be a positive integer"):
        bnx.compile(bnx.examples.admissions(), backend="autoref", max_nodes=bad)


def test_compile_needs_a_classifier():
    with pytest.raises(bnx.BnxError, match="expects a bnx.Classifier"):
        bnx.compile(bnx.examples.admissions_network())


@pytest.mark.slow
@given(case=classifiers(), data=st.data())
@settings(max_examples=40)
def test_feature_subsets_sum_out_the_rest_exactly(case, data):
    """With features= a subset of the leaves, the other leaves (and feature-less subtrees)
    are summed out exactly, whatever their tables sum to."""
    feats = data.draw(st.lists(st.sampled_from(case.features), min_size=1, unique=True))
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=feats)
    odd = bnx.compile(clf, backend="autoref")
    positives = 0
    for x in oracle.all_instances(case.net, feats):
        want = oracle.decide(case.net, case.class_var, case.positive, case.threshold, x, feats)
        assert clf.decide(x, within="all") == want == odd.decide(x, within="all")
        positives += want
    assert odd.count() == positives


@settings(max_examples=40, deadline=None)
@given(case=st.one_of(*(s.map(lambda c: (c, False)) for s in (
    classifiers(), general_networks(), tan_networks())),
    multiclass_networks().map(lambda c: (c, True))), data=st.data())
def test_max_nodes_is_a_hard_cap_on_the_odd_returned(case, data):
    """With a 16-feature naive Bayes, max_nodes=600_000 returned an ODD of 1,346,032 nodes
    (the budget counted the states, the estimate undercounts multi-state features)."""
    case, multiclass = case
    clf = multiclass_classifier_of(case) if multiclass else classifier_of(case)
    full = bnx.compile(clf, backend="autoref", max_nodes=math.inf)
    limit = data.draw(st.integers(1, full.size + 2))
    try:
        odd = bnx.compile(clf, backend="autoref", max_nodes=limit)
    except bnx.CompilationLimitError as exc:
        assert "max_nodes=" in str(exc)
        return
    assert odd.size <= limit and odd.size == full.size
