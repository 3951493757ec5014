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
next; past the deadline, by a best-first branch and bound over the settings of the missing
features (:class:`Interval`): a proven interval, and what to observe next with each flip
probability exact and each expected same-decision probability exact or bounded.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._search import OutOfTime, Search
from ._table import MAX_ENTRIES, Question, entries, open_table

__all__ = ["Answer", "answer", "partial_answer", "sdp_interval", "next_interval", "Interval",
           "METHODS", "SETTLE_ENTRIES", "FLIP_SHARE"]

#: The shares of ``timeout`` by which the reason, the counterfactuals and the shortest
#: reasons must be done (each part may use what the one before left; the last tenth is
#: left for a check that is running when its deadline passes, and for the report).
SHARES = (0.7, 0.8, 0.9)

#: How each part of the report is obtained, in words (:attr:`bnx.Report.methods`).
METHODS = {
    "inference": "exact inference on the network",
    "search": "search over the network (no compilation)",
    "restricted": "restricted compile (the classifier conditioned on the evidence)",
    "interval": "search over the network (branch and bound over the missing features)",
}

#: The most entries (completions times class states) of the exact table that settles a
#: node of :class:`Interval` at once, every completion of its setting decided and weighed.
SETTLE_ENTRIES = MAX_ENTRIES // 16

#: The most of its time :class:`Interval` spends in :meth:`Search.flip` checks: a node is
#: checked only while the checks so far took at most this share (on many missing features
#: they rarely settle one, and a split costs a fraction of a check).
FLIP_SHARE = 0.25


@dataclass
class Answer:
    """What :func:`answer` proved about one complete instance."""

    label: Any                      # the decision (bool) or decided class index
    joint: list                     # Pr(c, x) up to one positive factor: exact ints, or
    #                                 floats within a proven bound where exact was too dear
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
           most: int = 5, within: str = "support") -> Answer:
    """Every question on the complete instance ``idx`` (``{feature: state index}``).

    ``within="support"`` (default): the reasons hold on every completion of positive
    probability and the counterfactuals are instances of positive probability
    (:class:`Search`); ``"all"``: on every instance.

    Returns
    -------
    Answer
        The answers, with how far each search went.

    Raises
    ------
    bnx.InstanceError
        Within the support, an instance of probability zero.
    """
    start = time.monotonic()

    def until(share: float) -> float | None:  # each part's own share of the time
        return None if timeout is None else start + share * timeout

    s = Search(clf, idx, rival=rival, deadline=None, within=within)  # the decision always
    if s.support and not s.table.any():
        from ..classifier._possible import impossible_error
        from ..errors import InstanceError
        raise impossible_error(clf, idx, "the instance has probability zero under the network "
                               "(it has no reasons or counterfactuals among the instances "
                               "the network allows; within='all' explains the decision "
                               "function there): ", InstanceError)
    if rival is not None and rival == s.label:
        from ..errors import ArgumentError
        raise ArgumentError(f"the rival {clf.class_states[rival]!r} is the decided class")
    out = Answer(label=s.label, joint=[int(v) if s.table.dtype == object else float(v)
                                       for v in s.table.reshape(-1)])
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


#: The seconds the interval's first tables (the class joint, each missing feature's) may
#: take past its deadline: the root's bounds rather than nothing when the time is short
#: (within the slack a bound allows).
GRACE = 0.5


