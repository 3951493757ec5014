"""Changing features of one decision.

The fewest changes that flip it (robustness, counterfactuals, contrastive explanations) and
the fewest counted features that keep it (MC-explanations). Both are greedy over gains
sorted exactly: with every subset of features allowed, the ``k`` largest gains are the most
that ``k`` changes can do.
"""

from __future__ import annotations

from ._plan import Decision, greedy, sums

__all__ = ["flip", "keep_fewest"]


def flip(d: Decision) -> dict[int, int] | None:
    """Find the fewest feature changes that flip the decision: ``{position: new state}``.

    Each feature is moved to its worst other state; ``None`` if no change flips it.
    """
    g, F, x, n = d.race, d.F, d.x, d.n
    alt = [g.worst_other(i, x[i]) for i in range(n)]
    A = [None if alt[i] is None else g.term(i, alt[i]) for i in range(n)]

    def assignment(moved) -> list[int]:
        out = list(x)
        for i in moved:
            out[i] = alt[i]
        return out

    def result(moved):
        return {i: alt[i] for i in moved}

    if g.strict:  # -inf wins: one change to a -inf state flips it
        hit = [i for i in range(n) if A[i] is not None and A[i][0] < 0]
        if hit:
            return result(hit[:1])
        if g.c[0] > 0:
            return None
        forced = [i for i in range(n) if F[i][0] > 0]  # +inf terms must all go
        if any(A[i] is None or A[i][0] != 0 for i in forced):
            return None
        hit = []
    else:  # +inf wins: every +inf term must go, then one -inf (or a negative sum) flips it
        if g.c[0] > 0:
            return None
        forced = [i for i in range(n) if F[i][0] > 0]
        if any(A[i] is None or A[i][0] > 0 for i in forced):
            return None
        fset = set(forced)
        if (g.c[0] < 0 or any(A[i][0] < 0 for i in forced)
                or any(F[i][0] < 0 for i in range(n) if i not in fset)):
            return result(forced)
        hit = [i for i in range(n) if i not in fset and A[i] is not None and A[i][0] < 0]
    fset = set(forced)
    start = g.c[1] + sum(A[i][1] if i in fset else F[i][1] for i in range(n))
    if not g.decide(0, 0, start, lambda: assignment(forced)):
        return result(forced)
    if hit:  # (non-strict) after the forced moves, one -inf term flips it
        return result(forced + hit[:1])
    items = [i for i in range(n) if i not in fset and A[i] is not None and A[i][0] == 0
             and g.above(i, x[i], alt[i])]
    gain = {i: F[i][1] - A[i][1] for i in items}
    items = g.sort_desc(items, gain, lambda i: g.ratio(i, x[i]) / g.ratio(i, alt[i]))
    taken = greedy(d, items, gain, start, lambda p: assignment(forced + p), until=False)
    return None if taken is None else result(forced + taken)


def keep_fewest(d: Decision, counted: list[frozenset], fixed: set) -> list[int]:
    """Find an MC-explanation as a complete assignment.

    Every feature whose state is counted and may change moves to its best uncounted state,
    except the fewest needed to keep the decision.
    """
    g, F, x, w, n = d.race, d.F, d.x, d.w, d.n
    best: dict[int, int] = {}
    for i in range(n):
        if i in fixed or x[i] not in counted[i]:
            continue
        free = [v for v in range(len(w.states[i])) if v not in counted[i]]
        if free:
            best[i] = g.extreme(i, free, best=True)
    B = {i: g.term(i, v) for i, v in best.items()}

    def assignment(kept) -> list[int]:
        out = list(x)
        for i, v in best.items():
            out[i] = v
        for i in kept:
            out[i] = x[i]
        return out

    def holds(kept) -> bool:
        ks = set(kept)
        terms = [g.c] + [F[i] if (i not in B or i in ks) else B[i] for i in range(n)]
        return g.decide(*sums(terms), lambda: assignment(ks))

    switch = sorted(B)
    if holds(()):
        return assignment(())
    forced = [i for i in switch if B[i][0] < 0] if g.strict else []
    if forced and holds(forced):
        return assignment(forced)
    savers = [i for i in switch if F[i][0] > 0 and i not in set(forced)]
    if savers:  # keeping one +inf term keeps the decision, and nothing fewer does
        return assignment(forced + savers[:1])
    forced = [i for i in switch if B[i][0] < 0]
    fset = set(forced)
    items = [i for i in switch if i not in fset and B[i][0] == 0 and F[i][0] == 0
             and g.above(i, x[i], best[i])]
    gain = {i: F[i][1] - B[i][1] for i in items}
    start = g.c[1] + sum(F[i][1] if (i not in B or i in fset) else B[i][1] for i in range(n))
    items = g.sort_desc(items, gain, lambda i: g.ratio(i, x[i]) / g.ratio(i, best[i]))
    taken = greedy(d, items, gain, start, lambda p: assignment(forced + p), until=True)
    if taken is None:  # unreachable: keeping everything is the instance itself
        raise AssertionError("no MC-explanation found")
    return assignment(forced + taken)
