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

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

__all__ = ["Schedule", "Front", "unit", "pareto", "forward", "backward", "through"]


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
        # the features whose states the factors applied on each layer read
        self.reads = [tuple(dict.fromkeys(g for f in self.due[m] for g in (f, parent[f])
                                          if g is not None)) for m in range(n)]
        self._layers: dict = {}
        self.keys = self._reachable()

    def before(self, m: int) -> tuple:
        """Return the features open when layer ``m`` is read."""
        return self.open_after[m - 1] if m else ()

    def layer(self, m: int) -> list:
        """List every edge of layer ``m``, grouped by key (made once).

        Each as ``(key, known states, next key, the states the layer's factors read)``.
        """
        got = self._layers.get(m)
        if got is None:
            reads = self.reads[m]
            got = self._layers[m] = [(key, dict(known), to, tuple(known[f] for f in reads))
                                     for key in self.keys[m]
                                     for _, known, to in self.steps(m, key)]
        return got

    def steps(self, m: int, key: tuple):
        """List every edge leaving ``key`` on layer ``m``.

        Each as ``(state, known states, next key)`` (the known states a dict the caller must
        not keep).
        """
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
        """Multiply the factors applied on layer ``m``.

        ``override``: ``(feature, function of the known states)`` replacing that feature's
        factor; ``()`` when none is, or None when one drops the edge.
        """
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


#: Pruning in floats keeps a point unless another beats it by this much in every
#: coordinate of ``log`` (far above the rounding of a sum of logs), so it only drops
#: points that are dominated exactly; the survivors are then multiplied exactly.
TAU = 1e-6
_FAR = 1e8  # the log of 0, clamped: two zeros compare equal, never by more than TAU


class Front:
    """A frontier: exact points (tuples of fractions) and their logs (an ``(n, d)`` array)."""

    __slots__ = ("pts", "logs")

    def __init__(self, pts: list, logs):
        self.pts, self.logs = pts, logs


def _log(x) -> float:
    return -math.inf if x == 0 else math.log(x.numerator) - math.log(x.denominator)


def unit(d: int) -> Front:
    """Return the frontier of the empty product in ``d`` coordinates."""
    return Front([tuple(Fraction(1) for _ in range(d))], np.zeros((1, d)) if d > 1 else [0.0])


def _survivors(logs, sigma) -> np.ndarray:
    """Keep the rows of ``logs`` that no other row beats by ``TAU`` in every coordinate.

    In direction ``sigma``.
    """
    x = np.clip(logs, -_FAR, _FAR) * np.asarray(sigma, dtype=float)
    n, d = x.shape
    if n <= 1:
        return np.arange(n)
    if d == 1:
        return np.flatnonzero(x[:, 0] >= x[:, 0].max() - TAU)
    if d == 2:
        order = np.argsort(-x[:, 0], kind="stable")
        a, b = x[order, 0], x[order, 1]
        best = np.maximum.accumulate(b)
        ahead = np.searchsorted(-a, -(a + TAU), side="right")  # rows with a_j >= a_i + TAU
        beaten = (ahead > 0) & (best[np.maximum(ahead - 1, 0)] >= b + TAU)
        return np.sort(order[~beaten])
    keep = [i for i in range(n) if not (x >= x[i] + TAU).all(axis=1).any()]
    return np.asarray(keep, dtype=np.int64)


def _exact(points: list, logs) -> Front:
    """``Front`` of the points, each exact point once."""
    seen: dict = {}
    for p, row in zip(points, logs):
        seen.setdefault(p, row)
    d = logs.shape[1] if len(logs) else 0
    return Front(list(seen), np.array(list(seen.values())).reshape(len(seen), d))


def _mul(p: tuple, g: tuple) -> tuple:
    return tuple(x * y for x, y in zip(p, g)) if g else p


def pareto(points: list, sigma: tuple) -> list:
    """Keep the points that no other point dominates in direction ``sigma``, equal points once.

    ``q`` dominates ``p`` when ``sigma[c] * q[c] >= sigma[c] * p[c]`` for every ``c``.
    """
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


def _best(cands: list, sigma: tuple) -> Front:
    """Find the exact extreme of the products over ``cands = [(log, *parts)]`` (one coordinate).

    Multiplied exactly only where the log is within ``TAU`` of the best.
    """
    if not cands:
        return Front([], [])
    s = sigma[0]
    top = max(s * c[0] for c in cands)
    near = []
    for lg, *parts in cands:
        if s * lg >= top - TAU:
            p = parts[0]
            for g in parts[1:]:
                p = _mul(p, g)
            near.append((p, lg))
    best = near[0]
    for c in near[1:]:
        if (c[0] > best[0]) if s > 0 else (c[0] < best[0]):
            best = c
    return Front([best[0]], [best[1]])


