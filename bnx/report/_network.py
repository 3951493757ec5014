""":func:`plot_network`: the classifier's network with a decision on it.

matplotlib and networkx are imported on use.
"""

from __future__ import annotations

from typing import Any

from .._util.guard import question
from .._util.types import Instance
from ..errors import ArgumentError
from ._build import explain
from ._plot import REASON
from ._report import Report
from ._text import decimal

__all__ = ["plot_network"]


#: Networks with more nodes are drawn as the class's neighbourhood by default.
WHOLE_UP_TO = 30
#: The font size of the node boxes, in points, and the layout's gaps, in inches.
FONT, COLUMN_GAP, ROW_GAP = 8.0, 0.55, 0.22


@question
def plot_network(clf: Any, instance: Instance, report: Any = None, ax=None, *,
                 neighbourhood: bool | None = None):
    r"""Draw the classifier's network with a decision on it (matplotlib).

    The class node shows its posterior and the decision; each feature its observed
    state (or "unobserved"); the features of the report's shortest reason are edged in
    gold; with attributions in the report, each feature is coloured by its SHAP value
    (blue toward the positive state, orange toward the other decision). Layers run
    left to right from the network's roots, each box in a row of its own, the figure
    sized to hold them all apart.

    Parameters
    ----------
    clf : Classifier or ODD
        The classifier, or an ODD that holds its classifier (``odd.classifier``).
    instance : mapping
        The instance (features left out are unobserved).
    report : Report, optional
        The report on this instance (:func:`bnx.explain`), for the reason and the
        attributions; without it, a naive Bayes or TAN with a two-state class is
        explained by :mod:`bnx.linear` for its shortest reason.
    ax : matplotlib Axes, optional
        Draw here (default: a new figure sized to the network).
    neighbourhood : bool, optional
        Draw only the class's neighbourhood: the class, its Markov blanket and the
        features of the shortest reason (the title says how many nodes are left out).
        Default: on networks of more than 30 nodes.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ArgumentError
        ``clf`` is not a classifier (or an ODD holding none), or ``report`` is
        not a :class:`~bnx.Report` of this instance.

    See Also
    --------
    bnx.explain : The report drawn on the network.
    bnx.Report.plot : The report's own picture.

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> from bnx.report import plot_network
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> ax = plot_network(bnx.examples.admissions(), x)
    >>> sorted(t.get_text().split("\n")[0] for t in ax.texts if t.get_text())[:2]
    ['Admit', 'EntranceExam']
    """
    import networkx as nx

    from ..odd._odd import classifier_and_odd
    clf, _ = classifier_and_odd(clf)
    if neighbourhood not in (None, True, False):
        raise ArgumentError(f"neighbourhood must be True, False or None, got "
                            f"{neighbourhood!r}")
    idx = clf.encode(instance, partial=True)
    named = {f: clf.states(f)[j] for f, j in idx.items()}
    if report is not None and (not isinstance(report, Report)
                               or dict(report.instance) != named):
        raise ArgumentError("report must be the bnx.Report of this instance "
                            "(bnx.explain(odd, instance))")
    if report is None and len(named) == len(clf.features) and clf.structure in (
            "naive_bayes", "tan") and len(clf.class_states) == 2 and not clf.multiclass:
        report = explain(clf, named)
    reason = report.reasons[0] if report is not None and report.reasons else {}
    shap = report.attributions if report is not None else None
    joint = clf.class_joint(named, partial=True)
    total = sum(joint)
    c = clf.class_var
    net = clf.network
    graph = nx.DiGraph(net.edges())
    graph.add_nodes_from(net.nodes())
    everything = graph.number_of_nodes()
    if neighbourhood is None:
        neighbourhood = everything > WHOLE_UP_TO
    if neighbourhood:
        keep = {c, *net.get_markov_blanket(c), *reason}
        graph = graph.subgraph(keep).copy()
    import matplotlib
    cmap = matplotlib.colormaps["coolwarm_r"]
    span = max((abs(v) for v in shap.values()), default=0) or 1.0 if shap else 1.0
    feats = set(clf.features)
    boxes = {}
    for n in graph.nodes():
        face, edge, width, weight = "#f2f2f2", "#999", 1.0, "normal"
        if n == c:
            # a multi-class classifier's posterior: the decided state's
            shown = clf.positive if not clf.multiclass else clf.decide(named, partial=True)
            pos_p = joint[clf.class_states.index(shown)] / total if total else None
            label = f"{n}\nPr({shown}) = {decimal(float(pos_p))}" if pos_p is not None \
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
        boxes[n] = (label, face, edge, width, weight)
    pos, size = _layout(graph, {n: b[0] for n, b in boxes.items()})
    notes = []
    if neighbourhood:
        notes.append(f"the neighbourhood of {c} (its Markov blanket"
                     + (" and the shortest reason" if reason else "")
                     + f"): {graph.number_of_nodes()} of {everything} nodes")
    if reason:
        notes.append("gold edge: in the shortest sufficient reason")
    if shap is not None:
        toward = clf.decide(named, partial=True) if clf.multiclass else clf.positive
        notes.append("colour: SHAP value (blue toward "
                     f"{c} = {toward}, red against)")
    if ax is None:
        import matplotlib.pyplot as plt
        head = 0.25 * len(notes) + 0.1
        title = max((0.62 * 8.4 / 72 * len(t) + 0.3 for t in notes), default=0)
        size = (max(size[0], title), size[1])  # the title inside the canvas too
        fig = plt.figure(figsize=(size[0], size[1] + head))
        ax = fig.add_axes((0, 0, 1, size[1] / (size[1] + head)))
    for u, v in graph.edges():
        ax.annotate("", xy=pos[v], xytext=pos[u],
                    arrowprops=dict(arrowstyle="-|>", color="#888", shrinkA=14, shrinkB=14))
    for n, (x, y) in pos.items():
        label, face, edge, width, weight = boxes[n]
        ax.text(x, y, label, ha="center", va="center", fontsize=FONT, fontweight=weight,
                bbox=dict(boxstyle="round,pad=0.4", facecolor=face, edgecolor=edge,
                          linewidth=width))
    if notes:
        ax.set_title("\n".join(notes), fontsize="small")
    ax.set_xlim(0, size[0])
    ax.set_ylim(-size[1] / 2, size[1] / 2)
    ax.set_axis_off()
    return ax


