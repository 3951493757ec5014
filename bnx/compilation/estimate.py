"""A cheap estimate of the size of a classifier's ODD, before compiling it."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .._types import Feature
from ..classifier._classifier import Classifier
from ..errors import ArgumentError, BnxError
from ..classifier._rules import argmax_pairs

__all__ = ["estimate_size"]


def estimate_size(clf: Classifier, order: Sequence[Feature] | None = None, *,
                  samples: int = 4000, seed: int = 0) -> int:
    """Estimate the number of nodes of ``bnx.compile(clf, order)`` in milliseconds.

    The width of the diagram at feature ``i`` is at most the number of prefixes of
    the order that do not settle the decision yet, and at most the number of
    distinct functions on the features after ``i``. For a binary-class naive
    Bayes classifier both are estimated by sampling ``samples`` random instances
    (uniform over each feature's states): a prefix is unsettled when its log-odds
    lies between the extreme completions, and the functions at level ``i`` are the
    intervals between the log-likelihood ratios of completions that fall in the
    range the prefixes reach. The estimate sums the smaller of the two per level;
    on the benchmark naive Bayes classifiers (16 to 40 features) it is 1.3 to 3
    times the real size (``docs/compilation.md``). Binary-class TANs, k-dependence and
    BAN classifiers (every network the TAN engine compiles) are sampled the same way,
    each level's breakpoints counted once per open context (on k-dependence classifiers
    the estimate is 4 to 10 times too low), and so are the comparisons of the argmax rule
    over more than two classes on them (their conjunction's widths bounded by the
    products of theirs; 3 to 10 times the real size on ``bench/tan.py``'s). For latent
    trees, multi-class classifiers under the threshold rule and networks with hidden
    variables it is the cruder ``sum_i min(prefixes, completions)``.

    Returns
    -------
    int

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> est = bnx.estimate_size(clf)
    >>> 1 <= est <= 2 ** 5
    True
    """
    import numpy as np
    from .levels import log_weights
    from .orders import check_order
    if not isinstance(clf, Classifier):
        raise BnxError(f"estimate_size expects a bnx.Classifier, got {type(clf).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be a positive integer, got {samples!r}")
    order = check_order(clf, order)
    ks = [len(clf.states(f)) for f in order]
    n = len(order)
    # log2 of the number of prefixes / completions at each level
    pre = [0.0]
    for k in ks:
        pre.append(pre[-1] + math.log2(k))
    post = [0.0] * (n + 1)
    for i in reversed(range(n)):
        post[i] = post[i + 1] + math.log2(ks[i])
    crude = [min(pre[i], post[i]) for i in range(n)]
    weights = None
    if len(clf.class_states) == 2 and clf.structure == "naive_bayes":
        weights = log_weights(clf, order)
    elif clf.structure != "latent_tree":
        from .tan_model import tan_model
        models = [tan_model(clf, order)]
        if models[0] is None and clf.rule == "argmax" and len(clf.class_states) > 2:
            pos = clf.class_states.index(clf.positive)  # the argmax rule's comparisons
            models = [tan_model(clf, order, pair=pair)
                      for pair in argmax_pairs(len(clf.class_states), pos)]
        if all(m is not None and math.isfinite(m.s0) for m in models):
            return _tan_estimate(models, samples, seed, pre, post, crude)
    if weights is None or not math.isfinite(weights[0]):
        return int(min(sum(2.0 ** c for c in crude) + 2, 2.0 ** 62))
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
        unsettled = np.mean((s >= -rest_hi) & (s < -rest_lo))
        reach_lo = s0 + lo_w[:i].sum()
        reach_hi = s0 + hi_w[:i].sum()
        b = -suffix[:, i]
        inside = np.mean(np.isfinite(b) & (b >= reach_lo) & (b <= reach_hi))
        total += min(2.0 ** pre[i] * unsettled, 2.0 ** post[i] * inside + 1, 2.0 ** crude[i])
    return int(min(max(total, 1.0), 2.0 ** 62))


def _tan_estimate(models, samples: int, seed: int, pre, post, crude) -> int:
    """:func:`estimate_size` for :class:`~bnx.compilation.tan_model.TanModel` s: per level,
    the smaller of the sampled unsettled prefixes and, per open context, the sampled
    breakpoints within the states' reach. Several models (the comparisons of the argmax
    rule, conjoined): a prefix is unsettled when no comparison settles it false and some
    leaves it open, and the functions are at most the products of the comparisons'."""
    import numpy as np
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
            width[i] *= model.nctx[i] * (2.0 ** post[i] * inside + 1)
    total = 2.0
    for i in range(n):
        unsettled = np.mean(open_[:, i] & some[:, i])
        # (a conjunction is not a threshold of one sum: its functions are not bounded by
        # the completions, only by the products of the comparisons')
        cap = 2.0 ** crude[i] if len(models) == 1 else math.inf
        # a node of a feature with k states is up to k - 1 nodes of its bits
        total += max(1, models[0].card[i] - 1) * min(2.0 ** pre[i] * unsettled, width[i], cap)
    return int(min(max(total, 1.0), 2.0 ** 62))
