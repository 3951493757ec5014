"""Unateness of a naive Bayes decision: per feature, the state whose cofactor is least.

A binary-class naive Bayes decides ``x`` positive iff ``alpha * p(x_i) >= beta * q(x_i)``
for each feature ``i``, where ``p`` and ``q`` are the feature's CPT rows under the positive
and the negative class and ``alpha, beta >= 0`` collect the prior, the threshold and the
other features (:mod:`bnx.classifier._classifier` gives the exact rule). Order the states of ``i``
by the key ``p/q`` (``+inf`` where ``q = 0``): if ``key(s) <= key(t)`` then the cofactor of
the decision function on ``s`` implies its cofactor on ``t``, in every context:

* ``q_t = 0``: the cofactor on ``t`` is ``alpha * p_t >= 0``, always true;
* otherwise ``q_s > 0`` and ``p_s / q_s <= p_t / q_t``; from ``alpha p_s >= beta q_s``,
  either ``beta = 0`` (and ``t`` is positive too) or ``alpha > 0`` and
  ``p_t / q_t >= p_s / q_s >= beta / alpha``.

So the decision function is unate in every feature, and the conjunction of a node's
cofactors over all the states of its feature (the "star" of pi-inst,
:mod:`bnx.explanation.store`) is its cofactor on the state of least key: a node the ODD
already holds, found by one gather instead of a product of diagrams. For the complement
of the decision, it is the cofactor on the state of greatest key. The keys are compared
in exact fractions. An ODD keeps both lists in its ``meta`` (``"least_states"``) and its
file, so a loaded ODD need not rebuild its classifier to use them.

Under ``rule="argmax"`` with two classes the first class wins ties, so the decision is
the threshold 1/2 on the first class, or its complement when the second is positive.

Examples
--------
>>> import bnx
>>> clf = bnx.examples.admissions()
>>> least_states(clf, clf.features, True), least_states(clf, clf.features, False)
((0, 0, 0, 0), (1, 1, 1, 1))
>>> least_pair(clf, clf.features)
((0, 0, 0, 0), (1, 1, 1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..errors import BnxError

__all__ = ["least_states", "least_pair"]


def _key(p: Fraction, q: Fraction) -> tuple:
    return (1, Fraction(0)) if q == 0 else (0, Fraction(p) / Fraction(q))


def least_states(clf, features: Sequence, decision: bool) -> tuple[int, ...] | None:
    """Find per feature the index of the state whose cofactor implies every other cofactor.

    The features in ``features``' order; the function is ``decision`` (the decision
    function, or its complement for ``False``); ``None`` when the classifier is not a
    binary-class naive Bayes, where this does not hold in general.
    """
    if clf.structure != "naive_bayes" or len(clf.class_states) != 2:
        return None
    states = list(clf.class_states)
    if clf.rule == "threshold":
        k = states.index(clf.positive)
    else:  # argmax, two classes: threshold 1/2 on the first class, complemented if second
        k = 0
        if clf.positive != states[0]:
            decision = not decision
    out = []
    try:
        for f in features:
            table = clf.table(f)
            keys = [_key(p, q) for p, q in zip(table[k], table[1 - k])]
            pick = min if decision else max
            out.append(keys.index(pick(keys)))
    except (KeyError, BnxError):  # a feature without a table of its own: no shortcut
        return None
    return tuple(out)


def least_pair(clf, features: Sequence) -> tuple | None:
    """Return ``(least_states(..., True), least_states(..., False))``.

    ``None`` where they do not hold.
    """
    true = least_states(clf, features, True)
    return None if true is None else (true, least_states(clf, features, False))
