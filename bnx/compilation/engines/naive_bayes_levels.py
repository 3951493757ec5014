"""The naive Bayes level engine: binary-class naive Bayes, a whole level at a time.

It works with numpy, in floating point with exact ties (:class:`LevelEngine`; the
algorithm, :class:`Levels`, is explained here).

The same decision function as :class:`~bnx.compilation.engines.naive_bayes.RatioEngine`
(and hence, dd's unique table being canonical, the identical diagram), computed in
log-odds space: a state of level ``i`` is ``s = log rho`` of an observed prefix,
its child through state ``v`` of feature ``i`` is ``s + w_i(v)`` with
``w_i(v) = log p_v - log q_v`` (``-inf`` when ``p_v = 0``, the true node when
``q_v = 0``), and the decision at the end is ``s >= 0``.

The classes of states with the same remaining function are the intervals between
the *breakpoints* ``B_i = {-W(z)}``, ``W(z)`` the log-likelihood ratio of a
completion ``z`` of the features ``i..n-1`` (``B_n = {0}``; crossing a breakpoint
changes some child's class, so distinct intervals are distinct functions). The
engine meets in the middle: it expands reachable states top-down (dropping
states that are settled whatever comes next) and breakpoints bottom-up (only
those in the range the reachable states can reach), always extending the
smaller frontier, until both reach the same level ``m``. From ``m`` down, states
are merged into their breakpoint interval (one representative each, found by
``searchsorted``); the diagram is then built bottom-up as arrays
(:class:`bnx.diagram._arrays.Builder`), one node per distinct tuple of children, and reduced
once (:func:`bnx.diagram._arrays.canonical`): no ``dd`` node is made (the ODD makes its ``dd``
form from the arrays when a user asks for it).

Floats settle every comparison whose gap exceeds a proven bound on the rounding
error of the sums (``tol``, by :func:`bnx._util.rounding.compare_all` where a state is
compared); only states and breakpoints closer than that are
compared as exact rationals, recomputed from their paths (exact ties at the
threshold are common in tests: they all go this way). Classifiers whose
probabilities underflow a double fall back to the exact engine.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..._util.rounding import U, compare_all
from ...classifier._classifier import Classifier
from ...diagram._arrays import FALSE, TRUE, Builder, DiagramArrays
from ...diagram.encoding import Encoding
from ..budget import Budget
from ._base import Engine, Verdict, accept, refuse
from ._estimates import nb_estimate
from ._intervals import INF, prior_odds
from ._ranks import Ranks
from ._weights import log_weights
from .naive_bayes import binary_threshold

__all__ = ["LevelEngine", "Levels", "log_weights"]  # log_weights: from ._weights


class Levels(Ranks):
    """Binary-class naive Bayes compiled level by level (see the module docstring).

    On the log-weights ``(s0, w, err)`` of :func:`log_weights`.
    """

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, weights: tuple):
        import numpy as np
        self.np = np
        self.enc, self.budget = enc, budget
        pos, neg, self.rho0 = prior_odds(clf)
        self.ratios = []  # exact p/q per state (None: q == 0)
        for f in enc.features:
            table = clf.table(f)
            self.ratios.append([None if table[neg][v] == 0 else table[pos][v] / table[neg][v]
                                for v in range(len(clf.states(f)))])
        self.s0, self.w, err = weights
        n = self.n = len(enc.features)
        fin = [wi[np.isfinite(wi)] for wi in self.w]
        self.finite = [np.flatnonzero(np.isfinite(wi)) for wi in self.w]
        self.minus = [np.flatnonzero(wi == -math.inf) for wi in self.w]
        self.plus = [np.flatnonzero(wi == math.inf) for wi in self.w]
        # suffix sums over features i.. : min/max finite weight, and flags
        lo_w = [float(f.min()) if len(f) else 0.0 for f in fin]
        hi_w = [float(f.max()) if len(f) else 0.0 for f in fin]
        mx = [float(wi[wi < math.inf].max()) if (wi < math.inf).any() else -math.inf
              for wi in self.w]
        mn = [float(wi.min()) for wi in self.w]  # -inf when some p = 0
        self.lo_w, self.hi_w = lo_w, hi_w
        self.true_later = [False] * (n + 1)
        self.max_rest = [0.0] * (n + 1)  # max over completions of W (non-true paths)
        self.min_rest = [0.0] * (n + 1)
        for i in reversed(range(n)):
            self.true_later[i] = self.true_later[i + 1] or len(self.plus[i]) > 0
            self.max_rest[i] = self.max_rest[i + 1] + mx[i]
            self.min_rest[i] = self.min_rest[i + 1] + mn[i]
        a = (abs(self.s0) if math.isfinite(self.s0) else 0.0) + sum(
            max(abs(lo_w[i]), abs(hi_w[i])) for i in range(n))
        tol = err + 4 * (n + 2) * U * (a + 1)
        self.gap = 4 * tol  # a float gap above this settles the exact comparison
        self.states: list = []  # per level: (values, parent, value index)
        self.bps: list = [None] * (n + 1)  # per level: (values, child, value index)
        self._rho: dict = {}
        self._prod: dict = {}

    # ------------------------------------------------------------------ exact values
    def rho(self, i: int, k: int) -> Fraction:
        """Exact odds ratio of state ``k`` of level ``i`` (from its path)."""
        key = (i, k)
        got = self._rho.get(key)
        if got is None:
            path = []
            while i > 0 and (i, k) not in self._rho:
                _, par, val = self.states[i]
                path.append((i - 1, int(val[k])))
                k = int(par[k])
                i -= 1
            got = self.rho0 if i == 0 else self._rho[(i, k)]
            for lvl, v in reversed(path):
                got = got * self.ratios[lvl][v]
            self._rho[key] = got
        return got

    def prod(self, j: int, k: int) -> Fraction:
        """Exact likelihood ratio ``P`` of breakpoint ``k`` of level ``j`` (``b = -log P``)."""
        memo = self._prod
        got = memo.get((j, k))
        if got is not None:
            return got
        path = []  # (level, breakpoint) down to a known one or the bottom (a loop, not a
        while j < self.n and (j, k) not in memo:  # recursion: diagrams may be deep)
            path.append((j, k))
            j, k = j + 1, self._below(j, k)
        got = memo.get((j, k))
        if got is None:  # level n: its one breakpoint, 0
            got = memo[(j, k)] = Fraction(1)
        for lvl, b in reversed(path):
            got = self._factor(lvl, b) * got
            memo[(lvl, b)] = got
        return got

    def _below(self, j: int, k: int) -> int:
        """Return the breakpoint of level ``j + 1`` that breakpoint ``k`` of level ``j`` extends."""
        return int(self.bps[j][1][k])

    def _factor(self, j: int, k: int) -> Fraction:
        """Return the exact ratio breakpoint ``k`` of level ``j`` multiplies in at its level."""
        return self.ratios[j][int(self.bps[j][2][k])]

    # ------------------------------------------------------------------ helpers
    def _classes(self, j: int, xs, exact):
        """Return the breakpoint interval of level ``j`` that holds each state of ``xs``."""
        np = self.np
        bv = self.bps[j][0]
        g = self.gap
        lo = np.searchsorted(bv, xs - g, "left")
        hi = np.searchsorted(bv, xs + g, "right")
        amb = np.flatnonzero(hi > lo)
        self._settle(j, lo, hi, amb, exact)
        return lo

    def _meet(self, n: int, up, down) -> tuple:
        """Meet in the middle, and return the level ``t`` and the child matrices above it.

        Extend the states from the top (``_top``) or the breakpoints from the bottom
        (``_bottom``), whichever frontier costs less (``up(t)`` against ``down(b)``), until
        they meet at a level ``t``.
        """
        mats = []
        t, b = 0, n
        while t < b:
            cost_up, cost_down = up(t), down(b)
            self.budget.pace(min(cost_up, cost_down), "top" if cost_up <= cost_down
                             else "bottom")  # sized before it starts
            if cost_up <= cost_down:
                mats.append(self._top(t))
                t += 1
            else:
                self._bottom(b, *self._range(t, b - 1))
                b -= 1
        return t, mats

    def _settle(self, j: int, lo, hi, amb, exact) -> None:
        """Set ``lo[a]`` to the exact position of each ambiguous entry ``a`` of ``amb``.

        Its float value is within a gap of breakpoints ``lo[a] .. hi[a] - 1``; its exact
        position among them is the first breakpoint ``k`` with ``exact(a) * prod(j, k) <
        1``.
        """
        if not len(amb):
            return
        self.budget.check()
        for a in amb.tolist():
            r = exact(a)
            c = int(lo[a])
            for k in range(int(lo[a]), int(hi[a])):
                if r * self.prod(j, k) >= 1:
                    c = k + 1
                else:
                    break
            lo[a] = c

    # ------------------------------------------------------------------ passes
    def _children(self, i: int):
        """Level ``i``'s states plus each non-true weight: (values, parent, value index)."""
        np = self.np
        vals = self.states[i][0]
        fin = self.finite[i]
        m = len(vals)
        self.budget.check()
        xs = (vals[None, :] + self.w[i][fin][:, None]).ravel()
        return xs, np.tile(np.arange(m), len(fin)), np.repeat(fin, m)

    def _child_matrix(self, i: int, res):
        """Return the children of level ``i``'s states, one row per state of feature ``i``.

        Each an index into level ``i + 1``, or -1 true (``q_v = 0``), -2 false, -3 the state
        ``rho = 0``, -4 a state that is positive on every completion.
        """
        np = self.np
        fin = self.finite[i]
        m = len(self.states[i][0])
        out = np.empty((len(self.w[i]), m), dtype=np.int64)
        out[fin] = res.reshape(len(fin), m)
        out[self.minus[i]] = -3
        out[self.plus[i]] = -1
        return out

    def _top(self, i: int):
        """Expand level ``i`` to level ``i + 1`` without breakpoints, and return its child matrix.

        Settled states become terminals, exactly equal ones merge.
        """
        np = self.np
        xs, par, val = self._children(i)
        n1 = i + 1
        res = np.full(len(xs), -5, dtype=np.int64)
        _, true = compare_all(xs, -self.min_rest[n1], 0.0, err=self.gap)  # every completion
        res[true] = -4
        if not self.true_later[n1]:
            settled, up = compare_all(xs, -self.max_rest[n1], 0.0, err=self.gap)
            res[settled & ~up] = -2  # no completion
        keep = np.flatnonzero(res == -5)

        def exact(idx):
            c = int(keep[idx])
            return self.rho(i, int(par[c])) * self.ratios[i][int(val[c])]

        order, ids = self._dedupe(xs[keep], exact)
        rep = keep[order[self._firsts(ids)]]
        self.budget.spend(len(rep))
        self.states.append((xs[rep], par[rep], val[rep]))
        cls = np.empty(len(keep), dtype=np.int64)
        cls[order] = ids
        res[keep] = cls
        return self._child_matrix(i, res)

    def _bottom(self, j: int, lo: float, hi: float) -> None:
        """Breakpoints of level ``j - 1`` from those of level ``j``, kept within ``[lo, hi]``."""
        np = self.np
        bv = self.bps[j][0]
        fin = self.finite[j - 1]
        m = len(bv)
        self.budget.check()
        xs = (bv[None, :] - self.w[j - 1][fin][:, None]).ravel()
        child = np.tile(np.arange(m), len(fin))
        val = np.repeat(fin, m)
        keep = np.flatnonzero((xs >= lo - self.gap) & (xs <= hi + self.gap))
        xs, child, val = xs[keep], child[keep], val[keep]

        def exact(idx):  # ascending b = -log P  <=>  descending P
            return -(self.ratios[j - 1][int(val[idx])] * self.prod(j, int(child[idx])))

        order, ids = self._dedupe(xs, exact)
        rep = order[self._firsts(ids)]
        self.bps[j - 1] = (xs[rep], child[rep], val[rep])

    def _range(self, t: int, j: int) -> tuple[float, float]:
        """Bounds on the states of level ``j`` reachable from those of level ``t``."""
        vals = self.states[t][0]
        if not len(vals):
            return math.inf, -math.inf
        lo, hi = float(vals.min()), float(vals.max())
        for k in range(t, j):
            lo += self.lo_w[k]
            hi += self.hi_w[k]
        return lo, hi

    def _reduce(self, i: int, cls):
        """Keep one state of level ``i`` per class (any member: they have the same function).

        Returns ``(classes, inverse)`` as ``numpy.unique``, in linear time (the class ids
        are bounded by the breakpoints).
        """
        np = self.np
        seen = np.zeros(int(cls.max(initial=-1)) + 1, dtype=bool)
        seen[cls] = True
        uniq = np.flatnonzero(seen)
        inv = (np.cumsum(seen) - 1)[cls]
        first = np.empty(len(uniq), dtype=np.int64)
        first[inv] = np.arange(len(cls))  # a member of each class
        self.states[i] = tuple(a[first] for a in self.states[i])
        old = {k: r for (lvl, k), r in self._rho.items() if lvl == i}
        for k, r in old.items():
            del self._rho[(i, k)]
            if int(first[inv[k]]) == k:  # a representative keeps its exact value
                self._rho[(i, int(inv[k]))] = r
        return uniq, inv

    # ------------------------------------------------------------------ driver
    def run(self):
        """Compile the decision function as :class:`~bnx.diagram._arrays.DiagramArrays`.

        False on the codes that name no state, as :meth:`bnx.Encoding.domain` requires.
        """
        np = self.np
        n, enc = self.n, self.enc
        b = self.builder = Builder(enc.nvars)
        first, nbits = enc.first_level, [len(bs) for bs in enc.bits]
        # per level: the function "every later feature names a state" (the true node of
        # the dd engines, restricted to the domain), of the state rho = 0, and of a state
        # positive on every completion (below a state with q_v = 0 the child is valid[])
        self.valid, self.zero, self.tops = [TRUE] * (n + 1), [FALSE] * (n + 1), [TRUE] * (n + 1)
        for i in reversed(range(n)):
            v = self.valid[i + 1]
            rows = [[v] * len(self.ratios[i]),
                    [v if r is None else self.zero[i + 1] for r in self.ratios[i]],
                    [v if r is None else self.tops[i + 1] for r in self.ratios[i]]]
            self.valid[i], self.zero[i], self.tops[i] = (
                int(u) for u in b.select(first[i], nbits[i], rows))
        if self.rho0 is INF:
            return b.finish(self.valid[0])
        if self.rho0 == 0:
            return b.finish(self.zero[0])
        one = np.zeros(1, np.int64)
        self.states.append((np.array([self.s0]), one, one))
        self.bps[n] = (np.array([0.0]), one, one)
        t, mats = self._meet(n, lambda t: len(self.states[t][0]) * len(self.finite[t]),
                             lambda b: len(self.bps[b][0]) * len(self.finite[b - 1]))
        # from level t on, states are merged into their breakpoint interval
        cls = self._classes(t, self.states[t][0], lambda a: self.rho(t, a))
        for i in range(t, n + 1):
            uniq, inv = self._reduce(i, cls)
            if i > t:  # (the meeting level's states were spent when expanded)
                self.budget.spend(len(uniq))
            if i == t and i > 0:  # level t - 1 points at states of level t
                mats[i - 1] = self._remap(mats[i - 1], inv)
            elif i > t:  # level i - 1 holds the classes of its children
                mats[i - 1] = self._remap(mats[i - 1], None, uniq)
            if i == n:
                break
            self.budget.pace(len(self.states[i][0]) * len(self.finite[i]), "level")
            xs, par, val = self._children(i)
            self.states.append((xs, par, val))

            def exact(a, i=i, par=par, val=val):
                return self.rho(i, int(par[a])) * self.ratios[i][int(val[a])]

            cls = self._classes(i + 1, xs, exact)
            mats.append(self._child_matrix(i, cls))
        return self._build(mats, uniq)

    def _remap(self, mat, inv, classes=None):
        """Point ``mat``'s entries at the kept states.

        Through ``inv`` (old state index -> new) or ``classes`` (the sorted classes of the
        new states).
        """
        out = mat.copy()
        pos = mat >= 0
        out[pos] = inv[mat[pos]] if classes is None else \
            self.np.searchsorted(classes, mat[pos])
        return out

    def _rows(self, mat):
        """Return the distinct columns of ``mat`` (as rows) and the index of each column's."""
        np = self.np
        k, m = mat.shape
        base = int(mat.max(initial=0)) + 5
        if base ** k < 2 ** 62:  # one integer key per column: a fast 1-D unique
            key = np.zeros(m, dtype=np.int64)
            for row in mat:
                key = key * base + (row + 4)
            _, first, inv = np.unique(key, return_index=True, return_inverse=True)
            return mat.T[first], inv.ravel()
        rows, inv = np.unique(mat.T, axis=0, return_inverse=True)
        return rows, inv.ravel()

    def _build(self, mats, last):
        """Build the array form bottom-up, one node per distinct tuple of children."""
        np = self.np
        b, enc = self.builder, self.enc
        nodes = np.where(last == 1, TRUE, FALSE)  # level n: class 1 is [0, inf)
        for i in reversed(range(self.n)):
            self.budget.pace(mats[i].size, "build")  # (its time and memory sized first)
            # child codes -4 .. -1 (see _child_matrix) index the end of this table
            below = np.concatenate([nodes, [self.tops[i + 1], self.zero[i + 1], FALSE,
                                            self.valid[i + 1]]]).astype(np.int64)
            rows, inv = self._rows(mats[i])
            built = b.select(enc.first_level[i], len(enc.bits[i]), below[rows])
            nodes = built[inv]
        # the reduction is one pass of sorts over every node built: sized before it starts
        self.budget.reserve(b.FINISH_BYTES * b.size, f"reducing the {b.size:,} nodes built")
        return b.finish(int(nodes[0]))


class LevelEngine(Engine):
    """Binary-class naive Bayes, a level at a time in floating point with exact ties.

    The algorithm is :class:`Levels`; the engine refuses a classifier whose probabilities
    a double cannot hold.
    """

    name = "naive Bayes, levels"

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        why = binary_threshold(clf)
        if why is None and clf.structure != "naive_bayes":
            why = f"a {clf.structure} network, not naive Bayes"
        if why:
            return refuse(why)
        weights = log_weights(clf, enc.features)
        if weights is None:
            return refuse("a probability that is not a normal double")
        return accept("a binary-class naive Bayes threshold in doubles", weights)

    def run(self) -> DiagramArrays:
        """Compile the decision function by :class:`Levels`, false on codes that name no state."""
        return Levels(self.clf, self.enc, self.budget, self.given).run()

    @classmethod
    def estimate(cls, clf: Classifier, enc: Encoding, given, samples: int,
                 seed: int) -> int | None:
        """Estimate the ODD's nodes by sampling, or return ``None`` (see :mod:`._base`)."""
        if not math.isfinite(given[0]):
            return None
        return nb_estimate(given, samples, seed, enc)
