"""Pictures with matplotlib (no Graphviz) and the data-set summary they draw."""

from __future__ import annotations

import re

import matplotlib
import pytest

import bnx
from bnx.diagram.drawing import odd_graph
from bnx.tabular.plot import pi_feature_share
from tests._support.builders import observed_odd

matplotlib.use("Agg")


def test_odd_graph_is_to_dot(backend):
    from tests._support.builders import multivalued_classifier
    for clf in (bnx.examples.admissions(), multivalued_classifier()):
        odd = bnx.compile(clf, backend=backend)
        nodes, edges = odd_graph(odd)
        dot = odd.to_dot()
        assert len(nodes) - 2 == len(re.findall(r"shape=ellipse", dot))
        assert len(edges) == dot.count("->")
        assert sorted(lab for _, lab in nodes.values()) == sorted(
            re.findall(r'label="([^"]*)", shape', dot))
        ax = odd.plot()
        assert len(ax.texts) == len(nodes) + 2 * len(edges)  # an arrow and a label per edge
        matplotlib.pyplot.close("all")


def test_explanations_plot_shows_each_kept_state():
    odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    x = bnx.datasets.load_votes().loc[369].drop("party")
    pis = bnx.pi_explanations(odd, x)
    ax = pis.plot(limit=5)
    kept = sum(len(e) for e, _ in zip(pis, range(5)))
    assert len(ax.texts) == kept and "first 5" in ax.get_title()
    matplotlib.pyplot.close("all")


def test_pi_feature_share_by_enumeration():
    clf = bnx.case_study.votes_classifier()
    odd = bnx.compile(clf, backend="auto")
    data = bnx.datasets.load_votes().iloc[:25]
    share = pi_feature_share(odd, data)
    assert list(share.index) == list(clf.features)
    want = dict.fromkeys(clf.features, 0.0)
    for _, row in data.iterrows():
        x = {f: v for f, v in row.items() if f in clf.features and isinstance(v, str)}
        pis = list(bnx.pi_explanations(observed_odd(odd, list(x)), x))
        for f in clf.features:
            want[f] += sum(f in z for z in pis) / len(pis) / len(data)
    assert share.to_dict() == pytest.approx(want, rel=1e-12)
    ax = bnx.plot.plot_feature_share(odd, data)
    assert len(ax.patches) == 16
    matplotlib.pyplot.close("all")
