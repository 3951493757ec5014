"""Every member of a least-cost set of one decision, without compiling.

:func:`bnx.linear.mc_explanations` and :func:`bnx.linear.counterfactuals` return what the
diagram's questions return: every complete instance (or every set of changes) of least
cost whose decision is the one wanted, as a set held in a
:class:`~bnx.diagram.store.Store`, the node table every explanation set of bnx lives in.
Both are the assignments ``z`` where each feature takes one of its *options* (a state and
a cost of 0 or 1), the total cost is at most a budget ``k`` (the least cost, found first),
and the race keeping the decision (:mod:`bnx.linear._core`) holds on ``z``
(MC-explanations) or fails (counterfactuals).

Naive Bayes (:func:`naive_bayes`): the race is a sum of one term per feature, so the set is
a threshold function of the sum, and its diagram is built feature by feature without
listing its members. A state of the construction is a feature, the paid options left and
the sum so far; the set below it changes only where that sum crosses the total of some
completion, so each node built is remembered with the interval of sums that give the same
set and reused for any sum in it (the construction of threshold functions' diagrams). A
state whose best completion cannot reach the threshold is the empty set at once. Sums are
the rounded logs; a leaf whose total is within the rounding bound of 0 is decided on the
exact products (:meth:`~bnx.linear._core.Race.decide`), and the nodes above it are
remembered nowhere (they hold for their own path only). Infinite terms (zero entries) are
counted in a first component that dominates the finite sum: with ``N`` more than the number
of terms, the race's winning infinity weighs ``N + 1`` and the losing one ``-1`` (or
``-(N + 1)`` and ``1``), so "+inf wins" (or "-inf wins") is a lexicographic sum. The
diagram's size is not polynomial in general: past :data:`MAX_STATES` remembered states the
construction gives up (:class:`~bnx.StructureError`).

TAN (:func:`tan`): the members are listed depth first over the features and their options,
a branch entered only if the min-sum over the feature forest with the branch's choices
fixed (:func:`bnx.linear._treedp.first_failure`, exact on near ties) finds a member below
it, so each member comes after polynomially many min-sums; they are built into one diagram
(:func:`diagram`). Past :data:`MAX_MEMBERS` members or :data:`MAX_SOLVES` min-sums the
search gives up (:class:`~bnx.StructureError`). The compiled ODD holds any number of members
as a diagram.
"""

from __future__ import annotations

import bisect
import math

from ..diagram.layout import DROPPED
from ..errors import StructureError
from ._plan import sums
from ._treedp import first_failure

__all__ = ["MAX_MEMBERS", "MAX_SOLVES", "MAX_STATES", "diagram", "naive_bayes", "tan"]

#: answers a TAN's enumeration lists before giving up
MAX_MEMBERS = 100_000

#: min-sums over a TAN's feature tree its enumeration makes before giving up
MAX_SOLVES = 20_000

#: distinct states (feature, budget left, interval of sums) a naive Bayes set is built from
#: before giving up: a few seconds
MAX_STATES = 250_000


def _too_many(what: str, n: int, limit: int, of: str) -> StructureError:
    return StructureError(
        f"bnx.linear gave up {what}: more than {limit:,} {of} ({n:,} features); compile "
        f"the classifier with bnx.compile (the ODD holds them as one diagram), or ask "
        f"bnx.linear.robustness and bnx.linear.shortest_contrastive_explanation")


