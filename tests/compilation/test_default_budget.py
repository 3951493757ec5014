"""compile's default node budget: an ODD estimated past it is refused at once, before
anything is built, with the estimate and the way forward; the progress bar and the timeout
count what the general engine builds."""

from __future__ import annotations

import math
import time

import pytest

import bnx
from bnx.compilation.budget import Budget
from tests._support import oracle
from tests._support.bundled import bundled_bif


@pytest.fixture(scope="module")
def hepar2(tmp_path_factory):
    """pgmpy's hepar2 (70 nodes), class Cirrhosis, every leaf a feature (41): estimated
    at about 49 million nodes, past the default budget."""
    path = bundled_bif("hepar2", tmp_path_factory.mktemp("hepar2"))
    return bnx.Classifier(bnx.read_network(path), "Cirrhosis", "decompensate")


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    path = bundled_bif("child", tmp_path_factory.mktemp("child"))
    return bnx.Classifier(bnx.read_network(path), "Disease", "TGA")


#: the default node budget, as bnx.compile's documentation states it
DEFAULT_MAX_NODES = 20_000_000


def test_the_default_budget_is_twenty_million():
    """The docs say so, and a compile past it says so (tests below on hepar2)."""
    doc = " ".join(bnx.compile.__doc__.split())
    assert "default ``None``: 20 million" in doc


@pytest.mark.slow
def test_hepar2_is_refused_at_once_with_the_estimate_and_the_way_forward(hepar2):
    estimate = bnx.estimate_size(hepar2)
    assert estimate > DEFAULT_MAX_NODES
    t0 = time.monotonic()
    with pytest.raises(bnx.CompilationLimitError) as refused:
        bnx.compile(hepar2)
    assert time.monotonic() - t0 < 2  # unrefused it builds for minutes
    message = str(refused.value)
    assert f"estimated at {estimate:,} nodes" in message
    assert "max_nodes=20000000 (the default budget)" in message
    assert "refused before compiling" in message
    # the way forward: what answers one instance of a general network without compiling
    assert "clf.decide(x)" in message and "clf.posterior(x)" in message
    assert "max_nodes=math.inf" in message


@pytest.mark.slow
def test_an_explicit_budget_refuses_by_the_estimate_too(hepar2):
    with pytest.raises(bnx.CompilationLimitError, match=r"past max_nodes=30000000: refused"):
        bnx.compile(hepar2, max_nodes=30_000_000)


def test_a_wide_naive_bayes_is_pointed_to_bnx_linear():
    clf = bnx.linear.read_xlc(bnx.examples.network_path("promoters.xlc"))  # 58 features
    with pytest.raises(bnx.CompilationLimitError) as refused:
        bnx.compile(clf)
    assert "To explain one instance without compiling: bnx.explain(clf, x) takes this naive " \
        "Bayes classifier" in str(refused.value)
    x = {f: clf.states(f)[0] for f in clf.features}
    assert bnx.explain(clf, x).positive == clf.decide(x, within="all")  # and it does


def test_math_inf_lifts_the_budget_and_small_classifiers_compile_as_before():
    clf = bnx.examples.admissions()
    for max_nodes in (None, math.inf, 100):
        odd = bnx.compile(clf, backend="autoref", max_nodes=max_nodes)
        assert odd.size == 6 and odd.count() == 6


@pytest.mark.slow
def test_a_lifted_budget_still_stops_at_the_timeout_while_building_the_table(hepar2):
    """The general engine builds hepar2's table of its last features (4 million exact
    entries) before any node: the timeout is checked between its steps and names it
    (before, timeout=20 ended after 31 s "after 1 nodes")."""
    t0 = time.monotonic()
    with pytest.raises(bnx.CompilationLimitError,
                       match=r"timeout=1 s\) after 0 nodes, while building the table of the "
                       r"last 5 features \(3,981,312 entries\)"):
        bnx.compile(hepar2, max_nodes=math.inf, timeout=1)
    assert time.monotonic() - t0 < 6


@pytest.mark.slow
def test_the_progress_bar_names_the_table_being_built(child, capsys):
    bnx.compile(child, progress=True)
    assert "compiling the table of the last" in capsys.readouterr().err


@pytest.mark.slow
def test_the_general_engine_counts_the_nodes_its_tail_makes(child, monkeypatch):
    """child's ODD is made entirely by the tail (truth tables of the last features): the
    budget counted none of its nodes, so no max_nodes stopped it and the bar stayed at 0."""
    spent = []
    close = Budget.close

    def recording_close(self):
        spent.append(self.used)
        close(self)

    monkeypatch.setattr(Budget, "close", recording_close)
    odd = bnx.compile(child, max_nodes=math.inf)
    assert spent[-1] > 0  # the nodes the tail made
    with pytest.raises(bnx.CompilationLimitError, match="max_nodes=10"):
        bnx.compile(child, max_nodes=10)
    for x in oracle.all_instances(child.network, list(child.features))[:50]:
        assert odd.decide(x) == child.decide(x)


@pytest.mark.parametrize("bad", ["inf", -math.inf, math.nan, 0.5])
def test_only_math_inf_lifts_it(bad):
    with pytest.raises(bnx.ArgumentError, match="positive integer or math.inf"):
        bnx.compile(bnx.examples.admissions(), max_nodes=bad)


@pytest.mark.slow
def test_a_multi_class_classifier_is_estimated_and_refused_by_its_formulas(hepar2):
    """Without a positive state the ODD holds one formula per class state: the estimate
    is their sum, and the way forward names predict and class_probabilities."""
    asia = bnx.examples.asia()
    small = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    each = [bnx.estimate_size(small.class_classifier(s)) for s in small.classes]
    assert bnx.estimate_size(small) == sum(each)
    assert bnx.compile(small, max_nodes=100).multiclass
    many = bnx.Classifier(hepar2.network, "Cirrhosis")
    with pytest.raises(bnx.CompilationLimitError) as refused:
        bnx.compile(many)
    message = str(refused.value)
    assert f"estimated at {bnx.estimate_size(many):,} nodes" in message
    assert "clf.predict(x) and clf.class_probabilities(x)" in message


@pytest.mark.slow
def test_structured_classifiers_compile_under_the_default_budget():
    """Equal weights (majority(200), about 10,000 nodes) were estimated at 2**62 by counting
    samples; the distinct log-odds give the right order. A latent tree's crude bound
    (2**62 here) refuses nothing: it builds a handful of nodes."""
    from tests._support.deep import majority, one_matters
    clf = majority(200)
    odd = bnx.compile(clf)
    assert odd.size / 4 <= bnx.estimate_size(clf) <= odd.size * 4
    latent = one_matters(300, "latent_tree")
    assert bnx.estimate_size(latent) > DEFAULT_MAX_NODES
    assert bnx.compile(latent, backend="cudd" if "cudd" in bnx.backends.available_backends()
                       else "autoref").size <= 10
