"""The restricted decision function of one instance as an exact table.

:func:`open_table` keeps some features *open* (every setting of them at once) and the
others fixed to the instance: the network's one inference path
(:mod:`bnx.classifier._inference`) with the open features kept, so the result is
``Pr(class, x_fixed, y)`` for every setting ``y`` of the open features, up to one
positive constant, in floats with a proven bound (:func:`open_labels`) or exactly.
:class:`Question` reads the decision (or the decided class) off each entry by the
classifier's rule, exactly as :meth:`bnx.Classifier.decide` does. The table is the
brute-force answer over the open features; its size is the product of their state
counts (times the class's), so it is asked only of a few features at a time
(:data:`MAX_ENTRIES`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .._util.rounding import compare_all, gamma
from ..classifier._inference import FloatRange
from ..classifier._rules import threshold_weights

__all__ = ["open_joint", "open_table", "open_labels", "first_joint", "Question", "OutOfTime",
           "MAX_ENTRIES", "entries"]

#: The most entries (settings of the open features times class states) one table holds.
MAX_ENTRIES = 1 << 12

def entries(clf: Any, open_: Sequence) -> int:
    """How many entries the table with these open features holds."""
    return len(clf.class_states) * math.prod(clf._card[f] for f in open_)


def _ticker(deadline: float | None):
    """Return a tick that raises :class:`OutOfTime` past ``deadline`` (``None``: none)."""
    if deadline is None:
        return None

    def tick() -> None:
        if time.monotonic() > deadline:
            raise OutOfTime("the deadline passed")
    return tick


def open_joint(clf: Any, fixed: Mapping, open_: Sequence, *, exact: bool = False,
               deadline: float | None = None):
    """Return ``Pr(class = c, fixed, open_ = y)`` for every class state and setting ``y``.

    Up to one positive constant for the whole table, by the network's one inference path
    (:meth:`bnx.classifier._inference.Inference.joint`): in floats with a proven relative
    error bound, or exactly.

    ``fixed`` maps features to state indices; every feature of ``clf`` is in ``fixed``
    or ``open_``. ``deadline`` (a :func:`time.monotonic` time): :class:`OutOfTime` past it,
    while the pattern is planned or the tables contracted.

    Returns
    -------
    bnx.classifier._inference.Answer
        ``.table`` (class axis first, then the open features), ``.err`` its bound.

    Raises
    ------
    bnx.classifier._inference.FloatRange
        In floats, when no bound can be proven (the caller computes exactly).
    """
    return clf._inference.joint((clf.class_var, *open_), clf._observed(fixed), exact=exact,
                                whole=False, tick=_ticker(deadline))


class OutOfTime(Exception):
    """The deadline passed, or a step that cannot be interrupted would end past it.

    Caught by the search's caller, which reports what was proven.
    """


def open_table(clf: Any, fixed: Mapping, open_: Sequence, *,
               deadline: float | None = None) -> np.ndarray:
    """Return :func:`open_joint` exactly: its table, exact numbers in an object array.

    With a ``deadline`` (a :func:`time.monotonic` time), a contraction of more than
    :data:`~bnx.classifier._inference.EXACT_FLOPS` multiply-adds is not started
    (:class:`OutOfTime`): in big integers it can take minutes (barley's near ties, about
    100 s each), and it cannot be interrupted.

    Returns
    -------
    numpy.ndarray
        ``t[c, y1, ..., yk]``.
    """
    if deadline is not None and not clf._inference.affordable(
            (clf.class_var, *open_), clf._observed(fixed), whole=False,
            tick=_ticker(deadline)):
        raise OutOfTime("an exact table too large to compute within the deadline")
    return open_joint(clf, fixed, open_, exact=True, deadline=deadline).table


def first_joint(clf: Any, question: Question, idx: Mapping) -> tuple[Any, np.ndarray]:
    """Return ``(label, table)``: the decision on the complete instance ``idx``, its class joint.

    The joint exactly (an object array of exact numbers) where its contraction takes at
    most :data:`EXACT_FLOPS` multiply-adds (sized before it starts, by its plan); else
    in floats within a proven bound, the decision read off it as :func:`open_labels`
    reads one (exactly only at a near tie). The table's dtype says which.
    """
    evidence = clf._observed(idx)
    if clf._inference.affordable((clf.class_var,), evidence, whole=False):
        table = open_table(clf, idx, ())
        return question.labels(table).item(), table
    labels, table = open_labels(clf, question, idx, ())
    return labels.item(), table


def open_labels(clf: Any, question: Question, fixed: Mapping, open_: Sequence, *,
                deadline: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(labels, table)``: the decision on every setting of ``open_``, and the joint.

    The table is :func:`open_joint` in floats, each label read off it when its rounding
    cannot change it (:meth:`Question.certain`); when some label could change (a near
    tie), or floats cannot prove a bound, the table is computed again exactly (the same
    contraction in exact integers) and the labels read off it, sized first under a
    ``deadline`` (:func:`open_table`).

    Returns
    -------
    tuple
        ``(labels, table)``; the table is proportional to the joint.
    """
    try:
        got = open_joint(clf, fixed, open_, deadline=deadline)
        labels = question.certain(got.table, got.err)
    except FloatRange:
        labels = None
    if labels is not None:
        return labels, got.table
    exact = open_table(clf, fixed, open_, deadline=deadline)
    return question.labels(exact), exact


