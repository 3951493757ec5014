"""Engine for TANs, k-dependence and BAN classifiers: two class states, a level at a time.

Any classifier whose pruned factors mention no hidden variable (pairwise factors over a
feature forest for a TAN; wider scopes for KDB and BAN, ordered by
:mod:`._context_order`). The naive Bayes level engine (:mod:`.naive_bayes_levels`) with
open contexts (:mod:`._tan_model`): a state of level ``i`` is ``(s, k)``, ``s`` the log-odds of the
observed prefix and ``k`` the states of the open features (observed, with a neighbour
still to come). Its child through state ``v`` of feature ``i`` is
``(s + w_i(k, v), nxt_i(k, v))`` (``w = +inf``: the child is positive on every valid
completion). For a fixed context the rest of the decision is
``s + W_k(z) >= 0`` over the completions ``z``, monotone in ``s``: the classes of states
with the same remaining function are, per context, the intervals between the
*breakpoints* ``-W_k(z)``, computed bottom-up exactly as for naive Bayes but tagged with
their context. Crossing a breakpoint of the same context changes the decision on its
completion, so the merge is complete within a context; states of different contexts
with the same function are merged by the reduction of the arrays
(:class:`~bnx.diagram._arrays.Builder`).

Top-down, states that every completion decides become terminals (``s >= -min W``: true;
``s < -max W``: false, or the *bottom* state ``s = -inf`` of their context when some
completion is forced positive, which has the same function), and exactly equal states
merge. The bottom state of a context is a class of its own (it may lie below breakpoints
the range filter dropped). The engine meets in the middle and builds the diagram's
arrays bottom-up from the per-level child matrices as the naive Bayes engine does (no
``dd`` node is made).

Floats settle every comparison whose gap exceeds ``4 tol`` (``tol`` bounds the error of
any sum, :class:`._tan_model.TanModel`); closer ones are compared as exact fractions
recomputed from the states' and breakpoints' paths.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..._util.rounding import compare_all
from ...classifier._classifier import Classifier
from ...classifier._rules import argmax_pairs
from ...diagram._arrays import FALSE, Builder, DiagramArrays, negate
from ...diagram.encoding import Encoding
from ..budget import Budget
from ..conjunction import conjoin, domain, valid_chain
from ._base import Engine, Verdict, accept, refuse
from ._estimates import tan_estimate
from ._intervals import INF
from ._tan_model import TanModel, tan_model
from .naive_bayes_levels import Levels

__all__ = ["TanEngine", "TanLevels"]

_FEW = 16  # at most this many contexts: search each context's breakpoints apart

_GROUP = 4096  # sort each context apart when the contexts average this many entries


def _keys(ctx, xs):
    """Complex keys that numpy sorts and searches by ``(ctx, xs)`` (finite ``xs``)."""
    import numpy as np
    out = np.empty(len(xs), dtype=np.complex128)
    out.real = ctx
    out.imag = xs
    return out


class TanEngine(Engine):
    """Classifiers without hidden variables whose open contexts stay small.

    Their pruned factors mention no hidden variable (:func:`~._tan_model.tan_model`): a
    threshold on two class states, or the argmax rule as the conjunction of its pairwise
    comparisons (all or none: the contexts are the network's, not the pair's), each compiled
    by :class:`TanLevels` and conjoined as arrays. ``given``: the models, each with whether
    it is kept (``>=``) or negated (``>``, the reversed comparison).
    """

    name = "TAN, levels"

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        if clf.rule == "threshold":
            if len(clf.class_states) != 2:
                return refuse(f"a threshold over {len(clf.class_states)} class states")
            model = tan_model(clf, enc.features)
            if model is None:
                return refuse("a hidden variable in the factors, or open contexts too wide")
            return accept("a binary-class threshold on small open contexts", [(model, True)])
        pos = clf.class_states.index(clf.positive)
        given = []
        for pair in argmax_pairs(len(clf.class_states), pos):  # each: Pr(a) >= Pr(b)
            model = tan_model(clf, enc.features, pair=pair, weights=(1, 1))
            if model is None:
                return refuse("a comparison of the argmax rule with a hidden variable in "
                              "its factors, or open contexts too wide")
            given.append((model, pair[0] == pos))
        return accept("the argmax rule's comparisons on small open contexts", given)

    def run(self) -> DiagramArrays:
        """Compile the comparisons and conjoin them without dd.

        ``>=`` as is, ``>`` the negation of the reversed one; the domain joins the
        conjunction when every comparison is negated (a negation is true on unused codes).
        """
        pairs = ([None] if self.clf.rule == "threshold" else
                 argmax_pairs(len(self.clf.class_states),
                              self.clf.class_states.index(self.clf.positive)))
        ge = [self.compared(pair, lambda m=model: TanLevels(self.enc, self.budget, m).run())
              for pair, (model, _) in zip(pairs, self.given)]
        keep = [g for g, (_, k) in zip(ge, self.given) if k]
        flip = [negate(g) for g, (_, k) in zip(ge, self.given) if not k]
        keep.sort(key=lambda g: g.size)  # the smallest first keeps the products small
        out = keep[0] if keep else domain(self.enc)
        for g in sorted(keep[1:] + flip, key=lambda g: g.size):
            out = conjoin(out, g, budget=self.budget)
        return out

    @classmethod
    def estimate(cls, clf: Classifier, enc: Encoding, given, samples: int,
                 seed: int) -> int | None:
        """Estimate the ODD's nodes by sampling, or return ``None`` (see :mod:`._base`)."""
        models = [model for model, _ in given]
        if not all(math.isfinite(m.s0) for m in models):
            return None
        return tan_estimate(models, samples, seed, enc)


