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

TAN (:func:`tan`): the members are listed depth first over the features in the forest's
preorder and their options. The features not yet chosen are then whole subtrees below
chosen ones, so the least value of a completion is the chosen terms plus a min-plus
convolution over budgets of those subtrees' messages (the min-sum's, computed once:
:func:`bnx.linear._treedp.inside`), kept on a stack as the subtrees are entered; a branch
is entered only if that least value can make the race fail, and a complete assignment is
decided exactly, so each member comes after polynomially many steps. They are built into
one diagram (:func:`diagram`). Past :data:`MAX_MEMBERS` members or :data:`MAX_STEPS`
bounds the search gives up (:class:`~bnx.StructureError`). The compiled ODD holds any
number of members as a diagram.
"""

from __future__ import annotations

import bisect
import math

from ..diagram.layout import DROPPED
from ..errors import StructureError
from ._plan import sums
from ._treedp import inside, scalars

__all__ = ["MAX_MEMBERS", "MAX_STEPS", "MAX_STATES", "diagram", "naive_bayes", "tan"]

#: answers a TAN's enumeration lists before giving up
MAX_MEMBERS = 100_000

#: bounds a TAN's enumeration computes before giving up (each a few min-plus convolutions)
MAX_STEPS = 200_000

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

    def absorb(children: dict, label, got: tuple, ps: int, low, high, ok: bool) -> tuple:
        """Take a child's answer (its node, its sums' interval, memoisable) into its parent's."""
        node, clo, chi, cok = got
        if node:
            children[label] = node
        if cok:
            return max(low, clo - ps), min(high, chi - ps), ok
        return low, high, False

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
            low, high, ok = absorb(children, label, back, ps, low, high, ok)
            back = None
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
            low, high, ok = absorb(children, label, got, ps, low, high, ok)
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
    side)`` over one forest of features. Depth first in the forest's preorder: the features
    not yet chosen are whole subtrees below chosen ones, so the least value of a completion
    is the chosen terms plus a min-plus convolution over budgets of those subtrees' messages
    (:func:`bnx.linear._treedp.inside`, computed once), kept on a stack as the subtrees
    are entered. A branch is entered only if that least value can fail the race (rounded,
    or too close to call); a complete assignment is decided exactly. Gives up past
    ``limit`` members (default :data:`MAX_MEMBERS`) or ``work`` bounds (default
    :data:`MAX_STEPS`).
    """
    limit = MAX_MEMBERS if limit is None else limit
    work = MAX_STEPS if work is None else work
    n, K = d.n, budget
    fr0 = races[0][0]
    kids = fr0.children
    preps = []
    for fr, side in races:
        T, unit, add, judge = scalars(fr, side, False)[:4]
        M = inside(fr, side, cost, K)[0]
        M = [None if m is None else [row + [row[-1]] * (K + 1 - len(row)) for row in m]
             for m in M]
        preps.append((T, unit, add, judge, M, fr, side))

    def conv(a: list, b: list, add) -> list:
        out = [None] * (K + 1)
        for j in range(K + 1):
            best = None
            for j1 in range(j + 1):
                u, w = a[j1], b[j - j1]
                if u is None or w is None:
                    continue
                v = add(u, w)
                if best is None or v < best:
                    best = v
            out[j] = best
        return out

    pend: list = []  # features to choose, next on top: (feature, its parent's state)
    convs = [[[p[1]] * (K + 1)] for p in preps]  # per race: convolutions of pend[:k]

    def push(i: int, u: int) -> None:
        pend.append((i, u))
        for p, cs in zip(preps, convs):
            cs.append(conv(cs[-1], p[4][i][u], p[2]))

    def pop() -> tuple:
        for cs in convs:
            cs.pop()
        return pend.pop()

    for r in reversed(kids[n]):
        push(r, 0)
    cur = [0] * n
    steps = [0]

    def viable(i: int, u: int, y: int, S: list, left: int) -> bool:
        steps[0] += 1
        if steps[0] > work:
            raise _too_many(what, n, work, "bounds of its search")
        for (T, unit, add, judge, M, _, _), cs, s in zip(preps, convs, S):
            below = [unit] * (K + 1)
            for c in kids[i]:
                below = conv(below, M[c][y], add)
            rest = conv(cs[-1], below, add)
            least = min((v for v in rest[:left + 1] if v is not None), default=None)
            if least is not None and judge(add(add(s, T[i][y][u]), least)) is not True:
                return True
        return False

    def member(S: list) -> bool:
        for (_, _, _, judge, _, fr, side), s in zip(preps, S):
            got = judge(s)
            if got is None:  # too close to call: the exact ratios
                Te, _, adde, judgee = scalars(fr, side, True)[:4]
                total = Te[n][0][0]
                for i in range(n):
                    p = fr.parent[i]
                    total = adde(total, Te[i][cur[i]][0 if p == n else cur[p]])
                got = judgee(total)
            if not got:
                return True
        return False

    out: list[list[int]] = []
    start = [p[0][n][0][0] for p in preps]
    if not pend:  # no features: the constant decides
        return [[]] if member(start) else []
    # each frame: [feature, parent's state, next option, sums before it, budget used]
    i, u = pop()
    stack = [[i, u, 0, start, 0]]
    while stack:
        frame = stack[-1]
        i, u, t, S, used = frame
        row = cost[i]
        entered = False
        while t < len(row):
            y, c = t, row[t]
            t += 1
            if c is None or used + c > K or not viable(i, u, y, S, K - used - c):
                continue
            cur[i] = y
            S2 = [p[2](s, p[0][i][y][u]) for p, s in zip(preps, S)]
            for ch in reversed(kids[i]):
                push(ch, y)
            if not pend:  # a complete assignment
                if member(S2):
                    out.append(list(cur))
                    if len(out) > limit:
                        raise _too_many(what, n, limit, "members to list")
                continue
            frame[2] = t
            j, v = pop()
            stack.append([j, v, 0, S2, used + c])
            entered = True
            break
        if entered:
            continue
        # every option of this feature tried: give its place back, and its parent's
        # frame takes back the children it pushed
        stack.pop()
        push(i, u)
        if stack:
            parent = stack[-1]
            for _ in kids[parent[0]]:
                pop()
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
