"""How an :class:`~bnx.Explanations` set prints: lines of ``feature = state`` terms.

A header names the decision by its class state and says what the set holds, then the
first few members, shortest first (:func:`~.ordered.shortest_first`), each on one line,
then "… and N more". The wide matrix, one column per feature and ``*`` where a feature
is dropped, is :meth:`~bnx.Explanations.to_frame`.
"""

from __future__ import annotations

import html
from collections.abc import Iterator

from .._util.wording import SHOWN, changes, listing, plural, terms

__all__ = ["title", "header", "lines", "text", "to_html"]

#: Per kind: (what one member is called, its plural, the preposition before the decision,
#: the paper's name, what the members are, in words).
_KINDS = {
    "PI": ("sufficient reason", None, "for", "PI-explanations", ""),
    "prime implicants": ("prime implicant", None, "of", None,
                         "the minimal conditions that settle it"),
    "contrastive explanation": ("contrastive explanation", None, "of", None,
                                "minimal sets of features whose change can give {other}"),
    "counterfactual": ("closest counterfactual", None, "of", None,
                       "the fewest changes that give {other}"),
    "MC": ("MC-explanation", None, "of", None,
           "the fewest {counted} states that keep it"),
    "instances": ("instance", None, "decided", None, ""),
}


def _decisions(e) -> tuple[str, str]:
    """Name (the decision explained, the other one) in the class's words."""
    words = e.wording
    if e.kind == "instances":
        decision = True
    else:
        decision = e.decision
    if decision is None:
        return "the decision", "the other decision"
    if words is None:
        words = ("a positive decision", "a negative decision")
    return (words[0], words[1]) if decision else (words[1], words[0])


def _parts(e) -> tuple[str, str, str, str]:
    """(count and name, preposition, the decision, the gloss) of the header."""
    name, many, prep, paper, gloss = _KINDS.get(e.kind, (e.kind, None, "of", None, ""))
    this, other = _decisions(e)
    counted = "off" if e.decision is False else "on"
    gloss = gloss.format(other=other, counted=counted)
    if paper:
        gloss = f"{paper}{'; ' + gloss if gloss else ''}"
    return plural(e.count, name, many), prep, this, gloss


def title(e) -> str:
    """One line: how many, of which decision, what they are, and their lengths."""
    what, prep, this, gloss = _parts(e)
    lens = e.lengths() if e.kind != "instances" else {}
    extra = "length " + ", ".join(f"{k}: {v:,}" for k, v in lens.items()) if lens else ""
    inside = "; ".join(p for p in (gloss, extra) if p)
    return f"{what} {prep} {this}" + (f" ({inside})" if inside else "")


def header(e) -> str:
    """Write the first printed line: how many, of which decision, what they are."""
    what, prep, this, gloss = _parts(e)
    n = e.count
    if n == 0:
        name = _KINDS.get(e.kind, (e.kind,))[0]
        return f"No {name} {prep} {this}" + (f" ({gloss})" if gloss else "")
    s = f"{what} {prep} {this}" + (f" ({gloss})" if gloss else "")
    if n > 1 and e.kind not in ("instances", "counterfactual"):
        s += ", shortest first"
    return s + ":"


def _counted(e) -> list[frozenset] | None:
    """For MC-explanations, per feature the state names an explanation's length counts."""
    if e.kind != "MC":
        return None
    enc = e.layout.encoding
    return [frozenset(enc.states[i][j] for j in w) for i, w in enumerate(e.layout.weights)]


def _line(e, member: dict, counted, index: dict) -> str:
    if e.kind == "counterfactual":
        if getattr(e, "multiclass", False):  # each member says the class it gives
            return changes(member, e.instance, e.leads_to(member))
        return terms(member, was=e.instance)
    if counted is not None:  # MC: the counted states, and any other state a feature moved to
        enc, x = e.layout.encoding, e.instance or {}
        shown = {f: s for f, s in member.items()
                 if s in counted[index[f]]
                 or (len(enc.states[index[f]]) > 2 and x.get(f, s) != s)}
        if not shown:
            return f"(no {'off' if e.decision is False else 'on'} state needed)"
        return terms(shown)
    return terms(member)


def lines(e, limit: int | None = SHOWN) -> Iterator[str]:
    """Write the members as lines of ``feature = state`` terms, shortest first.

    At most ``limit``; ``None``: all.
    """
    counted = _counted(e)
    index = {f: i for i, f in enumerate(e.layout.encoding.features)}
    for k, member in enumerate(e.shortest_first()):
        if limit is not None and k >= limit:
            return
        yield _line(e, member, counted, index)


def text(e, shown: int = SHOWN) -> str:
    """Write what ``print`` shows: the header, up to ``shown`` lines, "… and N more"."""
    out = listing(header(e), lines(e, shown), e.count, shown)
    on = e.on_text()
    return out if on is None else f"{out}\n{on}"


def to_html(e, shown: int = 20) -> str:
    """Write the same for Jupyter: the header, a list of the first members, "… and N more"."""
    items = "".join(f"<li>{html.escape(s)}</li>" for s in lines(e, shown))
    n = e.count
    more = f"<p>… and {n - shown:,} more (all of them: <code>.to_frame()</code>)</p>" \
        if n > shown else ""
    on = e.on_text()
    on = f"<p>{html.escape(on)}</p>" if on is not None else ""
    return f"<p><b>{html.escape(header(e))}</b></p><ul>{items}</ul>{more}{on}"
