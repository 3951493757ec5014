"""One decision of a naive Bayes classifier, ready to be explained without compiling.

:class:`Decision` reads an instance, decides it exactly and keeps, for every feature,
the term of its own value (``F``) and of its worst value (``W``) in the race that
keeps the decision (:mod:`bnx.linear._core`). Fixing a feature raises the race by
``F - W >= 0``, so "which sets of fixed features keep the decision" is a knapsack
with non-negative gains, whose minimal solutions :func:`knapsack` enumerates.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..classifier._classifier import _resolve_state
from ..classifier._instances import class_given
from ..classifier._possible import impossible_error
from ..classifier._world import within_support
from ..errors import (
    ExplanationError,
    InstanceError,
    MissingFeatureError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)
from ._core import weights

__all__ = ["Decision", "knapsack", "greedy", "refuse_impossible"]


def refuse_impossible(clf, idx: Mapping) -> None:
    """Raise :class:`~bnx.InstanceError` when the instance has probability zero.

    Within the support it has no reasons or counterfactuals (every race holds on it).
    """
    if not any(clf._class_joint(idx)):
        raise impossible_error(clf, idx, "the instance has probability zero under the "
                               "network (it has no reasons or counterfactuals among the "
                               "instances the network allows; within='all' explains the "
                               "decision function there): ", InstanceError)


def sums(terms) -> tuple[int, int, int]:
    """Return ``(number of +inf, number of -inf, sum of the finite logs)`` of ``terms``."""
    plus = minus = 0
    s = 0
    for flag, lg in terms:
        if flag > 0:
            plus += 1
        elif flag < 0:
            minus += 1
        else:
            s += lg
    return plus, minus, s


class Decision:
    """The decision on one instance, with each feature's own and worst terms.

    ``within="support"``: its race keeps the decision on the instances the network allows
    (an instance of probability zero keeps every decision); with ``witness``, the race
    holds on those of them decided as the instance only.
    """

    def __init__(self, clf, instance: Mapping, within: str = "support", *,
                 witness: bool = False) -> None:
        if not isinstance(instance, Mapping):
            raise InstanceError(f"an instance must be a mapping from features to states, "
                                f"got {type(instance).__name__}")
        support = within_support(within)
        self.w = w = weights(clf)
        self.clf = clf
        idx = self.encode(instance)
        self.x = x = [idx[f] for f in w.features]
        self.n = n = len(x)
        keep_pos = w.race(True)
        terms = keep_pos.terms
        plus, minus, s = sums([keep_pos.c] + [terms[i][x[i]] for i in range(n)])
        self.decision = keep_pos.decide(plus, minus, s, lambda: x)
        if support:
            refuse_impossible(clf, idx)
            # witness: the race holds only on possible instances with the decision (an
            # MC-explanation is one), else on every instance that keeps it or is impossible
            self.w = w = weights(clf, support=True, witness=witness)
        self.race = g = w.race(self.decision)
        terms = g.terms
        self.F = [terms[i][x[i]] for i in range(n)]
        self.worst = g.worst
        self.W = g.W
        self.pairs = [(f, w.states[i][x[i]]) for i, f in enumerate(w.features)]

    # ------------------------------------------------------------ helpers
    def encode(self, instance: Mapping, *, partial: bool = False) -> dict:
        """``{feature: state index}`` (as ``Classifier.encode``, in time linear in its size)."""
        w = self.w
        out = {}
        for f, s in instance.items():
            try:
                i = w.index[f]
            except (KeyError, TypeError):
                if f == self.clf.class_var:
                    raise class_given(f, s) from None
                raise UnknownFeatureError(f"{f!r} is not a feature of this classifier "
                                          f"(features, closest first: "
                                          f"{closest_first(f, w.features)})") from None
            j = _resolve_state(w.states[i], s)
            if j is None:
                raise UnknownStateError(
                    f"{s!r} is not a state of feature {f!r} "
                    f"(states, closest first: {closest_first(s, w.states[i])})")
            out[f] = j
        if not partial and len(out) < len(w.features):
            missing = next(f for f in w.features if f not in out)
            raise MissingFeatureError(f"the instance has no state for feature {missing!r}")
        return out

    def named(self, members) -> dict:
        """Return the partial instance of the features at positions ``members`` (feature order)."""
        return dict(map(self.pairs.__getitem__, sorted(members)))

    def fixing(self, members) -> list[int]:
        """Fix ``members`` at the instance's states, the rest at their worst, as an assignment."""
        out = list(self.worst)
        for i in members:
            out[i] = self.x[i]
        return out

    def sufficient(self, members) -> bool:
        """Tell whether fixing ``members`` keeps the decision whatever the other features are."""
        mem = set(members)
        g = self.race
        plus, minus, s = sums([g.c] + [self.F[i] if i in mem else self.W[i]
                                       for i in range(self.n)])
        return g.decide(plus, minus, s, lambda: self.fixing(mem))

    def positions(self, partial: Mapping, what: str = "partial") -> list[int]:
        """Feature positions of a partial instance that agrees with the instance."""
        if not isinstance(partial, Mapping):
            raise InstanceError(f"{what} must be a mapping from features to states, "
                                f"got {type(partial).__name__}")
        idx = self.encode(partial, partial=True)
        out = []
        for f, j in idx.items():
            i = self.w.index[f]
            if j != self.x[i]:
                st = self.w.states[i]
                raise ExplanationError(
                    f"{what} sets {f!r} to {st[j]!r} but the instance has {st[self.x[i]]!r}; "
                    f"an explanation keeps the instance's states")
            out.append(i)
        return out

    # ------------------------------------------------------------ PI-explanations
    def pi_plan(self):
        """Plan the PI-explanations: ``(specials, base, items, delta, start)``.

        The PI-explanations are the sets in ``specials`` and ``base + T`` for every minimal
        ``T`` among ``items`` whose gains ``delta`` lift the finite sum ``start`` to the
        race's threshold (``None``: no such sets). ``([[]], ...)`` when nothing needs
        fixing.
        """
        g, F, W, n = self.race, self.F, self.W, self.n
        everyone = range(n)
        if self.sufficient(()):
            return [[]], [], [], {}, None
        if not g.strict:  # +inf wins: any feature whose own term is +inf suffices alone
            savers = [i for i in everyone if F[i][0] > 0]
            specials = [[i] for i in savers]
            blocked = (g.c[0] < 0 or any(W[i][0] < 0 for i in savers)
                       or any(F[i][0] < 0 for i in everyone))
            if blocked:
                return specials, [], [], {}, None
            others = [i for i in everyone if F[i][0] == 0]
            base0: list[int] = []
        else:  # -inf wins: features whose worst is -inf must be fixed
            base = [i for i in everyone if W[i][0] < 0]
            if self.sufficient(base):
                return [base], [], [], {}, None
            bset = set(base)
            savers = [i for i in everyone if i not in bset and F[i][0] > 0]
            specials = [base + [i] for i in savers]
            others = [i for i in everyone if i not in bset and F[i][0] == 0]
            base0 = base
        base = base0 + [i for i in others if W[i][0] < 0]
        bset = set(base)
        items = [i for i in others if i not in bset]
        start = g.c[1] + sum(F[i][1] for i in base) + sum(W[i][1] for i in everyone
                                                          if i not in bset)
        delta = {i: F[i][1] - W[i][1] for i in items}
        items = [i for i in items if self._gains(i)]
        items = g.sort_desc(items, delta, self._exact_gain)
        return specials, base, items, delta, start

    def _gains(self, i: int) -> bool:
        """Tell whether fixing feature ``i`` raises the race at all (exactly)."""
        return self.x[i] != self.worst[i] and self.race.above(i, self.x[i], self.worst[i])

    def _exact_gain(self, i: int):
        g = self.race
        return g.ratio(i, self.x[i]) / g.ratio(i, self.worst[i])

    def reach(self, s: int, members) -> bool:
        """Tell whether the finite sum ``s`` of the fixed ``members()`` keeps the decision.

        The other features are at their worst.
        """
        return self.race.decide(0, 0, s, lambda: self.fixing(members()))


