"""The restricted decision function of one instance as an exact table.

:func:`open_table` keeps some features *open* (every setting of them at once) and the
others fixed to the instance: one variable elimination over the network's exact integer
factors (:mod:`bnx.classifier._inference`) with the open features left in the scope, so
the result is ``Pr(class, x_fixed, y)`` for every setting ``y`` of the open features, up
to one positive constant, in exact integers. :class:`Question` reads the decision (or
the decided class) off each entry by the classifier's rule, exactly as
:meth:`bnx.Classifier.decide` does. The table is the brute-force answer over the open
features; its size is the product of their state counts (times the class's), so it is
asked only of a few features at a time (:data:`MAX_ENTRIES`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._util.rounding import gamma
from ..classifier._inference import (
    eliminate,
    elimination_order,
    indicator,
    observe,
    product,
)

__all__ = ["open_table", "open_labels", "Question", "MAX_ENTRIES", "entries"]

#: The most entries (settings of the open features times class states) one table holds.
MAX_ENTRIES = 1 << 12


def entries(clf: Any, open_: Sequence) -> int:
    """How many entries the table with these open features holds."""
    return len(clf.class_states) * math.prod(clf._card[f] for f in open_)


def open_table(clf: Any, fixed: Mapping, open_: Sequence, cache: dict) -> np.ndarray:
    """``t[c, y1, ..., yk]`` proportional to ``Pr(class = c, fixed, open_ = y)`` (one
    positive constant for the whole table), exact integers in an object array.

    ``fixed`` maps features to state indices; every feature of ``clf`` is in ``fixed``
    or ``open_`` (the decision of a complete instance ignores the factors set aside as
    positive constants, as :meth:`bnx.Classifier.decide` does). ``cache`` keeps the
    elimination order per pattern.
    """
    c, card = clf.class_var, clf._card
    keep = set(open_)
    pool = []
    for f in clf._int_main:
        for v in f[0]:
            if v in fixed and v not in keep:
                f = observe(f, v, indicator(card[v], fixed[v]))
        pool.append(f)
    key = (frozenset(fixed), tuple(open_))
    order = cache.get(key)
    if order is None:
        hidden = {v for s, _ in pool for v in s if v != c and v not in keep}
        order = cache[key] = elimination_order([s for s, _ in pool],
                                               sorted(hidden, key=str), card)
    rest = eliminate(pool, order)
    scope = (c, *open_)
    rest.extend(((v,), np.ones(card[v], dtype=object)) for v in scope
                if not any(v in s for s, _ in rest))
    _, table = product(rest, scope=scope)
    return table


def open_labels(clf: Any, question: Question, fixed: Mapping, open_: Sequence,
                cache: dict) -> tuple[np.ndarray, np.ndarray]:
    """``(labels, table)``: the decision on every setting of ``open_`` (as
    :meth:`Question.labels` reads :func:`open_table`) and a table proportional to the
    joint (floats, for orderings only). The table is computed in floats and each label
    read off it when the rounding cannot change it (:meth:`Question.certain`); when some
    label could change (a near tie), or a value leaves the range of the rounding
    argument, the whole table is computed again exactly.
    """
    try:
        with np.errstate(over="raise", under="raise"):
            t, k = _float_table(clf, fixed, open_, cache)
            labels = question.certain(t, k)
    except FloatingPointError:
        labels = None
    if labels is not None:
        return labels, t
    exact = open_table(clf, fixed, open_, cache)
    return question.labels(exact), exact


def _float_table(clf: Any, fixed: Mapping, open_: Sequence, cache: dict
                 ) -> tuple[np.ndarray, int]:
    """:func:`open_table` in floats, and the roundings behind any entry (every product
    and sum of every step counted, and the conversion of the CPT entries).
    """
    c, card = clf.class_var, clf._card
    main = cache.get("float main")
    if main is None:
        main = cache["float main"] = [(s, np.asarray(t, dtype=float)) for s, t in clf._main]
    keep = set(open_)
    pool = []
    for scope, t in main:
        f = (scope, t)
        for v in scope:
            if v in fixed and v not in keep:
                f = observe(f, v, indicator(card[v], fixed[v]))
        pool.append(f)
    key = (frozenset(fixed), tuple(open_))
    order = cache.get(key)
    if order is None:
        hidden = {v for s, _ in pool for v in s if v != c and v not in keep}
        order = cache[key] = elimination_order([s for s, _ in pool],
                                               sorted(hidden, key=str), card)
    k = 1
    for h in order:
        hit = sum(1 for s, _ in pool if h in s)
        if hit:
            pool = eliminate(pool, [h])
            k += hit - 1 + card[h] - 1
    scope = (c, *open_)
    pool.extend(((v,), np.ones(card[v])) for v in scope
                if not any(v in s for s, _ in pool))
    k += len(pool) - 1
    _, table = product(pool, scope=scope)
    return np.asarray(table, dtype=float), k


class Question:
    """What one decision is, read off a class joint: the classifier's rule, and for a
    multi-class classifier the class decided (``rival``: whether the rival is decided).

    :meth:`labels` gives, for every entry of a table (class axis first), the decision
    there: a bool (positive) for a binary classifier, the index of the decided class
    for a multi-class one.
    """

    def __init__(self, clf: Any):
        self.clf = clf
        self.k = len(clf.class_states)
        self.multiclass = clf.multiclass
        self.rule = clf.rule
        self.p = None if clf.multiclass else clf.class_states.index(clf.positive)
        t = clf.threshold
        self.t = None if t is None else (t.numerator, t.denominator)

    def certain(self, table: np.ndarray, k: int) -> np.ndarray | None:
        """The labels of a float table whose every entry is within a factor ``1 ±
        gamma(k)`` of the exact one, or ``None`` when the rounding could change one.
        """
        g = float(gamma(k + self.k + 2)) * 2  # the sums and scalings below, rounded up
        lo, hi = 1 - g, 1 + g
        if self.multiclass or self.rule == "argmax":
            order = np.sort(table, axis=0)
            top, second = order[-1], order[-2]
            zero = top == 0  # every class exactly zero: the first class wins the tie
            sure = zero | (second == 0) | (top * lo > second * hi)
            if not sure.all():
                return None
            best = np.where(zero, 0, np.argmax(table, axis=0))
            return best if self.multiclass else best == self.p
        n, m = self.t
        pos = table[self.p] * (m - n)
        neg = np.delete(table, self.p, axis=0).sum(axis=0) * n
        both = (pos == 0) & (neg == 0)  # 0 >= 0: positive
        sure = both | (pos == 0) | (neg == 0) | (pos * lo > neg * hi) | (pos * hi < neg * lo)
        if not sure.all():
            return None
        return np.asarray(both | ((pos > 0) & (pos * lo > neg * hi)) | ((pos > 0) & (neg == 0)),
                          dtype=bool)

    def labels(self, table: np.ndarray) -> np.ndarray:
        """The decision on each setting (the class axis summed away): exactly
        :func:`bnx.classifier._rules.decides` (threshold, argmax: the first state wins a
        tie) or the most probable class.
        """
        if self.multiclass or self.rule == "argmax":
            best = _first_argmax(table)
            return best if self.multiclass else best == self.p
        n, m = self.t
        pos = table[self.p]
        total = table.sum(axis=0)
        return np.asarray((m - n) * pos >= n * (total - pos), dtype=bool)


def _first_argmax(table: np.ndarray) -> np.ndarray:
    """The index of the largest entry along axis 0, the first on ties (exact ints)."""
    best = np.zeros(table.shape[1:], dtype=np.int64)
    top = np.array(table[0], dtype=object)
    for j in range(1, table.shape[0]):
        better = np.asarray(table[j] > top, dtype=bool)
        best = np.where(better, j, best)
        top = np.where(better, table[j], top)
    return best