def _layout(graph, labels: dict) -> tuple[dict, tuple[float, float]]:
    """Lay out the boxes: ``(positions, (width, height))`` in inches.

    The topological layers are columns left to right, each as wide as its widest box; in a
    column the boxes are one row apart (the tallest box and a gap), centred, ordered by
    their parents' rows (fewer crossing edges). A box's size comes from its text: at most
    ``0.66`` of the font size per character (DejaVu Sans averages under 0.6, bold under
    0.66) and ``1.25`` per line.
    """
    import networkx as nx
    pt = FONT / 72
    pad = 0.4 * pt  # the box's pad on each side
    def box(label):
        lines = str(label).split("\n")
        return (0.66 * pt * max(len(t) for t in lines) + 2 * pad + 0.1,
                1.25 * pt * len(lines) + 2 * pad)
    sizes = {n: box(labels[n]) for n in graph.nodes()}
    row = max((h for _, h in sizes.values()), default=0.5) + ROW_GAP
    columns = [list(layer) for layer in nx.topological_generations(graph)]
    rows: dict = {}
    for column in columns:
        def parents_row(n):
            seen = [rows[p] for p in graph.predecessors(n) if p in rows]
            return sum(seen) / len(seen) if seen else 0.0
        column.sort(key=lambda n: (parents_row(n), str(n)))
        for i, n in enumerate(column):
            rows[n] = i - (len(column) - 1) / 2
    pos, x = {}, COLUMN_GAP / 2
    for column in columns:
        width = max(sizes[n][0] for n in column)
        for n in column:
            pos[n] = (x + width / 2, -rows[n] * row)
        x += width + COLUMN_GAP
    tallest = max((len(col) for col in columns), default=1)
    return pos, (max(x - COLUMN_GAP / 2, 2.0), tallest * row + ROW_GAP)
