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

from ._glossary import GLOSSARY
from ._glossary import term_title as tip
from ._plain import LONG, MAX_SHOWN, PARTS, how_key, matters_most, reason_key, world_text
from ._text import decimal, listing, number, sure_on_average

__all__ = ["render_report", "attribution_svg"]

#: Colours of the attribution bars: toward the positive state, toward the other decision.
TOWARD, AGAINST = "#2b6cb0", "#c05621"


def _e(v: Any) -> str:
    return escape(str(v))


def _term(f: Any, s: Any) -> str:
    return f"{_e(f)}&nbsp;=&nbsp;{_e(s)}"


def _row(head: str, body: str, note: str = "", key: str | None = None,
         cls: str = "") -> str:
    """One row: ``head`` (its ``title`` the glossary entry ``key``), ``note`` under it."""
    note = f'<br><small style="color:#666">{note}</small>' if note else ""
    head = f"<span{tip(key)}>{head}</span>" if key else head
    cls = f' class="{cls}"' if cls else ""
    return (f'<tr{cls}><th style="text-align:left;vertical-align:top;padding-right:1em">'
            f'{head}{note}</th><td style="text-align:left">{body}</td></tr>')


def _items(rows: list[str]) -> str:
    return ('<ul style="margin:0;padding-left:1.2em">'
            + "".join(f"<li>{r}</li>" for r in rows) + "</ul>")


def _fold(summary: str, body: str) -> str:
    """``body`` behind a fold that shows ``summary``."""
    return f"<details><summary>{summary}</summary><div>{body}</div></details>"


def _names(features, fold_at: int = LONG) -> str:
    """Write a list of features; a long one is folded behind its number."""
    names = [str(f) for f in features]
    if len(names) <= fold_at:
        return _e(listing(names))
    return _fold(f"{len(names):,} findings", _e(", ".join(names)))


def _probability(r) -> str:
    if r.posterior is None:
        return "not known (the model holds no probabilities)"
    if r.multiclass:  # the decided state's probability, then the runner-up's (and rival's)
        from .._util.wording import decided_class
        said = decided_class(r.class_var, r.decision, r.class_probabilities, rival=r.rival)
        return (f'<span{tip("posterior")}>probability '
                f"{_e(said[said.index('(') + 1:-2])}</span>; the most probable state decides")
    text = (f'<span{tip("posterior")}>probability of {_term(r.class_var, r.positive_state)}'
            f" {decimal(r.posterior)}</span>")
    exact = r.posterior_exact
    if exact is not None and len(str(exact)) <= 60:
        text += f' <small style="color:#666">(exactly {_e(exact)})</small>'
    rule = ("the most probable state decides" if r.rule == "argmax"
            else f"threshold {decimal(r.threshold)}")
    return f"{text}; {rule}"


def _proof_note(r) -> str:
    """Say what the reasons shown were proven to be (from :attr:`~bnx.Report.reasons_proven`)."""
    if r.reasons_proven == "sufficient":
        return "proven enough; not proven, in the time given, that none can be left out"
    if r.reasons_proven == "minimal":
        return "proven that none can be left out; not proven the fewest"
    shown = len(r.reasons)
    if r.reason_count is None:
        if r.method != "search":
            return "one of the fewest (not counted)"
        return (f"at least {number(shown)} of the fewest (not all counted)"
                if shown >= MAX_SHOWN else
                "the only one of the fewest findings" if shown == 1 else
                f"all {number(shown)} of the fewest findings")
    if r.reason_count == 1:
        return "the only one"
    lengths = r.reason_lengths or {}
    by = ("; by number of findings: " + ", ".join(f"{k}: {v:,}" for k, v in lengths.items())
          if len(lengths) > 1 else "")
    return (f"all {number(shown)}" if shown == r.reason_count else
            f"{shown} of {r.reason_count:,} in all") + by


def _reason(r, e) -> str:
    """One reason: its terms, or for a long one its count, the few that matter most, a fold."""
    if not e:
        return "(nothing: the decision is the same for every instance)"
    if len(e) <= LONG:
        return ", ".join(_term(f, s) for f, s in e.items())
    top = matters_most(r, e)
    rest = [f for f in e if f not in top]
    head = f"these {len(e):,} findings"
    if top:
        head += ("; the ones whose change matters most: "
                 + ", ".join(_term(f, e[f]) for f in top))
    return head + _fold(f"the other {len(rest):,}" if top else "show them",
                        ", ".join(_term(f, e[f]) for f in rest))