def partial_answer(clf: Any, named: dict, *, timeout: float | None = None) -> dict:
    """Compute the same-decision probability of a partial instance and what to observe next.

    Return ``{"sdp": Fraction or None, "bounds": (lo, hi) or None, "next": frame,
    "method": key of METHODS}``: by the restricted compile, the frame of
    :func:`bnx.next_observations`; else by :func:`next_interval` (``sdp`` exact when every
    setting of the missing features was settled in time, else ``bounds``), its frame with
    each expected same-decision probability exact or bounded.

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
    if odd is not None and timeout is not None and not _walk_affordable(part, odd):
        odd = None  # the passes along the diagram are too wide to finish: the interval
    if odd is not None:  # a negated decision has the same SDP and next observations
        sdp = same_decision_probability(part, {}, odd=odd, exact=True)
        nxt = next_observations(part, {}, odd=odd)
        return {"sdp": sdp, "bounds": None, "next": nxt, "method": "restricted"}
    left = None if timeout is None else max(0.0, 0.9 * timeout - (time.monotonic() - start))
    (lo, hi), frame = next_interval(clf, named, timeout=left)
    if lo == hi:  # every setting settled: the exact value
        return {"sdp": lo, "bounds": None, "next": frame, "method": "interval"}
    return {"sdp": None, "bounds": (lo, hi), "next": frame, "method": "interval"}


def _walk_affordable(part: Any, odd: Any) -> bool:
    """Whether the passes along the restricted diagram take at most EXACT_FLOPS multiply-adds.

    The same-decision probability is one exact pass (:func:`~bnx.probability.frontier.
    walk_cost`), what to observe next one more per state of each missing feature; none can
    be interrupted, and on barley their frontier tables outgrow memory (24 GB).
    """
    from ..classifier import _inference
    from ..probability.frontier import walk_cost
    if part.structure in ("naive_bayes", "latent_tree"):  # counted, not walked
        return True
    formulas = ([odd.class_formula(c) for c in part.classes] if part.multiclass
                else [odd])  # a multi-class ODD's passes go along its class formulas
    flops = sum(walk_cost(f.classifier if part.multiclass else part, f)[0]
                for f in formulas)
    states = sum(len(part.states(f)) for f in part.features)
    return flops * (1 + states) <= _inference.EXACT_FLOPS


def sdp_interval(clf: Any, named: dict, *, timeout: float | None = None
                 ) -> tuple[Fraction, Fraction]:
    """Bound the same-decision probability: return ``(lo, hi)`` with ``lo <= SDP <= hi``.

    A best-first branch and bound over partial settings of the missing features
    (:class:`Interval`): the settings whose every completion keeps the decision add their
    probability given the evidence to ``lo``, those whose every completion changes it take
    theirs from ``hi``; the rest stay open. Without a timeout it runs to the end, and
    ``lo == hi`` is the same-decision probability.

    With a timeout, an exact table too large to finish in time is not started: ``(0, 1)``
    when the first ones (the class joint, each missing feature's) are; those may take
    :data:`GRACE` past the timeout.

    Returns
    -------
    tuple
        ``(lo, hi)``, exact fractions.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        iv = Interval(clf, named, None if deadline is None else deadline + GRACE)
    except OutOfTime:
        return Fraction(0), Fraction(1)
    iv.run(deadline)
    return iv.lo, iv.hi


def next_interval(clf: Any, named: dict, *, timeout: float | None = None,
                  share: float = 0.6) -> tuple[tuple[Fraction, Fraction], Any]:
    """Bound the same-decision probability and rank what to observe next, without a diagram.

    ``share`` of ``timeout`` goes to the interval (:meth:`Interval.run`), the rest to the
    expected same-decision probabilities (:meth:`Interval.observations`); all of it to the
    interval when no observation can change the decision (each expected SDP is then the
    SDP).

    Returns
    -------
    tuple
        ``((lo, hi), frame)``: the frame as :meth:`Interval.observations` gives it;
        ``((0, 1), None)`` when the first tables (the class joint, each missing
        feature's) are too large to finish in time, or not made :data:`GRACE` past the
        interval's share.

    Examples
    --------
    >>> import bnx
    >>> from bnx.local import next_interval
    >>> clf = bnx.examples.admissions()
    >>> (lo, hi), frame = next_interval(clf, {"GPA": "+"})  # no timeout: run to the end
    >>> lo == hi == bnx.same_decision_probability(clf, {"GPA": "+"}, exact=True)
    True
    >>> frame["flip_probability"].map(float).round(4).to_dict()
    {'WorkExperience': 0.2199, 'FirstTimeApplicant': 0.0, 'EntranceExam': 0.0}
    """
    start = time.monotonic()
    try:
        iv = Interval(clf, named, None if timeout is None else start + share * timeout + GRACE)
    except OutOfTime:
        return (Fraction(0), Fraction(1)), None
    if not any(iv.flip.values()):  # each expected SDP is the SDP itself: all to the interval
        share = 1.0
    iv.run(None if timeout is None else start + share * timeout)
    frame = iv.observations(None if timeout is None else start + timeout)
    return (iv.lo, iv.hi), frame


class Interval:
    """The same-decision probability of the evidence ``named`` bounded by branch and bound.

    After Chen, Choi and Darwiche, *Algorithms and applications for the same-decision
    probability* (JAIR 2014). A node is a setting ``s`` of some missing features, with its
    probability ``Pr(s | e)``, exact (one exact elimination per split gives every child's
    mass and class joint). Each node carries, per decision, a proven lower bound on the
    share of its completions that decide it, from its class posterior alone by Markov's
    inequality (the posterior over the completions averages to the node's): with ``q``
    the node's ``Pr(positive | e, s)`` and a threshold ``T``, at least ``(q - T) / (1 - T)``
    of them decide positive and ``(T - q) / T`` negative; a class of posterior ``q`` is
    decided (most probable, over one half) on at least ``2 q - 1`` of them
    (:meth:`lower`). A split only raises these shares (they are convex in the posterior).

    A node settles (its share 1) when :meth:`Search.flip` proves that no completion
    changes the decision of one of them, checked while the checks take at most
    :data:`FLIP_SHARE` of the time; a node whose missing features are few
    (:data:`SETTLE_ENTRIES`) settles at once by one exact table of its completions. Any
    other node is split on a missing feature: one the check's counterexample changed, else
    the first of :attr:`rank`. The node of largest unsettled mass (its mass times the share
    no bound accounts for) is expanded first; settings of probability zero are dropped.

    :attr:`lo` sums each node's mass times its share deciding as ``e``; :attr:`hi` is 1
    less each node's mass times its shares deciding otherwise.

    Each exact table is made by :func:`~bnx.local._table.open_table`: under a
    ``deadline`` (a :func:`time.monotonic` time; :meth:`run` and :meth:`observations`
    set their own) it is interrupted past it, and one too large to finish is not started
    (:class:`OutOfTime`, from the constructor too).
    """

    def __init__(self, clf: Any, named: dict, deadline: float | None = None):
        self.deadline = deadline
        self.clf, self.question = clf, Question(clf)
        self.idx = clf.encode(named, partial=True)
        self.missing = [f for f in clf.features if f not in self.idx]
        table = self._joint({}, ())
        self.label = self.question.labels(table).item()  # the decision on e
        self.total = sum(table.reshape(-1).tolist())  # Pr(e), up to the one factor
        self.lo, self.hi = Fraction(0), Fraction(1)
        self.settled: list = []  # (setting, mass, label): every completion decides label
        self.open: list = []  # a heap of (-unsettled mass in floats, n, setting, mass, shares)
        self._n = 0
        self._began, self._checking = time.monotonic(), 0.0  # the time in Search.flip
        root = self.lower(table.reshape(-1).tolist())
        # each missing feature's states: (Pr(F = v | e), decision on e + {F = v}, shares)
        self.outcomes: dict = {}
        self.flip: dict = {}
        spread = {}
        q = _posterior(table.reshape(-1).tolist())
        for f in self.missing:
            t = self._joint({}, (f,))
            kids = self._children(t)
            self.outcomes[f] = kids
            self.flip[f] = sum((p for p, lab, _ in kids if lab != self.label), Fraction(0))
            spread[f] = sum(float(p) * sum((a - b) ** 2 for a, b in
                                           zip(_posterior(t[:, v].tolist()), q))
                            for v, (p, _, _) in enumerate(kids))
        #: the missing features, likeliest to change the decision first, then the one that
        #: moves the class posterior most (its variance over the feature's states)
        self.rank = sorted(self.missing, key=lambda f: (-self.flip[f], -spread[f]))
        if self.total:
            self._add({}, Fraction(1), root)

    def _joint(self, setting: dict, open_: tuple) -> Any:
        """Return ``Pr(class, open_, e, setting)`` exactly, up to one positive factor.

        The missing features neither in ``open_`` nor in ``setting`` are summed out.
        """
        return open_table(self.clf, {**self.idx, **setting}, open_, deadline=self.deadline)

    def lower(self, joint: list) -> dict:
        """Return ``{label: share}``: lower bounds on the shares of completions deciding each.

        ``joint``: the class joint of a setting (up to one positive factor). By Markov's
        inequality on the posterior over the completions, whose mean is the setting's.

        Returns
        -------
        dict
            ``{label: share}``, exact fractions (labels with no bound left out).
        """
        whole = sum(joint)
        if not whole:
            return {}
        q = [Fraction(v) / whole for v in joint]
        qn = self.question
        if qn.multiclass:
            return {c: 2 * v - 1 for c, v in enumerate(q) if 2 * v > 1}
        if qn.rule == "argmax":
            out = {True: 2 * q[qn.p] - 1,
                   False: max((2 * v - 1 for c, v in enumerate(q) if c != qn.p), default=0)}
        else:
            t, qp = Fraction(*qn.t), q[qn.p]
            out = {True: (qp - t) / (1 - t) if t < 1 else 0,
                   False: (t - qp) / t if t > 0 else 0}
        return {c: v for c, v in out.items() if v > 0}

    def _children(self, t: Any) -> list:
        """Return ``[(Pr(v | setting), decision, shares)]`` per state of the open axis of ``t``."""
        labels = self.question.labels(t)
        cols = [t[:, v].tolist() for v in range(t.shape[1])]
        whole = sum(sum(c) for c in cols)
        return [(Fraction(sum(c)) / whole if whole else Fraction(0), labels[v].item(),
                 self.lower(c)) for v, c in enumerate(cols)]

    def _shares(self, mass: Fraction, shares: dict) -> tuple[Fraction, Fraction]:
        same = shares.get(self.label, 0)
        return mass * same, mass * (sum(shares.values()) - same)

    def _add(self, setting: dict, mass: Fraction, shares: dict) -> None:
        keep, other = self._shares(mass, shares)
        self.lo += keep
        self.hi -= other
        settled = next((c for c, v in shares.items() if v == 1), None)
        if settled is not None or not self.missing:
            label = settled if settled is not None else self.label
            self.settled.append((setting, mass, label))
            return
        self._n += 1
        rest = float(mass * (1 - sum(shares.values())))  # only to order the nodes
        heapq.heappush(self.open, (-rest, self._n, setting, mass, shares))

    @property
    def closed(self) -> bool:
        """Whether every setting is settled (``lo == hi`` is then the SDP).

        Never on evidence of probability zero (no SDP: ``(0, 1)`` stays).
        """
        return bool(self.total) and not self.open

    def run(self, deadline: float | None, steps: int | None = None) -> None:
        """Expand the node of largest unsettled mass until none is left or ``deadline`` passes.

        ``steps``: at most this many nodes expanded (``None``: no limit).
        """
        self.deadline = deadline
        while self.open and (steps is None or steps > 0):
            if deadline is not None and time.monotonic() > deadline:
                return
            if steps is not None:
                steps -= 1
            node = self.open[0]
            _, _, setting, mass, shares = node
            try:
                parts = self._expand(setting, mass, deadline)
            except OutOfTime:
                return
            heapq.heappop(self.open)
            keep, other = self._shares(mass, shares)
            self.lo -= keep
            self.hi += other
            for part in parts:
                self._add(*part)

    def _expand(self, setting: dict, mass: Fraction, deadline: float | None) -> list:
        """Return the parts that replace a node: itself settled, or its children."""
        tail = [f for f in self.missing if f not in setting]
        if not tail or entries(self.clf, tail) <= SETTLE_ENTRIES:
            return self._table(setting, mass, tail)
        r = None
        now = time.monotonic()
        if self._checking <= FLIP_SHARE * (now - self._began):
            full = {**self.idx, **setting, **dict.fromkeys(tail, 0)}
            s = Search(self.clf, full, deadline=deadline)
            try:
                r = s.flip(tail)
            finally:
                self._checking += time.monotonic() - now
            if r is False:  # every completion decides as this one does
                return [(setting, mass, {s.label: Fraction(1)})]
        changed = set(r) if isinstance(r, dict) else set()
        g = next((f for f in self.rank if f in changed), None)
        if g is None:
            g = next(f for f in self.rank if f not in setting)
        return [({**setting, g: v}, mass * p, low)
                for v, (p, _, low) in enumerate(self._children(self._joint(setting, (g,))))
                if p]

    def _table(self, setting: dict, mass: Fraction, tail: list) -> list:
        """Settle a node by the exact table of all its completions."""
        t = self._joint(setting, tuple(tail))
        labels = np.asarray(self.question.labels(t))
        w = np.asarray(t.sum(axis=0), dtype=object)
        whole = sum(w.reshape(-1).tolist())
        return [({**setting, **{f: int(j) for f, j in zip(tail, where)}},
                 mass * Fraction(w[where]) / whole, {labels[where].item(): Fraction(1)})
                for where in np.ndindex(w.shape) if w[where]]

    def observations(self, deadline: float | None) -> Any:
        """Rank the missing features, best to observe first, as :func:`bnx.next_observations`.

        For each missing feature ``F`` the flip probability ``sum_v Pr(F = v | e)
        [decision(e + {F = v}) != decision(e)]`` is exact; the expected same-decision
        probability ``sum_v Pr(F = v | e) SDP(e + {F = v})`` (each of the decision
        ``d_v`` on ``e + {F = v}``) is bounded by the parts of the search (settled, or open
        with their shares): a part with ``F = v`` adds its mass times its share deciding
        ``d_v`` to the low bound, and takes its shares deciding otherwise from the high
        bound; a part that leaves ``F`` open counts the shares of the decisions that are
        ``d_v`` at every state (or at none), and is then split on ``F`` by one exact
        elimination (each child's mass and shares), the largest unaccounted mass first. The
        features go likeliest to change the decision first, until ``deadline``; the bounds
        of a feature not reached are those of the root's own split on it (each state's
        shares), and each feature keeps the tighter of the two. A feature that cannot
        change the decision (flip probability 0) has the SDP of ``e`` as its expected SDP,
        so the SDP's bounds hold it too.

        Returns
        -------
        pandas.DataFrame
            Indexed by feature, columns ``expected_sdp`` (the exact value when its bounds
            meet, else ``None``), ``flip_probability``, ``expected_sdp_low``,
            ``expected_sdp_high`` (exact fractions), in the order of
            :func:`bnx.next_observations` (:func:`~bnx.probability.observe.ranked`): by
            flip probability, then by the low bound, descending (the expected SDP itself
            when exact; equal values in the classifier's feature order).
        """
        import pandas as pd

        from ..probability.observe import ranked
        self.deadline = deadline
        parts = [(s, m, {lab: Fraction(1)}) for s, m, lab in self.settled]
        parts += [(s, m, shares) for _, _, s, m, shares in self.open]
        # each part's mass deciding each label, at least (exactly when settled)
        parts = [(s, m, {lab: m}) for s, m, lab in self.settled]
        parts += [(s, m, {c: m * v for c, v in shares.items()})
                  for _, _, s, m, shares in self.open]
        bounds = {}  # feature -> [low, loss], both proven; the root's split on F to begin
        for f in self.missing:
            low, loss = Fraction(0), Fraction(0)
            for p, d, shares in self.outcomes[f]:
                same = shares.get(d, 0)
                low += p * same
                loss += p * (sum(shares.values()) - same)
            if not self.flip[f]:  # F cannot change the decision: its expected SDP is the SDP
                low, loss = max(low, self.lo), max(loss, 1 - self.hi)
            bounds[f] = [low, loss]

        def late() -> bool:
            return deadline is not None and time.monotonic() > deadline

        pending, tree = [], {}  # tree: feature -> [low, loss] by the parts
        for f in (f for f in self.rank if self.flip[f]):
            states = self.outcomes[f]
            live = [lab for p, lab, _ in states if p]
            low, loss = Fraction(0), Fraction(0)
            for j, (setting, mass, amounts) in enumerate(parts):
                if late():
                    break
                if f in setting:
                    d = states[setting[f]][1]
                    same = amounts.get(d, 0)
                    low += same
                    loss += sum(amounts.values()) - same
                    continue
                keep = sum((v for c, v in amounts.items() if all(c == d for d in live)),
                           Fraction(0))
                other = sum((v for c, v in amounts.items() if all(c != d for d in live)),
                            Fraction(0))
                low += keep
                loss += other
                if keep + other < mass:
                    pending.append((keep + other - mass, f, j, keep, other))
            else:  # the whole pass: its bounds, where tighter than the root's
                tree[f] = [low, loss]
                bounds[f] = [max(low, bounds[f][0]), max(loss, bounds[f][1])]
                continue
            pending = [x for x in pending if x[1] != f]  # out of time within its pass
            break
        pending.sort(key=lambda x: (x[0], self.rank.index(x[1])))
        for _, f, j, keep, other in pending:
            if late():
                break
            setting, mass, amounts = parts[j]
            settled = next((c for c, v in amounts.items() if v == mass), None)
            try:
                kids = self._children(self._joint(setting, (f,)))
            except OutOfTime:
                break
            tree[f][0] -= keep
            tree[f][1] -= other
            for (p, _lab, shares), (_, d, _) in zip(kids, self.outcomes[f]):
                if settled is not None:
                    shares = {settled: Fraction(1)}
                same = shares.get(d, 0)
                tree[f][0] += mass * p * same
                tree[f][1] += mass * p * (sum(shares.values()) - same)
            bounds[f] = [max(tree[f][0], bounds[f][0]), max(tree[f][1], bounds[f][1])]
        rows = []
        for f in self.missing:
            low, loss = bounds[f]
            high = 1 - loss
            rows.append((f, low if low == high else None, self.flip[f], low, high))
        frame = pd.DataFrame(rows, columns=["feature", "expected_sdp", "flip_probability",
                                            "expected_sdp_low", "expected_sdp_high"])
        # the ranking of bnx.next_observations (the low bound is the value when exact)
        return ranked(frame.set_index("feature"), self.clf.features, "expected_sdp_low")


def _posterior(joint: list) -> list:
    """Return the class posterior of a class joint in floats (0 when it is all zero)."""
    whole = sum(joint)
    return [float(Fraction(v) / whole) if whole else 0.0 for v in joint]