class TanLevels(Levels):
    """One comparison of two class states, level by level (see the module docstring).

    Shares the per-level reduction and the construction of the arrays (``_reduce``,
    ``_build``, ``_rows``, ``_remap``) with
    :class:`~bnx.compilation.engines.naive_bayes_levels.Levels`.
    """

    def __init__(self, enc: Encoding, budget: Budget, model: TanModel):
        import numpy as np
        self.np = np
        self.enc, self.budget, self.m = enc, budget, model
        self.n = model.n
        self.gap = 4 * model.tol
        self.rho0 = model.rho0
        self.states: list = []  # per level: (values, context, parent, value index)
        self.bps: list = [None] * (self.n + 1)  # per level: (values, context, child, value)
        self.keys: list = [None] * (self.n + 1)
        self.start: list = [None] * (self.n + 1)  # per level: first breakpoint of each context
        self._rho: dict = {}
        self._prod: dict = {}

    # ------------------------------------------------------------------ exact values
    def rho(self, i: int, k: int) -> Fraction:
        """Exact odds ratio of (finite) state ``k`` of level ``i``, from its path."""
        got = self._rho.get((i, k))
        if got is None:
            path = []
            j, kk = i, k
            while j > 0 and (j, kk) not in self._rho:
                _, _, par, val = self.states[j]
                p = int(par[kk])
                path.append((j - 1, p, int(val[kk])))
                kk, j = p, j - 1
            got = self.rho0 if j == 0 else self._rho[(j, kk)]
            for lvl, p, v in reversed(path):
                got = got * self.m.exact(lvl, int(self.states[lvl][1][p]), v)
            self._rho[(i, k)] = got
        return got

    def _below(self, j: int, k: int) -> int:
        return int(self.bps[j][2][k])

    def _factor(self, j: int, k: int) -> Fraction:
        _, ctx, _, val = self.bps[j]
        return self.m.exact(j, int(ctx[k]), int(val[k]))

    # ------------------------------------------------------------------ helpers
    def _dedupe2(self, xs, cx, exact):
        """Sort by ``(context, value)`` exactly and number the distinct pairs.

        Returns ``(order, ids)`` as :meth:`Levels._dedupe` (``-inf`` values are equal).
        """
        np = self.np
        # The entries come as sorted runs (a context's states plus one weight), which a
        # stable sort (timsort) merges: grouped by context first (a radix sort) when the
        # groups are large, else by value first and then stably by context.
        top = int(cx.max(initial=0))
        small = cx.astype(np.int16 if top < 1 << 15 else np.int64)
        if not top:
            order = np.argsort(xs, kind="stable")
        elif (top + 1) * _GROUP <= len(xs):
            by = np.argsort(small, kind="stable")
            cut = np.searchsorted(small[by], np.arange(top + 2), "left").tolist()
            order = np.concatenate([g[np.argsort(xs[g], kind="stable")] for g in
                                    (by[a:b] for a, b in zip(cut, cut[1:])) if len(g)])
        else:
            order = np.argsort(xs, kind="stable")
            order = order[np.argsort(small[order], kind="stable")]
        srt, sc = xs[order], cx[order]
        _, apart = compare_all(srt[1:], srt[:-1], 0.0, strict=True, err=self.gap)
        near = (np.diff(sc) == 0) & ~apart
        if not near.any():
            return order, np.arange(len(xs))
        # a run that starts at -inf holds bottom states of one context: all equal
        return order, self._exact_ranks(order, near, exact,
                                        skip=lambda start: srt[start] == -math.inf)

    def _classes(self, j: int, xs, cx, exact):
        """Return the class of each state ``(xs, cx)`` at level ``j``.

        Per context ``k`` the ids ``start[k] + 2k`` (the bottom state) and ``start[k] + 2k +
        1 + r`` (above ``r`` breakpoints of ``k``).
        """
        np = self.np
        start = self.start[j]
        out = start[cx] + 2 * cx
        fin = np.flatnonzero(xs > -math.inf)
        if not len(fin):
            return out
        x, c = xs[fin], cx[fin]
        g = self.gap
        bv = self.bps[j][0]
        # one search; a state with no breakpoint of its context within 2 gaps is settled
        # in floats (breakpoints out of float order differ by less than gap / 2)
        lo = self._search(j, x, c, "left")
        if len(bv):
            top = len(bv) - 1
            with np.errstate(invalid="ignore"):
                near = ((lo > start[c]) & (bv[np.maximum(lo - 1, 0)] >= x - 2 * g)) | (
                    (lo < start[c + 1]) & (bv[np.minimum(lo, top)] <= x + 2 * g))
        else:
            near = np.zeros(len(x), dtype=bool)
        hi = lo.copy()
        idx = np.flatnonzero(near)
        if len(idx):  # the window of breakpoints within one gap, as exact questions
            lo[idx] = self._search(j, x[idx] - g, c[idx], "left")
            hi[idx] = self._search(j, x[idx] + g, c[idx], "right")
        self._settle(j, lo, hi, np.flatnonzero(hi > lo), lambda a: exact(int(fin[a])))
        out[fin] = lo + 2 * c + 1
        return out

    def _search(self, j: int, x, c, side: str):
        """Find the positions of the values ``x`` among the breakpoints of their contexts ``c``.

        At level ``j``: ``numpy.searchsorted`` per context, or over the complex keys.
        """
        np = self.np
        nctx = self.m.nctx[j]
        if nctx > _FEW:
            return np.searchsorted(self.keys[j], _keys(c, x), side)
        bv, start = self.bps[j][0], self.start[j]
        out = np.empty(len(x), dtype=np.int64)
        if nctx == 1:
            out[:] = np.searchsorted(bv, x, side)
            return out
        by = np.argsort(c.astype(np.int16), kind="stable")  # grouped by context (radix)
        cut = np.searchsorted(c[by], np.arange(nctx + 1), "left").tolist()
        for k in range(nctx):
            if cut[k] < cut[k + 1]:
                sel = by[cut[k]:cut[k + 1]]
                a, b = int(start[k]), int(start[k + 1])
                out[sel] = a + np.searchsorted(bv[a:b], x[sel], side)
        return out

    def _children(self, i: int):
        """Return every child of level ``i``'s states: ``(values, contexts, forced)``.

        Of shape ``(states of feature i, states)``; ``forced`` marks the children forced
        positive.
        """
        np = self.np
        vals, ctx = self.states[i][0], self.states[i][1]
        self.budget.check()
        w = self.m.w[i][:, ctx]
        forced = w == math.inf
        with np.errstate(invalid="ignore"):
            xs = vals[None, :] + w
        return xs, self.m.nxt[i][:, ctx], forced

    # ------------------------------------------------------------------ passes
    def _top(self, i: int):
        """Expand level ``i`` to level ``i + 1``, and return its child matrix.

        Settled states become terminals, exactly equal ones merge.
        """
        np = self.np
        m = self.m
        xs, cx, forced = self._children(i)
        k, nst = xs.shape
        res = np.full(xs.shape, -5, dtype=np.int32)
        n1 = i + 1
        _, true = compare_all(xs, -m.min_rest[n1][cx], 0.0, err=self.gap)  # every completion
        res[forced | true] = -4
        settled, up = compare_all(xs, -m.max_rest[n1][cx], 0.0, err=self.gap)
        low = (res == -5) & settled & ~up  # no completion that is not forced
        tl = m.true_later[n1][cx]
        res[low & ~tl] = -2
        xs = np.where(low & tl, -math.inf, xs)
        keep = np.flatnonzero(res.ravel() == -5)
        par = keep % nst
        val = keep // nst
        kx, kc = xs.ravel()[keep], cx.ravel()[keep]

        def exact(idx):
            return self.rho(i, int(par[idx])) * m.exact(i, int(self.states[i][1][par[idx]]),
                                                        int(val[idx]))

        order, ids = self._dedupe2(kx, kc, exact)
        rep = order[self._firsts(ids)]
        self.budget.spend(len(rep))
        i32 = np.int32
        self.states.append((kx[rep], kc[rep].astype(i32), par[rep].astype(i32),
                            val[rep].astype(i32)))
        cls = np.empty(len(keep), dtype=np.int64)
        cls[order] = ids
        flat = res.ravel()
        flat[keep] = cls
        return flat.reshape(k, nst)

    def _bottom(self, j: int, lo: float, hi: float) -> None:
        """Breakpoints of level ``j - 1`` from those of level ``j``, kept within ``[lo, hi]``."""
        np = self.np
        m = self.m
        w, nx = m.w[j - 1], m.nxt[j - 1]
        start = self.start[j]
        bv = self.bps[j][0]
        v_idx, k_idx = np.nonzero(np.isfinite(w))
        tgt = nx[v_idx, k_idx]
        counts = start[tgt + 1] - start[tgt]
        total = int(counts.sum())
        self.budget.check()
        rep = np.repeat(np.arange(len(tgt)), counts)
        offs = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        child = start[tgt][rep] + offs
        xs = bv[child] - w[v_idx, k_idx][rep]
        keep = np.flatnonzero((xs >= lo - self.gap) & (xs <= hi + self.gap))
        xs, child, rep = xs[keep], child[keep], rep[keep]
        ctx, val = k_idx[rep], v_idx[rep]

        def exact(idx):  # ascending b = -log P  <=>  descending P
            return -(m.exact(j - 1, int(ctx[idx]), int(val[idx])) * self.prod(j, int(child[idx])))

        order, ids = self._dedupe2(xs, ctx, exact)
        r = order[self._firsts(ids)]
        i32 = np.int32
        self._set_bps(j - 1, xs[r], ctx[r].astype(i32), child[r].astype(i32), val[r].astype(i32))

    def _set_bps(self, j: int, xs, ctx, child, val) -> None:
        np = self.np
        self.bps[j] = (xs, ctx, child, val)
        self.keys[j] = _keys(ctx, xs) if self.m.nctx[j] > _FEW else None
        self.start[j] = np.searchsorted(ctx, np.arange(self.m.nctx[j] + 1), "left")

    def _range(self, t: int, j: int) -> tuple[float, float]:
        """Bounds on the finite states of level ``j`` reachable from those of level ``t``."""
        vals = self.states[t][0]
        vals = vals[vals > -math.inf]
        if not len(vals):
            return math.inf, -math.inf
        lo, hi = float(vals.min()), float(vals.max())
        for k in range(t, j):
            lo += self.m.lo_w[k]
            hi += self.m.hi_w[k]
        return lo, hi

    # ------------------------------------------------------------------ driver
    def run(self):
        """Compile the decision function as :class:`~bnx.diagram._arrays.DiagramArrays`.

        False on the codes that name no state.
        """
        np = self.np
        n, m, enc = self.n, self.m, self.enc
        b = self.builder = Builder(enc.nvars)
        # valid[i]: true on every valid code of features i.. (a child forced positive,
        # code -4, and code -1); the state rho = 0 (code -3) does not occur
        self.valid = valid_chain(b, enc)
        self.tops, self.zero = self.valid, [FALSE] * (n + 1)
        if self.rho0 is INF:
            return b.finish(self.valid[0])
        one = np.zeros(1, np.int64)
        self.states.append((np.array([m.s0]), one, one, one))
        self._set_bps(n, np.array([0.0]), one, one, one)
        if self.rho0 != 0:
            self._rho[(0, 0)] = self.rho0

        def down(b: int) -> int:  # the breakpoints the level above would read
            st, tgt = self.start[b], m.nxt[b - 1][np.isfinite(m.w[b - 1])]
            return int((st[tgt + 1] - st[tgt]).sum())

        t, mats = self._meet(n, lambda t: len(self.states[t][0]) * m.card[t], down)
        # from level t on, states are merged into their breakpoint interval
        cls = self._classes(t, self.states[t][0], self.states[t][1], lambda a: self.rho(t, a))
        for i in range(t, n + 1):
            uniq, inv = self._reduce(i, cls)
            if i > t:
                self.budget.spend(len(uniq))
            if i == t and i > 0:
                mats[i - 1] = self._remap(mats[i - 1], inv)
            elif i > t:
                mats[i - 1] = self._remap(mats[i - 1], None, uniq)
            if i == n:
                break
            self.budget.pace(len(self.states[i][0]) * m.card[i], "level")  # sized first
            xs, cx, forced = self._children(i)
            k, nst = xs.shape
            keep = np.flatnonzero(~forced.ravel())
            par, val = (keep % nst).astype(np.int32), (keep // nst).astype(np.int32)
            kx, kc = xs.ravel()[keep], cx.ravel()[keep]
            self.states.append((kx, kc, par, val))
            ctx_i = self.states[i][1]

            def exact(a, i=i, par=par, val=val, ctx_i=ctx_i):
                return self.rho(i, int(par[a])) * m.exact(i, int(ctx_i[par[a]]), int(val[a]))

            cls = self._classes(i + 1, kx, kc, exact)
            mat = np.full(k * nst, -4, dtype=np.int32)
            mat[keep] = cls
            mats.append(mat.reshape(k, nst))
        # level n: one context; class 0 the bottom state, 1 below 0, 2 at or above 0
        self.states = self.bps = self.keys = None  # the build needs only the matrices
        self._rho.clear()
        self._prod.clear()
        return self._build(mats, (uniq == 2).astype(np.int64))
