"""The one glossary of the reports and the explorer: each paper term, its plain label, a definition.

A person reads the label ("enough to settle the decision"); the technical term and its
one-line definition go in a tooltip (the ``title`` of the HTML report and the page) and in
the JSON (``Report.to_dict()["glossary"]``). Every surface takes its words from
:data:`GLOSSARY`, so that they say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

__all__ = ["GLOSSARY", "Term", "term_title", "glossary_dict"]


@dataclass(frozen=True)
class Term:
    """One entry of the glossary.

    Attributes
    ----------
    term : str
        The technical term (the paper's or the field's).
    label : str
        What a person reads in its place.
    definition : str
        One line saying what it means.
    """

    term: str
    label: str
    definition: str


#: key -> :class:`Term`, for every technical notion a report or the explorer shows.
GLOSSARY = {
    "shortest_reason": Term(
        "shortest PI-explanation",
        "the fewest findings that settle the decision",
        "a prime-implicant explanation of the least size: a part of the instance that "
        "keeps the decision whatever the other features say, with no fewer features"),
    "minimal_reason": Term(
        "PI-explanation (subset-minimal sufficient reason)",
        "findings that settle the decision; none can be left out",
        "a part of the instance that keeps the decision whatever the other features say, "
        "from which no feature can be dropped; not proven to have the fewest features"),
    "sufficient_reason": Term(
        "sufficient reason",
        "findings that settle the decision",
        "a part of the instance that keeps the decision whatever the other features say; "
        "not proven that none of them can be left out"),
    "general_reason": Term(
        "general reason",
        "ranges of states that keep the decision",
        "a set of states per feature (a range of an ordered feature) such that every "
        "instance within them gets the same decision"),
    "counterfactual": Term(
        "closest counterfactual",
        "the fewest changes that give another decision",
        "an instance with another decision that differs from this one in as few features "
        "as possible"),
    "robustness": Term(
        "robustness",
        "how many findings must change",
        "the least number of features whose change gives another decision"),
    "necessary": Term(
        "necessary feature",
        "needed in every reason",
        "a feature that belongs to every part of the instance that settles the decision"),
    "irrelevant": Term(
        "irrelevant feature",
        "does not matter",
        "a feature in no part of the instance that settles the decision: with the others "
        "as they are, none of its states changes the decision"),
    "sdp": Term(
        "same-decision probability",
        "how sure",
        "the probability that the decision made now stays the same once every missing "
        "feature is known"),
    "expected_sdp": Term(
        "expected same-decision probability",
        "how sure on average, once it is known",
        "how likely the decision made once the feature is known is to stay once every "
        "feature is known, averaged over what the feature may show; it can be lower than "
        "how sure the decision is now, when the feature may lead to a closer decision"),
    "flip_probability": Term(
        "flip probability",
        "chance it changes the decision",
        "the probability that, once the feature is observed, another class is decided"),
    "posterior": Term(
        "posterior probability",
        "probability given the findings",
        "Pr(class = state | the findings entered), computed exactly from the network"),
    "margin": Term(
        "decision margin",
        "close call",
        "the decided class leads the next one (or the threshold) by little: a small "
        "change in the findings may change the decision"),
    "constant": Term(
        "constant decision function",
        "decides the same whatever the findings say",
        "the classifier's decision function takes one value: every instance gets the same "
        "decision"),
    "shap": Term(
        "SHAP value",
        "attribution",
        "the exact Shapley value of a feature for the decision: how much it moves the "
        "decision on average over the background instances"),
    "compiled": Term(
        "compiled decision diagram (ODD)",
        "worked out for every possible instance",
        "the classifier's decision on every instance, compiled in advance into an ordered "
        "decision diagram; each answer is then exact"),
    "search": Term(
        "search over the network",
        "worked out for this case alone",
        "the network asked about this instance only, without compiling its decisions "
        "for every instance; what is proven in the time given is said"),
}


def term_title(key: str) -> str:
    """Write the ``title`` attribute of an HTML element for a glossary term (escaped).

    The HTML report and the explorer page put it on each plain label, so that hovering
    shows the technical term and its definition.

    Parameters
    ----------
    key : str
        A key of :data:`GLOSSARY`.

    Returns
    -------
    str
        ``' title="term: definition"'``, ready to go inside a start tag.

    See Also
    --------
    bnx.report.GLOSSARY : Every term, its plain label and its definition.

    Examples
    --------
    >>> from bnx.report import term_title
    >>> term_title("robustness")
    ' title="robustness: the least number of features whose change gives another decision"'
    """
    t = GLOSSARY[key]
    return f' title="{escape(t.term + ": " + t.definition, quote=True)}"'


def glossary_dict() -> dict:
    """Write the glossary as JSON data: ``{key: {"term", "label", "definition"}}``.

    Examples
    --------
    >>> from bnx.report._glossary import glossary_dict
    >>> glossary_dict()["sdp"]["label"]
    'how sure'
    """
    return {k: {"term": t.term, "label": t.label, "definition": t.definition}
            for k, t in GLOSSARY.items()}
