"""The questions of :mod:`bnx.linear` on one decision of a TAN classifier.

With some features fixed, a TAN's race is a sum over the feature forest's edges, so
"does every completion keep the decision?" is a min-sum over the forest
(:mod:`bnx.linear._treedp`), linear in its size, and kept up to date as features are
fixed and freed one at a time. On that oracle:

* a PI-explanation is found by deletion (free each feature in turn, keep it fixed
  only if freeing it loses the decision), and every PI-explanation is enumerated,
  each once, by splitting the sets left to search around the one just found;
* the fewest changes that flip the decision (robustness, counterfactuals,
  contrastive explanations) and the fewest counted features that keep it
  (an MC-explanation) are the same min-sum with a budget of changes;
* a shortest PI-explanation is a dynamic programme over profiles (:mod:`._fewest`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..classifier._world import within_support
from ..errors import InstanceError, StructureError
from ._branch import OutOfBudget, branch_and_bound, refusal, relaxation
from ._fewest import fewest_fixed
from ._forest import pair_forests
from ._plan import Decision, refuse_impossible
from ._treedp import Sufficiency, first_failure

__all__ = ["AllOf", "TanDecision"]


class AllOf:
    """Sufficiency oracles of several races over the same features, asked together.

    The decision is kept iff every race is.
    """

    def __init__(self, oracles: list[Sufficiency]) -> None:
        self.oracles = oracles
        self.fixed = oracles[0].fixed  # the same marks in every oracle

    def set(self, i: int, fixed: bool) -> None:
        for o in self.oracles:
            o.set(i, fixed)

    def holds(self) -> bool:
        return all(o.holds() for o in self.oracles)


class TanDecision(Decision):
    """The decision of a TAN on one instance (the helpers of :class:`Decision` reused)."""

    def __init__(self, clf, instance: Mapping, within: str = "support") -> None:
        if not isinstance(instance, Mapping):
            raise InstanceError(f"an instance must be a mapping from features to states, "
                                f"got {type(instance).__name__}")
        support = within_support(within)
        forests = pair_forests(clf)
        self.w = fr = forests[0]
        self.clf = clf
        idx = self.encode(instance)
        self.x = x = [idx[f] for f in fr.features]
        self.n = len(x)
        oracles = [Sufficiency(f, True, x) for f in forests]
        self.decision = all(o.holds() for o in oracles)
        if support:  # the same decision (the instance is possible); the races within
            refuse_impossible(clf, idx)
            forests = pair_forests(clf, support=True)
            self.w = fr = forests[0]
            oracles = [Sufficiency(f, True, x) for f in forests]
        if len(forests) > 1 and not self.decision:
            raise StructureError(
                f"bnx.linear explains positive decisions only of a TAN whose class has "
                f"{len(clf.class_states)} states (under argmax, staying negative means "
                f"losing some pairwise race on every completion, which is not one race); "
                f"compile it with bnx.compile and use the ODD's explanations")
        #: the races that keep the decision: (forest, side)
        self.races = [(f, self.decision) for f in forests]
        self._oracle = AllOf(oracles) if self.decision else None
        self.pairs = [(f, fr.states[i][x[i]]) for i, f in enumerate(fr.features)]

    def _one_race(self, what: str) -> None:
        if len(self.races) > 1:
            raise StructureError(
                f"bnx.linear finds {what} of a TAN with a two-state class only (with "
                f"{len(self.clf.class_states)} states it is not one race); compile it with "
                f"bnx.compile and use the ODD's explanations")

    # ------------------------------------------------------------ costs
    def cost(self, members) -> list:
        """Costs for the sufficiency test: ``members`` stay at the instance, others are free."""
        mem = set(members)
        return [[0 if v == xi else None for v in range(len(st))] if i in mem else [0] * len(st)
                for i, (xi, st) in enumerate(zip(self.x, self.w.states))]

    def counterexample(self, members) -> list[int] | None:
        """Find a completion of ``members`` with the other decision, or ``None`` if they suffice."""
        ora = self.fixed_only(members)
        if ora.holds():
            return None
        for fr, side in self.races:
            got = first_failure(fr, side, self.cost(members), 0)
            if got is not None:
                return got[1]
        return None  # unreachable: some race fails

    def oracle(self) -> AllOf:
        """Return the sufficiency oracle of the decision (one per decision, left in any state)."""
        if self._oracle is None:
            self._oracle = AllOf([Sufficiency(f, s, self.x) for f, s in self.races])
        return self._oracle

    def fixed_only(self, members) -> AllOf:
        """Return the oracle with exactly ``members`` fixed."""
        ora = self.oracle()
        mem = set(members)
        for i in range(self.n):
            ora.set(i, i in mem)
        return ora

    def _deletion_order(self) -> list[int]:
        """Order the features to try freeing them, so that what is kept is short.

        Those whose own term gains least over their worst state (their parent at the
        instance) first.
        """
        _, _, T = self.w.terms(self.races[0][1])
        x, parent, n = self.x, self.w.parent, self.n

        def gain(i):
            u = 0 if parent[i] == n else x[parent[i]]
            col = [T[i][v][u] for v in range(len(T[i]))]
            own = col[x[i]]
            low = min(col, key=lambda t: (t[0] - t[1], t[2]))
            return (own[0] - own[1] - low[0] + low[1], own[2] - low[2])
        return sorted(range(n), key=gain)

    # ------------------------------------------------------------ PI-explanations
    def pi_sets(self) -> Iterator[list[int]]:
        """Every PI-explanation as sorted positions, each once.

        Each search node costs at most ``3 n + 2 |A|`` oracle updates and has at most ``n``
        parts. :attr:`nodes` counts the nodes searched so far by outcome: ``"answer"``
        (yields), ``"empty"`` (its largest allowed set is not sufficient: one test) and
        ``"dead"`` (the set its deletion found has a forced feature it does not need: no
        answer, split all the same). The search is depth first, at most ``n`` deep (each level
        leaves out one more feature), so between two answers it searches at most
        ``n (n + 1 + D)`` nodes, ``D`` the dead ones among them; no polynomial bound on
        ``D`` can be proven without settling monotone dualization (docs/explanations.md,
        "What a TAN costs").
        """
        ora = self.oracle()
        order = self._deletion_order()
        nodes = self.nodes = {"answer": 0, "empty": 0, "dead": 0}
        # each entry (A, B, E, t): the sets left below a search node whose set was
        # A + E: its t-th part keeps A + E[:t] and leaves out B + E[t] (when all of E is
        # kept, only A + E itself is minimal, and it was met already)
        stack = [(frozenset(), frozenset(), [None], 0)]
        while stack:
            A, B, E, t = stack.pop()
            if t + 1 < len(E):
                stack.append((A, B, E, t + 1))
            if E[t] is not None:
                A, B = A | frozenset(E[:t]), B | {E[t]}
            S0, minimal = self._search(ora, order, A, B)
            nodes["empty" if S0 is None else "answer" if minimal else "dead"] += 1
            if S0 is None:
                continue
            if minimal:
                yield S0
            kept = set(S0)
            E = [e for e in order if e in kept and e not in A]
            if E:
                stack.append((A, B, E, 0))

    def shortest(self) -> list[int]:
        """Find a PI-explanation with the fewest features.

        A bound and guided deletions (:func:`~bnx.linear._branch.relaxation`), the profile
        programme (:mod:`~bnx.linear._fewest`), then a branch-and-bound
        (:mod:`~bnx.linear._branch`); :class:`~bnx.StructureError` with the best one found
        (``best``) if all give up.
        """
        self._one_race("a shortest PI-explanation")
        best = next(self.pi_sets())
        lower, guides, lams = relaxation(self)
        if lower < len(best):  # deletions guided by the relaxation: often shorter
            rank = {i: r for r, i in enumerate(self._deletion_order())}
            ora = self.oracle()
            for score in guides:
                order = sorted(range(self.n), key=lambda i: (score[i], rank[i]))
                got = self._search(ora, order, frozenset(), frozenset())[0]
                best = got if len(got) < len(best) else best
        if lower >= len(best):  # proven shortest: no search
            return sorted(best)
        try:
            got = fewest_fixed(self, len(best), lambda S: self.fixed_only(S).holds())
            return sorted(best if got is None else got)
        except OutOfBudget:
            pass
        try:
            return sorted(branch_and_bound(self, best, guides[0] if guides else
                                           [0] * self.n, lams[:3]))
        except OutOfBudget as out:
            best = sorted(self.shrink(out.best))
        err = refusal(self.n, lower, len(best))
        err.best = self.named(best)
        raise err

    def _search(self, ora: AllOf, order: list[int], A: frozenset, B: frozenset):
        """Return ``(S0, minimal)``: a sufficient set between ``A`` and all but ``B``.

        Minimal outside ``A`` (deletion), and whether it is minimal; ``(None, False)`` if
        all but ``B`` is not sufficient.
        """
        for i in range(self.n):
            ora.set(i, i not in B)
        if not ora.holds():
            return None, False
        for i in order:
            if i in A or i in B:
                continue
            ora.set(i, False)
            if not ora.holds():
                ora.set(i, True)
        S0 = [i for i in range(self.n) if ora.fixed[i]]
        for a in A:
            ora.set(a, False)
            redundant = ora.holds()
            ora.set(a, True)
            if redundant:
                return S0, False
        return S0, True

    def redundant(self, members: list[int]) -> list[int]:
        """Return the members whose release alone keeps the (sufficient) ``members`` sufficient."""
        ora = self.fixed_only(members)
        out = []
        for i in members:
            ora.set(i, False)
            if ora.holds():
                out.append(i)
            ora.set(i, True)
        return out

    def shrink(self, members: list[int]) -> set[int]:
        """Shrink the sufficient ``members`` to a PI-explanation.

        Each is dropped in turn if the rest stays sufficient.
        """
        ora = self.fixed_only(members)
        mem = set(members)
        for i in members:
            ora.set(i, False)
            if ora.holds():
                mem.discard(i)
            else:
                ora.set(i, True)
        return mem

    # ------------------------------------------------------------ changes
    def fewest(self, fr, side: bool, cost: list) -> tuple[int, list[int]] | None:
        """Find the least budget at which the race of ``fr`` keeping ``side`` fails.

        With the assignment; budgets tried 1, 4, 16, ... up to ``n``.
        """
        K = 1
        while True:
            got = first_failure(fr, side, cost, min(K, self.n))
            if got is not None or K >= self.n:
                return got
            K *= 4

    def flip(self) -> dict[int, int] | None:
        """Find the fewest feature changes that flip the decision: ``{position: new state}``.

        With several races, the fewest that make any of them fail.
        """
        cost = [[0 if v == xi else 1 for v in range(len(st))]
                for xi, st in zip(self.x, self.w.states)]
        found = [got for fr, side in self.races
                 if (got := self.fewest(fr, side, cost)) is not None]
        if not found:
            return None
        y = min(found, key=lambda got: got[0])[1]
        return {i: y[i] for i in range(self.n) if y[i] != self.x[i]}

    def keep_fewest(self, counted: list[frozenset], fixed: set) -> list[int]:
        """Find an MC-explanation as a complete assignment.

        Counted features of the instance may move to uncounted states; the fewest counted
        ones stay, keeping the decision.
        """
        cost = []
        for i, (xi, st) in enumerate(zip(self.x, self.w.states)):
            row: list = [None] * len(st)
            row[xi] = 1 if (i not in fixed and xi in counted[i]) else 0
            if i not in fixed and xi in counted[i]:
                for v in range(len(st)):
                    if v not in counted[i]:
                        row[v] = 0
            cost.append(row)
        self._one_race("an MC-explanation")
        got = self.fewest(self.w, not self.decision, cost)
        if got is None:  # unreachable: the instance itself keeps its decision
            raise AssertionError("no MC-explanation found")
        return got[1]
