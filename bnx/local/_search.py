"""One decision's questions answered by search over the network, without compiling.

:class:`Search` holds one complete instance of a classifier and answers, each exactly
and within a deadline, what :func:`bnx.explain` asks of a compiled diagram:

- :meth:`Search.flip`: whether the features left free can change the decision (the
  others fixed): a table of every setting of them (:mod:`._table`) when it is small,
  else the bound of :mod:`._bound` (proof that the decision holds; or its minimising
  setting, checked, a proof that it does not); ``None`` when neither settles it;
- :meth:`Search.minimal_reason`: a sufficient reason (PI-explanation), made
  subset-minimal by deletion, least coupled (:meth:`Search.coupling`) then least
  relevant feature first;
- :meth:`Search.changes`: the closest counterfactuals and the robustness, by distance;
- :meth:`Search.shortest_reasons`: the shortest sufficient reasons, by the duality of
  sufficient reasons and the sets of features whose change flips the decision (a
  sufficient reason hits every such set, and a set that hits all is one): the smallest
  sets that hit the flip sets found so far are checked, each failure adding the flip set
  it reveals, until the smallest ones all pass.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..classifier._inference import FloatRange
from ..classifier._world import within_support
from ._bound import branch_on, excluded, floats, least_ratio, passes, reduce, refine
from ._table import (
    MAX_ENTRIES,
    OutOfTime,
    Question,
    entries,
    first_joint,
    open_joint,
    open_labels,
    open_table,
)

__all__ = ["Search", "OutOfTime", "BRANCHES"]

#: The most bounds one check computes (branching on free features) before it gives up.
BRANCHES = 16

_UNMADE = object()  # the floats of the network's factors, not made yet


class Search:
    """One complete instance ``idx`` (``{feature: state index}``) of ``clf``.

    ``rival``: the index of the class the decision is contrasted with (multi-class), or
    ``None``; ``deadline``: a :func:`time.monotonic` value, or ``None``.

    ``within``: ``"support"`` (default) ranges over the instances of positive probability
    only: a completion or a changed instance with ``Pr = 0`` under the network carries no
    instance, so it neither breaks a reason nor is a counterfactual (its exact zero
    pattern decides: the float tables are 0 exactly where the exact ones are, or the
    check is redone exactly); ``"all"``: every instance, decided by the classifier's
    rule (an all-zero joint by its tie rule), the paper's total decision function.
    """

    def __init__(self, clf: Any, idx: Mapping, rival: int | None = None,
                 deadline: float | None = None, within: str = "support"):
        self.clf, self.idx, self.rival, self.deadline = clf, dict(idx), rival, deadline
        self.support = within_support(within)
        self.features = tuple(clf.features)
        self.question = Question(clf)
        self._floats: Any = _UNMADE  # the network's factors in floats, once
        # the class joint of x: exact where it is cheap, else floats within a bound
        self.label, self.table = first_joint(clf, self.question, self.idx)
        self.flip_sets: list[frozenset] = []  # sets of features whose change flips it
        self.kept_sets: list[frozenset] = []  # sets of features proven sufficient
        self.margin: dict = {}  # feature -> how close one change of it comes to a flip
        self.deleted: list = []  # the features the deletion found it could leave out
        self.checks = 0

    # -------------------------------------------------------------- basics
    def tick(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime

    def keeps(self, labels: Any) -> Any:
        """Whether each label keeps the decision (with a rival: is not the rival).

        ``None`` (an impossible instance, :meth:`label_of`) keeps it.

        Returns
        -------
        numpy.ndarray
            One bool per label.
        """
        if labels is None:
            return True
        if self.rival is not None:
            return labels != self.rival
        return labels == self.label

    def label_of(self, setting: Mapping) -> Any:
        """Return the decision on ``x`` with the features of ``setting`` changed.

        ``None`` when that instance has probability zero and the search is within the
        support (it is no instance).

        Returns
        -------
        bool, int or None
            The decision (a class index on a multi-class classifier).
        """
        self.tick()
        labels, t = open_labels(self.clf, self.question, {**self.idx, **setting}, (),
                                deadline=self.deadline)
        if self.support and not t.any():
            return None
        return labels.item()

    def impossible(self, table: Any) -> Any:
        """Return which settings of a class joint ``table`` carry no instance.

        All ``False`` when the search ranges over every instance. Exact: the float tables
        of :func:`open_labels` are 0 exactly where the exact ones are.

        Returns
        -------
        numpy.ndarray
            One bool per setting (the class axis taken away).
        """
        if not self.support:
            return np.zeros(table.shape[1:], dtype=bool)
        return ~np.asarray(table != 0, dtype=bool).any(axis=0)

    # -------------------------------------------------------------- the one check
    def flip(self, free: Sequence, branches: float | None = None) -> dict | bool | None:
        """Find a setting of ``free`` that changes the decision, or prove there is none.

        Return ``False`` when no setting of ``free`` changes the decision (the rest of
        ``x`` fixed: it is then a sufficient reason), a setting ``{feature: index}`` that
        does change it, or ``None`` when neither could be proven within ``branches``
        bounds (by default :data:`BRANCHES`; ``math.inf``: as many as the deadline allows).

        Returns
        -------
        dict, bool or None
            A flipping setting, ``False`` (none exists) or ``None`` (unsettled).
        """
        self.tick()
        self.checks += 1
        free = tuple(f for f in self.features if f in set(free))
        if not free:
            return False
        fixed = {f: s for f, s in self.idx.items() if f not in set(free)}
        budget = [BRANCHES if branches is None else branches]
        found = self._settle(fixed, free, budget, None)
        if isinstance(found, dict):
            return self._found(found)
        if found is False:
            self.kept_sets.append(frozenset(fixed))
        return found

    def _settle(self, fixed: dict, free: tuple, budget: list, pool: Any
                ) -> dict | bool | None:
        """Do as :meth:`flip` with ``fixed`` (a branch may fix some of the free features).

        Settle it by a table when small, else by the bounds on ``pool`` (the parent's,
        refined; made when ``None``), else by a branch on one free feature.
        """
        self.tick()
        if not free:  # a branch that fixed them all: the one instance left decides
            changed = {f: s for f, s in fixed.items() if s != self.idx[f]}
            return False if self.keeps(self.label_of(changed)) else dict(fixed)
        if entries(self.clf, free) <= MAX_ENTRIES:
            labels, t = open_labels(self.clf, self.question, fixed, free, deadline=self.deadline)
            keep = self.keeps(labels) | self.impossible(t)
            if keep.all():
                return False
            where = next(zip(*(~keep).nonzero()))
            return {**fixed, **{f: int(j) for f, j in zip(free, where)}}
        pairs = self._pairs()
        if pairs is None:
            return None
        if pool is None:
            if self._floats is _UNMADE:
                self._floats = floats(self.clf)
            if self._floats is None:
                return None  # an entry out of the range of the rounding argument
            pool = reduce(self.clf, fixed, free, self._floats, tick=self.tick)
        if pool is None:
            return None  # out of the range of the rounding argument
        open_ = False
        gone = excluded(pool, self.clf.class_var) if self.support else frozenset()
        for a, b, kappa, strict, ties in pairs:
            if b in gone:
                continue  # no setting gives b positive probability: it beats nothing
            self.tick()
            budget[0] -= 1
            value, chain, exact, where = least_ratio(pool, self.clf, free, (a, b), ties)
            if passes(value, chain, kappa, strict):
                continue
            if where:
                full = {**self.idx, **fixed, **where}
                changed = {f: s for f, s in full.items() if s != self.idx[f]}
                if changed and not self.keeps(self.label_of(changed)):
                    return full
            if exact:
                return None  # the minimum itself fails, by less than the rounding: unsettled
            open_ = True
        if not open_:
            return False
        if budget[0] <= 0:
            return None
        g = branch_on(pool, self.clf, free)
        rest = tuple(f for f in free if f != g)
        for s in range(self.clf._card[g]):
            child = refine(pool, self.clf, g, s, tick=self.tick)
            r = self._settle({**fixed, g: s}, rest, budget, child)
            if r is not False:
                return r
        return False

    def _found(self, setting: Mapping) -> dict:
        """Record a setting that flips the decision as a flip set, its changes made fewer.

        Each changed feature is put back while the decision stays flipped.
        """
        changed = {f: s for f, s in setting.items() if s != self.idx[f]}
        for f in list(changed):
            if len(changed) == 1:
                break
            trial = {g: s for g, s in changed.items() if g != f}
            if not self.keeps(self.label_of(trial)):
                changed = trial
        self.flip_sets.append(frozenset(changed))
        return changed

    def _pairs(self) -> list | None:
        """Return the comparisons ``(a, b, kappa, strict, ties)`` that keep the decision.

        Their holding on every setting proves the decision kept:
        ``Pr(a, .) / Pr(b, .) >= kappa`` (``>`` when strict); ``None`` where the rule has no
        such form (a threshold over three or more class states). ``ties``: whether ``0 /
        0`` passes; within the support always (both classes at zero on a possible setting
        means a third class beats the decided one, which another pair fails, or none does
        and the setting carries no instance).
        """
        pairs = self._total_pairs()
        if pairs is None or not self.support:
            return pairs
        return [(a, b, kappa, strict, True) for a, b, kappa, strict, _ in pairs]

    def _total_pairs(self) -> list | None:
        """Return :meth:`_pairs` of the total decision function (ties by the rule)."""
        clf, q = self.clf, self.question
        k = q.k
        if q.multiclass:
            d = self.label
            rivals = [self.rival] if self.rival is not None else [r for r in range(k) if r != d]
            return [(d, r, Fraction(1), r < d, d < r) for r in rivals]
        p = q.p
        if q.rule == "argmax":
            if self.label:
                return [(p, r, Fraction(1), r < p, p < r) for r in range(k) if r != p]
            d = _first_max(self.table) if self.table.dtype == object else None
            if d is None:  # floats: the first most probable class where the bound settles it
                try:
                    got = open_joint(clf, self.idx, (), deadline=self.deadline)
                    d = _separated_max(got.table.reshape(-1), got.err)
                except FloatRange:
                    d = None
            if d is None:  # a near tie: exactly
                d = _first_max(open_table(clf, self.idx, (), deadline=self.deadline))
            return [(d, p, Fraction(1), p < d, d < p)]
        if k != 2:
            return None
        t = clf.threshold
        if not 0 < t < 1:
            return None
        if self.label:  # (1 - t) Pr(p) >= t Pr(n), ties positive
            return [(p, 1 - p, t / (1 - t), False, True)]
        return [(1 - p, p, (1 - t) / t, True, False)]

    # -------------------------------------------------------------- questions
    def single_changes(self) -> dict:
        """Return the decision with one feature changed, for every feature and state.

        As ``{feature: [(state index, label), ...]}`` (one table per feature).

        Returns
        -------
        dict
            ``{feature: [(state index, label), ...]}``.
        """
        out = {}
        for f in self.features:
            self.tick()
            fixed = {g: s for g, s in self.idx.items() if g != f}
            labels, t = open_labels(self.clf, self.question, fixed, (f,), deadline=self.deadline)
            gone = self.impossible(t)
            out[f] = [(j, labels[j].item()) for j in range(len(labels))
                      if j != self.idx[f] and not gone[j]]
            self.margin[f] = min((self._margin(t[:, j]) for j in range(len(labels))
                                  if j != self.idx[f]), default=float("inf"))
        return out

    def _margin(self, joint: Any) -> float:
        """Measure how far the decided class (or the positive state) leads in ``joint``.

        As a ratio to the best other (only to order the deletions: a heuristic).
        """
        j = list(joint)  # exact ints or floats: compared, then one quotient
        k = self.label if self.question.multiclass else (
            self.question.p if self.label else max(
                (c for c in range(len(j)) if c != self.question.p), key=j.__getitem__))
        other = max((v for c, v in enumerate(j) if c != k), default=0)
        if other == 0:
            return float("inf")
        try:
            return float(j[k] / other)
        except OverflowError:
            return float("inf")

    def coupling(self) -> dict:
        """Count, for each feature, the features that share a hidden parent with it.

        ``{feature: n}``, summed over its hidden parents (the class not counted). Only an
        order for the deletion: a feature left free whose hidden parent has many features
        as children keeps that node from being summed out in the bound (:mod:`._bound`),
        so such features are tried last and the checks before them stay exact and cheap.

        Returns
        -------
        dict
            ``{feature: n}``.
        """
        parents = getattr(self.clf, "_parents", {})
        feats, c = set(self.features), self.clf.class_var
        kids: dict = {}
        for f in self.features:
            for p in parents.get(f, ()):
                kids[p] = kids.get(p, 0) + 1
        return {f: sum(kids[p] for p in parents.get(f, ()) if p not in feats and p != c)
                for f in self.features}

    def minimal_reason(self, order: Sequence) -> tuple[list, list]:
        """Return ``(reason, unsettled)``: a sufficient reason made subset-minimal.

        The features of ``order`` are deleted in turn (each deletion kept when the rest is
        still sufficient), each check allowed :data:`BRANCHES` bounds; the features neither
        answer could be proven for are then tried again with as many bounds as the deadline
        allows, against the features deleted by then (a superset of those freed before, so
        a flip found earlier still holds). ``unsettled`` lists the features kept because
        neither answer could be proven (the reason is then sufficient, and minimal except
        perhaps for them).

        Returns
        -------
        tuple
            ``(reason, unsettled)``, two lists of features.
        """
        free = self.deleted = []  # read on a timeout: what is left is sufficient
        unsettled = []
        for f in order:
            r = self.flip(free + [f])
            if r is False:
                free.append(f)
            elif r is None:
                unsettled.append(f)
        for f in list(unsettled):
            r = self.flip(free + [f], branches=math.inf)
            if r is not None:
                unsettled.remove(f)
                if r is False:
                    free.append(f)
        return [f for f in self.features if f not in free], unsettled

    def changes(self, most: int, found: dict | None = None):
        """Yield ``(k, flips)`` for ``k = 1, 2, ...`` up to ``most``, until some are found.

        ``flips``: every instance at ``k`` changes whose decision is another (with a rival:
        the rival), as ``({feature: state index}, label)``. ``found``: the single changes,
        when computed already.
        """
        for k in range(1, most + 1):
            flips = []
            for group in itertools.combinations(self.features, k):
                self.tick()
                if any(not (kept & set(group)) for kept in self.kept_sets):
                    continue  # inside the free part of a sufficient set: cannot flip
                if k == 1 and found is not None:
                    f = group[0]
                    pairs = [({f: j}, lab) for j, lab in found[f]]
                else:
                    if entries(self.clf, group) > MAX_ENTRIES:
                        raise OutOfTime  # too many settings to enumerate: stop here
                    fixed = {g: s for g, s in self.idx.items() if g not in group}
                    labels, t = open_labels(self.clf, self.question, fixed, group,
                                            deadline=self.deadline)
                    gone = self.impossible(t)
                    pairs = []
                    for where in itertools.product(*(range(self.clf._card[g]) for g in group)):
                        if any(j == self.idx[g] for g, j in zip(group, where)) or gone[where]:
                            continue
                        pairs.append((dict(zip(group, where)), labels[where].item()))
                hit = [(s, lab) for s, lab in pairs if self._flipped(lab)]
                if hit:
                    self.flip_sets.append(frozenset(group))
                flips.extend(hit)
            yield k, flips
            if flips:
                return

    def _flipped(self, label: Any) -> bool:
        if label is None:  # no instance
            return False
        if self.rival is not None:
            return label == self.rival
        return label != self.label

    def shortest_reasons(self, most: int) -> tuple[list, bool]:
        """Return ``(reasons, proven)``: sufficient reasons of the least size.

        At most ``most`` of them (``proven``: they are of the least size, and, when fewer
        than ``most``, all of that size). Raises :class:`OutOfTime` past the deadline.

        Returns
        -------
        tuple
            ``(reasons, proven)``.
        """
        size = 1 if self.flip_sets else 0  # no flip set known: perhaps nothing is needed
        found: list = []
        known: dict = {}  # candidate -> sufficient, across restarts
        while size <= len(self.features):
            progress = True
            while progress:
                progress = False
                found = []
                for cand in _hitting_sets(self.flip_sets, size, self.features):
                    free = [f for f in self.features if f not in cand]
                    before = len(self.flip_sets)
                    r = False if known.get(cand) else self.flip(free)
                    known[cand] = r is False
                    if r is False:
                        found.append(cand)
                        if len(found) >= most:
                            return found, True
                    elif r is None:
                        return found, False
                    elif len(self.flip_sets) > before:
                        progress = True
                        break
            if found:
                return found, True
            size += 1
        return found, True


def _first_max(table: Any) -> int:
    best = 0
    for j in range(1, len(table)):
        if table[j] > table[best]:
            best = j
    return best


def _separated_max(table: Any, err: float) -> int | None:
    """Return the most probable entry of a float table within relative ``err``.

    ``None`` when another entry could equal or pass it.
    """
    best = int(np.argmax(table))
    rest = np.delete(table, best)
    if not rest.size or table[best] * (1 - err) > rest.max() * (1 + err):
        return best
    return None


def _hitting_sets(sets: list, size: int, order: Sequence):
    """Yield every set of at most ``size`` features that meets each of ``sets``.

    Only sets made of features each needed to meet one (so every minimal one), each once,
    as tuples in ``order``.
    """
    rank = {f: j for j, f in enumerate(order)}
    sets = sorted(set(sets), key=len)

    def grow(chosen: frozenset, banned: frozenset):
        missed = [s for s in sets if not (s & chosen)]
        if not missed:
            yield tuple(sorted(chosen, key=rank.get))
            return
        if len(chosen) >= size:
            return
        target = min(missed, key=lambda s: len(s - banned))
        options = sorted(target - banned, key=rank.get)
        for j, f in enumerate(options):
            yield from grow(chosen | {f}, banned | frozenset(options[:j]))

    if not sets:
        if size == 0:
            yield ()
        return
    yield from grow(frozenset(), frozenset())
