"""Every member of a least-cost set of one decision, without compiling.

:func:`bnx.linear.mc_explanations` and :func:`bnx.linear.counterfactuals` return what the
diagram's questions return: every complete instance (or every set of changes) of least
cost whose decision is the one wanted. Both are enumerations of the assignments ``z``
where each feature takes one of its *options* (a state and a cost of 0 or 1), the total
cost is at most a budget ``k`` (the least cost, found first), and the race keeping the
decision (:mod:`bnx.linear._core`) holds on ``z`` (MC-explanations) or fails
(counterfactuals).

Naive Bayes (:func:`naive_bayes`): the race is a sum of one term per feature, so the best
completion of a partial assignment with ``r`` more paid options is read off two prefix
sums: each remaining feature at its best free option, plus the ``r`` largest
improvements a paid option brings (the features are searched in decreasing
improvement, so these are the next ``r``). A branch is entered only if that best
completion, rounded, is within the rounding bound of the answer wanted; every leaf is
decided exactly (:meth:`~bnx.linear._core.Race.decide`). Infinite terms (zero entries)
are counted in a first component that dominates the finite sum: with ``N`` more than the
number of terms, the race's winning infinity weighs ``N + 1`` and the losing one ``-1``
(or ``-(N + 1)`` and ``1``), so "+inf wins" (or "-inf wins") is a lexicographic sum.
Each branch entered holds an answer (up to near ties within the rounding bound), so the
delay between two answers is polynomial.

TAN (:func:`tan`): the same search, each branch asked of the min-sum over the feature
forest with the branch's choices fixed (:func:`bnx.linear._treedp.first_failure`, exact
on near ties): polynomial delay too.

The answers are gathered as rows and built into one diagram (:func:`diagram`) in a
:class:`~bnx.diagram.store.Store`, the node table every explanation set of bnx lives in.
Past :data:`MAX_MEMBERS` answers the enumeration gives up
(:class:`~bnx.StructureError`): the compiled ODD holds any number of them as a diagram.
"""

from __future__ import annotations

from ..diagram.layout import DROPPED
from ..errors import StructureError
from ._plan import sums
from ._treedp import first_failure

__all__ = ["MAX_MEMBERS", "diagram", "naive_bayes", "tan"]

#: answers enumerated before giving up: the diagram of the compiled ODD holds any number
MAX_MEMBERS = 100_000


def _too_many(what: str, n: int) -> StructureError:
    return StructureError(
        f"bnx.linear lists {what} one by one, and this decision has more than "
        f"{MAX_MEMBERS:,} of them ({n:,} features); compile the classifier with bnx.compile "
        f"(the ODD holds them all as one diagram, counted without listing them), or ask "
        f"bnx.linear.robustness and bnx.linear.shortest_contrastive_explanation")


