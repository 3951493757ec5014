"""The picture of a report with matplotlib (imported on use): :func:`plot_report`, what
:meth:`bnx.Report.plot` draws."""

from __future__ import annotations

from typing import Any

from ._html import AGAINST, TOWARD
from ._text import decimal

__all__ = ["plot_report", "REASON"]

#: The edge colour of the features of the shortest reason.
REASON = "#b7791f"


def _axes(ax, size):
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots(figsize=size)
    return ax


def _title(r) -> str:
    head = f"{'Decided' if r.complete else 'So far'}: {r.class_var} = {r.decision}"
    if r.posterior is not None:
        head += f"  (Pr({r.class_var} = {r.positive_state}) = {decimal(r.posterior)})"
    return head


def _other_state(r) -> Any:
    probs = r.class_probabilities or {}
    if len(probs) == 2:
        return next(s for s in probs if s != r.positive_state)
    return f"not {r.positive_state}"


def plot_report(r, ax=None):
    """Draw a report (see :meth:`bnx.Report.plot`); returns the matplotlib Axes."""
    from matplotlib.patches import Patch
    feats = list(r.features)
    ax = _axes(ax, (7, 0.35 * len(feats) + 1.2))
    labels = [f"{f} = {r.instance[f]}" if f in r.instance else f"{f} (unobserved)"
              for f in feats]
    ys = list(range(len(feats)))[::-1]
    if r.attributions is not None:
        values = [r.attributions.get(f, 0.0) for f in feats]
        ax.barh(ys, values, color=[TOWARD if v >= 0 else AGAINST for v in values])
        ax.axvline(0, color="#333", linewidth=0.8)
        ax.set_xlabel(f"SHAP value of the decision (base value {decimal(r.base_value)})")
        ax.legend(handles=[Patch(color=TOWARD, label=f"toward {r.class_var} = "
                                 f"{r.positive_state}"),
                           Patch(color=AGAINST, label=f"toward {r.class_var} = "
                                 f"{_other_state(r)}")], loc="best", fontsize="small")
    else:
        reason = r.reasons[0] if r.reasons else {}
        changed = r.counterfactuals[0] if r.counterfactuals else {}
        for y, f in zip(ys, feats):
            if f in reason:
                ax.barh(y, 1, color=REASON, alpha=0.8)
            if f in changed:
                old, new = changed[f]
                ax.text(1.05, y, f"{old} → {new}", va="center", fontsize="small")
        ax.set_xlim(0, 2)
        ax.set_xticks([])
        ax.legend(handles=[Patch(color=REASON, label="in the shortest reason"
                                 + (" (all necessary ones too)" if r.necessary else ""))],
                  loc="lower right", fontsize="small")
        if changed:
            ax.text(1.05, len(feats) - 0.3, "closest change", fontsize="small",
                    fontweight="bold")
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    for tick, f in zip(ax.get_yticklabels(), feats):
        if f in r.necessary:
            tick.set_fontweight("bold")
    ax.set_title(_title(r), fontsize="medium")
    return ax
