"""Graphviz pictures of an ODD: its DOT text, and images drawn by Graphviz's ``dot``."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Any

from .backends import branches
from .errors import ArgumentError, BnxError, OutputError

__all__ = ["to_dot", "draw", "svg"]


def to_dot(odd: Any) -> str:
    """The diagram of ``odd`` in Graphviz DOT, features and states named on nodes and
    edges (:meth:`bnx.ODD.to_dot`); complemented edges are resolved, so the picture
    shows plain 0/1 sinks."""
    enc = odd.encoding
    names = {}
    for i, f in enumerate(enc.features):
        for b, v in enumerate(enc.bits[i]):
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
    """The SVG of a small diagram for Jupyter, or ``None`` (no ``dot``, or over 400
    nodes)."""
    exe = shutil.which("dot")
    if exe is None or odd.size > 400:
        return None
    res = subprocess.run([exe, "-Tsvg"], input=to_dot(odd), text=True, capture_output=True)
    return res.stdout if res.returncode == 0 else None


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')