def knapsack(d: Decision, base: list[int], items: list[int], delta: dict,
             start: int) -> Iterator[dict]:
    """Enumerate every minimal ``T`` among ``items`` reaching the threshold, each once.

    ``items`` are sorted by decreasing gain; ``T`` reaches it when ``start + sum(delta[T])``
    does; with O(len(items)) delay.

    Depth first, taking items in decreasing gain: a branch stops as soon as its sum
    reaches (then its last item is its smallest, so dropping any item fails: minimal),
    and a branch is entered only if taking all remaining items would reach, so every
    branch entered ends in an explanation. Yields ``base + T`` as partial instances, whose
    keys are ``base`` then ``T`` in decreasing gain; the dict is kept up to date along the
    search and copied (a fast table copy) for each answer.
    """
    m = len(items)
    suffix = [0] * (m + 1)
    for k in range(m - 1, -1, -1):
        suffix[k] = suffix[k + 1] + delta[items[k]]
    if d.reach(start, lambda: base):
        yield d.named(base)
        return
    if m == 0 or not d.reach(start + suffix[0], lambda: base + items):
        return
    pairs = d.pairs
    chosen = list(base)
    cur = dict(pairs[i] for i in base)
    stack = [(0, start, len(base))]
    while stack:
        j, s, t = stack.pop()
        for i in chosen[t:]:
            del cur[pairs[i][0]]
        del chosen[t:]
        while j < m:
            if j + 1 < m and d.reach(s + suffix[j + 1], lambda j=j: chosen + items[j + 1:]):
                stack.append((j + 1, s, len(chosen)))
            item = items[j]
            chosen.append(item)
            key, value = pairs[item]
            cur[key] = value
            s = s + delta[item]
            if d.reach(s, lambda: chosen):
                yield cur.copy()
                break
            j += 1


def greedy(d: Decision, items: list[int], delta: dict, start: int, members, *,
           until: bool) -> list[int] | None:
    """Find the shortest prefix of ``items`` (decreasing gain) that makes the race hold or fail.

    Its gains added to ``start`` make the race hold (``until=True``) or fail
    (``until=False``: gains are subtracted); ``members(prefix)`` is the complete assignment
    for an exact check. ``None`` if no prefix does. The empty prefix is one: ``[]`` when
    ``start`` alone settles it (in particular when ``items`` is empty).
    """
    g = d.race
    s = start
    taken: list[int] = []
    if g.decide(0, 0, s, lambda: members(taken)) == until:
        return taken
    for i in items:
        s = s + delta[i] if until else s - delta[i]
        taken.append(i)
        if g.decide(0, 0, s, lambda: members(taken)) == until:
            return taken
    return None
