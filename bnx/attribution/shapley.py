"""Exact SHAP and Banzhaf values of a compiled decision: two passes over its diagram.

The game of an instance ``x`` against a background ``z`` is ``v(S) = E_z[f(x_S, z_rest)]``
(features in the coalition ``S`` keep ``x``'s state, the others take ``z``'s); a feature
is one player whatever its number of states. Under a product distribution ``z`` is
drawn feature by feature; against a background data set, interventional SHAP is the mean
over the rows ``b`` of the game with ``z = b`` (a point mass per feature), which is what
``shap.explainers.Exact`` with an ``Independent`` masker computes.

On a decision diagram both games are polynomial (Arenas, Barceló, Bertossi and Monet,
AAAI 2021). The diagram is first read at the granularity of features
(:func:`feature_graph`): one layer per feature, a node's child for each of the
feature's states (found by following the state's code bits), and a node that skips
a feature standing in for itself on that layer, so that every edge crosses exactly
one feature. Then, for every pair (instance, background row) at once:

* top-down, per node ``u`` on layer ``m``, ``W_u[b] = sum_a R_u[a] w(a + b)``, where
  ``R_u[a]`` is the weight of the ways into ``u`` with ``a`` of the features above in
  the coalition and ``w(k)`` the Shapley weight ``k! (n-k-1)! / n!``. An edge for
  ``x``'s state with the feature in the coalition shifts ``W`` by one size, the edge
  of ``z``'s state (weighted by its probability) keeps it;
* bottom-up, ``G_u[k]``: the sum over coalitions of ``k`` of the features from ``m``
  on of the expected decision below ``u``: ``G_u[k] = G_in[k-1] + G_out[k]``, and
  feature ``m``'s value collects ``sum_u sum_b W_u[b] (G_in[b] - G_out[b])``.

That is ``|C| n`` numbers per pair instead of the ``|C| n^2`` of a pass per feature.
Banzhaf values are the same passes with one size (all coalitions weigh ``2^(1-n)``).
The passes run in float64, or in exact fractions (``dtype=object``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..arrays import TRUE

__all__ = ["feature_graph", "game_values", "coalition_weights"]


def feature_graph(odd) -> tuple[list, np.ndarray]:
    """The ODD's diagram with one layer per feature (made once per ODD).

    Returns ``(kids, value)``: ``kids[m]`` is an int array with one row per node of
    layer ``m`` and one column per state of feature ``m``, the child's index on layer
    ``m + 1`` (layer 0 holds the root alone); ``value`` is the decision (0 or 1) of
    each node of the last layer.
    """
    a = odd.arrays
    got = a.cache.get("feature_graph")
    if got is not None:
        return got
    enc = odd.encoding
    n = len(enc.features)
    first = np.asarray(enc.first_level, dtype=np.int64)
    # the feature whose bits hold each level (level nvars: n, the terminals)
    pos = (np.searchsorted(first, np.arange(a.nvars + 1), side="right") - 1)[a.level]
    cur = np.array([a.root], dtype=np.int64)
    kids_by_layer = []
    for m in range(n):
        k = len(enc.states[m])
        kids = np.repeat(cur[:, None], k, axis=1)  # a node below layer m stands for itself
        here = pos[cur] == m
        if here.any():
            nb = len(enc.bits[m])
            for s in range(k):
                c = cur[here]
                for b in range(nb):
                    at = a.level[c] == first[m] + b
                    side = a.hi if (s >> (nb - 1 - b)) & 1 else a.lo
                    c = np.where(at, side[c], c)
                kids[here, s] = c
        cur, inv = np.unique(kids, return_inverse=True)
        kids_by_layer.append(inv.reshape(kids.shape))
    value = (cur == TRUE).astype(np.int64)
    got = a.cache["feature_graph"] = (kids_by_layer, value)
    return got


def coalition_weights(n: int, kind: str, exact: bool) -> np.ndarray:
    """The weight of a coalition of each size ``0 .. n`` that leaves a player out
    (Shapley: ``k! (n-k-1)! / n!``, size ``n`` weighing 0; Banzhaf: one weight,
    ``2^(1-n)``)."""
    one = Fraction(1) if exact else 1.0
    if kind == "banzhaf":
        return np.array([one / (1 << (n - 1))], dtype=object if exact else float)
    w = [one * math.factorial(k) * math.factorial(n - k - 1) / math.factorial(n)
         for k in range(n)] + [one * 0]
    return np.array(w, dtype=object if exact else float)


def _scatter(target: np.ndarray, idx: np.ndarray, vals: np.ndarray) -> None:
    """``target[idx[u, r], r] += vals[u, r]`` for every node ``u`` and pair ``r``."""
    pairs = target.shape[1]
    flat = (idx * pairs + np.arange(pairs)[None, :]).ravel()
    width = target.shape[2]
    t = target.reshape(-1, width)
    v = vals.reshape(-1, width)
    if target.dtype == object:
        np.add.at(t, flat, v)
        return
    size = t.shape[0]
    for j in range(width):
        t[:, j] += np.bincount(flat, weights=v[:, j], minlength=size)


def _out(G, kids, m, zs, q, rows):
    """``G`` of the children that ``z`` leads to on layer ``m``, expected under ``z``."""
    if zs is not None:
        return G[kids[:, zs[:, m]], rows[None, :]]
    out = None
    for s, p in enumerate(q[m]):
        if p:
            part = p * G[kids[:, s]]
            out = part if out is None else out + part
    return out if out is not None else np.zeros_like(G[kids[:, 0]])


def game_values(odd, xs: np.ndarray, zs: np.ndarray | None, q: list | None, *,
                kind: str = "shapley", exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Shapley or Banzhaf values of every pair's game, and ``v(empty)``.

    Parameters
    ----------
    odd : ODD
    xs : int array (pairs, features)
        The instance of each pair, as state indices in the ODD's feature order.
    zs : int array (pairs, features) or None
        The background row of each pair (a point mass per feature) ...
    q : list of arrays, or None
        ... or, when ``zs`` is None, one product distribution: per feature the
        probability of each state.
    kind : {"shapley", "banzhaf"}
    exact : bool
        Compute in fractions (``q`` must then hold Fractions) instead of float64.

    Returns
    -------
    values : array (pairs, features)
    empty : array (pairs,)
        ``v(empty) = E_z f(z)``.
    """
    kids_by_layer, value = feature_graph(odd)
    n = len(kids_by_layer)
    pairs = len(xs)
    dtype = object if exact else float
    shapley = kind == "shapley"
    rows = np.arange(pairs)
    weights = coalition_weights(n, kind, exact)

    def width(m):
        return n - m + 1 if shapley else 1

    # top-down: W per layer
    W = np.empty((1, pairs, width(0)), dtype=dtype)
    W[0] = weights[None, :width(0)]
    Ws = []
    for m in range(n):
        Ws.append(W)
        kids = kids_by_layer[m]
        nxt = np.zeros((int(kids.max()) + 1, pairs, width(m + 1)), dtype=dtype)
        if exact:
            nxt[...] = Fraction(0)
        w_in = W[:, :, 1:] if shapley else W
        w_out = W[:, :, :width(m + 1)]
        _scatter(nxt, kids[:, xs[:, m]], w_in)
        if zs is not None:
            _scatter(nxt, kids[:, zs[:, m]], w_out)
        else:
            for s, p in enumerate(q[m]):
                if p:
                    _scatter(nxt, np.repeat(kids[:, s:s + 1], pairs, axis=1), p * w_out)
        W = nxt
    # bottom-up: G per layer, the values collected on the way; E: the expected decision
    G = np.empty((len(value), pairs, 1), dtype=dtype)
    G[...] = value[:, None, None] * (Fraction(1) if exact else 1.0)
    E = G[:, :, 0]
    phi = np.empty((pairs, n), dtype=dtype)
    for m in range(n - 1, -1, -1):
        kids = kids_by_layer[m]
        g_in = G[kids[:, xs[:, m]], rows[None, :]]
        g_out = _out(G, kids, m, zs, q, rows)
        phi[:, m] = ((g_in - g_out) * Ws[m][:, :, :width(m + 1)]).sum(axis=(0, 2))
        if shapley:
            G = np.zeros((len(kids), pairs, width(m)), dtype=dtype)
            if exact:
                G[...] = Fraction(0)
            G[:, :, 1:] += g_in
            G[:, :, :-1] += g_out
        else:
            G = g_in + g_out
        E = _out(E[:, :, None], kids, m, zs, q, rows)[:, :, 0]
        Ws[m] = None
    return phi, E[0]
