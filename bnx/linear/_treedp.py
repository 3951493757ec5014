"""Dynamic programmes over the feature forest of a TAN race (:mod:`bnx.linear._forest`).

A value is a triple ``(plus, minus, s)``: how many +inf and -inf terms a sum holds and
the sum of its finite terms (rounded logs, or with ``exact`` the product of exact
ratios). Sums of values add componentwise, and values are ordered as the race sees
them: a non-strict race holds on any +inf, else fails on any -inf, else compares the
finite part with 0 (a strict race: -inf first). That order is monotone under sums,
so "the worst completion" is a min-sum over the forest, one message per feature and
state of its parent, linear in the size of the forest.

:func:`solve` carries, per feature, parent state and budget ``j <= K``, the least
value of the feature's subtree over the assignments whose total *cost* is at most
``j`` (a cost per feature and state: ``None`` forbids it). Budget 0 with the fixed
features forbidden to move is the sufficiency test; a cost of one per changed feature
gives the fewest changes that flip a decision. The rounded sums err by at most
``Forest.tol``; a verdict they cannot settle is redone with exact ratios.
:class:`Sufficiency` is the budget-0 programme kept up to date as features are fixed
and freed one at a time (only the messages on the path to the root that change).
"""

from __future__ import annotations

import math
from fractions import Fraction

from .._util.rounding import compare

__all__ = ["Sufficiency", "first_failure", "inside", "solve"]


def order_key(strict: bool):
    """Return the sort key of values in the race's order."""
    if strict:
        def key(v):
            return (-1, 0) if v[1] else ((1, 0) if v[0] else (0, v[2]))
    else:
        def key(v):
            return (1, 0) if v[0] else ((-1, 0) if v[1] else (0, v[2]))
    return key


def verdict(strict: bool, v: tuple, tol: int | None) -> bool | None:
    """Tell whether the race holds on the total ``v``.

    ``tol`` is the rounding bound of a rounded ``v`` (``None``: ``v`` is exact); ``None``
    when the rounded sum cannot tell.
    """
    if strict and v[1] or not strict and v[0]:
        return not strict
    if v[0] or v[1]:
        return strict
    s = v[2]
    if tol is None:
        return s > 1 if strict else s >= 1
    return compare(s, 0, 0, strict=strict, err=tol)


def scalars(fr, side: bool, exact: bool) -> tuple:
    """``(T, unit, add, judge, plus, minus)``: the race's terms as plain comparable numbers.

    A finite value is the rounded log sum (an integer below ``H`` in size) or the exact
    ratio (positive); +inf and -inf are two sentinels beyond every finite value, and
    ``add`` lets the race's dominant infinity win. ``judge(total)`` is :func:`verdict`.
    """
    got = fr._terms.get(("scalars", side, exact))
    if got is not None:
        return got
    strict, c, T3 = fr.terms(side, exact)
    if exact:
        plus, minus, unit = math.inf, -math.inf, Fraction(1)
        tol = None
    else:
        bound = max([abs(fr.lg0)] + [abs(n[2]) for n in fr.nudged.values()]) + sum(
            max(abs(v) for row in L for v in row) for L in fr.lg) + 1
        plus, minus, unit = 2 * bound, -2 * bound, 0
        tol = fr.tol
    first, second = (minus, plus) if strict else (plus, minus)

    if exact:
        def add(u, w):
            if u == first or w == first:
                return first
            if u == second or w == second:
                return second
            return u * w
    else:
        def add(u, w):
            if u == first or w == first:
                return first
            if u == second or w == second:
                return second
            return u + w

    def judge(v) -> bool | None:
        if v == plus or v == minus:
            return v == plus
        return verdict(strict, (0, 0, v), tol)

    def scalar(t):
        return plus if t[0] else (minus if t[1] else t[2])

    T = [[[scalar(t) for t in row] for row in Ti] for Ti in T3]
    got = fr._terms[("scalars", side, exact)] = (T, unit, add, judge, plus, minus)
    return got