def naive_bayes(d, options: list, budget: int, want: bool, layout, store, what: str, *,
                limit: int | None = None) -> int:
    """Build the set of assignments of cost at most ``budget`` whose race verdict is ``want``.

    ``d`` is a :class:`~bnx.linear._plan.Decision`; ``options[i]`` lists feature ``i``'s
    ``(label, state, cost)`` triples (``label`` the layout's choice, cost 0 or 1), at least
    one of cost 0. ``want`` True: the race keeping the decision holds; False: it fails.
    Returns the set's node in ``store`` (``layout``'s levels), made level by level without
    listing its members (see the module's docstring); gives up past ``limit`` states
    (default :data:`MAX_STATES`).
    """
    limit = MAX_STATES if limit is None else limit
    g, n = d.race, d.n
    N = n + 2
    win, lose = (1, -(N + 1)) if g.strict else (N + 1, -1)
    sign = 1 if want else -1
    strict = want == g.strict  # oriented: a member has o > 0 (strict) or o >= 0
    tol = g.tol
    inf = math.inf

    def pair(t):
        flag, lg = t
        if flag > 0:
            return sign * win, 0
        if flag < 0:
            return sign * lose, 0
        return 0, sign * lg

    opts = [[(label, v, c, pair(g.term(i, v))) for label, v, c in options[i]]
            for i in range(n)]
    # the best completion from feature p: with any options, with free ones only
    best_any, best_free = [(0, 0)] * (n + 1), [(0, 0)] * (n + 1)
    for i in range(n - 1, -1, -1):
        top = max(p for _, _, _, p in opts[i])
        free = max(p for _, _, c, p in opts[i] if c == 0)
        a, b = best_any[i + 1], best_free[i + 1]
        best_any[i] = (a[0] + top[0], a[1] + top[1])
        best_free[i] = (b[0] + free[0], b[1] + free[1])
    memo: dict = {}  # (p, r, A) -> (sorted lows, highs, nodes): s in [low, high] gives node
    size = [0]
    cur = list(d.x)
    terms = g.terms

    def leaf(A: int, s: int):
        if A:
            return (1 if A > 0 else 0), -inf, inf, True
        if (s - tol > 0) if strict else (s - tol >= 0):
            return 1, (tol + 1 if strict else tol), inf, True
        if (s + tol <= 0) if strict else (s + tol < 0):
            return 0, -inf, (-tol if strict else -tol - 1), True
        plus, minus, total = sums([g.c] + [terms[i][v] for i, v in enumerate(cur)])
        return (1 if g.decide(plus, minus, total, lambda: cur) == want else 0), s, s, False

    def settled(p: int, r: int, A: int, s: int):
        """Return the node of a state that needs no descent, or ``None``."""
        if p == n:
            return leaf(A, s)
        ba, bs = (best_any if r else best_free)[p]
        if A + ba < 0:
            return 0, -inf, inf, True
        if A + ba == 0 and ((s + bs + tol <= 0) if strict else (s + bs + tol < 0)):
            return 0, -inf, (-(bs + tol) if strict else -(bs + tol) - 1), True
        got = memo.get((p, r, A))
        if got is not None:
            lows, highs, nodes = got
            k = bisect.bisect_right(lows, s) - 1
            if k >= 0 and s <= highs[k]:
                return nodes[k], lows[k], highs[k], True
        return None

    def remember(p: int, r: int, A: int, low, high, node: int) -> None:
        lows, highs, nodes = memo.setdefault((p, r, A), ([], [], []))
        k = bisect.bisect_right(lows, low)
        lows.insert(k, low)
        highs.insert(k, high)
        nodes.insert(k, node)
        size[0] += 1
        if size[0] > limit:
            raise _too_many(what, n, limit, "states of its search")

    ca, cs = pair(g.c)
    got = settled(0, budget, ca, cs)
    if got is not None:
        return got[0]
    build = layout.build_table
    # each frame: [feature, budget left, A, s, next option, children, low, high, memoisable]
    stack = [[0, budget, ca, cs, 0, {}, -inf, inf, True]]
    back = None
    while True:
        f = stack[-1]
        p, r, A, s, t, children, low, high, ok = f
        row = opts[p]
        if back is not None:  # a child's answer, for option t - 1
            label, _, _, (_, ps) = row[t - 1]
            node, clo, chi, cok = back
            back = None
            if node:
                children[label] = node
            if cok:
                low, high = max(low, clo - ps), min(high, chi - ps)
            else:
                ok = False
        descend = None
        while t < len(row):
            label, v, c, (pa, ps) = row[t]
            t += 1
            if c > r:
                continue
            cur[p] = v
            got = settled(p + 1, r - c, A + pa, s + ps)
            if got is None:
                descend = [p + 1, r - c, A + pa, s + ps, 0, {}, -inf, inf, True]
                break
            node, clo, chi, cok = got
            if node:
                children[label] = node
            if cok:
                low, high = max(low, clo - ps), min(high, chi - ps)
            else:
                ok = False
        if descend is not None:
            f[4:] = [t, children, low, high, ok]
            stack.append(descend)
            continue
        cur[p] = d.x[p]
        node = build(store, p, children)
        if ok:
            remember(p, r, A, low, high, node)
        stack.pop()
        if not stack:
            return node
        back = (node, low, high, ok)


def tan(d, cost: list, budget: int, races: list, what: str, *,
        limit: int | None = None, work: int | None = None) -> list[list[int]]:
    """Every assignment of cost at most ``budget`` that makes one of ``races`` fail.

    ``d`` is a :class:`~bnx.linear._tan.TanDecision`; ``cost[i][v]`` the cost of state
    ``v`` of feature ``i`` (0 or 1; ``None`` forbids it); ``races`` lists ``(forest,
    side)``. A branch is entered only if the min-sum over the forest, with the branch's
    choices fixed, finds such an assignment (exactly). Gives up past ``limit`` members
    (default :data:`MAX_MEMBERS`) or ``work`` min-sums (default :data:`MAX_SOLVES`).
    """
    limit = MAX_MEMBERS if limit is None else limit
    work = MAX_SOLVES if work is None else work
    n = d.n
    row = [list(c) for c in cost]
    solves = [0]

    def reachable() -> bool:
        solves[0] += 1
        if solves[0] > work:
            raise _too_many(what, n, work, "min-sums over the feature tree")
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
            if len(out) > limit:
                raise _too_many(what, n, limit, "members to list")
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
