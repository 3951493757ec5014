"""Pareto frontiers of products over the paths of a naive Bayes or TAN diagram.

The compiled diagram read one feature per layer
(:func:`bnx.attribution.shapley.feature_graph`) fixes every feature's state along a
path, so a product of per-feature factors ``prod_f g_f(x_f, x_parent(f))`` over the
instances of one terminal is a product along paths. With one number per factor (two
classes) the largest and smallest products are max- and min-product passes; with a
vector per factor (one coordinate per other class) no single number orders the
paths, but every question :mod:`bnx.attribution.sensitivity_all` asks of them is
monotone in each coordinate with a known direction ``sigma`` (``+1``: larger is
worse, ``-1``: smaller is worse). The paths that matter are then the Pareto-extreme
ones in that direction, and the frontier of the products through a node is found
from the frontiers of its prefixes and of its suffixes, since multiplying two
vectors coordinate by coordinate by a nonnegative vector keeps one dominating the
other. With two classes each frontier is one number and the passes are the max- and
min-product passes; with more classes a frontier holds the paths' products that no
other path to the node dominates (in practice a few; at worst as many as the paths).

A TAN's factor of a feature and its feature parent is applied at the layer of the later
of the two; the walk's state at each layer is the node and the states of the *open*
features, those read whose factor with a later feature is still to come. Naive Bayes
is the case with no feature parent (nothing is ever open). Everything is exact: the
products are fractions.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["Schedule", "pareto", "forward", "backward", "through"]


class Schedule:
    """The diagram read per feature and when each factor is applied.

    Parameters
    ----------
    kids, value
        :func:`bnx.attribution.shapley.feature_graph`: ``kids[m][u, s]`` the child on
        layer ``m + 1`` of node ``u`` of layer ``m`` for state ``s`` of feature ``m``;
        ``value`` the decision of each node of the last layer.
    feats : list
        The features in the diagram's order.
    parent : dict
        Each feature's feature parent, or None.
    """

    def __init__(self, kids: list, value, feats: list, parent: dict):
        self.kids, self.value, self.feats, self.parent = kids, value, feats, parent
        n = len(feats)
        pos = {f: m for m, f in enumerate(feats)}
        self.at = {f: max(pos[f], pos[parent[f]]) if parent[f] is not None else pos[f]
                   for f in feats}
        last: dict = {f: -1 for f in feats}  # the last layer that still needs f's state
        for f in feats:
            last[f] = max(last[f], self.at[f])
            if parent[f] is not None:
                last[parent[f]] = max(last[parent[f]], self.at[f])
        self.open_after = [tuple(g for g in feats if pos[g] <= m < last[g]) for m in range(n)]
        self.due = [[f for f in feats if self.at[f] == m] for m in range(n)]
        self.keys = self._reachable()

    def before(self, m: int) -> tuple:
        """The features open when layer ``m`` is read."""
        return self.open_after[m - 1] if m else ()

    def steps(self, m: int, key: tuple):
        """``(state, known states, next key)`` of every edge leaving ``key`` on layer ``m``."""
        u, a = key
        h, kids, after = self.feats[m], self.kids[m], self.open_after[m]
        known = dict(zip(self.before(m), a))
        for s in range(kids.shape[1]):
            known[h] = s
            yield s, known, (int(kids[u, s]), tuple(known[g] for g in after))

    def _reachable(self) -> list:
        keys = [{(0, ())}]
        for m in range(len(self.feats)):
            keys.append({nxt for key in keys[m] for _, _, nxt in self.steps(m, key)})
        return keys

    def factor(self, m: int, known: dict, mult: Callable, override=None):
        """The product of the factors applied on layer ``m`` (``override``: ``(feature,
        function of the known states)`` replacing that feature's factor), ``()`` when none
        is, or None when one drops the edge."""
        g: tuple = ()
        for f in self.due[m]:
            if override is not None and f == override[0]:
                v = override[1](known)
            else:
                pa = self.parent[f]
                v = mult(f, known[f], known[pa] if pa is not None else None)
            if v is None:
                return None
            g = v if not g else tuple(x * y for x, y in zip(g, v))
        return g


def _times(points: list, g) -> list:
    if g is None:
        return []
    if not g:
        return list(points)
    return [tuple(x * y for x, y in zip(p, g)) for p in points]


def pareto(points: list, sigma: tuple) -> list:
    """The points that no other point dominates in direction ``sigma`` (``q`` dominates
    ``p`` when ``sigma[c] * q[c] >= sigma[c] * p[c]`` for every ``c``), equal points once."""
    if len(points) <= 1:
        return list(points)
    if len(sigma) == 1:
        return [max(points) if sigma[0] > 0 else min(points)]
    best_first = sorted(set(points), key=lambda p: [-s * x for s, x in zip(sigma, p)])
    out: list = []
    for p in best_first:  # a dominating point sorts first
        if not any(all(s * qc >= s * pc for s, qc, pc in zip(sigma, q, p)) for q in out):
            out.append(p)
    return out


def forward(sched: Schedule, mult: Callable, sigma: tuple, one) -> list:
    """``fwd[m][key]``: the frontier of the products from the root to each walk state of
    layer ``m`` (``mult(f, s, w)``: the factor of feature ``f``'s state ``s`` given its
    parent's state ``w``, a vector, or None to drop the edge; ``one``: the unit vector)."""
    fwd = [{(0, ()): [one]}]
    for m in range(len(sched.feats)):
        nxt: dict = {}
        for key, pts in fwd[m].items():
            for _, known, to in sched.steps(m, key):
                got = _times(pts, sched.factor(m, known, mult))
                if got:
                    nxt.setdefault(to, []).extend(got)
        fwd.append({k: pareto(v, sigma) for k, v in nxt.items()})
    return fwd


def backward(sched: Schedule, mult: Callable, sigma: tuple, one, terminal: int) -> list:
    """``bwd[m][key]``: the frontier of the products from each walk state of layer ``m``
    to the terminal ``terminal`` (see :func:`forward`)."""
    n = len(sched.feats)
    bwd: list = [None] * (n + 1)
    bwd[n] = {k: [one] for k in sched.keys[n] if int(sched.value[k[0]]) == terminal}
    for m in range(n - 1, -1, -1):
        here: dict = {}
        for key in sched.keys[m]:
            got: list = []
            for _, known, to in sched.steps(m, key):
                tail = bwd[m + 1].get(to)
                if tail:
                    got.extend(_times(tail, sched.factor(m, known, mult)))
            if got:
                here[key] = pareto(got, sigma)
        bwd[m] = here
    return bwd


def through(sched: Schedule, fwd: list, bwd: list, mult: Callable, sigma: tuple,
            feature, accept: Callable, override: Callable) -> list:
    """The frontier of the products of the paths whose known states at the layer where
    ``feature``'s factor is applied pass ``accept``, that factor being ``override(known)``
    (a vector, or None to drop the path) instead of its own."""
    m = sched.at[feature]
    out: list = []
    for key, pts in fwd[m].items():
        for _, known, to in sched.steps(m, key):
            tail = bwd[m + 1].get(to)
            if not tail or not accept(known):
                continue
            head = _times(pts, sched.factor(m, known, mult, (feature, override)))
            out.extend(tuple(x * y for x, y in zip(h, q)) for h in head for q in tail)
        out = pareto(out, sigma)
    return out