def solve(fr, side: bool, cost: list, K: int, exact: bool = False):
    """Return ``(totals, assignment)``: the least values of the race keeping ``side`` per cost.

    ``totals[j]`` is the least value over assignments of cost at most ``j`` (``None`` if
    none), and ``assignment(j)`` one that attains it (values as :func:`scalars` makes them).
    """
    n = fr.n
    M, choice, splits = inside(fr, side, cost, K, exact)

    def assignment(j: int) -> list[int]:
        y = [0] * n
        stack = [(n, 0, j)]
        while stack:
            i, u, j = stack.pop()
            pick = choice[i][u]
            j = min(j, len(pick) - 1)
            yi = pick[j]
            if i < n:
                y[i] = yi
                j -= cost[i][yi]
            kids = fr.children[i]
            for t in range(len(kids) - 1, -1, -1):
                js = splits[i][t][yi]
                j = min(j, len(js) - 1)
                j1 = js[j]
                stack.append((kids[t], yi, j - j1))
                j = j1
        return y

    totals = M[n][0]
    return totals + [totals[-1]] * (K + 1 - len(totals)), assignment


def inside(fr, side: bool, cost: list, K: int, exact: bool = False) -> tuple:
    """Return ``(M, choice, splits)``: the min-sum's messages, children before parents.

    ``M[i][u][j]``: the least value of feature ``i``'s subtree (its own term included) with
    its parent at state ``u`` over the assignments of cost at most ``j`` (``None`` if none; a
    list stops where more budget no longer helps, its last entry holding beyond);
    ``choice`` and ``splits`` say how it is attained (for :func:`solve`'s assignment).
    """
    T, unit, add = scalars(fr, side, exact)[:3]
    n = fr.n
    M: list = [None] * (n + 1)
    choice: list = [None] * (n + 1)
    splits: list = [None] * (n + 1)
    for i in fr.postorder:
        ki = fr.card(i)
        kp = 1 if i == n else fr.card(fr.parent[i])
        ci = cost[i] if i < n else (0,)
        # acc[y][j]: the least value of the children's subtrees with at most j changes; a
        # list stops where more budget no longer helps (its last entry holds beyond)
        acc = [[unit] if ci[y] is not None else None for y in range(ki)]
        sp = []
        for ch in fr.children[i]:
            Mc = M[ch]
            row = []
            for y in range(ki):
                a = acc[y]
                if a is None:
                    row.append(None)
                    continue
                b = Mc[y]
                la, lb = len(a), len(b)
                length = min(K, la + lb - 2) + 1
                new, js = [None] * length, [0] * length
                for j in range(length):
                    best = None
                    for j1 in range(max(0, j - lb + 1), min(j, la - 1) + 1):
                        u, w = a[j1], b[j - j1]
                        if u is None or w is None:
                            continue
                        v = add(u, w)
                        if best is None or v < best:
                            best, js[j] = v, j1
                    new[j] = best
                acc[y] = new
                row.append(js)
            sp.append(row)
        Ti = T[i]
        top = max((len(acc[y]) - 1 + ci[y] for y in range(ki) if ci[y] is not None),
                  default=0)
        length = min(K, top) + 1
        out, picks = [], []
        for u in range(kp):
            res, pick = [None] * length, [None] * length
            for j in range(length):
                best = None
                for y in range(ki):
                    cy = ci[y]
                    if cy is None or cy > j:
                        continue
                    a = acc[y]
                    v = a[min(j - cy, len(a) - 1)]
                    if v is None:
                        continue
                    v = add(Ti[y][u], v)
                    if best is None or v < best:
                        best, pick[j] = v, y
                res[j] = best
            out.append(res)
            picks.append(pick)
        M[i], choice[i], splits[i] = out, picks, sp
    return M, choice, splits


