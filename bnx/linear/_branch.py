"""A shortest PI-explanation of a TAN decision: a relaxation and a branch-and-bound.

A relaxation that bounds it, and a branch-and-bound on it for when the profile programme
(:mod:`._fewest`) gives up.

The relaxation lets the features fixed in a subtree depend on the state of its parent
and charges ``lam`` per fixed feature. Then per feature and parent state one number, the
best value of the subtree less ``lam`` times the features fixed in it,

    W(u) = max(t(x_i, u) - lam + h(x_i),  min_y t(y, u) + h(y))

(``h`` the children's sum; a feature forced fixed keeps only the first, one forced free
only the second), bounds every actual choice from above; at the root a sufficient set
``S`` has ``0 <= value(S) <= W + lam |S|``, so ``|S| >= -W / lam``. The rounded sums err by
at most ``tol`` (every completion sums one term per feature), so ``-(W + tol) / lam`` is a
proven bound. A race with an infinite term gets none.

The branch-and-bound decides the features one at a time (free first, then fixed, those
the relaxation finds most worth fixing first) and drops a branch whose largest allowed
set is not sufficient (the exact oracle) or whose bound reaches the best size found.
Deciding a shortest one is NP-complete (``docs/explanations.md``, "What a TAN costs"),
so the search has a budget, :data:`MAX_NODES`.
"""

from __future__ import annotations

from ..errors import StructureError

__all__ = ["MAX_NODES", "OutOfBudget", "branch_and_bound", "refusal", "relaxation"]

#: search nodes of the branch-and-bound before it gives up: a few seconds
MAX_NODES = 10_000


class OutOfBudget(Exception):
    """A shortest search ran out of its budget (turned into a StructureError by the caller).

    ``best``: the shortest sufficient set met.
    """

    def __init__(self, best: list[int] | None = None) -> None:
        super().__init__(best)
        self.best = best


def _terms(d):
    """Return the race's rounded terms as plain integers, ``None`` if one is infinite."""
    strict, c, T3 = d.w.terms(d.decision)
    if any(t[0] or t[1] for Ti in T3 for row in Ti for t in row):
        return None
    return [[[t[2] for t in row] for row in Ti] for Ti in T3]


def relaxation(d, guides: int = 4) -> tuple[int, list[list[int]], list[int]]:
    """Return ``(bound, scores, lams)``: a proven lower bound on the size of every PI-explanation.

    The bound is on the PI-explanations of the TAN decision ``d``, the best of 43
    multipliers; for the ``guides`` best, how many parent states make each feature worth
    fixing (a guide for a deletion order), and those multipliers. ``(0, [], [])`` for a race
    with an infinite term.
    """
    T = _terms(d)
    if T is None:
        return 0, [], []
    x = d.x
    top = max((T[i][x[i]][u] - min(T[i][y][u] for y in range(len(T[i])))
               for i in range(d.n) for u in range(len(T[i][0]))), default=0)
    if top <= 0:
        return 0, [], []
    tried = []
    for e in range(-40, 3):  # lam from top / 2**20 to 2 top, by factors of sqrt(2)
        lam = max(1, int(top * 2 ** (e / 2)))
        score = [0] * d.n
        tried.append((_Relaxed(d, T, lam, score).bound(), score, lam))
    tried.sort(key=lambda t: -t[0])
    return (tried[0][0], [s for _, s, _ in tried[:guides]],
            [lam for _, _, lam in tried[:guides]])


