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

from ..classifier._inference import (
    eliminate,
    elimination_order,
    indicator,
    observe,
    product,
)

__all__ = ["open_table", "Question", "MAX_ENTRIES", "entries"]

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

    def labels(self, table: np.ndarray) -> np.ndarray:
        """The decision on each setting (the class axis summed away): exactly
        :func:`bnx.classifier._rules.decides` (threshold, argmax: the first state wins a
        tie) or the most probable class."""
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