def first_failure(fr, side: bool, cost: list, K: int) -> tuple[int, list[int]] | None:
    """Return ``(j, y)``: the least budget ``j <= K`` at which the race keeping ``side`` fails.

    Some assignment ``y`` of cost at most ``j`` makes it fail, exactly; ``None`` if none
    does.
    """
    judge = scalars(fr, side, False)[3]
    totals, assignment = solve(fr, side, cost, K)
    for j, v in enumerate(totals):
        if v is None:
            continue
        h = judge(v)
        if h is None:  # too close to call: the exact ratios
            exact, exact_assignment = solve(fr, side, cost, j, exact=True)
            if exact[j] is not None and not scalars(fr, side, True)[3](exact[j]):
                return j, exact_assignment(j)
        elif not h:
            return j, assignment(j)
    return None


class Sufficiency:
    """A sufficiency oracle: whether fixing the features marked fixed keeps the race ``side``.

    Fixed at ``x``, whatever the others are. Kept up to date under :meth:`set`, one feature
    at a time.

    Whatever the others are. Kept up to date under :meth:`set`, one feature at a time.
    """

    def __init__(self, fr, side: bool, x: list[int]) -> None:
        self.fr, self.side, self.x = fr, side, x
        self.strict, self.c, self.T = fr.terms(side)
        self.key = order_key(self.strict)
        n = self.n = fr.n
        self.fixed = [True] * n
        self.csum = [[(0, 0, 0)] * fr.card(i) for i in range(n + 1)]
        self.M: list = [None] * n
        for i in fr.postorder[:-1]:
            self.M[i] = m = self._message(i)
            cs = self.csum[fr.parent[i]]
            for u, v in enumerate(m):
                cs[u] = (cs[u][0] + v[0], cs[u][1] + v[1], cs[u][2] + v[2])

    def _message(self, i: int) -> list:
        Ti, cs = self.T[i], self.csum[i]
        if self.fixed[i]:  # one state: no minimum to take
            y = self.x[i]
            s = cs[y]
            return [(t[0] + s[0], t[1] + s[1], t[2] + s[2]) for t in Ti[y]]
        key = self.key
        out = []
        for u in range(len(Ti[0])):
            best = bk = None
            for y, row in enumerate(Ti):
                t, s = row[u], cs[y]
                v = (t[0] + s[0], t[1] + s[1], t[2] + s[2])
                kv = key(v)
                if best is None or kv < bk:
                    best, bk = v, kv
            out.append(best)
        return out

    def set(self, i: int, fixed: bool) -> None:
        """Fix feature ``i`` at its state in ``x`` (or free it)."""
        if self.fixed[i] == fixed:
            return
        self.fixed[i] = fixed
        n, parent, M, csum = self.n, self.fr.parent, self.M, self.csum
        node = i
        while node != n:
            new = self._message(node)
            old = M[node]
            if new == old:
                return
            M[node] = new
            cs = csum[parent[node]]
            for u, (a, b) in enumerate(zip(old, new)):
                s = cs[u]
                cs[u] = (s[0] - a[0] + b[0], s[1] - a[1] + b[1], s[2] - a[2] + b[2])
            node = parent[node]

    def total(self) -> tuple:
        """Return the rounded value of the worst completion: ``(plus, minus, sum)``."""
        s, c = self.csum[self.n][0], self.c
        return (s[0] + c[0], s[1] + c[1], s[2] + c[2])

    def holds(self) -> bool:
        """Tell whether the race is kept on every completion (exactly)."""
        s, c = self.csum[self.n][0], self.c
        got = verdict(self.strict, (s[0] + c[0], s[1] + c[1], s[2] + c[2]), self.fr.tol)
        if got is None:
            cost = [[0 if v == x else None for v in range(len(self.T[i]))] if f else
                    [0] * len(self.T[i]) for i, (f, x) in enumerate(zip(self.fixed, self.x))]
            got = first_failure(self.fr, self.side, cost, 0) is None
        return got
