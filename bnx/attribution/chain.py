"""The distribution of a network without hidden nodes, drawn along the ODD's features.

On a TAN (or any network whose factors, once pruned, are over the class and the
features alone) the features are not a mixture of few products: ``Pr(z_i | c, z_j)``
links them. But the joint is a product of factors, so it can be drawn along the
diagram's feature order: each factor is multiplied in at the layer of its last feature,
and the pass carries a *context*, the class state and the states of the earlier
features that a factor still to come reads. A path through the layers then weighs
``Pr(c, z)``, and the SHAP passes (:func:`bnx.attribution.shapley.game_values` with
``chain=``) sum over the class and the background together. The context is the
state of a feature even when the feature is in the coalition: the background
instance is drawn whole, then its part outside the coalition is used.

The contexts of a layer number the class's states times the product of the carried
features' states: small when the order keeps each feature near its parent (a chain,
or a TAN compiled with its own order), up to :data:`MAX_CONTEXTS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import ArgumentError, StructureError

__all__ = ["MAX_CONTEXTS", "Chain", "network_chain"]

#: The most contexts (class state and carried feature states) a layer may have.
MAX_CONTEXTS = 1 << 12


@dataclass
class Chain:
    """A network over the features as a chain of layers of contexts.

    Per layer ``m``: ``P[m][t, s]``, the factor of drawing state ``s`` in context ``t``, and
    ``tau[m][t, s]``, the next context; ``pi[t]`` weighs the first layer's contexts,
    ``sizes[m]`` is the number of contexts of layer ``m`` (``0 .. n``), ``carries[m]``
    whether a later factor reads feature ``m``, ``total`` the sum of all paths' weights.
    """

    pi: np.ndarray
    P: list
    tau: list
    sizes: list
    carries: list
    total: Fraction


def network_chain(odd, clf, maps: list, exact: bool) -> Chain:
    """Make the :class:`Chain` of ``clf``'s network over the ODD's features (ODD order).

    ``maps[i][j]`` is the classifier's index of the ODD's state ``j`` of feature ``i``.
    """
    feats = list(odd.features)
    pos = {f: m for m, f in enumerate(feats)}
    c = clf.class_var
    factors = list(clf._main) + [f for group in clf._aside for f in group]
    hidden = sorted({str(v) for scope, _ in factors for v in scope
                     if v != c and v not in pos})
    if hidden:
        raise StructureError(f"hidden nodes {', '.join(hidden)}")
    n, K = len(feats), len(clf.class_states)
    cards = [len(odd.states(f)) for f in feats]
    # each factor at the layer of its last feature (-1: the class alone)
    at: list = [[] for _ in range(n + 1)]
    last_use = list(range(n))
    for scope, table in factors:
        layer = max((pos[v] for v in scope if v != c), default=-1)
        at[layer + 1].append((scope, table))
        for v in scope:
            if v != c:
                last_use[pos[v]] = max(last_use[pos[v]], layer)
    # the features carried into layer m: earlier ones that a factor at m or later reads
    carried = [[j for j in range(m) if last_use[j] >= m] for m in range(n + 1)]
    sizes = [K * math.prod(cards[j] for j in carried[m]) for m in range(n + 1)]
    if max(sizes) > MAX_CONTEXTS:
        m = sizes.index(max(sizes))
        raise ArgumentError(
            f"background: drawing the network along the ODD's order carries "
            f"{len(carried[m])} features at once ({sizes[m]:,} contexts, more than "
            f"{MAX_CONTEXTS:,}); compile with an order that keeps each feature near its "
            f"parent")

    def value(scope, table, cs, z):
        idx = tuple(cs if v == c else maps[pos[v]][z[pos[v]]] for v in scope)
        return table[idx] if idx else table.reshape(-1)[0]

    def contexts(m):  # (class state, {feature: ODD state index}) of each context of m
        out = []
        for t in range(sizes[m]):
            z, rest = {}, t
            for j in reversed(carried[m]):
                rest, z[j] = divmod(rest, cards[j])
            out.append((rest, z))
        return out

    def index(m, cs, z):
        t = cs
        for j in carried[m]:
            t = t * cards[j] + z[j]
        return t

    one = Fraction(1)
    pi = [math.prod((value(s, tb, cs, {}) for s, tb in at[0]), start=one) for cs in range(K)]
    P, tau = [], []
    for m in range(n):
        pm = np.empty((sizes[m], cards[m]), dtype=object)
        tm = np.empty((sizes[m], cards[m]), dtype=np.int64)
        for t, (cs, z) in enumerate(contexts(m)):
            for s in range(cards[m]):
                zz = {**z, m: s}
                pm[t, s] = math.prod((value(sc, tb, cs, zz) for sc, tb in at[m + 1]),
                                     start=one)
                tm[t, s] = index(m + 1, cs, zz)
        P.append(pm)
        tau.append(tm)
    # the total weight, by a forward pass over the contexts alone
    alpha = np.array(pi, dtype=object)
    for m in range(n):
        nxt = np.array([Fraction(0)] * sizes[m + 1], dtype=object)
        np.add.at(nxt, tau[m].ravel(), (alpha[:, None] * P[m]).ravel())
        alpha = nxt
    total = sum(alpha, Fraction(0))
    if not total:
        raise ArgumentError("background: the network gives every instance probability 0")
    # normalise the first layer so that the paths' weights sum to 1
    pi = np.array([p / total for p in pi], dtype=object)
    if not exact:
        pi = pi.astype(float)
        P = [p.astype(float) for p in P]
    carries = [last_use[m] > m for m in range(n)]
    return Chain(pi, P, tau, sizes, carries, total)
