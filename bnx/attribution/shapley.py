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

from ..diagram._arrays import TRUE

__all__ = ["feature_graph", "game_values", "coalition_weights"]


def feature_graph(odd) -> tuple[list, np.ndarray]:
    """Return the ODD's diagram with one layer per feature (made once per ODD).

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
    got = a.cache.put("feature_graph", (), (kids_by_layer, value))
    return got


def coalition_weights(n: int, kind: str, exact: bool) -> np.ndarray:
    """Weigh a coalition of each size ``0 .. n`` that leaves a player out.

    Shapley: ``k! (n-k-1)! / n!``, size ``n`` weighing 0; Banzhaf: one weight, ``2^(1-n)``.
    """
    if kind == "banzhaf":
        return np.array([Fraction(1, 1 << (n - 1)) if exact else math.ldexp(1.0, 1 - n)],
                        dtype=object if exact else float)
    if exact:
        w = [Fraction(1, n * math.comb(n - 1, k)) for k in range(n)] + [Fraction(0)]
    elif n <= 170:  # n! fits in a double (the float weights as they always were)
        w = [1.0 * math.factorial(k) * math.factorial(n - k - 1) / math.factorial(n)
             for k in range(n)] + [0.0]
    else:  # correctly rounded from the exact integers (no float overflow)
        w = [1 / (n * math.comb(n - 1, k)) for k in range(n)] + [0.0]
    return np.array(w, dtype=object if exact else float)


def _unique(keys: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """Compute ``np.unique(keys, return_inverse=True)`` for keys in ``0 .. bound - 1``.

    By marking a table when it is not much longer than the keys, else by sorting.
    """
    if bound > 8 * len(keys):
        nxt, inv = np.unique(keys, return_inverse=True)
        return nxt, inv.reshape(-1)
    flag = np.zeros(bound, dtype=bool)
    flag[keys] = True
    rank = np.cumsum(flag) - 1
    return np.flatnonzero(flag), rank[keys]


def _add(target: np.ndarray, idx: np.ndarray, vals: np.ndarray) -> None:
    """``target[:, idx[a]] += vals[:, a]`` for every entry ``a`` (repeats add up)."""
    if target.dtype == object:
        np.add.at(target.T, idx, vals.T)
        return
    k, size = target.shape
    flat = (np.arange(k)[:, None] * size + idx[None, :]).ravel()
    target += np.bincount(flat, weights=vals.ravel(), minlength=k * size).reshape(k, size)


def game_values(odd, xs: np.ndarray, zs: np.ndarray | None, q: list | None, *,
                kind: str = "shapley", exact: bool = False,
                chain=None) -> tuple[np.ndarray, np.ndarray, int]:
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
        probability of each state; or a product distribution per pair: per feature an
        array (pairs, states) (for a mixture of products, one pair per component).
    kind : {"shapley", "banzhaf"}
    exact : bool
        Compute in fractions (``q`` must then hold Fractions) instead of float64.
    chain : Chain, optional
        Instead of ``zs`` and ``q``: a background drawn along the layers with a context
        (:class:`bnx.attribution.chain.Chain`); an entry is then a node in a context,
        and the layer's state is drawn even when the feature is in the coalition (later
        layers' probabilities may read it).

    Returns
    -------
    values : array (pairs, features)
    empty : array (pairs,)
        ``v(empty) = E_z f(z)``.
    cells : int
        How many numbers the passes held (for sizing chunks of pairs).

    Notes
    -----
    Only the (node, pair) entries that the pair's paths reach are visited: on each
    layer the entries are kept as sorted keys ``node * pairs + pair``, the children of
    the entries as positions among the next layer's keys, and the numbers of a layer
    as an array ``(sizes, entries)``.
    """
    kids_by_layer, value = feature_graph(odd)
    n = len(kids_by_layer)
    pairs = len(xs)
    dtype = object if exact else float
    shapley = kind == "shapley"
    weights = coalition_weights(n, kind, exact)

    def width(m):
        return n - m + 1 if shapley else 1

    def zeros(shape):
        out = np.zeros(shape, dtype=dtype)
        if exact:
            out[...] = Fraction(0)
        return out

    # top-down: the entries of each layer and W on them
    if chain is None:
        keys = np.arange(pairs, dtype=np.int64)  # layer 0: the root (node 0 of the layer)
        W = zeros((width(0), pairs))
        W[:] = weights[:width(0), None]
    else:  # layer 0: the root in each context of positive weight
        ts = np.flatnonzero(np.asarray([bool(p) for p in chain.pi]))
        keys = (ts[:, None] * pairs + np.arange(pairs)[None, :]).ravel()
        W = weights[:width(0), None] * chain.pi[keys // pairs][None, :]
    keys0 = keys
    layers = []  # per layer: W, [(an in-child's position, p)], [(an out-child's ...)], pair
    cells = 0
    for m in range(n):
        kids = kids_by_layer[m]
        node, r = keys // pairs, keys % pairs
        if chain is not None:  # node u in context t is u * T + t
            T, T1 = chain.sizes[m], chain.sizes[m + 1]
            node, t = node // T, node % T
            P, tau = chain.P[m][t], chain.tau[m][t]
            live = [s for s in range(P.shape[1]) if P[:, s].any()] or [0]
            x_kid = kids[node, xs[r, m]] * T1
            if chain.carries[m]:  # z_m is still drawn (later factors read it)
                ins = [((x_kid + tau[:, s]) * pairs + r, P[:, s]) for s in live]
            else:
                ins = [((x_kid + tau[:, 0]) * pairs + r, P.sum(axis=1))]
            outs = [((kids[node, s] * T1 + tau[:, s]) * pairs + r, P[:, s]) for s in live]
            bound = (int(kids.max()) + 1) * T1 * pairs
        else:
            ins = [(kids[node, xs[r, m]] * pairs + r, None)]
            if zs is not None:
                outs = [(kids[node, zs[r, m]] * pairs + r, None)]
            elif isinstance(q[m], np.ndarray) and q[m].ndim == 2:  # a product per pair
                qm = q[m][r]
                outs = [(kids[node, s] * pairs + r, qm[:, s]) for s in range(qm.shape[1])
                        if qm[:, s].any()]
            else:
                outs = [(kids[node, s] * pairs + r, p) for s, p in enumerate(q[m]) if p]
            bound = (int(kids.max()) + 1) * pairs
        nxt, inv = _unique(np.concatenate([c for c, _ in ins + outs]), bound)
        a = len(keys)
        parts = [(inv[a * j:a * (j + 1)], p) for j, (_, p) in enumerate(ins + outs)]
        pos_in, pos_out = parts[:len(ins)], parts[len(ins):]
        layers.append((W, pos_in, pos_out, r))
        cells += W.size
        w_next = zeros((width(m + 1), len(nxt)))
        w_in = W[1:] if shapley else W
        for pos, p in pos_in:
            _add(w_next, pos, w_in if p is None else p * w_in)
        w_out = W[:width(m + 1)]
        for pos, p in pos_out:
            _add(w_next, pos, w_out if p is None else p * w_out)
        keys, W = nxt, w_next
    # bottom-up: G on the same entries, the values collected on the way
    G = zeros((1, len(keys)))
    last = keys // pairs if chain is None else keys // pairs // chain.sizes[n]
    G[0] = value[last] * (Fraction(1) if exact else 1.0)
    E = G[0]
    phi = zeros((pairs, n))
    for m in range(n - 1, -1, -1):
        W, pos_in, pos_out, r = layers.pop()
        g_in = None
        for pos, p in pos_in:
            g = G[:, pos] if p is None else p * G[:, pos]
            g_in = g if g_in is None else g_in + g
        g_out = e_out = None
        for pos, p in pos_out:
            g, e = G[:, pos], E[pos]
            if p is not None:
                g, e = p * g, p * e
            g_out = g if g_out is None else g_out + g
            e_out = e if e_out is None else e_out + e
        contrib = ((g_in - g_out) * W[:width(m + 1)]).sum(axis=0)
        if exact:
            np.add.at(phi[:, m], r, contrib)
        else:
            phi[:, m] = np.bincount(r, weights=contrib, minlength=pairs)
        if shapley:
            G = zeros((width(m), g_in.shape[1]))
            G[1:] += g_in
            G[:-1] += g_out
        else:
            G = g_in + g_out
        E = e_out
    if chain is not None:  # v(empty) per pair: the contexts' weights times E
        E = E * chain.pi[keys0 // pairs]
        r = keys0 % pairs
        if exact:
            base = zeros(pairs)
            np.add.at(base, r, E)
            E = base
        else:
            E = np.bincount(r, weights=E, minlength=pairs)
    return phi, E, cells
