"""What a report says beyond its fields, derived from what was proven, for every surface.

The text (:mod:`._text`), the HTML (:mod:`._html`), the JSON (:mod:`._json`) and the
explorer page take from here: which kind of reason was proven (the fewest findings, none
removable, or only enough), whether the decision is a close call and whether one finding
could change it, whether the classifier decides the same whatever the findings say,
which findings of a long reason matter most, and which instances the answers range over.
"""

from __future__ import annotations

from typing import Any

from .._util.wording import share

__all__ = ["MAX_SHOWN", "PARTS", "NEAR", "how_key", "LONG", "reason_key", "is_constant",
           "margin", "matters_most", "WORLDS", "world_text"]

#: The most reasons and counterfactuals a report holds (the shortest ones).
MAX_SHOWN = 5

#: The parts of :attr:`~bnx.Report.methods`, as a person calls them.
PARTS = {"decision": "the decision", "reasons": "why", "counterfactuals": "what would change it",
         "sdp": "how sure"}

#: A decision is a close call when its probability leads the next class's (or the
#: threshold) by less than this.
NEAR = 0.1

#: A reason of more findings than this is summarised: its count, the few that matter most,
#: the rest behind a fold.
LONG = 8


#: What :attr:`~bnx.Report.world` says, in a sentence each (true whether or not the
#: network rules some instance out: it is said when one of its tables has a zero entry).
WORLDS = {
    "support": ("Among the instances the network allows: the reasons hold whatever the other "
                "findings say in any combination that can occur, and each change below leads "
                "to an instance that can occur."),
    "all": ("Over every instance, whether or not the network allows it: the reasons and "
            "changes below are the decision function's, which decides every combination "
            "of findings."),
}


def world_text(r) -> str | None:
    """Say which instances the report's answers range over (``None``: nothing to say).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> world_text(SimpleNamespace(world="support"))[:44]
    'Among the instances the network allows: the '
    >>> world_text(SimpleNamespace(world=None)) is None
    True
    """
    return None if r.world is None else WORLDS[r.world]


def how_key(how: str) -> str | None:
    """Return the glossary key of how a part was obtained (``None``: said as it is)."""
    if how == "compiled diagram" or how.startswith("restricted compile"):
        return "compiled"
    return "search" if how.startswith("search over the network") else None


def reason_key(r) -> str:
    """Return the glossary key of what the report's reasons are proven to be.

    ``"shortest_reason"``, ``"minimal_reason"`` or ``"sufficient_reason"``, from
    :attr:`~bnx.Report.reasons_proven` (a reason of :mod:`bnx.linear`, which finds a
    shortest one, is ``"shortest_reason"``).
    """
    return {"minimal": "minimal_reason", "sufficient": "sufficient_reason"}.get(
        r.reasons_proven, "shortest_reason")


def is_constant(r) -> bool:
    """Whether the report shows a classifier that decides the same whatever the findings say.

    A complete instance whose sufficient reason is empty (no feature is needed to settle
    the decision), or nothing observed and a same-decision probability of exactly 1.
    """
    if r.rival is not None:
        return False
    if r.complete:
        return bool(r.reasons) and len(r.reasons[0]) == 0
    return len(r.instance) == 0 and r.sdp_exact is not None and r.sdp_exact == 1


def margin(r) -> dict | None:
    """Say how close the decision is, when it is a close call (``None`` otherwise).

    ``{"runner_up", "runner_up_probability", "probability", "threshold", "gap",
    "one_finding", "by", "text"}``: the next most probable class state (or, under a
    threshold, the other decision and the threshold), how far the decision leads it,
    and whether one finding could change the decision (``True``, ``False`` or ``None``,
    not known): on a complete instance, a robustness of 1; on a partial one, a finding
    still to come whose observation changes the decision with positive probability
    (``by``: the first such, or the first change of one feature).
    """
    probs = r.class_probabilities
    if not probs or r.posterior is None or is_constant(r):
        return None
    threshold = None
    if r.multiclass or r.rule == "argmax":
        decided = r.decision if r.decision in probs else None
        if decided is None:  # "not a" under argmax: the most probable other state decides
            decided = max((s for s in probs if s != r.positive_state), key=probs.get)
        p = probs[decided]
        runner = max((s for s in probs if s != decided), key=probs.get)
        gap = p - probs[runner]
    else:
        threshold = r.threshold
        p = r.posterior
        # by name: a report read back from JSON names the states as text
        others = [s for s in probs if str(s) != str(r.positive_state)]
        runner = (r.positive_state if not r.positive else
                  others[0] if len(others) == 1 else f"not {r.positive_state}")
        gap = abs(p - threshold)
    if gap >= NEAR:
        return None
    one, by = None, None
    if r.complete:
        if r.robustness is not None:
            one = r.robustness == 1
            if one and r.counterfactuals:
                f, (old, new) = next(iter(r.counterfactuals[0].items()))
                by = f"{f} from {old} to {new}"
        elif r.robustness_at_least is not None and r.robustness_at_least >= 2:
            one = False
    elif r.next is not None:
        can = [n for n in r.next if n.flip_probability > 0]
        one = bool(can)
        by = str(can[0].feature) if can else None
    # by name again: read back from JSON, the probabilities' states are text
    q = (1 - p) if threshold is not None and len(probs) == 2 else next(
        (v for s, v in probs.items() if str(s) == str(runner)), None)
    if threshold is not None and gap == 0:
        text = (f"Close call: the probability of {r.class_var} = {r.positive_state} is "
                f"exactly the threshold, {share(threshold)}.")
    elif threshold is not None:
        side = "above" if p >= threshold else "below"
        text = (f"Close call: the probability of {r.class_var} = {r.positive_state}, "
                f"{share(p)}, is {share(gap)} {side} the threshold {share(threshold)}.")
    elif gap == 0:  # a tie, which the first state wins
        text = (f"Close call: {r.class_var} = {runner} is exactly as probable, "
                f"{share(q)}.")
    else:
        text = (f"Close call: the next most probable, {r.class_var} = {runner}, has "
                f"probability {share(q)}, {share(gap)} less.")
    if one is True:
        text += (f" One finding could change the decision ({by})." if r.complete and by
                 else " One finding could change the decision." if r.complete else
                 f" One more finding could change it (for example {by}).")
    elif one is False:
        text += (" No single change of a finding changes the decision." if r.complete
                 else " No one finding still missing can change it.")
    return {"runner_up": runner, "runner_up_probability": q, "probability": p,
            "threshold": threshold, "gap": gap, "one_finding": one, "by": by, "text": text}


def matters_most(r, reason: Any, most: int = 3) -> list:
    """Return the features of a long ``reason`` whose change matters most, at most ``most``.

    Those that the closest changes shown change (the fewest changes that give another
    decision, :attr:`~bnx.Report.counterfactuals`), the most often changed first; then,
    with attributions, the largest in absolute value; then the necessary ones, in the
    reason's order.
    """
    counts: dict = {}
    for c in r.counterfactuals:
        for f in c:
            if f in reason:
                counts[f] = counts.get(f, 0) + 1
    order = {f: k for k, f in enumerate(reason)}
    chosen = sorted(counts, key=lambda f: (-counts[f], order[f]))
    if r.attributions is not None:
        chosen += sorted((f for f in reason if f not in chosen),
                         key=lambda f: (-abs(r.attributions.get(f, 0.0)), order[f]))
    chosen += [f for f in reason if f in r.necessary and f not in chosen]
    return chosen[:most]

