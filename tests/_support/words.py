"""The words people read: the paper's vocabulary a page must not show, the visible text of
HTML, and a classifier that decides the same whatever the findings say."""

from __future__ import annotations

import re

import bnx

# ------------------------------------------------------------------ the words people read
#: The paper's and the field's vocabulary, which the visible text of the explorer page and
#: of the text and HTML reports must not hold: each has a plain label there, the term
#: itself only in a tooltip (a ``title``), the JSON and the docs (bnx.report.GLOSSARY).
#: Matched case-insensitively; the short acronyms as whole words in capitals.
PAPER_TERMS = ("PI-explanation", "MC-explanation", "prime implicant", "general reason",
               "robustness", "compiled diagram", "decision diagram", "same-decision",
               "counterfactual", "posterior", "sufficient reason", "flip probability",
               "irrelevant", "| this instance", "| what is known", "SHAP value")
ACRONYMS = ("ODD", "OBDD", "SDP", "PI", "MC")


def paper_terms_in(text: str) -> list:
    """The terms of :data:`PAPER_TERMS` and :data:`ACRONYMS` that ``text`` holds."""
    low = text.lower()
    found = [t for t in PAPER_TERMS if t.lower() in low]
    return found + [a for a in ACRONYMS if re.search(rf"\b{a}\b", text)]


def visible_text(html: str) -> str:
    """The text of an HTML page or fragment a reader sees: no tag, attribute (``title``),
    script, style, head or SVG ``<title>``."""
    from html.parser import HTMLParser

    class Visible(HTMLParser):
        hidden = ("script", "style", "title", "head")

        def __init__(self):
            super().__init__()
            self.depth, self.out = 0, []

        def handle_starttag(self, tag, attrs):
            self.depth += tag in self.hidden

        def handle_endtag(self, tag):
            self.depth -= tag in self.hidden

        def handle_data(self, data):
            if not self.depth:
                self.out.append(data)

    parser = Visible()
    parser.feed(html)
    return " ".join(parser.out)


def constant_classifier():
    """C (yes 0.99) with two weak features: every instance is decided yes."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    names = {"C": ["yes", "no"], "A": ["a0", "a1"], "B": ["b0", "b1", "b2"]}
    net = DiscreteBayesianNetwork([("C", "A"), ("C", "B")])
    net.add_cpds(TabularCPD("C", 2, [[0.99], [0.01]], state_names=names),
                 TabularCPD("A", 2, [[0.6, 0.5], [0.4, 0.5]], evidence=["C"],
                            evidence_card=[2], state_names=names),
                 TabularCPD("B", 3, [[0.3, 0.4], [0.3, 0.3], [0.4, 0.3]], evidence=["C"],
                            evidence_card=[2], state_names=names))
    return bnx.Classifier(net, "C", "yes")
