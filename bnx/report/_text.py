"""The plain-language paragraphs of a :class:`~bnx.report.Report` (:meth:`~bnx.Report.text`).

Written for the person who acts on the decision: the decision first, in the class's
words; probabilities as decimals beside the threshold they were compared with; the
shortest sufficient reason said as a condition that settles it; the closest
counterfactual said as changes; paper terms left to the API and the headings.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import Any

from .._util.wording import decided, decided_class, probability
from ._glossary import GLOSSARY
from ._plain import LONG, MAX_SHOWN, PARTS, how_key, matters_most, world_text

__all__ = ["report_text", "decimal", "number", "listing", "sure_on_average", "constant_text",
           "WIDTH"]

#: Paragraphs are wrapped to this many columns (continuation lines indented by two).
WIDTH = 88

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


#: A probability as people read it (:func:`bnx._util.wording.probability`): three significant
#: digits, more when fewer would round a value that is not 1 to 1 (or not 0 to 0).
decimal = probability


def number(n: int) -> str:
    """Write a count in words up to ten, else in digits with thousands separators.

    Examples
    --------
    >>> number(2), number(12), number(1111)
    ('two', '12', '1,111')
    """
    return _WORDS[n] if 0 <= n < len(_WORDS) else f"{n:,}"


def listing(items: Sequence[str], last: str = "and") -> str:
    """Join names as ``a``, ``a and b``, ``a, b and c``.

    Examples
    --------
    >>> listing(["a", "b", "c"]), listing(["a", "b"], "or")
    ('a, b and c', 'a or b')
    """
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


#: Glues the words of one term (``feature = state``, ``f from a to b``) so that a line
#: never breaks inside it; a space again once the paragraph is wrapped.
_GLUE = "\x00"


def _term(f: Any, s: Any) -> str:
    return f"{f}{_GLUE}={_GLUE}{s}"


def _decided(r) -> str:
    if r.multiclass:
        return decided_class(r.class_var, r.decision, r.class_probabilities, rival=r.rival,
                             complete=r.complete, glue=_GLUE)
    return decided(r.class_var, r.decision, r.positive_state, r.posterior, rule=r.rule,
                   threshold=r.threshold, positive=r.positive, complete=r.complete,
                   class_probabilities=r.class_probabilities, glue=_GLUE)


def _why(r) -> str:
    decided = _term(r.class_var, r.decision)
    # "why a and not b": the reasons keep every completion from being decided b
    why, stays = ((f"Why {decided} and not {r.rival}", f"the decision is not {r.rival}")
                  if r.rival is not None else ("Why", f"the decision stays {decided}"))
    if not r.reasons or not r.reasons[0]:
        return (f"{why}: no instance is decided {r.rival}, whatever the features say."
                if r.rival is not None else constant_text(r))
    reason = r.reasons[0]
    k, others = len(reason), [f for f in r.features if f not in reason]
    terms = [_term(f, s) for f, s in reason.items()]
    if k > LONG:
        return _long_why(r, why, reason, others) + _proof(r, k)
    if not others:  # "it takes all of them" only where proven that none can be left out
        text = (f"{why}: it takes all of {listing(terms)} together to settle it; no feature "
                f"can be left out." if r.reasons_proven != "sufficient" else
                f"{why}: all of {listing(terms)} together settle it.")
    elif k <= 3:
        whatever = (listing([str(f) for f in others]) if len(others) <= 3
                    else f"the other {number(len(others))}")
        text = (f"{why}: {listing(terms)} {'is' if k == 1 else 'are'} enough: whatever "
                f"{whatever} {'says' if len(others) == 1 else 'say'}, {stays}.")
    else:
        text = (f"{why}: these {number(k)} features are enough, whatever the other "
                f"{number(len(others))} say: {listing(terms)}.")
    return text + _proof(r, k)


def _proof(r, k: int) -> str:
    """Say what the reasons were proven to be, and how many there are as far as known."""
    shown = len(r.reasons)
    if r.reasons_proven == "sufficient":
        return (" (This reason is proven sufficient; the search did not prove it minimal "
                "in the time given, so some of its features may not be needed.)")
    if r.reasons_proven == "minimal":
        return (" (Other reasons may exist; this one is proven sufficient and minimal: "
                "none of its features can be left out; it is not proven the shortest.)")
    if r.reason_count is None:  # the shortest ones, not counted
        if r.method != "search":  # bnx.linear: one shortest reason
            return " (Other reasons may exist; this is a shortest one.)"
        if shown == 1:
            return (" This is the only reason of the fewest features; longer ones may "
                    "exist.")
        if shown < MAX_SHOWN:
            return (f" ({number(shown).capitalize()} reasons have {number(k)} "
                    f"feature{'s' * (k != 1)}, the fewest; longer ones may exist.)")
        return (f" (At least {number(shown)} reasons have {number(k)} "
                f"feature{'s' * (k != 1)}, the fewest; not all were counted.)")
    if r.reason_count == 1:
        return " This is the only such reason."
    same = (r.reason_lengths or {}).get(k, 1)
    tail = ("this one is the shortest" if same == 1 else
            f"all have {number(k)} feature{'s' * (k != 1)}" if same == r.reason_count else
            f"{number(same)} of them have {number(k)} feature{'s' * (k != 1)}")
    return f" ({r.reason_count:,} such reasons in all; {tail}.)"


def _long_why(r, why: str, reason, others) -> str:
    """Summarise a long reason: how many findings, the few that matter most, then the rest."""
    k = len(reason)
    top = matters_most(r, reason)
    rest = [f for f in reason if f not in top]
    whatever = (f", whatever the other {number(len(others))} say" if others else
                "" if r.reasons_proven == "sufficient" else " (every feature is needed)")
    text = f"{why}: these {number(k)} findings are enough{whatever}"
    if top:
        text += (f"; the ones whose change matters most: "
                 f"{listing([_term(f, reason[f]) for f in top])}")
    return (text + (f"; the other {number(len(rest))}: " if top else ": ")
            + ", ".join(_term(f, reason[f]) for f in rest) + ".")


def constant_text(r) -> str:
    """Say that the classifier decides the same whatever the findings say."""
    return (f"Why: the classifier decides {_term(r.class_var, r.decision)} whatever the "
            f"findings say: its decision is the same for every instance.")


def _general(r) -> str | None:
    """Say the first general reason that says more than the sufficient reasons."""
    if not r.general_words:
        return None
    terms = [w.replace(" ", _GLUE) for w in r.general_words[0]]
    n = r.general_count
    more = f" ({n:,} such sets of states in all.)" if n is not None and n > 1 else ""
    goal = (f"to rule out {r.rival}" if r.rival is not None
            else f"for {_term(r.class_var, r.decision)}")
    return (f"More generally: {listing(terms)} {'is' if len(terms) == 1 else 'are'} "
            f"enough {goal}.{more}")


def _change(f: Any, change: tuple) -> str:
    return _GLUE.join((str(f), "from", str(change[0]), "to", str(change[1])))


def _makes(r, cf) -> str:
    """Say what a change leads to, on a multi-class report without a rival.

    On a binary one there is only the other decision; with a rival, the heading names it.
    """
    if not r.multiclass or r.rival is not None:
        return ""
    return f"{_GLUE}makes{_GLUE}it{_GLUE}{cf.decision}"


def _what_changes(r) -> str:
    head = (f"What would make it {r.rival}" if r.rival is not None
            else "What would change it")
    if r.robustness is None and r.robustness_at_least is not None:
        k = r.robustness_at_least
        if k <= 1:
            return f"{head}: not searched in time."
        return (f"{head}: at least {number(k)} features would have to change; none found "
                f"in time (changes of up to {number(k - 1)} feature{'s' * (k != 2)} "
                f"searched).")
    if r.robustness == math.inf:
        return (f"{head}: nothing; no change of the features makes it {r.rival}."
                if r.rival is not None else
                f"{head}: nothing; no change of the features gives another decision.")
    k, cfs, n = r.robustness, r.counterfactuals, r.counterfactual_count
    if k == 1:
        changes = [_change(f, c) + _makes(r, e) for e in cfs for f, c in e.items()]
        if n is not None and n <= len(cfs):
            return f"{head}: one change is enough: {', or '.join(changes)}."
        more = f" ({n:,} such changes in all)" if n is not None else ""
        return (f"{head}: one change is enough, for example "
                f"{', or '.join(changes)}{more}.")
    example = listing([_change(f, c) for f, c in cfs[0].items()]) if cfs else ""
    if cfs and _makes(r, cfs[0]):
        example += f", which makes it {cfs[0].decision}"
    more = (f" ({n:,} such sets of {number(k)})" if n is not None and n > 1 else
            " (the only such set)" if n == 1 else "")
    return (f"{head}: at least {number(k)} features would have to change, "
            f"for example {example}{more}.")


def _roles(r) -> str | None:
    need = [str(f) for f in r.necessary]
    idle = [str(f) for f in r.irrelevant or ()]
    goal = (f"for ruling out {r.rival}" if r.rival is not None else "to this decision")
    if (not need and not idle) or r.constant:
        return None
    if len(need) > LONG and r.reasons:
        inside = [f for f in r.reasons[0] if f not in r.necessary]
        text = (f"{number(len(need)).capitalize()} findings are necessary {goal}"
                + (f": all of the reason's but {listing([str(f) for f in inside])}"
                   if inside and len(inside) <= 3 else
                   ": every one of the reason's" if not inside else ""))
        return text + (f"; {number(len(idle))} do not matter." if idle else ".")
    if need:
        verb = "is" if len(need) == 1 else "are"
        head = ({1: f"{need[0]} {verb}", 2: f"Both {listing(need)} {verb}"}.get(len(need))
                or f"{listing(need)} are all")
        text = f"{head} necessary {goal}"
        if idle:
            rest = len(r.features) - len(need)
            who = (f"the other {number(len(idle))}" if len(idle) == rest and len(idle) > 1
                   else "the other one" if len(idle) == rest else listing(idle))
            text += f"; {who} {'does' if len(idle) == 1 else 'do'} not matter"
        return text + "."
    return f"{listing(idle)} {'does' if len(idle) == 1 else 'do'} not matter {goal}."


def _attributions(r) -> str | None:
    if r.attributions is None:
        return None
    top = sorted(r.attributions.items(), key=lambda kv: -abs(kv[1]))
    shown = [f"{f} {v:+.3g}" for f, v in top[:5]]
    more = f", and {number(len(top) - 5)} more" if len(top) > 5 else ""
    toward = r.decision if r.multiclass else r.positive_state
    return (f"Attributions (toward {_term(r.class_var, toward)}, from an average "
            f"decision of {decimal(r.base_value)}): {', '.join(shown)}{more}.")


def _how_sure(r) -> str:
    decided = _term(r.class_var, r.decision)
    missing = len(r.features) - len(r.instance)
    if r.sdp is None and r.sdp_bounds is not None:
        lo, hi = r.sdp_bounds
        return (f"How sure: with probability between {decimal(lo)} and {decimal(hi)} the "
                f"decision stays {decided} once the other {number(missing)} "
                f"{'is' if missing == 1 else 'are'} known (a proven interval: the exact "
                f"value was not reached in time).")
    if r.sdp is None:
        return "How sure: the observed features have probability zero under the model."
    return (f"How sure: with probability {decimal(r.sdp)} the decision stays {decided} once "
            f"the other {number(missing)} {'is' if missing == 1 else 'are'} known.")


def _next(r) -> str | None:
    if r.next is None:
        return None
    can = [n for n in r.next if n.flip_probability > 0]
    cannot = [str(n.feature) for n in r.next if n.flip_probability == 0]
    parts = []
    if can:
        best = can[0]
        parts.append(f"{best.feature}: it changes the decision with probability "
                     f"{decimal(best.flip_probability)}, and knowing it leaves you "
                     f"{sure_on_average(best)} sure on average.")
        if len(can) > 1:
            parts.append("Then " + listing([
                f"{n.feature} (changes it with probability {decimal(n.flip_probability)}, "
                f"{sure_on_average(n)} sure)" for n in can[1:3]]) + ".")
    if cannot:
        shown = (listing(cannot) if len(cannot) <= LONG else
                 f"{listing(cannot[:3] + [f'{number(len(cannot) - 3)} others'])}")
        parts.append(f"{shown} cannot change it." if can else
                     f"no observation can change it ({shown}).")
    if can:
        lower = r.sdp is not None and any(n.expected_sdp is not None and n.expected_sdp < r.sdp
                                          for n in can[:3])
        parts.append("(Sure on average: how likely the decision made once it is known is to "
                     "stay once all are known, averaged over what it may show"
                     + ("; lower than now where it may lead to a closer decision"
                        if lower else "") + ".)")
    if any(n.expected_sdp is None for n in r.next[:3] if n.flip_probability > 0):
        parts.append("(Where how sure on average is given as a range, the range is a "
                     "proven interval: the exact value was not reached in time.)")
    return "What to find out next: " + " ".join(parts) if parts else None


def sure_on_average(n) -> str:
    """Say how sure one observation leaves you on average: the value, or its proven bounds."""
    if n.expected_sdp is None:
        lo, hi = n.expected_sdp_bounds
        return f"between {decimal(lo)} and {decimal(hi)}"
    return decimal(n.expected_sdp)


def _how(r) -> str | None:
    """How the parts were obtained, said when not from a compiled diagram."""
    if r.method != "search" or not r.methods:
        return None
    said = [f"{PARTS.get(part, part)} by "
            f"{how if how_key(how) != 'compiled' else GLOSSARY['compiled'].label}"
            for part, how in r.methods.items()]
    return f"How this was found: {'; '.join(said)}."


def _margin(r) -> str | None:
    m = r.margin
    return None if m is None else m["text"]


def report_text(r) -> str:
    """Write the report's paragraphs, each wrapped to :data:`WIDTH` columns."""
    if r.constant and r.complete:
        paragraphs = [_decided(r), constant_text(r), world_text(r), _how(r)]
    elif r.constant:
        paragraphs = [_decided(r), constant_text(r).replace("Why: t", "T", 1), _how(r)]
    elif r.complete:
        paragraphs = [_decided(r), _margin(r), world_text(r), _why(r), _general(r),
                      _what_changes(r), _roles(r), _attributions(r), _how(r)]
    else:
        paragraphs = [_decided(r), _margin(r), _how_sure(r), _next(r), _how(r)]
    return "\n".join(textwrap.fill(p, WIDTH, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False).replace(_GLUE, " ")
                     for p in paragraphs if p)