class _Relaxed:
    """The relaxation at one multiplier, kept up to date as features are forced or released.

    Features are forced fixed, forced free or released one at a time (only the path to the
    root is recomputed).
    """

    def __init__(self, d, T, lam: int, score: list | None = None) -> None:
        self.fr, self.T, self.x, self.lam, self.n = d.w, T, d.x, lam, d.n
        fr = self.fr
        self.forced: list = [None] * d.n
        self.csum = [[0] * fr.card(i) for i in range(d.n + 1)]
        self.W: list = [None] * d.n
        for i in fr.postorder[:-1]:
            self.W[i] = w = self._w(i, score)
            cs = self.csum[fr.parent[i]]
            for u, v in enumerate(w):
                cs[u] += v

    def _w(self, i: int, score: list | None = None) -> list:
        """Return feature ``i``'s term per parent state.

        ``forced[i]``: ``True`` fixed, ``False`` free, ``None`` either; ``score[i]`` counts
        the parent states where fixing wins.
        """
        Ti, xi, h, f, lam = self.T[i], self.x[i], self.csum[i], self.forced[i], self.lam
        out = []
        for u in range(len(Ti[0])):
            fix = Ti[xi][u] - lam + h[xi]
            free = min(Ti[y][u] + h[y] for y in range(len(Ti)))
            out.append(fix if f is True else free if f is False else max(fix, free))
            if score is not None:
                score[i] += fix >= free
        return out

    def force(self, i: int, value) -> None:
        self.forced[i] = value
        node, parent, n = i, self.fr.parent, self.n
        while node != n:
            new, old = self._w(node), self.W[node]
            if new == old:
                return
            self.W[node] = new
            cs = self.csum[parent[node]]
            for u, (a, b) in enumerate(zip(old, new)):
                cs[u] += b - a
            node = parent[node]

    def bound(self) -> int:
        """Return the relaxation's bound (0 if none): ``ceil(-total / lam)``."""
        total = self.T[self.n][0][0] + self.csum[self.n][0] + self.fr.tol
        return -(total // self.lam) if total < 0 else 0


def branch_and_bound(d, best: list[int], score: list[int], lams: list[int]) -> list[int]:
    """Find a shortest PI-explanation of ``d`` by branch-and-bound.

    Given a sufficient set ``best`` and the relaxation's ``score`` and multipliers;
    :class:`OutOfBudget` past :data:`MAX_NODES`.

    Depth first; every oracle is kept up to date one feature at a time: ``big`` (the
    largest set allowed: all but the features decided free), ``small`` (the features
    decided fixed) and the relaxation at each multiplier.
    """
    from ._treedp import Sufficiency
    (fr, side), = d.races
    T, n = _terms(d), d.n
    big, small = Sufficiency(fr, side, d.x), Sufficiency(fr, side, d.x)
    for i in range(n):
        small.set(i, False)
    relaxed = [] if T is None else [_Relaxed(d, T, lam) for lam in lams]
    order = sorted(range(n), key=lambda i: -score[i])
    forced: list = [None] * n
    best = list(best)
    nodes = 0
    # each entry (k, nfixed, value): decide order[k - 1] = value (None: release it)
    stack: list = [(0, 0, None)]
    while stack:
        k, nfixed, value = stack.pop()
        if k > 0:
            i = order[k - 1]
            forced[i] = value
            big.set(i, value is not False)
            small.set(i, value is True)
            for r in relaxed:
                r.force(i, value)
            if value is None:  # released after both branches
                continue
        nodes += 1
        if nodes > MAX_NODES:
            raise OutOfBudget(best=best)
        if not big.holds():
            continue
        if small.holds():
            if nfixed < len(best):
                best = [j for j in range(n) if forced[j]]
            continue
        if k == n or nfixed + 1 >= len(best):
            continue
        if any(r.bound() >= len(best) for r in relaxed):
            continue
        stack.append((k + 1, None, None))
        stack.append((k + 1, nfixed + 1, True))
        stack.append((k + 1, nfixed, False))
    return best


def refusal(n: int, lower: int, upper: int) -> StructureError:
    """Make the error of a shortest search that gave up, between ``lower`` and ``upper``."""
    return StructureError(
        f"bnx.linear gave up a shortest PI-explanation of this TAN decision ({n:,} features): "
        f"the profile programme (bnx.linear._fewest.MAX_PROFILES) and the branch-and-bound "
        f"(bnx.linear._branch.MAX_NODES) ran out of budget with a shortest one proven to have "
        f"between {lower:,} and {upper:,} features. Whether one is shorter than the "
        f"{upper:,}-feature PI-explanation at hand is NP-complete for TANs, even with binary "
        f"features (docs/explanations.md, 'What a TAN costs'). That one, minimal but perhaps "
        f"not shortest, is this error's `best`; bnx.linear.pi_explanations lists others; if "
        f"the classifier compiles, bnx.pi_explanations(bnx.compile(clf), x).shortest() gives "
        f"every shortest one")
