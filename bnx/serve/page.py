"""The explorer's HTML: the page, and the answer part that changes as states are set.

Everything a request or the model names is escaped (:func:`html.escape`); the answer on a
complete instance is the report's own HTML (the template of ``Report._repr_html_``).
"""

from __future__ import annotations

from html import escape

from .explorer import Explorer

__all__ = ["error_html", "fragment", "page"]


def _e(value) -> str:
    return escape(str(value), quote=True)


def page(explorer: Explorer, instance: dict, background: str, inner: str,
         rival=None) -> str:
    """Write the whole page: the controls and ``inner`` as the answer.

    The controls are set from ``instance`` and ``rival``.
    """
    model = explorer.model()
    clf = explorer.classifier
    others = [s for s in clf.class_states if s != clf.positive]
    negative = others[0] if len(others) == 1 else f"not {clf.positive}"
    if clf.multiclass:
        decides = (f"<p>Decides the most probable <b>{_e(clf.class_var)}</b> of "
                   f"{_e(', '.join(map(str, clf.classes)))} (the first one on a tie).")
    else:
        if clf.rule == "argmax":
            rule = f"when {clf.positive} is the most probable {clf.class_var}"
        else:
            rule = (f"when Pr({clf.class_var} = {clf.positive} | what is known) ≥ "
                    f"{float(clf.threshold):g}")
        decides = f"<p>Decides <b>{_e(clf.positive)}</b> {_e(rule)}, else <b>{_e(negative)}</b>."
    controls = []
    for i, (feature, states) in enumerate(model["features"].items()):
        chosen = instance.get(explorer.features[i])
        options = ['<option value="">unknown</option>'] + [
            f'<option value="{_e(s)}"'
            f'{" selected" if chosen is not None and str(s) == str(chosen) else ""}>'
            f'{_e(s)}</option>' for s in states]
        controls.append(
            f'<div class="feature{" set" if chosen is not None else ""}">'
            f'<label for="f{i}">{_e(feature)}</label>'
            f'<select id="f{i}" name="{_e(feature)}" data-feature="{_e(feature)}">'
            f'{"".join(options)}</select></div>')
    rivals = ""
    if clf.multiclass:  # "why the decided class and not this one?"
        options = ['<option value="">none: why the decided class</option>'] + [
            f'<option value="{_e(s)}"'
            f'{" selected" if rival is not None and str(s) == str(rival) else ""}>'
            f'{_e(s)}</option>' for s in clf.classes]
        rivals = (f'<fieldset><legend>Why not</legend><select id="rival" name="rival" '
                  f'aria-label="rival class">{"".join(options)}</select>'
                  f'<p class="note">a class to compare the decision with: what rules it '
                  f'out, and what would make it</p></fieldset>\n')
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
{decides}
Set the states you know; the others stay unknown.</p>
</header>
<main>
<form id="instance" method="get" action="">
<fieldset><legend>Features ({len(explorer.features)})</legend>
{"".join(controls)}
</fieldset>
{rivals}<fieldset><legend>Attributions against</legend>
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
    """Write an error, as the answer part shows it."""
    return f'<p class="error" role="alert">{_e(message)}</p>'


def _decision(data: dict) -> str:
    """Write the decision in the class's words, large, with its posterior.

    A multi-class decision's posterior is its own state's.
    """
    posterior = data.get("posterior")
    shown = ("not defined (this evidence has probability 0)" if posterior is None
             else f"{posterior:.4g}")
    given = "this instance" if data["complete"] else "what is known"
    kind = ("decided" if data.get("multiclass") else
            "positive" if data["positive"] else "negative")
    of = data["decision"] if data.get("multiclass") else data["positive_state"]
    return (f'<div class="decision {kind}">'
            f'<div class="verdict">Decision: <span id="decision">{_e(data["decision"])}'
            f'</span></div><div class="detail">Pr({_e(data["class_var"])} = '
            f'{_e(of)} | {given}) = <span id="posterior">{_e(shown)}'
            f'</span></div>{_classes(data, given)}</div>')


def _classes(data: dict, given: str) -> str:
    """Draw every class state's probability given the instance, as bars.

    The report's ``class_probabilities``: the classifier's exact class joint, normalised.
    """
    probs = data.get("class_probabilities")
    if not probs:
        return ""

    def rival(s) -> str:  # the class the decision is compared with (rival=)
        return " class=rival" if data.get("rival") is not None and str(s) == str(
            data["rival"]) else ""
    rows = "".join(
        f'<tr{" class=decided" if str(s) == str(data["decision"]) else rival(s)}>'
        f'<th scope="row">{_e(s)}</th><td class="num">{p:.3f}</td>'
        f'<td><span class="bar" style="width:{max(p * 100, 0.5):.1f}%"></span></td></tr>'
        for s, p in probs.items() if p is not None)
    return (f'<table class="classes" id="class-probabilities"><caption>Pr('
            f'{_e(data["class_var"])} = &hellip; | {given})</caption>{rows}</table>')


def fragment(explorer: Explorer, answer) -> str:
    """Write the answer part of the page: the decision, then the report.

    The report as ``Report._repr_html_`` shows it (for a partial instance: how sure the
    decision is and what to observe next).
    """
    return _decision(answer.data) + answer.report_html()
