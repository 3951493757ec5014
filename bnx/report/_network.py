""":func:`plot_network`: the classifier's network with a decision on it (matplotlib and
networkx, imported on use)."""

from __future__ import annotations

from typing import Any

from .._util.types import Instance
from ..errors import ArgumentError
from ._build import explain
from ._plot import REASON, _axes
from ._report import Report
from ._text import decimal

__all__ = ["plot_network"]


def plot_network(classifier: Any, instance: Instance, report: Any = None, ax=None):
    """Draw the classifier's network with a decision on it (matplotlib).

    The class node shows its posterior and the decision; each feature its observed
    state (or "unobserved"); the features of the report's shortest reason are edged in
    gold; with attributions in the report, each feature is coloured by its SHAP value
    (blue toward the positive state, orange toward the other decision). Layers run
    left to right from the network's roots.

    Parameters
    ----------
    classifier : Classifier or ODD
        The classifier (an ODD gives its own).
    instance : mapping
        The instance (features left out are unobserved).
    report : Report, optional
        The report on this instance (:func:`bnx.explain`), for the reason and the
        attributions; without it, a naive Bayes or TAN with a two-state class is
        explained by :mod:`bnx.linear` for its shortest reason.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ArgumentError
        ``classifier`` is not a classifier (or an ODD holding none), or ``report`` is
        not a :class:`~bnx.Report` of this instance.

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> from bnx.report import plot_network
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> ax = plot_network(bnx.examples.admissions(), x)
    >>> sorted(t.get_text().split("\\n")[0] for t in ax.texts if t.get_text())[:2]
    ['Admit', 'EntranceExam']
    """
    import networkx as nx

    from ..classifier._classifier import Classifier
    from ..odd._odd import ODD
    clf = classifier.classifier if isinstance(classifier, ODD) else classifier
    if not isinstance(clf, Classifier):
        raise ArgumentError(f"plot_network takes a bnx.Classifier (or an ODD that holds "
                            f"one), got {type(classifier).__name__}")
    idx = clf.encode(instance, partial=True)
    named = {f: clf.states(f)[j] for f, j in idx.items()}
    if report is not None and (not isinstance(report, Report)
                               or dict(report.instance) != named):
        raise ArgumentError("report must be the bnx.Report of this instance "
                            "(bnx.explain(odd, instance))")
    if report is None and len(named) == len(clf.features) and clf.structure in (
            "naive_bayes", "tan") and len(clf.class_states) == 2:
        report = explain(clf, named)
    reason = report.reasons[0] if report is not None and report.reasons else {}
    shap = report.attributions if report is not None else None
    joint = clf.class_joint(named, partial=True)
    total = sum(joint)
    c = clf.class_var
    net = clf.network
    graph = nx.DiGraph(net.edges())
    graph.add_nodes_from(net.nodes())
    layers = {}
    for depth, nodes in enumerate(nx.topological_generations(graph)):
        for n in nodes:
            layers[n] = depth
    nx.set_node_attributes(graph, layers, "layer")
    pos = nx.multipartite_layout(graph, subset_key="layer", align="vertical")
    widest = max(list(layers.values()).count(k) for k in set(layers.values()))
    ax = _axes(ax, (3.2 * (max(layers.values()) + 1) + 1, max(3.0, 0.55 * widest + 1)))
    for u, v in graph.edges():
        ax.annotate("", xy=pos[v], xytext=pos[u],
                    arrowprops=dict(arrowstyle="-|>", color="#888", shrinkA=18, shrinkB=18))
    span = max((abs(v) for v in shap.values()), default=0) or 1.0 if shap else 1.0
    import matplotlib
    cmap = matplotlib.colormaps["coolwarm_r"]
    feats = set(clf.features)
    for n, (x, y) in pos.items():
        face, edge, width, weight = "#f2f2f2", "#999", 1.0, "normal"
        if n == c:
            pos_p = joint[clf.class_states.index(clf.positive)] / total if total else None
            label = f"{n}\nPr({clf.positive}) = {decimal(float(pos_p))}" if pos_p is not None \
                else f"{n}"
            if report is not None:
                label += f"\ndecided: {report.decision}"
            face, edge, width, weight = "#e6f0fa", "#2b6cb0", 2.0, "bold"
        elif n in feats:
            label = f"{n}\n= {named[n]}" if n in named else f"{n}\n(unobserved)"
            face = "#ffffff" if n in named else "#f2f2f2"
            if shap is not None and n in shap:
                face = matplotlib.colors.to_hex(cmap(0.5 + 0.5 * shap[n] / span))
            if n in reason:
                edge, width, weight = REASON, 3.0, "bold"
        else:
            label = f"{n}\n(hidden)"
        ax.text(x, y, label, ha="center", va="center", fontsize="small", fontweight=weight,
                bbox=dict(boxstyle="round,pad=0.4", facecolor=face, edgecolor=edge,
                          linewidth=width))
    notes = []
    if reason:
        notes.append("gold edge: in the shortest sufficient reason")
    if shap is not None:
        notes.append("colour: SHAP value (blue toward "
                     f"{c} = {clf.positive}, red against)")
    if notes:
        ax.set_title("; ".join(notes), fontsize="small")
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    ax.set_ylim(min(ys) - 0.15, max(ys) + 0.15)
    ax.set_axis_off()
    return ax