class Question:
    """What one decision is, read off a class joint.

    The classifier's rule, and for a multi-class classifier the class decided (``rival``:
    whether the rival is decided).

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

    def certain(self, table: np.ndarray, err: float) -> np.ndarray | None:
        """Return the labels of a float table, or ``None`` when the rounding could change one.

        Every entry of ``table`` is within a relative ``err`` of the exact one (up to one
        positive constant). The sums and products below add ``self.k + 2`` roundings;
        :func:`bnx._util.rounding.compare_all` compares them.
        """
        rel = math.nextafter(float((1 + Fraction(err)) * (1 + gamma(self.k + 2)) - 1), math.inf)
        if self.multiclass or self.rule == "argmax":
            order = np.sort(table, axis=0)
            top, second = order[-1], order[-2]
            settled, _ = compare_all(top, second, rel, strict=True)  # a tie only of zeros
            if not settled.all():
                return None
            best = np.where(top == 0, 0, np.argmax(table, axis=0))  # all zero: the first
            return best if self.multiclass else best == self.p
        weights = self.weights()
        if weights is None:
            return None
        wp, wn = weights
        raw_pos, raw_neg = table[self.p], np.delete(table, self.p, axis=0).sum(axis=0)
        pos, neg = raw_pos * wp, raw_neg * wn
        if (((pos == 0) & (raw_pos != 0)).any() if wp else False) or \
                (((neg == 0) & (raw_neg != 0)).any() if wn else False):
            return None  # a product underflowed to 0: no longer within its bound
        settled, positive = compare_all(pos, neg, rel)  # 0 >= 0: positive
        return positive if settled.all() else None

    def weights(self) -> tuple[float, float] | None:
        """Return :func:`bnx.classifier._rules.threshold_weights` of the threshold.

        ``None``: compare exactly (the ``k + 2`` roundings of :meth:`certain` include the
        weights' one).
        """
        return threshold_weights(Fraction(*self.t))

    def labels(self, table: np.ndarray) -> np.ndarray:
        """Return the decision on each setting (the class axis summed away).

        Exactly :func:`bnx.classifier._rules.decides` (threshold, argmax: the first state
        wins a tie) or the most probable class.
        """
        if self.multiclass or self.rule == "argmax":
            best = _first_argmax(table)
            return best if self.multiclass else best == self.p
        n, m = self.t
        pos = table[self.p]
        total = table.sum(axis=0)
        return np.asarray((m - n) * pos >= n * (total - pos), dtype=bool)


def _first_argmax(table: np.ndarray) -> np.ndarray:
    """Return the index of the largest entry along axis 0, the first on ties (exact ints)."""
    best = np.zeros(table.shape[1:], dtype=np.int64)
    top = np.array(table[0], dtype=object)
    for j in range(1, table.shape[0]):
        better = np.asarray(table[j] > top, dtype=bool)
        best = np.where(better, j, best)
        top = np.where(better, table[j], top)
    return best
