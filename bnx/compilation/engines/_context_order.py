"""Orders with small open contexts for the TAN engine when the features are not a forest.

Two features are neighbours when a factor mentions both (k-dependence and BAN
classifiers: factors over the class and several features). Along an order, the open
context before a level is the observed features with an unobserved neighbour; the TAN
engine's tables at that level hold the product of their numbers of states times the
level's own (:func:`context_widths`). :func:`narrow_order` picks an order that keeps
the largest of them small (:mod:`._tan_model` uses it when the graph is not a forest).
"""

from __future__ import annotations

import itertools

from ...classifier._classifier import Classifier

__all__ = ["context_widths", "narrow_order"]


def context_widths(order: list, nbrs: dict, card: dict) -> list:
    """Count the contexts times states of each level along ``order``.

    Examples
    --------
    A triangle of binary features ``a, b, c`` and a ternary ``d`` that neighbours ``c``:
    ``a`` stays open until ``c``, ``c`` until ``d``.

    >>> nbrs = {"a": {"b", "c"}, "b": {"a", "c"}, "c": {"a", "b", "d"}, "d": {"c"}}
    >>> context_widths(["a", "b", "c", "d"], nbrs, {"a": 2, "b": 2, "c": 2, "d": 3})
    [2, 4, 8, 6]
    """
    where = {f: i for i, f in enumerate(order)}
    last = {f: max((where[g] for g in nbrs[f]), default=-1) for f in order}
    out, size = [], 1
    for i, f in enumerate(order):
        out.append(size * card[f])
        if last[f] > i:
            size *= card[f]
        for g in nbrs[f]:
            if last[g] == i and where[g] < i:
                size //= card[g]
    return out


def narrow_order(clf: Classifier, nbrs: dict, *, limit: int) -> list | None:
    """Order features whose interaction graph is not a forest, keeping the open contexts small.

    For k-dependence and BAN classifiers: the best (least largest level, then least total)
    of the features' order and greedy orders (:func:`_greedy`) started from each of the
    first features; ``None`` when every such order has a level beyond ``limit`` contexts
    times states.
    """
    card = {f: len(clf.states(f)) for f in clf.features}
    rank = {f: j for j, f in enumerate(clf.features)}
    best, best_key = None, None
    natural = list(clf.features)
    w = context_widths(natural, nbrs, card)
    if max(w) <= limit:
        best, best_key = natural, (max(w), sum(w))
    for first, closing in itertools.product(clf.features[:_STARTS], (False, True)):
        got = _greedy(first, clf.features, nbrs, card, rank, closing,
                      best_key[0] if best_key else limit)
        if got is not None:
            w = context_widths(got, nbrs, card)
            if best_key is None or (max(w), sum(w)) < best_key:
                best, best_key = got, (max(w), sum(w))
    return best


#: :func:`narrow_order` starts a greedy order from each of this many first features.
_STARTS = 8


def _greedy(first, feats, nbrs: dict, card: dict, rank: dict, closing: bool,
            limit: int) -> list | None:
    """Order the features greedily from ``first``.

    ``None`` once a level has more than ``limit`` contexts times states. Next comes the
    feature that leaves the smallest open context (the product of the numbers of states of
    the observed features with an unobserved neighbour), among the neighbours of observed
    features while there are any; ties go to the fewest unobserved neighbours (``closing``:
    minus the observed ones), then to the features' order. (On random 2-dependence
    classifiers of 24-30 features the two tie rules each win some; preferring the most
    observed neighbours first was worse.)
    """
    todo = {f: len(nbrs[f]) for f in feats}  # unobserved neighbours
    seen = {f: 0 for f in feats}  # observed neighbours
    opened: set = set()
    front: set = set()  # unobserved features with an observed neighbour
    size = 1
    left = set(feats)
    order: list = []
    f = first
    while True:
        if size * card[f] > limit:
            return None
        left.discard(f)
        front.discard(f)
        order.append(f)
        for g in nbrs[f]:
            todo[g] -= 1
            seen[g] += 1
            if g in left:
                front.add(g)
            if g in opened and not todo[g]:
                opened.discard(g)
                size //= card[g]
        if todo[f]:
            opened.add(f)
            size *= card[f]
        if not left:
            return order
        best_key = None
        for g in (front or left):
            s = size * card[g] if todo[g] else size
            for h in nbrs[g]:
                if h in opened and todo[h] == 1:
                    s //= card[h]
            key = (s, todo[g] - seen[g] if closing else todo[g], rank[g])
            if best_key is None or key < best_key:
                f, best_key = g, key
