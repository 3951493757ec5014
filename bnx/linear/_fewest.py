"""A shortest PI-explanation of a TAN decision: a dynamic programme over the feature forest.

Choose the fewest features ``S`` to fix at the instance so that the worst completion of
the others keeps the decision: a max over ``S`` of a min over the completions. Over the
forest it decomposes once the choice inside a subtree is summarised by its *profile*:
the worst value of the subtree for each state of the parent (the adversary picks the
parent's state later, unless the parent is fixed). For every budget ``b`` (features
fixed in the subtree) the programme keeps the profiles no other profile of at most that
budget beats in every component; a fixed feature needs only its children's profiles at
its own state, a free one all of them, its own profile being ``min_y (t(y, u) + h(y))``
with ``h`` the children's summed profiles. At the virtual root the profiles are numbers,
and the least budget whose best number keeps the decision is the answer.

Profiles are rounded sums; one is dropped only if another beats it by more than twice
the rounding bound in every component (so the true best is never dropped), and a total
within the bound of 0 is settled by testing its set exactly. The number of kept profiles
is not polynomial in general (their dimension is a state count, and sums of fronts can
grow), and no exact method can be polynomial unless P = NP: "is there a PI-explanation of
at most ``k`` features?" is NP-complete for TANs, even with binary features and a star
for a tree (an exact cover by 3-sets reduces to it; ``docs/explanations.md``, "What a
TAN costs"). Past :data:`MAX_PROFILES` the programme gives up
(:class:`~bnx.linear._branch.OutOfBudget`).
"""

from __future__ import annotations

from ._branch import OutOfBudget
from ._treedp import scalars

__all__ = ["MAX_PROFILES", "fewest_fixed"]

#: profiles made and compared before the profile programme gives up (then the
#: branch-and-bound of :mod:`._branch` tries): under a few seconds
MAX_PROFILES = 3_000_000


def _flatten(rep) -> list[int]:
    out, stack = [], [rep]
    while stack:
        r = stack.pop()
        if r is None:
            continue
        if isinstance(r, int):
            out.append(r)
        else:
            stack.extend(r)
    return out


def _beats(a: tuple, b: tuple, plus, minus, margin: int) -> bool:
    """Tell whether profile ``a`` is at least profile ``b`` in every component.

    By more than ``margin`` where both are finite (so that the true values are too).
    """
    for x, y in zip(a, b):
        if x == y and (x == plus or x == minus):
            continue
        if y == minus or x == plus:
            continue
        if x == minus or y == plus or x < y + margin:
            return False
    return True


def _front(items: list, kept: list, plus, minus, margin: int) -> list:
    """Keep the items no other (nor any of ``kept``, of smaller budgets) beats."""
    items = sorted(items, key=lambda it: it[0], reverse=True)
    out: list = []
    for it in items:
        v = it[0]
        if any(_beats(o[0], v, plus, minus, margin) for o in out) or any(
                _beats(o[0], v, plus, minus, margin) for o in kept):
            continue
        out.append(it)
    return out


def fewest_fixed(d, cap: int, exact_holds) -> list[int] | None:
    """Find a smallest set of at most ``cap`` features whose fixing keeps the decision ``d``.

    ``d`` is a :class:`~bnx.linear._tan.TanDecision`; the answer is the set's positions,
    ``None`` if none is that small. ``exact_holds(S)`` settles a near tie.
    """
    fr, x, n = d.w, d.x, d.n
    T, unit, add, judge, plus, minus = scalars(fr, d.decision, False)
    margin = 2 * fr.tol + 1
    work = [0]
    F: list = [None] * (n + 1)
    for i in fr.postorder:
        ki = fr.card(i)
        H = {0: [((unit,) * ki, None)]}
        for c in fr.children[i]:
            merged: dict = {}
            for b1, L1 in H.items():
                for b2, L2 in F[c].items():
                    b = b1 + b2
                    if b > cap:
                        continue
                    bucket = merged.setdefault(b, [])
                    _spend(work, len(L1) * len(L2))
                    for v1, s1 in L1:
                        for v2, s2 in L2:
                            bucket.append((tuple(add(p, q) for p, q in zip(v1, v2)), (s1, s2)))
            H = _prune(merged, plus, minus, margin, work)
            F[c] = None
        if i == n:
            F[n] = H
            break
        Ti, xi = T[i], x[i]
        kp = len(Ti[0])
        got: dict = {}
        for b, L in H.items():
            got.setdefault(b, []).extend(
                (tuple(min(add(Ti[y][u], h[y]) for y in range(ki)) for u in range(kp)), s)
                for h, s in L)
            if b + 1 <= cap:
                got.setdefault(b + 1, []).extend(
                    (tuple(add(Ti[xi][u], h[xi]) for u in range(kp)), (i, s)) for h, s in L)
        F[i] = _prune(got, plus, minus, margin, work)
    c = T[n][0][0]
    for b in sorted(F[n]):
        near = []
        for (h,), s in F[n][b]:
            verdict = judge(add(c, h))
            if verdict:
                return _flatten(s)
            if verdict is None:
                near.append(s)
        for s in near:
            S = _flatten(s)
            if exact_holds(S):
                return S
    return None


def _spend(work: list, amount: int) -> None:
    """Count ``amount`` more profiles made or compared; past :data:`MAX_PROFILES` give up."""
    work[0] += amount
    if work[0] > MAX_PROFILES:
        raise OutOfBudget()


def _prune(by_budget: dict, plus, minus, margin: int, work: list) -> dict:
    kept: list = []
    out: dict = {}
    for b in sorted(by_budget):
        _spend(work, len(by_budget[b]) * (len(kept) + len(by_budget[b])))
        front = _front(by_budget[b], kept, plus, minus, margin)
        if front:
            out[b] = front
            kept.extend(front)
    return out
