"""The explorer's HTML: the page, and the answer part that changes as states are set.

Everything a request or the model names is escaped (:func:`html.escape`); the answer on a
complete instance is the report's own HTML (the template of ``Report._repr_html_``).
"""

from __future__ import annotations

from html import escape

from .explorer import Explorer

__all__ = ["page", "fragment", "error_html"]


def _e(value) -> str:
    return escape(str(value), quote=True)


def _percent(p) -> str:
    return "–" if p is None else f"{float(p):.1%}" if 0.001 <= float(p) <= 0.999 else f"{float(p):.3g}"


def page(explorer: Explorer, instance: dict, background: str, inner: str) -> str:
    """The whole page: the controls (set from ``instance``), and ``inner`` as the answer."""
    model = explorer.model()
    clf = explorer.classifier
    others = [s for s in clf.class_states if s != clf.positive]
    negative = others[0] if len(others) == 1 else f"not {clf.positive}"
    if clf.rule == "argmax":
        rule = f"when {clf.positive} is the most probable {clf.class_var}"
    else:
        rule = (f"when Pr({clf.class_var} = {clf.positive} | what is known) ≥ "
                f"{float(clf.threshold):g}")
    controls = []
    for i, (feature, states) in enumerate(model["features"].items()):
        chosen = instance.get(explorer.features[i])
        options = ['<option value="">unknown</option>'] + [
            f'<option value="{_e(s)}"{" selected" if chosen is not None and str(s) == str(chosen) else ""}>'
            f'{_e(s)}</option>' for s in states]
        controls.append(
            f'<div class="feature{" set" if chosen is not None else ""}">'
            f'<label for="f{i}">{_e(feature)}</label>'
            f'<select id="f{i}" name="{_e(feature)}" data-feature="{_e(feature)}">'
            f'{"".join(options)}</select></div>')
    backgrounds = "".join(
        f'<option value="{_e(name)}"{" selected" if name == background else ""}>{_e(label)}'
        f'</option>' for name, label in explorer.backgrounds().items())
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bnx explorer: {_e(clf.class_var)}</title>
<link rel="stylesheet" href="static/explorer.css">
<script src="static/explorer.js" defer></script>
</head>
<body>
<header>
<h1>Explorer: {_e(clf.class_var)}</h1>
<p>Decides <b>{_e(clf.positive)}</b> {_e(rule)}, else <b>{_e(negative)}</b>.
Set the states you know; the others stay unknown.</p>
</header>
<main>
<form id="instance" method="get" action="">
<fieldset><legend>Features ({len(explorer.features)})</legend>
{"".join(controls)}
</fieldset>
<fieldset><legend>Attributions against</legend>
<select id="background" name="background" aria-label="background">{backgrounds}</select>
</fieldset>
<div class="buttons">
<button type="submit" id="show">Show</button>
<button type="button" id="clear">All unknown</button>
<button type="button" id="download">Download the report (JSON)</button>
</div>
</form>
<section id="result" aria-live="polite">
{inner}
</section>
</main>
</body>
</html>
"""


def error_html(message: str) -> str:
    """An error, as the answer part shows it."""
    return f'<p class="error" role="alert">{_e(message)}</p>'


def _decision(data: dict, clf) -> str:
    positive = bool(data["positive"])
    posterior = data.get("posterior")
    shown = "undefined (the evidence has probability 0)" if posterior is None else \
        f"{posterior:.4g}"
    return (f'<div class="decision {"positive" if positive else "negative"}">'
            f'<div class="verdict" id="decision">{_e(data["decision"])}</div>'
            f'<div class="detail">Pr({_e(clf.class_var)} = {_e(clf.positive)} | '
            f'{"this instance" if data["complete"] else "what is known"}) = '
            f'<span id="posterior">{_e(shown)}</span></div></div>')


_BEST = ' class="best"'


def _partial(data: dict) -> str:
    """The same-decision probability and the ranking of what to observe next."""
    unknown = data["unknown"]
    parts = [f'<h2>How sure is this decision?</h2><p id="sdp">With {len(unknown)} feature'
             f'{"s" if len(unknown) != 1 else ""} unknown, the decision stays '
             f'<b>{_e(data["decision"])}</b> with probability <b>{_percent(data["sdp"])}</b> '
             f'once they are known (the same-decision probability).</p>']
    rows = data["next"]
    if rows:
        body = "".join(
            f'<tr{_BEST if k == 0 else ""}><td>{_e(r["feature"])}</td>'
            f'<td class="num">{_percent(r["expected_sdp"])}</td>'
            f'<td class="num">{_percent(r["flip_probability"])} '
            f'<span class="bar" style="width:{60 * float(r["flip_probability"]):.0f}px"></span>'
            f'</td></tr>' for k, r in enumerate(rows))
        parts.append(
            '<h2>What to observe next</h2><table class="next" id="next"><thead><tr>'
            '<th>feature</th><th class="num">same-decision probability after it</th>'
            '<th class="num">chance it changes the decision</th></tr></thead>'
            f'<tbody>{body}</tbody></table>')
    return "".join(parts)


def fragment(explorer: Explorer, answer) -> str:
    """The answer part of the page: the decision, then the report (complete instance) or
    the same-decision probability and what to observe next (partial instance)."""
    data = answer.data
    head = _decision(data, explorer.classifier)
    if data["complete"]:
        return head + answer.report_html()
    return head + _partial(data)