def _merge(sources: list, sigma: tuple, d: int) -> Front:
    """Return the frontier of the union of ``front * g`` over ``sources = [(front, (g, glog))]``.

    One coordinate: the exact extreme, its log a float in a list.
    """
    if d == 1:
        return _best([(lg + gl, p, g) for f, (g, gl) in sources
                      for p, lg in zip(f.pts, f.logs)], sigma)
    logs = np.concatenate([f.logs + gl for f, (_, gl) in sources]) if sources else np.zeros((0, d))
    where = [(f, g, i) for f, (g, _) in sources for i in range(len(f.pts))]
    keep = _survivors(logs, sigma)
    return _exact([_mul(where[i][0].pts[where[i][2]], where[i][1]) for i in keep], logs[keep])


class _Edges:
    """The factor of each edge of a layer, exact and as logs, made once per pass."""

    def __init__(self, sched: Schedule, m: int, mult: Callable, override=None):
        self.sched, self.m, self.mult, self.override = sched, m, mult, override
        self.cache: dict = {}

    def __call__(self, known: dict, key: tuple):
        if key not in self.cache:
            g = self.sched.factor(self.m, known, self.mult, self.override)
            self.cache[key] = None if g is None else (
                g, (np.array([_log(x) for x in g]) if len(g) > 1 else _log(g[0])) if g else 0.0)
        return self.cache[key]


def forward(sched: Schedule, mult: Callable, sigma: tuple, d: int) -> list:
    """Compute ``fwd[m][key]``, the :class:`Front` of the products from the root.

    To each walk state of layer ``m`` (``mult(f, s, w)``: the factor of feature ``f``'s
    state ``s`` given its parent's state ``w``, a ``d``-vector, or None to drop the edge).
    """
    fwd = [{(0, ()): unit(d)}]
    for m in range(len(sched.feats)):
        fwd.append(_step(sched, m, mult, sigma, d, fwd[m], down=True))
    return fwd


def backward(sched: Schedule, mult: Callable, sigma: tuple, d: int, terminal: int) -> list:
    """Compute ``bwd[m][key]``, the :class:`Front` of the products to the terminal.

    From each walk state of layer ``m`` to the terminal ``terminal`` (see :func:`forward`).
    """
    n = len(sched.feats)
    bwd: list = [None] * (n + 1)
    bwd[n] = {k: unit(d) for k in sched.keys[n] if int(sched.value[k[0]]) == terminal}
    for m in range(n - 1, -1, -1):
        bwd[m] = _step(sched, m, mult, sigma, d, bwd[m + 1], down=False)
    return bwd


def _step(sched: Schedule, m: int, mult: Callable, sigma: tuple, d: int, fronts: dict, *,
          down: bool) -> dict:
    """Compute one layer of :func:`forward` or of :func:`backward`.

    ``down``: ``fronts`` are layer ``m``'s, the result layer ``m + 1``'s (else the other
    way): each walk edge of layer ``m`` extends the front at its one end by its factor into
    the front at its other.
    """
    edges = _Edges(sched, m, mult)
    into: dict = {}
    for key, known, to, reads in sched.layer(m):
        here, there = (key, to) if down else (to, key)
        front = fronts.get(here)
        if front is not None:
            e = edges(known, reads)
            if e is not None:
                into.setdefault(there, []).append((front, e))
    return {k: _merge(src, sigma, d) for k, src in into.items()}


def through(sched: Schedule, fwd: list, bwd: list, mult: Callable, sigma: tuple,
            feature, accept: Callable, override: Callable) -> list:
    """Return the frontier of the products of the paths that pass ``accept``, one factor replaced.

    The paths whose known states at the layer where ``feature``'s factor is applied pass
    ``accept``, that factor being ``override(known)`` (a vector, or None to drop the path)
    instead of its own.
    """
    m = sched.at[feature]
    edges = _Edges(sched, m, mult, (feature, override))
    blocks, where = [], []
    heads = fwd[m]
    for key, known, to, reads in sched.layer(m):
        head, tail = heads.get(key), bwd[m + 1].get(to)
        if head is None or tail is None or not accept(known):
            continue
        e = edges(known, reads)
        if e is None:
            continue
        g, gl = e
        if len(sigma) > 1:
            logs = (head.logs + gl)[:, None, :] + tail.logs[None, :, :]
            blocks.append(logs.reshape(-1, logs.shape[2]))
        else:
            blocks.append(gl)
        where.append((head, g, tail))
    if not blocks:
        return []
    if len(sigma) == 1:
        return _best([(hl + gl + ql, h, g, q) for (head, g, tail), gl in zip(where, blocks)
                      for h, hl in zip(head.pts, head.logs)
                      for q, ql in zip(tail.pts, tail.logs)], sigma).pts
    logs = np.concatenate(blocks)
    keep = _survivors(logs, sigma)
    starts = np.cumsum([0] + [len(b) for b in blocks])
    out = set()
    for i in keep:
        k = int(np.searchsorted(starts, i, side="right")) - 1
        head, g, tail = where[k]
        r = int(i - starts[k])
        h, q = divmod(r, len(tail.pts))
        out.add(_mul(_mul(head.pts[h], g), tail.pts[q]))
    return list(out)
