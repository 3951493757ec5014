"""One decision of any classifier explained without compiling its decision function.

:func:`answer` runs the questions of :class:`~bnx.local._search.Search` on a complete
instance, in the order that makes each answer useful to the next (the single changes
give the necessary features and the first flip sets; the deletion gives a proven
sufficient, subset-minimal reason; the counterfactual search by distance gives the
robustness and more flip sets; the shortest reasons come last), each bounded by one
deadline: what is proven by then is reported, with how far each search went. A partial
instance is answered by compiling the classifier restricted to its evidence
(:func:`bnx.classifier._restricted.restrict`), whose diagram is small when few features
are missing, and asking that diagram the same-decision probability and what to observe
next; past the deadline, by a proven interval (:func:`sdp_interval`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ._search import OutOfTime, Search
from ._table import MAX_ENTRIES, entries

__all__ = ["Answer", "answer", "partial_answer", "sdp_interval", "METHODS"]

#: The shares of ``timeout`` by which the reason, the counterfactuals and the shortest
#: reasons must be done (each part may use what the one before left; the last tenth is
#: left for a check that is running when its deadline passes, and for the report).
SHARES = (0.7, 0.8, 0.9)

#: How each part of the report is obtained, in words (:attr:`bnx.Report.methods`).
METHODS = {
    "inference": "exact inference on the network",
    "search": "search over the network (no compilation)",
    "restricted": "restricted compile (the classifier conditioned on the evidence)",
    "interval": "search over the network: a proven interval",
}


@dataclass
class Answer:
    """What :func:`answer` proved about one complete instance."""

    label: Any                      # the decision (bool) or decided class index
    joint: list                     # Pr(c, x) up to one positive factor, exact ints
    reasons: list = field(default_factory=list)        # each a tuple of features
    shortest: bool = False          # the reasons are proven shortest
    minimal: bool = False           # the reasons are proven subset-minimal
    necessary: tuple = ()
    necessary_known: bool = False
    changes: list = field(default_factory=list)        # ({feature: index}, label)
    robustness: float | int | None = None              # exact, or None (see searched)
    searched: int = 0               # changes of up to this many features searched
    checks: int = 0


def answer(clf: Any, idx: dict, *, rival: int | None = None, timeout: float | None = None,
           most: int = 5) -> Answer:
    """Every question on the complete instance ``idx`` (``{feature: state index}``).

    Returns
    -------
    dict
        The answers by part, each with how it was obtained.
    """
    start = time.monotonic()

    def until(share: float) -> float | None:  # each part's own share of the time
        return None if timeout is None else start + share * timeout

    s = Search(clf, idx, rival=rival, deadline=None)  # the decision always
    if rival is not None and rival == s.label:
        from ..errors import ArgumentError
        raise ArgumentError(f"the rival {clf.class_states[rival]!r} is the decided class")
    out = Answer(label=s.label, joint=[int(v) for v in s.table.reshape(-1)])
    n = len(s.features)
    single = None
    try:
        s.deadline = until(SHARES[0])
        single = s.single_changes()
        out.necessary = tuple(f for f in s.features
                              if any(s._flipped(lab) for _, lab in single[f]))
        out.necessary_known = True
        coupled = s.coupling()  # the least coupled first, then the least relevant
        order = sorted((f for f in s.features if f not in out.necessary),
                       key=lambda f: (coupled[f], -s.margin.get(f, 0.0)))
        reason, unsettled = s.minimal_reason(order)
        out.reasons, out.minimal = [tuple(reason)], not unsettled
    except OutOfTime:  # what the deletion kept so far is sufficient, perhaps not minimal
        out.reasons = [tuple(f for f in s.features if f not in s.deleted)]
    try:
        s.deadline = until(SHARES[1])
        for k, flips in s.changes(n, single):
            out.searched = k
            if flips:
                out.robustness = k
                out.changes = flips
        if out.robustness is None:
            out.robustness = math.inf  # every number of changes searched: none flips it
    except OutOfTime:
        pass
    try:
        s.deadline = until(SHARES[2])
        found, proven = s.shortest_reasons(most)
        if found:
            out.reasons, out.shortest, out.minimal = found, proven, True
        elif proven:
            out.reasons, out.shortest, out.minimal = [], True, True
    except OutOfTime:
        pass
    out.checks = s.checks
    return out


def partial_answer(clf: Any, named: dict, *, timeout: float | None = None) -> dict:
    """Compute the same-decision probability of a partial instance and what to observe next.

    Return ``{"sdp": Fraction or None, "bounds": (lo, hi) or None, "next": frame or None,
    "method": key of METHODS}``.

    Returns
    -------
    dict
        The same-decision probability or its bounds, and what to observe next.
    """
    from ..classifier._restricted import restrict, threshold_form
    from ..compilation import compile as compile_
    from ..errors import CompilationLimitError
    from ..probability.observe import next_observations
    from ..probability.same_decision import same_decision_probability
    start = time.monotonic()
    base, _ = threshold_form(clf)
    part = restrict(base, named)
    try:  # half of the time for the exact answer, the rest for an interval
        odd = compile_(part, timeout=None if timeout is None else timeout / 2)
    except CompilationLimitError:
        odd = None
    if odd is not None:  # a negated decision has the same SDP and next observations
        sdp = same_decision_probability(part, {}, odd=odd, exact=True)
        nxt = next_observations(part, {}, odd=odd)
        return {"sdp": sdp, "bounds": None, "next": nxt, "method": "restricted"}
    left = None if timeout is None else max(0.0, 0.9 * timeout - (time.monotonic() - start))
    return {"sdp": None, "bounds": sdp_interval(clf, named, timeout=left), "next": None,
            "method": "interval"}


def sdp_interval(clf: Any, named: dict, *, timeout: float | None = None
                 ) -> tuple[Fraction, Fraction]:
    """Bound the same-decision probability: return ``(lo, hi)`` with ``lo <= SDP <= hi``.

    The settings of the first missing features (as many as one table holds) whose every
    completion keeps the decision add their probability to ``lo``; those whose every
    completion changes it take theirs from ``hi`` (each settled by :meth:`Search.flip`); the
    rest stay open.

    Returns
    -------
    tuple
        ``(lo, hi)``, exact fractions.
    """
    import itertools
    deadline = None if timeout is None else time.monotonic() + timeout
    idx = clf.encode(named, partial=True)
    missing = [f for f in clf.features if f not in idx]
    decision = clf.decide(named, partial=True)
    head: list = []
    for f in missing:
        if entries(clf, head + [f]) > MAX_ENTRIES // 16:
            break
        head.append(f)
    tail = [f for f in missing if f not in head]
    total = Fraction(sum(clf._class_joint(idx)))
    lo, hi = Fraction(0), Fraction(1)
    if total == 0:
        return lo, hi
    try:
        for where in itertools.product(*(range(clf._card[f]) for f in head)):
            if deadline is not None and time.monotonic() > deadline:
                break
            y = {**idx, **dict(zip(head, where))}
            mass = Fraction(sum(clf._class_joint(y))) / total
            if mass == 0:
                continue
            full = {**y, **{f: 0 for f in tail}}
            s = Search(clf, full, deadline=deadline)
            if s.flip(tail) is not False:
                continue  # the decision is not settled by this setting (or not proven)
            same = (clf.classes[s.label] == decision if clf.multiclass
                    else s.label == bool(decision))
            if same:
                lo += mass
            else:
                hi -= mass
    except OutOfTime:
        pass
    return lo, hi
