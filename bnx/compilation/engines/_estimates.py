"""Sampled estimates of an ODD's size, one per engine that has one (:meth:`Engine.estimate`).

Both sum per level the smaller of the sampled unsettled prefixes and the sampled
functions on the rest, bounded by the numbers of prefixes and completions
(:func:`widths`); ``docs/compilation.md`` and :func:`bnx.estimate_size` say how close
they come.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["crude_estimate", "nb_estimate", "tan_estimate", "widths"]


def widths(enc) -> tuple[list, list, list]:
    """Return ``(pre, post, crude)`` along the encoding's order.

    Per level ``i`` the log2 of the number of prefixes before it, of completions from it,
    and the smaller of the two.
    """
    ks = [len(s) for s in enc.states]
    n = len(ks)
    pre = [0.0]
    for k in ks:
        pre.append(pre[-1] + math.log2(k))
    post = [0.0] * (n + 1)
    for i in reversed(range(n)):
        post[i] = post[i + 1] + math.log2(ks[i])
    return pre, post, [min(pre[i], post[i]) for i in range(n)]


def _pow2(x: float) -> float:
    """Return ``2 ** x`` in a double, capped at ``2 ** 1000``.

    Every estimate is capped at ``2 ** 62``; a diagram thousands of levels deep would
    overflow the double.
    """
    return 2.0 ** min(x, 1000.0)


def crude_estimate(enc) -> int:
    """``sum_i min(prefixes, completions)``: the estimate of the engines without one."""
    return int(min(sum(_pow2(c) for c in widths(enc)[2]) + 2, 2.0 ** 62))


def nb_estimate(weights, samples: int, seed: int, enc) -> int:
    """Estimate a binary-class naive Bayes from the level engine's log-weights ``(s0, w, err)``.

    ``s0`` is finite: a prefix is unsettled when its log-odds lies between the extreme
    completions, and the functions at a level are the intervals between the log-likelihood
    ratios of completions that fall in the range the prefixes reach.
    """
    pre, post, crude = widths(enc)
    n = len(pre) - 1
    s0, w, _ = weights
    rng = np.random.default_rng(seed)
    pick = np.stack([wi[rng.integers(0, len(wi), samples)] for wi in w], axis=1) \
        if n else np.zeros((samples, 0))
    with np.errstate(invalid="ignore"):
        prefix = s0 + np.concatenate([np.zeros((samples, 1)), np.cumsum(pick, axis=1)], axis=1)
        suffix = np.concatenate([np.cumsum(pick[:, ::-1], axis=1)[:, ::-1],
                                 np.zeros((samples, 1))], axis=1)
    fin = [wi[np.isfinite(wi)] for wi in w]
    lo_w = np.array([f.min() if len(f) else 0.0 for f in fin])
    hi_w = np.array([f.max() if len(f) else 0.0 for f in fin])
    total = 2.0
    for i in range(n):
        rest_hi = hi_w[i:].sum()
        rest_lo = lo_w[i:].sum()
        s = prefix[:, i]
        open_ = (s >= -rest_hi) & (s < -rest_lo)
        reach_lo = s0 + lo_w[:i].sum()
        reach_hi = s0 + hi_w[:i].sum()
        b = -suffix[:, i]
        reached = np.isfinite(b) & (b >= reach_lo) & (b <= reach_hi)
        prefixes = _seen(s, open_, _pow2(pre[i]))
        functions = _seen(b, reached, _pow2(post[i])) + 1
        total += sum(min(prefixes, share * functions, _pow2(crude[i]))
                     for share in _code_shares(len(w[i]), len(enc.bits[i])))
    return int(min(max(total, 1.0), 2.0 ** 62))


def _code_shares(k: int, nbits: int) -> list[float]:
    """Return the nodes of one feature's bits, each as the share of its ``k`` states below it.

    A feature of ``k`` states is tested by ``nbits`` bits: below a node for the feature
    are the nodes of its code tree over at least two states (one state below is its child
    itself), ``k - 1`` of them. A node over a share ``m / k`` of the states has its
    function change where one of their ``m`` children does: at about ``m / k`` of the
    breakpoints the whole feature's function changes at, so at most that share of the
    level's functions (``[1, 0.8, 0.4, 0.4]`` for five states: 2.6 times the functions on
    the levels the breakpoints bound, where counting only the feature's nodes undercounted
    about 2.5 times). A binary feature: ``[1.0]``.
    """
    out = []
    for j in range(nbits):
        span = 1 << (nbits - j)
        for start in range(0, 1 << nbits, span):
            m = min(k, start + span) - start
            if m >= 2:
                out.append(m / k)
    return out


def _seen(values, mask, space: float) -> float:
    """Estimate how many of ``space`` items have the property ``mask`` marks on the samples.

    ``space`` times the share marked, or, when the marked samples repeat their log-odds
    ``values`` (fewer than half are distinct: the items collapse onto few values, as with
    equal weights), the distinct values seen (nodes are per value, not per item).
    """
    hits = values[mask]
    if not len(hits):
        return 0.0
    distinct = len(np.unique(np.round(hits, 9)))
    return float(distinct) if 2 * distinct <= len(hits) else space * len(hits) / len(values)


def tan_estimate(models, samples: int, seed: int, enc) -> int:
    """Estimate the ODD of :class:`~bnx.compilation.engines._tan_model.TanModel` s.

    Per level, the smaller of the sampled unsettled prefixes and, per open context, the
    sampled breakpoints within the states' reach. Several models (the comparisons of the
    argmax rule, conjoined): a prefix is unsettled when no comparison settles it false and
    some leaves it open, and the functions are at most the products of the comparisons'.
    """
    pre, post, crude = widths(enc)
    n = models[0].n
    open_ = np.ones((samples, n), dtype=bool)  # no comparison settled false
    some = np.zeros((samples, n), dtype=bool)  # some comparison unsettled
    width = np.ones(n)
    for model in models:
        rng = np.random.default_rng(seed)  # the same instances for every comparison
        k = np.zeros(samples, dtype=np.int64)
        ws, ks = [], []
        for i in range(n):
            v = rng.integers(0, model.card[i], samples)
            ks.append(k)
            ws.append(model.w[i][v, k])
            k = model.nxt[i][v, k]
        w = np.stack(ws, axis=1) if n else np.zeros((samples, 0))
        with np.errstate(invalid="ignore"):
            prefix = model.s0 + np.concatenate([np.zeros((samples, 1)), np.cumsum(w, axis=1)],
                                               axis=1)
            suffix = np.concatenate([np.cumsum(w[:, ::-1], axis=1)[:, ::-1],
                                     np.zeros((samples, 1))], axis=1)
        for i in range(n):
            s = prefix[:, i]
            false = s < -model.max_rest[i][ks[i]]
            open_[:, i] &= ~false
            some[:, i] |= ~false & (s < -model.min_rest[i][ks[i]])
            reach_lo = model.s0 + sum(model.lo_w[:i])
            reach_hi = model.s0 + sum(model.hi_w[:i])
            b = -suffix[:, i]
            inside = np.mean(np.isfinite(b) & (b >= reach_lo) & (b <= reach_hi))
            width[i] *= model.nctx[i] * (_pow2(post[i]) * inside + 1)
    total = 2.0
    for i in range(n):
        unsettled = np.mean(open_[:, i] & some[:, i])
        # (a conjunction is not a threshold of one sum: its functions are not bounded by
        # the completions, only by the products of the comparisons')
        cap = _pow2(crude[i]) if len(models) == 1 else math.inf
        # a node of a feature with k states is up to k - 1 nodes of its bits
        total += max(1, models[0].card[i] - 1) * min(_pow2(pre[i]) * unsettled, width[i], cap)
    return int(min(max(total, 1.0), 2.0 ** 62))
