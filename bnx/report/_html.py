"""A :class:`~bnx.report.Report` as an HTML fragment, by plain Python (no template engine).

:func:`render_report` is what Jupyter shows (:meth:`bnx.Report._repr_html_`) and what a
web page embeds: a ``<div class="bnx-report">`` holding the decision, a compact table and,
when the report has attributions, their chart as inline SVG (:func:`attribution_svg`).
Every name and state is escaped.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ._text import decimal, listing, number, sure_on_average

__all__ = ["render_report", "attribution_svg"]

#: Colours of the attribution bars: toward the positive state, toward the other decision.
TOWARD, AGAINST = "#2b6cb0", "#c05621"


def _e(v: Any) -> str:
    return escape(str(v))


def _term(f: Any, s: Any) -> str:
    return f"{_e(f)}&nbsp;=&nbsp;{_e(s)}"


def _row(head: str, body: str, note: str = "") -> str:
    note = f'<br><small style="color:#666">{note}</small>' if note else ""
    return (f'<tr><th style="text-align:left;vertical-align:top;padding-right:1em">{head}'
            f'{note}</th><td style="text-align:left">{body}</td></tr>')


def _items(rows: list[str]) -> str:
    return ('<ul style="margin:0;padding-left:1.2em">'
            + "".join(f"<li>{r}</li>" for r in rows) + "</ul>")


def _probability(r) -> str:
    if r.posterior is None:
        return "not known (the model holds no probabilities)"
    if r.multiclass:  # the decided state's probability, then the runner-up's (and rival's)
        from .._util.wording import decided_class
        said = decided_class(r.class_var, r.decision, r.class_probabilities, rival=r.rival)
        return (f"Pr({_term(r.class_var, r.decision)}) = "
                f"{_e(said[said.index('(') + 1:-2])}; the most probable state decides")
    text = f"Pr({_term(r.class_var, r.positive_state)}) = {decimal(r.posterior)}"
    exact = r.posterior_exact
    if exact is not None and len(str(exact)) <= 60:
        text += f' <small style="color:#666">(exactly {_e(exact)})</small>'
    rule = ("the most probable state decides" if r.rule == "argmax"
            else f"threshold {decimal(r.threshold)}")
    return f"{text}; {rule}"


def _complete_rows(r) -> list[str]:
    rows = []
    rival = r.rival is not None
    if r.reasons:
        shown = [", ".join(_term(f, s) for f, s in e.items()) or "(nothing: the decision "
                 "is the same for every instance)" for e in r.reasons]
        if r.reasons_proven == "sufficient":
            note = "proven sufficient; not proven minimal in the time given"
        elif r.reasons_proven == "minimal":
            note = "proven sufficient and minimal; not proven shortest"
        elif r.reason_count is None:
            note = "a shortest one (not counted)"
        else:
            note = (f"{len(r.reasons)} shortest of {r.reason_count:,} in all; lengths "
                    + ", ".join(f"{k}: {v:,}" for k, v in (r.reason_lengths or {}).items()))
        rows.append(_row(f"Why not {_e(r.rival)}" if rival else "Why",
                         _items(shown) + f'<small style="color:#666">{_e(note)}</small>',
                         f"enough to rule out {_e(r.class_var)} = {_e(r.rival)}, whatever "
                         f"the other features say (shortest PI-explanations of the "
                         f"instance on that class's formula)" if rival else
                         "enough to settle the decision, whatever the other features say "
                         "(shortest PI-explanations)"))
    if r.general_words:
        shown = [", ".join(_e(w) for w in words) for words in r.general_words]
        note = (f"{len(shown)} of {r.general_count:,} in all"
                if r.general_count is not None else "")
        rows.append(_row("More generally", _items(shown)
                         + f'<small style="color:#666">{_e(note)}</small>',
                         f"sets of states that rule out {_e(r.rival)}, larger than one "
                         f"state (general reasons)" if rival else
                         "sets of states that keep the decision, larger than one state "
                         "(general reasons)"))
    if r.robustness is None and r.robustness_at_least is not None:
        k = r.robustness_at_least
        body = ("not searched in time" if k <= 1 else
                f"at least {number(k)} changes: none found in time (changes of up to "
                f"{number(k - 1)} feature{'s' * (k != 2)} searched)")
    elif r.robustness == math.inf:
        body = (f"nothing: no change of the features makes it {_e(r.rival)}" if rival else
                "nothing: no change of the features gives another decision")
    else:
        # on a multi-class report each change says the class it leads to
        makes = r.multiclass and not rival
        changes = [", ".join(f"{_e(f)}: {_e(old)} &rarr; {_e(new)}" for f, (old, new)
                             in c.items())
                   + (f" <b>&rArr; {_term(r.class_var, c.decision)}</b>" if makes else "")
                   for c in r.counterfactuals]
        count = ("" if r.counterfactual_count is None else
                 f'<small style="color:#666">{len(changes)} of '
                 f'{r.counterfactual_count:,} closest</small>')
        body = (f"{number(r.robustness)} change{'s' * (r.robustness != 1)} at least"
                + _items(changes) + count)
    closest = (f"decided {_e(r.rival)}" if rival else "with another decision" if r.multiclass
               else "with the other decision")
    rows.append(_row(f"What would make it {_e(r.rival)}" if rival else "What would change it",
                     body, f"the closest instances {closest} (robustness "
                     + (f"at least {r.robustness_at_least})" if r.robustness is None else
                        f"{_e(r.robustness if r.robustness != math.inf else 'infinite')})")))
    if r.necessary:
        rows.append(_row("Necessary", _e(listing([str(f) for f in r.necessary])),
                         "in every sufficient reason"))
    if r.irrelevant:
        one = len(r.irrelevant) == 1
        note = (f"in no reason ruling out {r.rival}: with the other features as they are, "
                f"no state of {'it' if one else 'one of them'} makes it {r.rival}"
                if r.rival is not None else
                "in no sufficient reason: with the other features as they are, no state of "
                + ("it" if one else "one of them") + " changes this decision")
        if r.attributions is not None and any(r.attributions.get(f, 0.0)
                                              for f in r.irrelevant):
            note += (". " + ("Its SHAP value below measures" if one else
                             "Their SHAP values below measure")
                     + " something else: what a feature contributes on average over the "
                     "background instances, where other features differ from this "
                     "instance's")
        rows.append(_row("Does not matter", _e(listing([str(f) for f in r.irrelevant])),
                         _e(note)))
    return rows


def _partial_rows(r) -> list[str]:
    missing = [f for f in r.features if f not in r.instance]
    rows = [_row("Observed", ", ".join(_term(f, s) for f, s in r.instance.items())
                 or "nothing"),
            _row("Not known yet", _e(listing([str(f) for f in missing])))]
    if r.sdp is not None:
        rows.append(_row("How sure", f"{decimal(r.sdp)}",
                         "the probability that the decision stays once everything is "
                         "known (same-decision probability)"))
    elif r.sdp_bounds is not None:
        lo, hi = r.sdp_bounds
        rows.append(_row("How sure", f"between {decimal(lo)} and {decimal(hi)}",
                         "a proven interval around the same-decision probability (the "
                         "exact value was not reached in time)"))
    if r.next:
        body = ('<table><tr><th>feature</th><th>sure on average</th>'
                '<th>changes the decision with probability</th></tr>'
                + "".join(f"<tr><td>{_e(n.feature)}</td><td>{sure_on_average(n)}</td>"
                          f"<td>{decimal(n.flip_probability)}</td></tr>" for n in r.next)
                + "</table>")
        bounded = any(n.expected_sdp is None for n in r.next)
        rows.append(_row("What to find out next", body,
                         "best first; a range is a proven interval (the exact value was "
                         "not reached in time), ranked by the probability of a change"
                         if bounded else "best first"))
    return rows


def attribution_svg(r, *, width: int = 460, row: int = 18) -> str:
    """Draw the report's attributions as a horizontal bar chart in inline SVG.

    ``""`` when the report has none: one bar per feature, largest first, with a legend
    naming the class states each colour pushes toward.
    """
    if r.attributions is None:
        return ""
    items = sorted(r.attributions.items(), key=lambda kv: -abs(kv[1]))
    toward = r.decision if r.multiclass else r.positive_state
    other = ("another class" if r.multiclass else r.decision if not r.positive else
             f"not {r.positive_state}" if not r.class_probabilities
             or len(r.class_probabilities) != 2 else
             next(s for s in r.class_probabilities if s != r.positive_state))
    legend = [f"toward {r.class_var} = {toward}",
              f"toward {other}" if r.multiclass else f"toward {r.class_var} = {other}"]
    labels = [f"{f} = {r.instance.get(f, '')}" for f, _ in items]
    # every text inside the canvas: widths from a generous 7 px per character (11 px
    # sans-serif averages under 6.5)
    label_w = max(120, 7 * max((len(t) for t in labels), default=0) + 8)
    width = max(width, label_w + 200, 14 + 7 * max(len(t) for t in legend) + 8)
    pad = 6
    span = max((abs(v) for _, v in items), default=0) or 1.0
    half = (width - label_w - 2 * pad) / 2
    mid = label_w + pad + half
    top = 3 * row
    height = top + row * len(items) + pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" '
           f'role="img">',
           f'<title>SHAP values of the decision, base value {decimal(r.base_value)}</title>']
    for k, (text, colour) in enumerate(zip(legend, (TOWARD, AGAINST))):
        out.append(f'<rect x="0" y="{4 + k * row}" width="10" height="10" fill="{colour}"/>'
                   f'<text x="14" y="{13 + k * row}">{_e(text)}</text>')
    for k, (f, v) in enumerate(items):
        y = top + k * row
        w = abs(v) / span * half
        x = mid if v >= 0 else mid - w
        state = r.instance.get(f, "")
        out.append(f'<text x="{label_w - 4}" y="{y + row * 0.7:.1f}" text-anchor="end">'
                   f'{_e(f)} = {_e(state)}</text>'
                   f'<rect x="{x:.1f}" y="{y + 2}" width="{max(w, 0.5):.1f}" '
                   f'height="{row - 4}" fill="{TOWARD if v >= 0 else AGAINST}">'
                   f'<title>{_e(f)}: {v:+.4g}</title></rect>')
    out.append(f'<line x1="{mid}" x2="{mid}" y1="{top}" y2="{height - pad}" stroke="#333"/>')
    out.append("</svg>")
    return "".join(out)


def render_report(r) -> str:
    """Render the report as an HTML fragment (a ``div``), for notebooks and web pages.

    Parameters
    ----------
    r : Report
        What :func:`~bnx.explain` answers.

    Returns
    -------
    str
        The HTML fragment, a ``div`` of class ``bnx-report``.

    See Also
    --------
    bnx.explain : The report rendered.
    bnx.Report.to_dict : The same content as JSON.

    Examples
    --------
    >>> import bnx
    >>> from bnx.report import explain, render_report
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> html = render_report(explain(odd, x))
    >>> html.startswith('<div class="bnx-report">'), "WorkExperience" in html
    (True, True)
    """
    verb = "Decided" if r.complete else "So far"
    head = (f'<p style="font-size:110%;margin:0.2em 0"><b>{verb}: '
            f'{_term(r.class_var, r.decision)}</b> &mdash; {_probability(r)}</p>')
    rows = _complete_rows(r) if r.complete else _partial_rows(r)
    if r.methods:
        rows.append(_row("How", _e("; ".join(f"{part}: {how}"
                                             for part, how in r.methods.items())),
                         "how each part was obtained"))
    chart = attribution_svg(r)
    if chart:
        chart = (f'<p style="margin:0.4em 0 0.1em"><b>Attributions</b> <small>(exact SHAP '
                 f'values, base value {decimal(r.base_value)}: how much each feature moves '
                 f'the decision on average over the background instances; a feature that '
                 f'does not matter to this decision can still move it there)</small></p>'
                 f'{chart}')
    return (f'<div class="bnx-report">{head}<table style="border-collapse:collapse">'
            + "".join(rows) + f"</table>{chart}</div>")
