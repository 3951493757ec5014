"""The picture of a report with matplotlib (imported on use).

:func:`plot_report`, what :meth:`bnx.Report.plot` draws.
"""

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


def _fit(ax, made: bool) -> None:
    """Lay out a figure made here so that its title, labels and legend are inside the canvas.

    The legend is drawn below the axes; a figure the caller gave is left to the caller.
    """
    if made:
        ax.figure.tight_layout()


def _legend_below(ax, handles) -> None:
    """Put the legend under the axes, where it covers no bar and no label."""
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.02),
              fontsize="small", frameon=False, ncol=1)


def _title(r) -> str:
    head = f"{'Decided' if r.complete else 'So far'}: {r.class_var} = {r.decision}"
    if r.posterior is not None:
        # a multi-class decision's posterior is its own state's
        pr = (f"Pr({r.class_var} = {r.decision if r.multiclass else r.positive_state}) = "
              f"{decimal(r.posterior)}")
        # on a line of its own when both would not fit the figure's width
        head += f"\n{pr}" if len(head) + len(pr) > 70 else f"  ({pr})"
    return head


def _other_state(r) -> Any:
    if r.multiclass:
        return "another class"
    probs = r.class_probabilities or {}
    if len(probs) == 2:
        return next(s for s in probs if s != r.positive_state)
    return f"not {r.positive_state}"


def plot_report(r, ax=None):
    """Draw a report (see :meth:`bnx.Report.plot`); returns the matplotlib Axes."""
    made = ax is None
    feats = list(r.features)
    labels = [f"{f} = {r.instance[f]}" if f in r.instance else f"{f} (unobserved)"
              for f in feats]
    # wide enough for the labels and, beside them, the title centred over the bars
    # (0.075 in a character at the labels' size, 0.09 at the title's)
    title = max(len(line) for line in _title(r).split("\n"))
    width = max(7.0, 0.075 * max((len(t) for t in labels), default=0) + 0.09 * title + 0.6)
    ax = _axes(ax, (width, 0.35 * len(feats) + 1.9 + 0.2 * _title(r).count("\n")))
    ys = list(range(len(feats)))[::-1]
    if r.attributions is not None:
        _shap_bars(ax, r, feats, ys)
    elif r.complete:
        _reason_bars(ax, r, feats, ys)
    else:
        _observation_bars(ax, r, feats, ys)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    for tick, f in zip(ax.get_yticklabels(), feats):
        if f in r.necessary:
            tick.set_fontweight("bold")
    ax.set_title(_title(r), fontsize="medium")
    _fit(ax, made)
    return ax


def _shap_bars(ax, r, feats, ys) -> None:
    from matplotlib.patches import Patch
    values = [r.attributions.get(f, 0.0) for f in feats]
    ax.barh(ys, values, color=[TOWARD if v >= 0 else AGAINST for v in values])
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel(f"SHAP value of the decision (base value {decimal(r.base_value)})")
    toward = r.decision if r.multiclass else r.positive_state
    against = ("toward another class" if r.multiclass
               else f"toward {r.class_var} = {_other_state(r)}")
    _legend_below(ax, [Patch(color=TOWARD, label=f"toward {r.class_var} = {toward}"),
                       Patch(color=AGAINST, label=against)])
    ax.xaxis.tick_top()  # the legend takes the space below
    ax.xaxis.set_label_position("top")


def _reason_bars(ax, r, feats, ys) -> None:
    """Draw a complete instance without attributions: the shortest reason as bars.

    The closest change is beside them under a heading of its own (inside the axes, clear of
    the title).
    """
    from matplotlib.patches import Patch
    from matplotlib.transforms import blended_transform_factory
    reason = r.reasons[0] if r.reasons else {}
    changed = r.counterfactuals[0] if r.counterfactuals else {}
    for y, f in zip(ys, feats):
        if f in reason:
            ax.barh(y, 1, color=REASON, alpha=0.8)
    ax.set_xlim(0, 1.05)
    ax.set_ylim(-0.6, len(feats) + 0.5)  # a row of headroom for the headings
    ax.set_xticks([])
    head = len(feats) - 0.05
    ax.text(0.02, head, "shortest reason", va="center", fontsize="small", fontweight="bold")
    if changed:  # the changes as labels on the right, laid out with the figure
        right = ax.twinx()
        right.set_ylim(ax.get_ylim())
        rows = [(y, changed[f]) for y, f in zip(ys, feats) if f in changed]
        right.set_yticks([y for y, _ in rows])
        right.set_yticklabels([f"{old} → {new}" for _, (old, new) in rows],
                              fontsize="small")
        right.tick_params(length=0)
        right.text(1.0, head, " closest change", va="center", fontsize="small",
                   fontweight="bold",
                   transform=blended_transform_factory(right.transAxes, right.transData))
    _legend_below(ax, [Patch(color=REASON, label="in the shortest reason"
                             + (" (the necessary features in bold)" if r.necessary else ""))])


def _observation_bars(ax, r, feats, ys) -> None:
    """Draw a partial instance: how sure the decision is now, and what to observe next.

    For each unknown feature, how sure it would be on average once that feature is known.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    ranked = {n.feature: n for n in (r.next or ())}
    for y, f in zip(ys, feats):
        if f in r.instance:
            ax.text(0.02, y, "observed", va="center", fontsize="small", color="#666")
        elif f in ranked and ranked[f].expected_sdp is None:  # proven bounds only
            lo, hi = ranked[f].expected_sdp_bounds
            ax.barh(y, lo, color="#6b8fbf")
            ax.barh(y, hi - lo, left=lo, color="#c8d5e8")
            ax.text(min(hi, 1.0) + 0.01, y, f"{decimal(lo)} to {decimal(hi)}", va="center",
                    fontsize="small")
        elif f in ranked:
            v = ranked[f].expected_sdp
            ax.barh(y, v, color="#6b8fbf")
            ax.text(min(v, 1.0) + 0.01, y, decimal(v), va="center", fontsize="small")
    handles = [Patch(color="#6b8fbf", label="how sure once this feature is known, on average")]
    if any(n.expected_sdp is None for n in ranked.values()):
        handles.append(Patch(color="#c8d5e8", label="up to: a proven interval (the exact "
                                                    "value was not reached in time)"))
    if r.sdp is not None:
        ax.axvline(r.sdp, color="#333", linewidth=1, linestyle="--")
        handles.append(Line2D([], [], color="#333", linestyle="--",
                              label=f"how sure now: {decimal(r.sdp)} (same-decision "
                                    f"probability)"))
    ax.set_xlim(0, 1.12)
    ax.set_xlabel("probability that the decision stays once every feature is known")
    ax.xaxis.tick_top()  # the legend takes the space below
    ax.xaxis.set_label_position("top")
    _legend_below(ax, handles)
