"""Matplotlib drawings of attributions and of parameter sensitivity (imported lazily).

matplotlib is imported inside the functions, so that importing bnx never needs it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .entries import entry_label, flip_room

__all__ = ["draw", "draw_sensitivity"]


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=size)[1]


def _label(attr) -> str:
    return "SHAP value" if attr.kind == "shap" else "Banzhaf value"


def draw(attr, ax: Any = None, *, kind: str | None = None, max_features: int = 20) -> Any:
    """Draw :meth:`bnx.Attributions.plot`.

    A bar or waterfall chart for one instance, a beeswarm-like summary for many rows.
    """
    from ..errors import ArgumentError
    kinds = ("bar", "waterfall") if attr.single else ("beeswarm", "bar")
    kind = kind or kinds[0]
    if kind not in kinds:
        raise ArgumentError(f"kind must be one of {', '.join(map(repr, kinds))} for "
                            f"{'one instance' if attr.single else 'many rows'}, got {kind!r}")
    values = np.asarray(attr.values, dtype=float)
    names = list(attr.feature_names)
    if attr.single:
        order = np.argsort(-np.abs(values), kind="stable")[:max_features][::-1]
        labels = [f"{names[i]} = {attr.data[i]}" for i in order]
        ax = _axes(ax, (7, 0.35 * len(order) + 1.5))
        y = np.arange(len(order))
        if kind == "bar":
            v = values[order]
            ax.barh(y, v, color=np.where(v >= 0, "tab:red", "tab:blue"))
            ax.axvline(0, color="black", lw=0.8)
        else:
            v = values[order]
            ax.barh(y, v, left=_left(attr, values, order),
                    color=np.where(v >= 0, "tab:red", "tab:blue"))
            ax.axvline(float(attr.base_values), color="grey", ls="--", lw=0.8)
            ax.axvline(float(attr.decisions), color="black", lw=0.8)
        ax.set_yticks(y)
        ax.set_yticklabels(labels)
        pos, neg = _classes(attr)
        ax.set_xlabel(f"{_label(attr)} (1 = {pos}, 0 = {neg})")
        decided = pos if int(attr.decisions) else neg
        ax.set_title(f"Decided {decided} (base value {float(attr.base_values):.3g})")
        if kind == "waterfall":  # room for the base value and the decision lines
            left = _left(attr, values, order)
            ends = np.concatenate([left, left + values[order],
                                   [float(attr.base_values), float(attr.decisions)]])
            pad = 0.05 * max(float(ends.max() - ends.min()), 1e-9)
            ax.set_xlim(float(ends.min()) - pad, float(ends.max()) + pad)
        _legend(ax, pos, neg, waterfall=kind == "waterfall")
        return ax
    if kind == "bar":
        mean = np.abs(values).mean(axis=0)
        order = np.argsort(-mean, kind="stable")[:max_features][::-1]
        ax = _axes(ax, (7, 0.35 * len(order) + 1.5))
        ax.barh(np.arange(len(order)), mean[order], color="tab:purple")
        ax.set_yticks(np.arange(len(order)))
        ax.set_yticklabels([names[i] for i in order])
        ax.set_xlabel(f"mean |{_label(attr)}|")
        pos, neg = _classes(attr)
        ax.set_title(f"{len(attr)} decisions ({pos} or {neg}): mean size of each push")
        return ax
    order = np.argsort(-np.abs(values).mean(axis=0), kind="stable")[:max_features][::-1]
    ax = _axes(ax, (7, 0.35 * len(order) + 1.5))
    rng = np.random.default_rng(0)
    data = np.asarray(attr.data, dtype=object)
    for y, i in enumerate(order):
        col = values[:, i]
        codes = np.unique(data[:, i].astype(str), return_inverse=True)[1].reshape(-1)
        shade = codes / max(1, codes.max())
        jitter = rng.uniform(-0.3, 0.3, len(col))
        ax.scatter(col, y + jitter, c=shade, cmap="coolwarm", s=8, vmin=0, vmax=1)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(np.arange(len(order)))
    ax.set_yticklabels([names[i] for i in order])
    ax.set_xlabel(f"{_label(attr)} (colour: the feature's state, by its order)")
    pos, neg = _classes(attr)
    ax.set_title(f"{len(attr)} decisions: right pushes towards {pos}, left towards {neg}")
    return ax


def _classes(attr) -> tuple[str, str]:
    """Name the two decisions in the class's words, positive first."""
    return tuple(getattr(attr, "classes", ("positive", "negative")))


def _legend(ax: Any, pos: str, neg: str, *, waterfall: bool) -> None:
    """Which colour pushes towards which decision (and, in a waterfall, the two lines)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    handles = [Patch(color="tab:red", label=f"towards {pos}"),
               Patch(color="tab:blue", label=f"towards {neg}")]
    if waterfall:
        handles += [Line2D([], [], color="grey", ls="--", lw=0.8,
                           label=f"base value: the share of {pos} under the background"),
                    Line2D([], [], color="black", lw=0.8, label="the decision (1 or 0)")]
    ax.legend(handles=handles, loc="best", fontsize="small")


def _left(attr, values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Waterfall: where each bar starts, from the base value (top bar last)."""
    rest = float(values.sum() - values[order].sum())  # features not drawn
    start = float(attr.base_values) + rest
    lefts = np.empty(len(order))
    for k in range(len(order) - 1, -1, -1):  # the largest (top) bar first
        lefts[k] = start
        start += values[order[k]]
    return lefts


def draw_sensitivity(frame, ax: Any = None, *, top: int = 15) -> Any:
    """Draw :func:`bnx.plot_sensitivity`: the CPT entries closest to flipping the decision.

    Each as its interval around its value (on a log scale of distance).
    """
    f = frame.copy()
    f["room"] = flip_room(f)
    f = f.sort_values("room", kind="stable").head(top).iloc[::-1]
    ax = _axes(ax, (7, 0.35 * len(f) + 1.5))
    y = np.arange(len(f))
    lo, hi, v = f["low"].astype(float), f["high"].astype(float), f["value"].astype(float)
    ax.hlines(y, lo, hi, color="tab:green", lw=4, alpha=0.6)
    ax.plot(v, y, "k|", ms=12)
    labels = [entry_label(r["variable"], r["state"], r["parents"]) for _, r in f.iterrows()]
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("the entry's value (|) and the interval that keeps the decision")
    return ax
