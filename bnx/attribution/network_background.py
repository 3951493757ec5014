"""The network's own distribution over the features as a SHAP background.

Interventional values are linear in the background distribution ``D``: the game
``v(S) = E_{z~D} f(x_S, z_rest)`` is, and Shapley and Banzhaf values are linear in the
game. On a naive Bayes the features are independent given the class, so the network's
marginal over them is a mixture of products, ``D(z) = sum_c Pr(c) prod_i Pr(z_i | c)``,
and the values against ``D`` are the ``Pr(c)``-weighted sum of the values against each
product. On a latent tree the components are the joint states ``k`` of the class and
the latent nodes: ``D(z) = sum_k Pr(k) prod_i Pr(z_i | parent of i in k)``.

:func:`network_mixture` gives those components, exactly: their weights and, per
feature, each component's distribution over the feature's states. The passes of
:mod:`bnx.attribution.shapley` then run once per (instance, component) pair.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from ..classifier._classifier import Classifier, _resolve_state
from ..errors import ArgumentError, StructureError
from .chain import network_chain

__all__ = ["MAX_COMPONENTS", "network_background", "network_mixture"]

#: The most joint states of the class and the latent nodes a latent tree may have.
MAX_COMPONENTS = 1 << 16

SUPPORTED = ("naive Bayes and latent trees (the class the root, the features the leaves, "
             "every other node a latent node with one parent), and networks with no hidden "
             "node once pruned (TANs, k-dependence classifiers)")


def _check_match(odd, clf: Classifier) -> list:
    """Match the ODD's states to the classifier's.

    Per feature of the ODD (its order), the index in ``clf.states(f)`` of each of the ODD's
    states.
    """
    if set(clf.features) != set(odd.features):
        extra = [f for f in clf.features if f not in set(odd.features)]
        absent = [f for f in odd.features if f not in set(clf.features)]
        raise ArgumentError(
            "background: the classifier's features differ from the ODD's ("
            + "; ".join(part for part in (
                extra and f"not in the ODD: {', '.join(map(repr, extra))}",
                absent and f"not in the classifier: {', '.join(map(repr, absent))}") if part)
            + ")")
    maps = []
    for f in odd.features:
        mine, theirs = odd.states(f), clf.states(f)
        idx = [_resolve_state(theirs, s) for s in mine]
        if None in idx or len(set(idx)) != len(idx) or len(mine) != len(theirs):
            raise ArgumentError(f"background: feature {f!r} has the states "
                                f"{', '.join(map(str, theirs))} in the classifier but "
                                f"{', '.join(map(str, mine))} in the ODD")
        maps.append(idx)
    return maps


def network_background(odd, clf: Classifier, exact: bool) -> tuple:
    """Return the network as a background: a mixture or a chain.

    ``("mixture", weights, q)`` (:func:`network_mixture`) for naive Bayes and latent trees,
    ``("chain", Chain)`` (:func:`bnx.attribution.chain.network_chain`) for TANs and other
    networks with no hidden node once pruned; :class:`StructureError` otherwise.
    """
    if clf.structure in ("naive_bayes", "latent_tree"):
        return ("mixture", *network_mixture(odd, clf, exact))
    maps = _check_match(odd, clf)
    try:
        return "chain", network_chain(odd, clf, maps, exact)
    except StructureError as exc:
        raise StructureError(f"background=classifier is supported for {SUPPORTED}; this "
                             f"classifier's structure is {clf.structure!r}, with {exc}"
                             ) from None


def network_mixture(odd, clf: Classifier, exact: bool) -> tuple[np.ndarray, list]:
    """Return the network's marginal over the ODD's features as a mixture of products.

    Returns
    -------
    weights : array (components,)
        The probability of each component (they sum to 1); components of probability
        0 are left out.
    q : list of arrays (components, states)
        Per feature in the ODD's order, each component's distribution over its states.
        Fractions with ``exact``, else float64.

    Raises
    ------
    ArgumentError
        Its features or their states differ from the ODD's; or a latent tree with more
        than :data:`MAX_COMPONENTS` joint states of the class and the latent nodes.
    """
    maps = _check_match(odd, clf)
    inner = [clf.class_var, *clf.latent]
    cards = [len(clf.states(node)) for node in inner]
    count = math.prod(cards)
    if count > MAX_COMPONENTS:
        raise ArgumentError(f"background: the class and the latent nodes have {count:,} "
                            f"joint states, more than the {MAX_COMPONENTS:,} this computes "
                            f"over (one pass per joint state)")
    pos = {node: j for j, node in enumerate(inner)}
    parent = {node: clf.parent(node) for node in inner[1:]}
    feature_parent = [pos[clf.parent(f)] for f in odd.features]
    weights, rows = [], []
    for k in itertools.product(*(range(c) for c in cards)):
        p = clf.table(clf.class_var)[0][k[0]]
        for j, node in enumerate(inner[1:], 1):
            if p == 0:
                break
            p *= clf.table(node)[k[pos[parent[node]]]][k[j]]
        dists = []
        for i, f in enumerate(odd.features):
            if p == 0:
                break
            row = clf.table(f)[k[feature_parent[i]]]
            total = sum(row, Fraction(0))
            p *= total  # (the tables' rows sum to 1 up to pgmpy's tolerance)
            if total:
                dists.append([row[j] / total for j in maps[i]])
        if p:
            weights.append(p)
            rows.append(dists)
    total = sum(weights, Fraction(0))
    if not total:  # every joint state has probability 0 (pgmpy does not allow it)
        raise ArgumentError("background: the network gives every instance probability 0")
    weights = [w / total for w in weights]
    dtype = object if exact else float
    conv = (lambda v: v) if exact else float
    w = np.array([conv(v) for v in weights], dtype=dtype)
    q = []
    for i in range(len(odd.features)):
        a = np.empty((len(rows), len(maps[i])), dtype=dtype)
        for c, dists in enumerate(rows):
            a[c] = [conv(v) for v in dists[i]]
        q.append(a)
    return w, q
