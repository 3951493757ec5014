"""Sensitivity of the whole decision function: the interval of each CPT entry in which
no decision of the classifier changes (naive Bayes and TAN with a two-state class).

Change the entry ``theta`` to ``t`` (its column co-varied proportionally, as in
:mod:`bnx.attribution.sensitivity`). For each instance ``x`` the decision is one linear
inequality ``h0(x) + h1(x) t >= 0`` (``> 0`` for argmax's strict side), so ``x`` flips at
one point ``t*(x)``; the decision function stays the same exactly on the intersection of
the instances' intervals. In naive Bayes the instances whose joint the entry scales are
those with the entry's state (group A) or another state (group B) of its feature, and
within a group ``t*(x)`` is a monotone function of a product of per-feature ratios

    R(x) = const * prod_f Pr(x_f | other class) / Pr(x_f | entry's class),

so the interval's ends are the largest and smallest ``R`` over the positive and over
the negative instances of each group. Those are max- and min-product paths of the
compiled diagram read per feature (:func:`bnx.attribution.shapley.feature_graph`),
from the root to each node and from each node to each terminal, in exact fractions.

A TAN's factors are pairwise: see :mod:`bnx.attribution.sensitivity_tan`.

Supported: naive Bayes and TAN networks (the class and the features, nothing else) with
a two-state class, every CPT entry positive, a threshold strictly between 0 and 1 or
the argmax rule. Anything else is refused with a :class:`~bnx.StructureError` that says
so; with an instance, :func:`bnx.parameter_sensitivity` takes any classifier.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import StructureError
from ..relevance import exact_cpds
from .entries import entries, sensitivity_frame

__all__ = ["whole_sensitivity"]

_NONE_MAX, _NONE_MIN = Fraction(0), float("inf")  # "no path": every real R is in (0, inf)


def _refuse(clf, why: str):
    raise StructureError(
        f"parameter_sensitivity without an instance (every decision kept) supports naive "
        f"Bayes and TAN networks (only the class and the features) with a two-state class, every "
        f"CPT entry positive and a threshold strictly between 0 and 1 (or argmax); {why}. "
        f"Give an instance for any classifier: parameter_sensitivity(classifier, instance)")


def _check(clf, states, cpds):
    if clf.structure not in ("naive_bayes", "tan"):
        _refuse(clf, f"this classifier's structure is {clf.structure!r}")
    extra = set(clf.network.nodes()) - {clf.class_var, *clf.features}
    if extra:
        _refuse(clf, f"the network has other nodes ({', '.join(map(repr, sorted(extra, key=str)))})")
    if len(states[clf.class_var]) != 2:
        _refuse(clf, f"the class has {len(states[clf.class_var])} states")
    if any(x <= 0 for _, t in cpds.values() for x in t.reshape(-1)):
        _refuse(clf, "some CPT entry is 0")
    if clf.rule == "threshold" and not 0 < clf.threshold < 1:
        _refuse(clf, f"the threshold is {clf.threshold}")


def _passes(kids_by_layer, value, ratios):
    """Max- and min-product paths: ``fwd[m]`` from the root to each node of layer ``m``
    and ``bwd[T][m]`` from each node of layer ``m`` to the terminal ``T``, as
    ``(max, min)`` pairs of object arrays (the sentinels where no path exists)."""
    n = len(kids_by_layer)
    fmax = np.array([Fraction(1)], dtype=object)
    fmin = fmax.copy()
    fwd = []
    for m in range(n):
        fwd.append((fmax, fmin))
        kids = kids_by_layer[m]
        size = int(kids.max()) + 1
        nmax = np.full(size, _NONE_MAX, dtype=object)
        nmin = np.full(size, _NONE_MIN, dtype=object)
        for s, r in enumerate(ratios[m]):
            np.maximum.at(nmax, kids[:, s], fmax * r)
            np.minimum.at(nmin, kids[:, s], fmin * r)
        fmax, fmin = nmax, nmin
    bwd = {}
    for term in (0, 1):
        bmax = np.where(value == term, Fraction(1), _NONE_MAX).astype(object)
        bmin = np.where(value == term, Fraction(1), _NONE_MIN).astype(object)
        layers = [None] * (n + 1)
        layers[n] = (bmax, bmin)
        for m in range(n - 1, -1, -1):
            kids = kids_by_layer[m]
            cmax = [ratios[m][s] * bmax[kids[:, s]] for s in range(kids.shape[1])]
            cmin = [ratios[m][s] * bmin[kids[:, s]] for s in range(kids.shape[1])]
            bmax = np.maximum.reduce(cmax) if len(cmax) > 1 else cmax[0]
            bmin = np.minimum.reduce(cmin) if len(cmin) > 1 else cmin[0]
            layers[m] = (bmax, bmin)
        bwd[term] = layers
    return fwd, bwd


def _extremes(fwd, bwd, kids_by_layer, m, factors: dict) -> dict:
    """``{(term, "max"|"min"): R}`` over the paths through layer ``m`` whose state ``s``
    at that layer is a key of ``factors`` (its factor ``factors[s]`` instead of the
    layer's ratio); the sentinels when there is no such path."""
    kids = kids_by_layer[m]
    fmax, fmin = fwd[m]
    out = {}
    for term in (0, 1):
        bmax, bmin = bwd[term][m + 1]
        best, least = _NONE_MAX, _NONE_MIN
        for s, g in factors.items():
            hi = fmax * g * bmax[kids[:, s]]
            lo = fmin * g * bmin[kids[:, s]]
            best = max(best, max(hi.tolist(), default=_NONE_MAX))
            least = min(least, min(lo.tolist(), default=_NONE_MIN))
        out[term, "max"], out[term, "min"] = best, least
    return out


def _bounds(ext, increasing: bool, scale, shift: bool):
    """``(low, high)`` from the extremes of ``R`` when ``t* = scale R`` (``shift``:
    ``t* = 1 - scale R``) and ``h`` increases (``increasing``) or decreases in ``t``."""
    lo, hi = Fraction(0), Fraction(1)

    def tstar(r):
        return (1 - scale * r) if shift else scale * r

    pos_up = ext[1, "max"] if not shift else ext[1, "min"]  # the largest t* of a positive
    pos_dn = ext[1, "min"] if not shift else ext[1, "max"]  # the smallest
    neg_up = ext[0, "max"] if not shift else ext[0, "min"]
    neg_dn = ext[0, "min"] if not shift else ext[0, "max"]
    has = lambda r: r != _NONE_MAX and r != _NONE_MIN  # noqa: E731
    if increasing:  # positives stay for t >= t*, negatives for t < t*
        if has(pos_up):
            lo = max(lo, tstar(pos_up))
        if has(neg_dn):
            hi = min(hi, tstar(neg_dn))
    else:  # positives stay for t <= t*, negatives for t > t*
        if has(pos_dn):
            hi = min(hi, tstar(pos_dn))
        if has(neg_up):
            lo = max(lo, tstar(neg_up))
    return lo, hi


def whole_sensitivity(clf, *, exact: bool = False):
    """The rows of :func:`bnx.parameter_sensitivity` with no instance (see the module)."""
    from ..compilation import compile
    from .shapley import feature_graph
    states, parents, cpds = exact_cpds(clf.network)
    _check(clf, states, cpds)
    c = clf.class_var
    p = states[c].index(clf.positive)
    if clf.rule == "argmax":
        alpha = beta = Fraction(1)
    else:
        alpha, beta = 1 - clf.threshold, clf.threshold
    odd = compile(clf)
    graph = feature_graph(odd)
    feats = list(odd.features)
    prior = cpds[c][1]
    walks = (_TanWalks if clf.structure == "tan" else _NaiveBayesWalks)(
        c, states, parents, cpds, graph, feats)
    rows = []
    for var in clf.network.nodes():
        for u, given, j, theta, column in entries(states, parents, cpds, var):
            if len(column) == 1:
                lo = hi = Fraction(1)
            elif var == c:
                lo, hi = _prior(walks.rho(j), j, p, theta, prior, alpha, beta)
            else:
                o, ext_a, ext_b = walks.groups(var, dict(zip(parents[var], u)), j, theta)
                k = (beta / alpha) if o == p else (alpha / beta)
                const = prior[1 - o] / prior[o]
                la, ha = _bounds(ext_a, o == p, k * const, False)
                lb, hb = _bounds(ext_b, o != p, k * const, True)
                lo, hi = max(la, lb), min(ha, hb)
            rows.append((var, states[var][j], given, theta, lo, hi))
    return sensitivity_frame(rows, exact)


class _NaiveBayesWalks:
    """Naive Bayes: the max/min-product paths of both orientations, made once."""

    def __init__(self, c, states, parents, cpds, graph, feats):
        self.kids, value = graph
        self.c, self.states, self.feats = c, states, feats
        self.cond = {f: cpds[f][1] for f in feats}  # cond[f][s, class]
        # ratio of feature f's state s for orientation o: Pr(s | other) / Pr(s | o)
        self.ratio = {o: [[self.cond[f][s, 1 - o] / self.cond[f][s, o]
                           for s in range(len(states[f]))] for f in feats] for o in (0, 1)}
        self.passes = {o: _passes(self.kids, value, self.ratio[o]) for o in (0, 1)}

    def rho(self, o):
        bwd = self.passes[o][1]
        return {(t, k): bwd[t][0][k == "min"][0] for t in (0, 1) for k in ("max", "min")}

    def groups(self, var, col, j, theta):
        o = col[self.c]
        m = self.feats.index(var)
        fwd, bwd = self.passes[o]
        ext_a = _extremes(fwd, bwd, self.kids, m, {j: self.cond[var][j, 1 - o]})
        ext_b = _extremes(fwd, bwd, self.kids, m,
                          {s: (1 - theta) * self.ratio[o][m][s]
                           for s in range(len(self.states[var])) if s != j})
        return o, ext_a, ext_b


class _TanWalks:
    """TAN: one walk per group (see :mod:`bnx.attribution.sensitivity_tan`)."""

    def __init__(self, c, states, parents, cpds, graph, feats):
        self.c, self.states, self.parents, self.cpds = c, states, parents, cpds
        self.graph, self.feats = graph, feats
        fset = set(feats)
        self.parent = {f: next((q for q in parents[f] if q in fset), None) for f in feats}

    def prob(self, f, s, cls, w):
        key = tuple(cls if q == self.c else w for q in self.parents[f])
        return self.cpds[f][1][(s, *key)]

    def walk(self, o, allowed, override):
        from .sensitivity_tan import tan_extremes

        def factor(f, s, w):
            return self.prob(f, s, 1 - o, w) / self.prob(f, s, o, w)

        return tan_extremes(*self.graph, self.feats, self.parent, factor, allowed, override)

    def rho(self, o):
        return self.walk(o, {}, (None, {}))

    def groups(self, var, col, j, theta):
        o, pa = col[self.c], self.parent[var]
        w = col.get(pa) if pa is not None else None
        pin = {pa: (w,)} if pa is not None else {}
        others = tuple(s for s in range(len(self.states[var])) if s != j)
        ext_a = self.walk(o, {var: (j,), **pin}, (var, {j: self.prob(var, j, 1 - o, w)}))
        ext_b = self.walk(o, {var: others, **pin},
                          (var, {s: (1 - theta) * self.prob(var, s, 1 - o, w)
                                 / self.prob(var, s, o, w) for s in others}))
        return o, ext_a, ext_b


def _prior(rho, c0, p, theta, prior, alpha, beta):
    """The interval of the class prior's entry ``Pr(class = c0)``: ``J_c0 = t K`` and
    ``J_other = (1 - t) M`` with ``R = K / M = (1 - theta) / Pr(other) / rho``, ``rho``
    the product of the ratios of orientation ``c0`` (``rho``: its extremes to each
    terminal)."""
    scale = (1 - theta) / prior[1 - c0]
    # R's extremes: the largest R is the smallest rho
    ext = {}
    for term in (0, 1):
        big, small = rho[term, "min"], rho[term, "max"]
        ext[term, "max"] = scale / big if big != _NONE_MIN else _NONE_MAX
        ext[term, "min"] = scale / small if small != _NONE_MAX else _NONE_MIN
    has = lambda r: r != _NONE_MAX and r != _NONE_MIN  # noqa: E731
    lo, hi = Fraction(0), Fraction(1)
    if c0 == p:  # t* = beta / (alpha R + beta), decreasing in R; h increases in t
        if has(ext[1, "min"]):
            lo = max(lo, beta / (alpha * ext[1, "min"] + beta))
        if has(ext[0, "max"]):
            hi = min(hi, beta / (alpha * ext[0, "max"] + beta))
    else:  # t* = alpha / (alpha + beta R); h decreases in t
        if has(ext[1, "max"]):
            hi = min(hi, alpha / (alpha + beta * ext[1, "max"]))
        if has(ext[0, "min"]):
            lo = max(lo, alpha / (alpha + beta * ext[0, "min"]))
    return lo, hi

