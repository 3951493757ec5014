"""How the documentation site shows what bnx prints and draws: the report's text (88
columns) wraps within the page instead of scrolling sideways at 1280 px, and every picture
a page shows is in the repository."""

from __future__ import annotations

import ast
import re

from tests.conftest import ROOT

DOCS = ROOT / "docs"


def _conf_value(name: str):
    tree = ast.parse((DOCS / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return ast.literal_eval(node.value)
    return None


def _rules(css: str) -> dict[str, str]:
    """``{selector: declarations}`` of a flat stylesheet (comments dropped; a selector's
    rules joined in order)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        for selector in selectors.split(","):
            key = " ".join(selector.split())
            out[key] = out.get(key, "") + body
    return out


def test_the_report_text_wraps_within_the_page():
    """```text blocks (the printed reports) and the notebooks' printed outputs wrap."""
    static = _conf_value("html_static_path")
    files = _conf_value("html_css_files") or []
    rules = {}
    for name in files:
        for folder in static:
            path = DOCS / folder / name
            if path.exists():
                rules.update(_rules(path.read_text(encoding="utf-8")))
    for selector in ("div.highlight-text pre", "div.cell_output .output.stream pre"):
        assert selector in rules, f"no rule for {selector} in {files}"
        assert re.search(r"white-space:\s*pre-wrap", rules[selector]), rules[selector]


def test_every_picture_a_page_shows_is_there():
    shown = []
    for page in sorted(DOCS.glob("*.md")):
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            shown.append(target)
            assert (DOCS / target).is_file(), f"{page.name} shows {target}, which is missing"
    assert "_static/report_plot.png" in shown and "_static/plot_network_hepar2.png" in shown
