"""Pictures of an ODD's diagram itself: Graphviz DOT text and images, and matplotlib.

- :func:`to_dot`, :func:`draw`, :func:`svg` (``odd.to_dot()``, ``odd.draw(path)``, the
  notebook picture): Graphviz, features and states named on nodes and edges.
- :func:`plot_odd` (``odd.plot()``): the decision diagram with matplotlib, one row per
  BDD level (a feature, or a bit of a multi-valued feature) in the ODD's order; a solid
  green edge is the feature's second state (bit 1), a dashed red edge its first (bit 0).

- :func:`plot_explanations` (``Explanations.plot()``): an explanation set as a grid, one
  row per explanation and one column per feature, each kept state written in its cell,
  dropped features blank.

The diagrams' pictures resolve complemented edges into two sinks ``0`` and ``1``. The
pictures of data sets are in :mod:`bnx.plot`; matplotlib is imported inside the
functions (``import bnx`` stays light).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..errors import ArgumentError, BnxError, OutputError
from .backends import branches

__all__ = ["to_dot", "draw", "svg", "odd_graph", "plot_odd", "plot_explanations"]



def to_dot(odd: Any) -> str:
    """Write the diagram of ``odd`` in Graphviz DOT (:meth:`bnx.ODD.to_dot`).

    Features and states are named on nodes and edges; complemented edges are resolved, so
    the picture shows plain 0/1 sinks.
    """
    enc = odd.encoding
    names = {}
    for i, f in enumerate(enc.features):
        for b in range(len(enc.bits[i])):
            names[enc.first_level[i] + b] = (f, b, len(enc.bits[i]))
    lines = ["digraph ODD {", "  rankdir=TB;", '  node [fontname="Helvetica"];',
             '  t1 [label="1", shape=box];', '  t0 [label="0", shape=box];']
    ids: dict = {}
    stack = [odd.root]
    while stack:  # iterative: no recursive closure holding dd nodes
        u = stack.pop()
        if u.var is None or u in ids:
            continue
        ids[u] = f"n{len(ids)}"
        stack.extend(branches(u))

    def ident(w):
        if w.var is None:
            return "t1" if w == w.bdd.true else "t0"
        return ids[w]

    for u, me in ids.items():
        lo, hi = branches(u)
        f, b, m = names[u.level]
        label = str(f) if m == 1 else f"{f}[bit {b}]"
        lines.append(f'  {me} [label="{_esc(label)}", shape=ellipse];')
        if m == 1:
            lo_l, hi_l = (str(s) for s in enc.states[enc.position(f)][:2])
        else:
            lo_l, hi_l = "0", "1"
        lines.append(f'  {me} -> {ident(lo)} [label="{_esc(lo_l)}", style=dashed];')
        lines.append(f'  {me} -> {ident(hi)} [label="{_esc(hi_l)}"];')
    ids.clear()
    lines.append("}")
    return "\n".join(lines)


def draw(odd: Any, path: str, *, format: str | None = None) -> str:
    """Write the diagram of ``odd`` as an image (:meth:`bnx.ODD.draw`)."""
    fmt = format or os.path.splitext(str(path))[1][1:].lower()
    if not fmt:
        raise ArgumentError(f"cannot tell the drawing format of {path!r}: give it an "
                            f"extension (.dot, .svg, .png, .pdf) or format=")
    if fmt == "dot":
        try:
            with open(path, "w") as fh:
                fh.write(to_dot(odd))
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path
    import shutil
    import subprocess  # (imported here: a drawing is rare, bnx starts fast)
    exe = shutil.which("dot")
    if exe is None:
        raise BnxError("drawing needs Graphviz's 'dot' program, which is not installed; "
                       "use odd.to_dot() or save with a .dot extension")
    res = subprocess.run([exe, f"-T{fmt}", "-o", str(path)], input=to_dot(odd),
                         text=True, capture_output=True)
    if res.returncode != 0:
        raise BnxError(f"dot failed: {res.stderr.strip()}")
    return path


def svg(odd: Any) -> str | None:
    """Draw a small diagram as SVG for Jupyter.

    ``None`` when there is no ``dot``, or over 400 nodes.
    """
    import shutil
    import subprocess  # (imported here: a drawing is rare, bnx starts fast)
    exe = shutil.which("dot")
    if exe is None or odd.size > 400:
        return None
    res = subprocess.run([exe, "-Tsvg"], input=to_dot(odd), text=True, capture_output=True)
    return res.stdout if res.returncode == 0 else None


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=size)[1]


def odd_graph(odd: Any) -> tuple[dict, list]:
    """Resolve the diagram: ``{ref: (level, label)}`` and edges ``(src, dst, text, dashed)``.

    References are dd nodes with their polarity; the two terminals are ``True`` and
    ``False`` at level ``nvars``.

    Returns
    -------
    tuple of (dict, list)
        The nodes and the edges, as :func:`plot_odd` draws them.
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

    Returns
    -------
    object

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

    Returns
    -------
    object

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> ax = bnx.pi_explanations(odd, x).plot()
    >>> ax.get_title()
    '3 sufficient reasons for Admit = + (PI-explanations; length 2: 1, 3: 2)'
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