def _complete_rows(r) -> list[str]:
    rows = []
    rival = r.rival is not None
    if r.constant:
        return [_row("Why", f"the classifier decides {_term(r.class_var, r.decision)} "
                     f"whatever the findings say", "its decision is the same for every "
                     "instance", "constant")]
    if r.reasons:
        key = reason_key(r)
        shown = [_reason(r, e) for e in r.reasons]
        label = GLOSSARY[key].label
        rows.append(_row(f"Why not {_e(r.rival)}" if rival else "Why",
                         _items(shown) + f'<small style="color:#666">{_e(_proof_note(r))}'
                         f'</small>',
                         f"{_e(label)}: enough to rule out {_e(r.class_var)} = "
                         f"{_e(r.rival)}, whatever the other features say" if rival else
                         f"{_e(label)}, whatever the other features say", key))
    if r.general_words:
        shown = [", ".join(_e(w) for w in words) for words in r.general_words]
        note = (f"{len(shown)} of {r.general_count:,} in all"
                if r.general_count is not None else "")
        rows.append(_row("More generally", _items(shown)
                         + f'<small style="color:#666">{_e(note)}</small>',
                         f"ranges of states that rule out {_e(r.rival)}" if rival else
                         _e(GLOSSARY["general_reason"].label), "general_reason"))
    if r.robustness is None and r.robustness_at_least is not None:
        k = r.robustness_at_least
        body = ("not searched in time" if k <= 1 else
                f"at least {number(k)} changes: none found in time (changes of up to "
                f"{number(k - 1)} feature{'s' * (k != 2)} searched)")
        need = "" if k <= 1 else f"at least {number(k)} findings"
    elif r.robustness == math.inf:
        body = (f"nothing: no change of the features makes it {_e(r.rival)}" if rival else
                "nothing: no change of the features gives another decision")
        need = "no number of findings"
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
        k = r.robustness
        body = ("one change is enough" if k == 1 else f"{number(k)} changes are needed"
                ) + _items(changes) + count
        need = f"{number(k)} finding{'s' * (k != 1)}"
    closest = (f"decided {_e(r.rival)}" if rival else "another decision")
    rows.append(_row(f"What would make it {_e(r.rival)}" if rival else "What would change it",
                     body, f"the fewest changes that give {closest}"
                     + (f": {_e(need)}" if need else ""), "counterfactual"))
    if r.necessary:
        rows.append(_row("Necessary", _names(r.necessary),
                         "in every set of findings that settles it", "necessary"))
    if r.irrelevant:
        one = len(r.irrelevant) == 1
        note = (f"with the other features as they are, no state of "
                f"{'it' if one else 'one of them'} makes it {r.rival}"
                if r.rival is not None else
                "with the other features as they are, no state of "
                + ("it" if one else "one of them") + " changes this decision")
        if r.attributions is not None and any(r.attributions.get(f, 0.0)
                                              for f in r.irrelevant):
            note += (". " + ("Its attribution below measures" if one else
                             "Their attributions below measure")
                     + " something else: what a feature contributes on average over the "
                     "background instances, where other features differ from this "
                     "instance's")
        rows.append(_row("Does not matter", _names(r.irrelevant), _e(note), "irrelevant"))
    return rows


def _partial_rows(r) -> list[str]:
    missing = [f for f in r.features if f not in r.instance]
    observed = [_term(f, s) for f, s in r.instance.items()]
    rows = [_row("Observed", (", ".join(observed) if len(observed) <= LONG else
                              _fold(f"{len(observed):,} findings", ", ".join(observed)))
                 or "nothing"),
            _row("Not known yet", _names(missing))]
    if r.constant:
        rows.append(_row("How sure", "certain", f"the classifier decides "
                         f"{_term(r.class_var, r.decision)} whatever the findings say",
                         "constant"))
        return rows
    if r.sdp is not None:
        rows.append(_row("How sure", f"{decimal(r.sdp)}",
                         "the probability that the decision stays once everything is "
                         "known", "sdp"))
    elif r.sdp_bounds is not None:
        lo, hi = r.sdp_bounds
        rows.append(_row("How sure", f"between {decimal(lo)} and {decimal(hi)}",
                         "a proven range for the probability that the decision stays "
                         "once everything is known (the exact value was not reached in "
                         "time)", "sdp"))
    if r.next:
        def flip(n) -> str:
            return ("cannot change it" if n.flip_probability == 0
                    else decimal(n.flip_probability))
        body = (f'<table class="next-observations"><tr><th>finding</th>'
                f'<th{tip("flip_probability")}>chance it changes the decision</th>'
                f'<th{tip("expected_sdp")}>how sure on average, once it is known</th></tr>'
                + "".join(f"<tr><td>{_e(n.feature)}</td><td>{flip(n)}</td>"
                          f"<td>{sure_on_average(n)}</td></tr>" for n in r.next)
                + "</table>")
        meaning = f"How sure on average: {GLOSSARY['expected_sdp'].definition}."
        if any(n.expected_sdp is None for n in r.next):
            meaning += " A range is a proven interval (the exact value was not reached in time)."
        rows.append(_row("What to find out next",
                         body + f'<small style="color:#666">{_e(meaning)}</small>',
                         "best first: the likeliest to change the decision first",
                         "flip_probability"))
    return rows


def _how(how: str) -> str:
    """Say how a part was obtained: a compiled diagram, or a search, in plain words."""
    key = how_key(how)
    if key is None:
        return _e(how)
    return f'<span{tip(key)}>{_e(GLOSSARY[key].label)}</span>'


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
    world = world_text(r)
    if world is not None:
        rows.insert(0, _row("Instances", _e(world), "which instances the answers range over"))
    m = r.margin
    if m is not None:
        rows.insert(0, _row("Close call", _e(m["text"].removeprefix("Close call: ")), "",
                            "margin", "margin"))
    if r.methods:
        hows = list(r.methods.values())
        rows.append(_row("How", _how(hows[0]) if len(set(hows)) == 1 else
                         "; ".join(f"{_e(PARTS.get(part, part))}: {_how(how)}"
                                   for part, how in r.methods.items()),
                         "how each part was obtained"))
    chart = attribution_svg(r)
    if chart:
        chart = (f'<p style="margin:0.4em 0 0.1em"><b{tip("shap")}>Attributions</b> '
                 f'<small>(from an average decision of {decimal(r.base_value)}: how much '
                 f'each feature moves the decision on average over the background '
                 f'instances; a feature that does not matter to this decision can still '
                 f'move it there)</small></p>{chart}')
    return (f'<div class="bnx-report">{head}<table style="border-collapse:collapse">'
            + "".join(rows) + f"</table>{chart}</div>")