def naive_bayes(d, options: list, budget: int, want: bool, what: str) -> list[list[int]]:
    """Every assignment of cost at most ``budget`` whose race verdict is ``want``.

    ``d`` is a :class:`~bnx.linear._plan.Decision`; ``options[i]`` lists feature ``i``'s
    ``(state, cost)`` pairs (cost 0 or 1), at least one of cost 0 (``None``: the feature
    keeps the instance's state). ``want`` True: the race keeping the decision holds;
    False: it fails.
    """
    g, n, x = d.race, d.n, d.x
    N = n + 2
    win, lose = (1, -(N + 1)) if g.strict else (N + 1, -1)
    sign = 1 if want else -1
    # oriented: the search maximises sign * value; the verdict wanted is o >= 0 or o > 0
    strict = want == g.strict
    tol = g.tol

    def pair(t):
        flag, lg = t
        if flag > 0:
            return sign * win, 0
        if flag < 0:
            return sign * lose, 0
        return 0, sign * lg

    ca, cs = pair(g.c)
    items, opts = [], {}
    for i in range(n):
        if options[i] is None:
            a, s = pair(g.term(i, x[i]))
            ca, cs = ca + a, cs + s
            continue
        got = sorted(((pair(g.term(i, v)), v, c) for v, c in options[i]), reverse=True)
        free = next(p for p, _, c in got if c == 0)
        paid = next((p for p, _, c in got if c == 1), None)
        gain = (0, 0) if paid is None or paid <= free else (paid[0] - free[0],
                                                             paid[1] - free[1])
        items.append((gain, i, free))
        opts[i] = [(v, c, p) for p, v, c in got]
    items.sort(key=lambda t: t[0], reverse=True)
    m = len(items)
    order = [i for _, i, _ in items]
    # prefix sums of the gains, suffix sums of the best free options
    ga, gs = [0] * (m + 1), [0] * (m + 1)
    for k, (gain, _, _) in enumerate(items):
        ga[k + 1], gs[k + 1] = ga[k] + gain[0], gs[k] + gain[1]
    fa, fs = [0] * (m + 1), [0] * (m + 1)
    for k in range(m - 1, -1, -1):
        free = items[k][2]
        fa[k], fs[k] = fa[k + 1] + free[0], fs[k + 1] + free[1]

    def hopeless(k: int, r: int, a: int, s: int) -> bool:
        """The best completion from item ``k`` with ``r`` paid options fails, for sure."""
        top = min(k + r, m)
        a += fa[k] + ga[top] - ga[k]
        s += fs[k] + gs[top] - gs[k] + tol
        return a < 0 or a == 0 and (s <= 0 if strict else s < 0)

    out: list[list[int]] = []
    if hopeless(0, budget, ca, cs):
        return out
    cur = list(x)
    terms = g.terms
    # each frame: [item, paid options left, oriented sum so far (a, s), next option]
    stack = [[0, budget, ca, cs, 0]]
    while stack:
        frame = stack[-1]
        k, r, a, s, t = frame
        if k == m:
            stack.pop()
            plus, minus, total = sums([g.c] + [terms[i][v] for i, v in enumerate(cur)])
            if g.decide(plus, minus, total, lambda: cur) == want:
                out.append(list(cur))
                if len(out) > MAX_MEMBERS:
                    raise _too_many(what, n)
            continue
        i = order[k]
        choices = opts[i]
        while t < len(choices):
            v, c, p = choices[t]
            t += 1
            if c > r or hopeless(k + 1, r - c, a + p[0], s + p[1]):
                continue
            frame[4] = t
            cur[i] = v
            stack.append([k + 1, r - c, a + p[0], s + p[1], 0])
            break
        else:
            stack.pop()
    return out


def tan(d, cost: list, budget: int, races: list, what: str) -> list[list[int]]:
    """Every assignment of cost at most ``budget`` that makes one of ``races`` fail.

    ``d`` is a :class:`~bnx.linear._tan.TanDecision`; ``cost[i][v]`` the cost of state
    ``v`` of feature ``i`` (0 or 1; ``None`` forbids it); ``races`` lists ``(forest,
    side)``. A branch is entered only if the min-sum over the forest, with the branch's
    choices fixed, finds such an assignment (exactly).
    """
    n = d.n
    row = [list(c) for c in cost]

    def reachable() -> bool:
        return any(first_failure(fr, side, row, budget) is not None for fr, side in races)

    out: list[list[int]] = []
    if not reachable():
        return out
    choices = [[v for v, c in enumerate(cost[i]) if c is not None] for i in range(n)]
    cur = [0] * n
    stack = [[0, 0]]  # each frame: [feature, next choice]
    while stack:
        frame = stack[-1]
        i, t = frame
        if i == n:
            stack.pop()
            out.append(list(cur))
            if len(out) > MAX_MEMBERS:
                raise _too_many(what, n)
            continue
        found = False
        while t < len(choices[i]):
            v = choices[i][t]
            t += 1
            row[i] = [c if u == v else None for u, c in enumerate(cost[i])]
            if reachable():
                frame[1] = t
                cur[i] = v
                stack.append([i + 1, 0])
                found = True
                break
        if not found:
            row[i] = list(cost[i])
            stack.pop()
    return out


def diagram(layout, store, rows) -> int:
    """Build the set of ``rows`` (one label per feature: a state, or ``DROPPED``) in ``store``.

    Sorted, the rows are a trie whose node at level ``i`` is complete once a row leaves its
    prefix: a loop with one open node per level, no recursion however many features.
    """
    n = layout.n
    rows = sorted(set(map(tuple, rows)), key=lambda r: [-1 if v is DROPPED else v for v in r])
    if not rows:
        return 0
    if n == 0:
        return 1
    build = layout.build_table
    open_: list[dict] = [{} for _ in range(n)]
    prev = None
    for row in rows:
        if prev is not None:
            common = next(k for k in range(n) if row[k] != prev[k])
            for i in range(n - 1, common, -1):
                open_[i - 1][prev[i - 1]] = build(store, i, open_[i])
                open_[i] = {}
        open_[n - 1][row[n - 1]] = 1
        prev = row
    for i in range(n - 1, 0, -1):
        open_[i - 1][prev[i - 1]] = build(store, i, open_[i])
    return build(store, 0, open_[0])
