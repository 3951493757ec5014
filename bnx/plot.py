"""Pictures with matplotlib, no Graphviz: diagrams, explanation sets, data-set summaries.

- :func:`plot_odd` (``odd.plot()``): the decision diagram, one row per BDD level (a
  feature, or a bit of a multi-valued feature) in the ODD's order, complemented
  edges resolved into two sinks ``0`` and ``1``; a solid green edge is the
  feature's second state (bit 1), a dashed red edge its first (bit 0).
- :func:`plot_explanations` (``Explanations.plot()``): explanations as a grid, one
  row per explanation and one column per feature, each kept state written in its
  cell, dropped features blank.
- :func:`pi_feature_share` and :func:`plot_feature_share`: how often each feature
  appears in the PI-explanations of the rows of a data set.

matplotlib is imported inside the functions (``import bnx`` stays light).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .backends import branches

__all__ = ["plot_odd", "plot_explanations", "pi_feature_share", "plot_feature_share"]


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=size)[1]


def odd_graph(odd: Any) -> tuple[dict, list]:
    """The resolved diagram: ``{ref: (level, label)}`` and edges ``(src, dst, text, dashed)``.

    References are dd nodes with their polarity; the two terminals are ``True`` and
    ``False`` at level ``nvars``.
    """
    enc = odd.encoding
    names = {}
    for i, f in enumerate(enc.features):
        m = len(enc.bits[i])
        for b in range(m):
            names[enc.first_level[i] + b] = (i, str(f) if m == 1 else f"{f}[bit {b}]")
    nodes: dict = {}
    edges: list = []
    stack = [odd.root]
    while stack:
        u = stack.pop()
        key = _key(u)
        if key in nodes:
            continue
        if u.var is None:
            nodes[key] = (enc.nvars, "1" if key is True else "0")
            continue
        i, label = names[u.level]
        nodes[key] = (u.level, label)
        states = enc.states[i]
        lo, hi = branches(u)
        texts = (str(states[0]), str(states[1])) if len(enc.bits[i]) == 1 else ("0", "1")
        edges.append((key, _key(lo), texts[0], True))
        edges.append((key, _key(hi), texts[1], False))
        stack.extend((lo, hi))
    return nodes, edges


def _key(u: Any) -> Any:
    if u.var is None:
        return u == u.bdd.true
    return u


def plot_odd(odd: Any, ax: Any = None, *, short: Mapping | None = None,
             width: float | None = None) -> Any:
    """Draw ``odd`` with matplotlib, levels as rows; returns the axes.

    Parameters
    ----------
    odd : ODD
    ax : matplotlib axes, optional
        Where to draw (default: a new figure sized to the diagram).
    short : mapping, optional
        Text to show in the nodes of a feature instead of its name.
    width : float, optional
        Figure width in inches (with a new figure).

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = bnx.compile(bnx.examples.admissions(), backend="autoref").plot()
    >>> len(ax.texts) > 6
    True
    """
    nodes, edges = odd_graph(odd)
    short = dict(short or {})
    bottom = odd.encoding.nvars
    incoming: dict = {n: [] for n in nodes}
    for s, t, _, dashed in edges:
        incoming[t].append((s, dashed))
    levels = sorted({lvl for lvl, _ in nodes.values()})
    pos: dict = {}
    for lvl in levels:
        row = [n for n, (l2, _) in nodes.items() if l2 == lvl]
        if lvl == bottom:
            row.sort(key=lambda n: n is True)  # 0 left of 1
        else:  # by where the parents are, "on" children to the right
            def where(n):
                into = [pos[s][0] + (-0.01 if dashed else 0.01) for s, dashed in incoming[n]]
                return sum(into) / len(into) if into else 0.0
            row.sort(key=where)
        for k, n in enumerate(row):
            pos[n] = ((k + 1) / (len(row) + 1), -levels.index(lvl))
    depth = len(levels) - 1
    widest = max(sum(1 for l2, _ in nodes.values() if l2 == lvl) for lvl in levels)
    ax = _axes(ax, (width or 2.5 + 2 * widest, 1.3 * (depth + 1)))
    for s, t, text, dashed in edges:
        (x0, y0), (x1, y1) = pos[s], pos[t]
        span = y0 - y1
        bend = 0.0 if span == 1 else (0.25 if x1 >= x0 else -0.25)  # long edges bow out
        color = "tab:red" if dashed else "tab:green"
        ax.annotate("", xy=(x1, y1 + 0.2), xytext=(x0, y0 - 0.2),
                    arrowprops=dict(arrowstyle="-|>", color=color, lw=1.3,
                                    linestyle="--" if dashed else "-", shrinkA=0, shrinkB=0,
                                    connectionstyle=f"arc3,rad={bend}"))
        f = 0.3 / span  # label near the source, where edges are still apart
        ax.text(x0 + f * (x1 - x0), y0 - 0.2 + f * (y1 - y0 + 0.4),
                "\u2212" if text == "-" else text, fontsize=10, fontweight="bold",
                color=color, ha="center", va="center",
                bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.9))
    for n, (lvl, label) in nodes.items():
        x, y = pos[n]
        if lvl == bottom:
            ax.text(x, y, label, ha="center", va="center", fontsize=12, fontweight="bold",
                    bbox=dict(boxstyle="square,pad=0.4", fc="0.9", ec="black"))
        else:
            ax.text(x, y, short.get(label, label), ha="center", va="center", fontsize=9,
                    bbox=dict(boxstyle="round,pad=0.35", fc="lightyellow", ec="black"))
    ax.set_xlim(0, 1)
    ax.set_ylim(-depth - 0.5, 0.5)
    ax.axis("off")
    return ax


def plot_explanations(expl: Any, ax: Any = None, *, limit: int = 30) -> Any:
    """Draw an explanation set as a grid (at most ``limit`` rows); returns the axes.

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> ax = bnx.pi_explanations(odd, x).plot()
    >>> ax.get_title()
    '3 PI-explanations of a positive decision (length 2: 1, 3: 2)'
    """
    import numpy as np
    feats = list(expl.features)
    rows = []
    for e in expl:
        if len(rows) >= limit:
            break
        rows.append(e)
    ax = _axes(ax, (1.2 + 0.9 * len(feats), 1.0 + 0.35 * max(1, len(rows))))
    grid = np.array([[1.0 if f in e else 0.0 for f in feats] for e in rows]).reshape(
        len(rows), len(feats))
    ax.imshow(grid, cmap="Greens", vmin=0, vmax=2, aspect="auto")
    for r, e in enumerate(rows):
        for c, f in enumerate(feats):
            if f in e:
                ax.text(c, r, str(e[f]), ha="center", va="center", fontsize=9)
    ax.set_xticks(range(len(feats)), [str(f) for f in feats], rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), [str(r + 1) for r in range(len(rows))])
    more = f" (first {limit})" if expl.count > limit else ""
    ax.set_title(expl.title() + more)
    return ax


def pi_feature_share(odd: Any, data: Any):
    """For each feature, the share of the PI-explanations that keep it, averaged over rows.

    Row by row: the number of the row's PI-explanations that keep the feature,
    divided by the number of its PI-explanations (counted on the diagram, exactly);
    then the mean over the rows of ``data``. A row with missing values is explained
    over its observed features (see :mod:`bnx.batch_engine`): its missing features
    count as never kept.

    Returns a pandas Series indexed by feature, in the classifier's order.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> pi_feature_share(odd, [x]).round(3).to_dict()
    {'WorkExperience': 0.667, 'FirstTimeApplicant': 0.667, 'EntranceExam': 0.667, 'GPA': 0.667}
    """
    import copy

    import numpy as np
    import pandas as pd

    from .batch import encode_rows
    from .batch_engine import marginal_odd
    from .diagram import recursion_for
    from .explain.explanations import DROPPED
    from .explain.walks import count_members
    from .explain.pi import pi_explanations
    codes = encode_rows(odd, data)
    total = dict.fromkeys(odd.features, 0.0)
    unique, counts = np.unique(codes, axis=0, return_counts=True)
    for row, weight in zip(unique.tolist(), counts.tolist()):
        x = {odd.features[i]: odd.encoding.states[i][j] for i, j in enumerate(row) if j >= 0}
        m = marginal_odd(odd, list(x))
        if m is None:
            continue
        pis = pi_explanations(m, x)
        n = pis.count
        g = pis.diagram
        u = g.root
        with recursion_for(pis.layout.nvars):
            for i, f in enumerate(m.features):
                kept = copy.copy(pis.layout)  # feature i may only be kept
                kept.choices = list(kept.choices)
                kept.choices[i] = [c for c in kept.choices[i] if c[0] is not DROPPED]
                total[f] += weight * count_members(g, u, 0, kept, {}) / n
    order = odd.display_order
    return pd.Series([total[f] / len(codes) for f in order], index=list(order),
                     name="PI share")


def plot_feature_share(odd: Any, data: Any, ax: Any = None) -> Any:
    """Bar chart of :func:`pi_feature_share` over ``data``; returns the axes."""
    share = pi_feature_share(odd, data)
    ax = _axes(ax, (7, 0.8 + 0.3 * len(share)))
    ax.barh([str(f) for f in share.index][::-1], share.to_numpy()[::-1], color="tab:blue")
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the PI-explanations that keep the feature (mean over rows)")
    ax.set_title(f"Features in the PI-explanations of {len(data):,} rows")
    return ax
