"""Classifier construction, file formats and every error path."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx
from tests.conftest import shared_file


def _net(edges, cards, states=None):
    net = DiscreteBayesianNetwork(edges)
    for n in net.nodes():
        parents = list(net.predecessors(n))
        k = cards.get(n, 2)
        if parents:
            pk = cards.get(parents[0], 2)
            cpd = TabularCPD(n, k, [[1 / k] * pk for _ in range(k)], evidence=parents,
                             evidence_card=[pk])
        else:
            cpd = TabularCPD(n, k, [[1 / k] for _ in range(k)])
        net.add_cpds(cpd)
    return net


def test_general_structures_are_accepted_and_errors_name_the_offender():
    """Networks that used to be refused (two parents, a parent of the class, a second
    root, an inner feature) are classifiers now; what remains refused names why."""
    net = DiscreteBayesianNetwork([("C", "X"), ("C", "Y"), ("Y", "X")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                 TabularCPD("Y", 2, [[0.5, 0.5], [0.5, 0.5]], evidence=["C"], evidence_card=[2]),
                 TabularCPD("X", 2, [[0.5] * 4, [0.5] * 4], evidence=["C", "Y"],
                            evidence_card=[2, 2]))
    assert bnx.Classifier(net, "C", 1).structure == "general"
    assert bnx.Classifier(net, "C", 1, features=["X", "Y"]).structure == "tan"
    assert bnx.Classifier(_net([("P", "C"), ("C", "X")], {}), "C", 1).structure == "general"
    net = _net([("C", "X")], {})
    net.add_node("Z")
    net.add_cpds(TabularCPD("Z", 2, [[0.5], [0.5]]))
    clf = bnx.Classifier(net, "C", 1)
    assert clf.features == ("X", "Z") and clf.structure == "general"
    clf = bnx.Classifier(_net([("C", "H"), ("H", "X")], {}), "C", 1, features=["H"])
    assert clf.structure == "naive_bayes"
    with pytest.raises(bnx.StructureError, match="'C' cannot be a feature"):
        bnx.Classifier(net, "C", 1, features=["C"])
    with pytest.raises(bnx.StructureError, match="listed twice"):
        bnx.Classifier(net, "C", 1, features=["X", "X"])
    with pytest.raises(bnx.StructureError, match="structure is 'general'"):
        bnx.Classifier(net, "C", 1).table("X")


def test_network_errors():
    net = _net([("C", "X")], {})
    with pytest.raises(bnx.NetworkError, match="class variable 'K'"):
        bnx.Classifier(net, "K", 1)
    with pytest.raises(bnx.NetworkError, match="positive state 'yes'"):
        bnx.Classifier(net, "C", "yes")
    bare = DiscreteBayesianNetwork([("C", "X")])
    bare.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]))
    with pytest.raises(bnx.NetworkError, match="missing CPDs for 'X'"):
        bnx.Classifier(bare, "C", 1)
    with pytest.raises(bnx.NetworkError, match="DiscreteBayesianNetwork"):
        bnx.Classifier("net.bif", "C", 1)
    with pytest.raises(bnx.UnknownFeatureError, match="'Q'"):
        bnx.Classifier(net, "C", 1, features=["Q"])


@pytest.mark.parametrize("t", [-0.1, 1.5, math.nan, "0.5", True, None])
def test_threshold_errors(t):
    with pytest.raises(bnx.ThresholdError):
        bnx.Classifier(_net([("C", "X")], {}), "C", 1, threshold=t)


def test_threshold_is_exact():
    clf = bnx.Classifier(_net([("C", "X")], {}), "C", 1, threshold=0.1)
    assert clf.threshold == Fraction(0.1) != Fraction(1, 10)
    assert bnx.Classifier(_net([("C", "X")], {}), "C", 1,
                          threshold=Fraction(1, 3)).threshold == Fraction(1, 3)


def test_instance_errors():
    clf = bnx.examples.admissions()
    odd = bnx.compile(clf, backend="autoref")
    good = dict.fromkeys(clf.features, "+")
    for target in (clf, odd):
        with pytest.raises(bnx.MissingFeatureError, match="'GPA'"):
            target.decide({k: v for k, v in good.items() if k != "GPA"})
        with pytest.raises(bnx.UnknownFeatureError, match="'Age'"):
            target.decide({**good, "Age": "+"})
        with pytest.raises(bnx.UnknownStateError, match="'maybe' is not a state of feature 'GPA'"):
            target.decide({**good, "GPA": "maybe"})
        with pytest.raises(bnx.InstanceError):
            target.decide(["+", "+", "+", "+"])
    # errors are also the matching built-ins
    with pytest.raises(KeyError):
        clf.decide({**good, "GPA": "maybe"}, within="all")


def test_zero_probability_instance_is_positive_by_the_rule():
    net = DiscreteBayesianNetwork([("C", "X")])
    net.add_cpds(TabularCPD("C", 2, [[1.0], [0.0]]),
                 TabularCPD("X", 2, [[0.0, 0.5], [1.0, 0.5]], evidence=["C"], evidence_card=[2]))
    clf = bnx.Classifier(net, "C", 1, threshold=0.5)
    for posterior in (clf.posterior, clf.posterior_exact):  # the same error, float or not
        with pytest.raises(bnx.ExplanationError, match="probability zero"):
            posterior({"X": 0})
    assert clf.decide({"X": 0}, within="all")  # 0 >= 0
    assert not clf.decide({"X": 1}, within="all")  # Pr(C=1|X=1) = 0
    assert bnx.compile(clf, backend="autoref").count() == 1


def test_features_default_to_leaves_and_unobserved_leaves_sum_out():
    net = _net([("C", "H"), ("H", "X"), ("H", "Y"), ("C", "Z")], {"H": 3})
    clf = bnx.Classifier(net, "C", 1)
    assert set(clf.features) == {"X", "Y", "Z"} and clf.latent == ("H",)
    assert clf.structure == "latent_tree"
    nb = bnx.Classifier(net, "C", 1, features=["Z"])
    assert nb.structure == "naive_bayes" and nb.latent == ()


@pytest.mark.slow
@pytest.mark.parametrize("ext, writer", [
    (".bif", "BIFWriter"), (".xmlbif", "XMLBIFWriter"), (".net", "NETWriter")])
def test_formats_round_trip(tmp_path, ext, writer, backend):
    import pgmpy.readwrite as rw
    path = str(tmp_path / f"admissions{ext}")
    # pgmpy's XMLBIF reader cannot tell the state names "-" and "+" apart
    w = getattr(rw, writer)(bnx.examples.admissions_network(states=("no", "yes")))
    w.write(path)
    clf = bnx.Classifier.from_file(path, "Admit", "yes")
    odd = bnx.compile(clf, backend=backend)
    assert odd.count() == 6


def test_uai_is_read_as_the_format_defines(tmp_path):
    """Child last in each scope, last variable fastest (pgmpy 1.1 reads child-first)."""
    text = "BAYES\n2\n2 3\n2\n1 0\n2 0 1\n\n2\n 0.25 0.75\n\n6\n 0.5 0.25 0.25 0.125 0.125 0.75\n"
    path = tmp_path / "tiny.uai"
    path.write_text(text)
    clf = bnx.Classifier.from_file(path, "var_0", 1)
    assert clf.table("var_1") == ((Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)),
                                  (Fraction(1, 8), Fraction(1, 8), Fraction(3, 4)))
    assert clf.states("var_1") == (0, 1, 2)
    assert clf.decide({"var_1": "2"}, within="all") and not clf.decide({"var_1": 0}, within="all")


@pytest.mark.slow
def test_shared_uai_networks(backend):
    spect = bnx.Classifier.from_file(shared_file("networks", "spect_nb.uai"), "var_0", 0)
    assert spect.table("var_0")[0][0] == Fraction(0.208178438662)
    assert len(spect.features) == 22
    nb = bnx.Classifier.from_file(shared_file("networks", "nb.uai"), "var_0", 1, threshold=0.55)
    assert [len(nb.states(f)) for f in nb.features].count(3) == 2
    assert bnx.compile(nb, backend=backend).count() > 0


@pytest.mark.slow
def test_latent_tree_file(backend):
    """classifier1.net: a latent core plus a deterministic node with two parents."""
    from tests._support import oracle
    path = shared_file("networks", "classifier1.net")
    clf = bnx.Classifier.from_file(path, "C", "state1")
    odd = bnx.compile(clf, backend=backend)
    net = clf.network
    assert odd.count() == oracle.count_positive(net, "C", "state1", 0.5, list(clf.features))


@pytest.mark.slow
@pytest.mark.parametrize("content, match", [
    ("this is not a network", "cannot read as BIF: no variables found"),
    ("network x {\n variable A { type discrete [ 2 ] { a, b }; }\n probability ( A ) { table 0.5",
     "cannot read as BIF: no probability table for 'A'"),
])
def test_malformed_files(tmp_path, content, match):
    path = tmp_path / "bad.bif"
    path.write_text(content)
    with pytest.raises(bnx.NetworkFileError, match=match):
        bnx.Classifier.from_file(path, "A", "a")


def test_file_errors(tmp_path):
    with pytest.raises(bnx.NetworkFileError, match="no such file"):
        bnx.Classifier.from_file(tmp_path / "missing.bif", "C", 1)
    (tmp_path / "x.csv").write_text("a,b\n")
    with pytest.raises(bnx.NetworkFileError, match="unknown network format '.csv'"):
        bnx.Classifier.from_file(tmp_path / "x.csv", "C", 1)
    (tmp_path / "bad.uai").write_text("BAYES\n2\n2 2\n2\n1 0\n2 0 1\n2\n 0.5\n")
    with pytest.raises(bnx.NetworkFileError, match="bad.uai"):
        bnx.Classifier.from_file(tmp_path / "bad.uai", "var_0", 1)


def test_pruned_parts_use_their_exact_sums(backend):
    """pgmpy accepts columns that sum to 1 within 0.01; a leaf that is not a feature then
    sums out to its exact column sum, not to 1 (found by review)."""
    from tests._support import oracle
    net = DiscreteBayesianNetwork([("C", "F"), ("C", "N")])
    names = {"C": ["n", "p"]}
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]], state_names=names),
                 TabularCPD("F", 2, [[0.5, 0.5], [0.5, 0.5]], evidence=["C"], evidence_card=[2],
                            state_names={"F": ["a", "b"], **names}),
                 TabularCPD("N", 2, [[0.5, 0.4975], [0.5025, 0.4975]], evidence=["C"],
                            evidence_card=[2], state_names={"N": ["a", "b"], **names}))
    net.check_model()
    clf = bnx.Classifier(net, "C", "p", features=["F"])
    x = {"F": "a"}
    assert clf.posterior_exact(x) == oracle.posterior(net, "C", "p", 0.5, x, ["F"])
    assert clf.decide(x, within="all") is False == oracle.decide(net, "C", "p", 0.5, x, ["F"])
    assert bnx.compile(clf, backend=backend).count() == 0
