"""The explorer's HTML: the page, and the answer part that changes as states are set.

Everything a request or the model names is escaped (:func:`html.escape`); the answer on a
complete instance is the report's own HTML (the template of ``Report._repr_html_``).
"""

from __future__ import annotations

from html import escape

from ..report import term_title
from .explorer import Explorer

__all__ = ["error_html", "fragment", "page", "FIND_FROM"]

#: The page offers a search box over the features when there are more than this many.
FIND_FROM = 12


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
            rule = (f"when the probability of {clf.class_var} = {clf.positive}, given what "
                    f"is known, is at least {float(clf.threshold):g}")
        decides = f"<p>Decides <b>{_e(clf.positive)}</b> {_e(rule)}, else <b>{_e(negative)}</b>."
    entered, rest = [], []
    for i, (feature, states) in enumerate(model["features"].items()):
        chosen = instance.get(explorer.features[i])
        options = ['<option value="">unknown</option>'] + [
            f'<option value="{_e(s)}"'
            f'{" selected" if chosen is not None and str(s) == str(chosen) else ""}>'
            f'{_e(s)}</option>' for s in states]
        (entered if chosen is not None else rest).append(
            f'<div class="feature{" set" if chosen is not None else ""}" data-index="{i}">'
            f'<label for="f{i}">{_e(feature)}</label>'
            f'<select id="f{i}" name="{_e(feature)}" data-feature="{_e(feature)}">'
            f'{"".join(options)}</select></div>')
    find = ('<input type="search" id="find" placeholder="Find a feature by name" '
            'aria-label="find a feature by name" autocomplete="off">'
            if len(explorer.features) > FIND_FROM else "")
    controls = (f'{find}<div class="groups"><div class="group" id="entered"><h3>Entered '
                f'(<span class="count">{len(entered)}</span>)</h3>{"".join(entered)}</div>'
                f'<div class="group" id="not-entered"><h3>Not entered (<span class="count">'
                f'{len(rest)}</span>)</h3><div class="list">{"".join(rest)}</div></div></div>')
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
<fieldset id="features"><legend>Features ({len(explorer.features)})</legend>
{controls}
</fieldset>
{rivals}<fieldset><legend{term_title("shap")}>Attributions against</legend>
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
    """Write the decision in the class's words, large, with its probability.

    A multi-class decision's probability is its own state's; a close call says so under
    it (the report's ``margin``), a classifier that decides the same whatever the
    findings say says that instead.
    """
    posterior = data.get("posterior")
    shown = ("not defined (these findings have probability 0)" if posterior is None
             else f"{posterior:.4g}")
    given = "these findings" if data["complete"] else "what is known"
    kind = ("decided" if data.get("multiclass") else
            "positive" if data["positive"] else "negative")
    of = data["decision"] if data.get("multiclass") else data["positive_state"]
    if data.get("constant"):
        detail = (f'<div class="detail constant"{term_title("constant")}>decides '
                  f'{_e(data["class_var"])} = {_e(data["decision"])} whatever the findings '
                  f'say</div>')
    else:
        detail = (f'<div class="detail"{term_title("posterior")}>probability of '
                  f'{_e(data["class_var"])} = {_e(of)}, given {given}: <span id="posterior">'
                  f'{_e(shown)}</span></div>')
    margin = data.get("margin")
    close = ("" if not margin else
             f'<div class="margin" id="margin"{term_title("margin")}>{_e(margin["text"])}'
             f'</div>')
    return (f'<div class="decision {kind}">'
            f'<div class="verdict">Decision: <span id="decision">{_e(data["decision"])}'
            f'</span></div>{detail}{close}{_classes(data, given)}</div>')


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
    return (f'<table class="classes" id="class-probabilities"><caption'
            f'{term_title("posterior")}>How likely each {_e(data["class_var"])} is, given '
            f'{given}</caption>{rows}</table>')


def fragment(explorer: Explorer, answer) -> str:
    """Write the answer part of the page: the decision, then the report.

    The report as ``Report._repr_html_`` shows it (for a partial instance: how sure the
    decision is and what to observe next).
    """
    return _decision(answer.data) + answer.report_html()
