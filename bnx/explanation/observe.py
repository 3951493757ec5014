"""What to observe next.

The expected same-decision probability of each missing feature (Chen, Choi and Darwiche
2014) and the probability that observing it flips the decision.

For evidence ``e`` and a missing feature ``F``::

    expected_sdp(F)     = sum_v Pr(F = v | e) SDP(e + {F = v})
    flip_probability(F) = sum_v Pr(F = v | e) [decision(e + {F = v}) != decision(e)]

each SDP taken for the decision on ``e + {F = v}`` (on a multi-class classifier, the
class decided there: each outcome is decided by its own class). Both are sums of the network's joint
over the completions of ``e``: with ``m_d(v)`` the mass of the completions with ``F = v``
that the diagram decides ``d``, ``expected_sdp = sum_v m_{d_v}(v) / Pr(e)``. One pass over
the dense joint (:mod:`.under`) gives every ``m_d(v)`` of every feature and every decision
``d`` (both of a binary classifier, every class of a multi-class one); the decisions on
``e + {F = v}`` are exact (floats decide unless too close to call). Floats are within
``1e-9`` of the exact values (``exact=True`` returns them as fractions).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._util.types import Instance
from ..classifier._classifier import Classifier
from ..errors import ExplanationError
from ..odd._odd import ODD
from . import _dense, under
from .probability import _odd_for, classifier_and_odd, exact_sdp

__all__ = ["next_observations"]


def next_observations(clf: Classifier | ODD, evidence: Instance, *, odd=None,
                      exact: bool = False):
    """Rank each unobserved feature by the expected same-decision probability after observing it.

    Parameters
    ----------
    clf : Classifier or ODD
        The classifier, or an ODD that holds it (``odd.classifier``), whose decision
        function it then is.
    evidence : mapping
        A partial instance (features left out are unobserved).
    odd : ODD, optional
        ``clf``'s compiled decision function (compiled once per classifier when not given).
    exact : bool, default False
        Fractions instead of floats (within ``1e-9`` of them).

    Returns
    -------
    pandas.DataFrame
        Indexed by feature (the unobserved ones), sorted by ``expected_sdp`` descending
        (equal values in the classifier's feature order; a feature that cannot flip the
        decision has the SDP of ``evidence`` itself, exactly), with columns
        ``expected_sdp`` (``sum_v Pr(F = v | e) SDP(e + {F = v})``, each SDP of the
        decision on ``e + {F = v}``) and ``flip_probability`` (``sum_v Pr(F = v | e)
        [decision on e + {F = v} != decision on e]``), floats in ``[0, 1]``. On a
        multi-class classifier each decision is the class decided (``clf.predict(...,
        partial=True)``), and each SDP that of the class decided on ``e + {F = v}``.

    Raises
    ------
    ArgumentError
        ``clf`` is neither a classifier nor an ODD that holds one.
    ExplanationError
        The evidence has probability zero.

    See Also
    --------
    bnx.same_decision_probability : How sure the decision is before the rest is observed.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> bnx.next_observations(clf, {"GPA": "+"}).round(4)  # doctest: +NORMALIZE_WHITESPACE
                        expected_sdp  flip_probability
    feature
    WorkExperience            0.9855            0.2199
    FirstTimeApplicant        0.7946            0.0000
    EntranceExam              0.7946            0.0000

    A classifier that picks one of several classes:

    >>> asia = bnx.examples.asia()
    >>> many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> bnx.next_observations(many, {"dysp": "yes"}).round(4)  # doctest: +NORMALIZE_WHITESPACE
             expected_sdp  flip_probability
    feature
    xray              1.0            0.1621
    """
    import pandas as pd
    clf, odd = classifier_and_odd(clf, odd)
    idx = clf.encode(evidence, partial=True)
    odd = _odd_for(clf, odd)
    v = under.view(clf, odd, idx, exact=exact)
    rows = _dense_rows(clf, idx, v) if v is not None else _rows_by_sdp(clf, odd, idx, exact)
    frame = pd.DataFrame(rows, columns=["feature", "expected_sdp", "flip_probability"])
    if not exact:
        frame = frame.astype({"expected_sdp": float, "flip_probability": float})
    frame = frame.set_index("feature")
    # by the values given, descending; equal values in the classifier's feature order
    pos = {f: i for i, f in enumerate(clf.features)}
    values = frame["expected_sdp"].tolist()
    order = sorted(range(len(frame)), key=lambda i: (-values[i], pos[frame.index[i]]))
    return frame.iloc[order]


def _ratio(num, den, exact: bool):
    return Fraction(int(num), int(den)) if exact else _dense.probability(num / den)


def _dense_rows(clf, idx: dict, v: under.View) -> list:
    masses, depth = under.class_masses(v)
    if not masses.any():
        raise ExplanationError("the evidence has probability zero: nothing to observe")
    own = under.decide_masses(clf, idx, masses, depth)
    pr = v.marginal()
    # the decisions the diagram takes: True and False, or every class's index
    labels = list(range(len(clf.classes))) if clf.multiclass else [True, False]
    at = {d: k for k, d in enumerate(labels)}
    by = [np.where(v.decided == d, pr, 0) for d in labels]
    total = pr.sum()
    # a feature whose observation cannot flip the decision keeps the SDP on average:
    # E[SDP(e + F)] = SDP(e) exactly, so all such features get this one sum (equal values
    # as equal floats, within the same bound as the per-feature sums)
    kept = by[at[own]].sum()
    # one array, then one sum per feature over the other features' axes: rows
    # 0..classes-1 the class masses, then the completions' masses per decision
    ncls = v.table.shape[0]
    sums = _per_feature(np.concatenate([v.table, *(b[None] for b in by)]))
    rows = []
    for f, both in zip(v.free, sums):  # both: (classes + decisions, states of f)
        per, mass = both[:ncls], both[ncls:]
        sub = depth - (per.shape[1] - 1) if not v.exact else 0
        same = flip = 0
        for s in range(per.shape[1]):
            d = under.decide_masses(clf, {**idx, f: s}, per[:, s], sub)
            same = same + mass[at[d], s]
            if d != own:
                flip = flip + mass[:, s].sum()
        if flip == 0:
            same = kept
        rows.append((f, _ratio(same, total, v.exact), _ratio(flip, total, v.exact)))
    return rows


def _per_feature(table) -> list:
    """Sum ``table`` over every other free feature, for each free feature.

    The free features are the axes of ``table`` after its first: a list of arrays of shape
    ``(rows, states)``.

    Divide and conquer: the table summed over the second half of the features gives the
    first half's sums, and over the first half the second's, each by a product with a
    vector of ones (BLAS for floats, exact for Python integers); then each half on its
    own. Two passes over the table in all, not one per feature. Multiplying by one is
    exact, and the order of the additions does not change the floats' bound
    (:mod:`._dense`: a sum of ``m`` terms adds ``m - 1`` roundings, in any order).
    """
    rows = table.shape[0]
    out: list = []
    todo = [table]  # the tables left to split, the next one last
    while todo:
        t = todo.pop()
        dims = t.shape[1:]
        if len(dims) <= 1:
            out.append(t)
            continue
        h = len(dims) // 2
        a, b = math.prod(dims[:h]), math.prod(dims[h:])
        m = t.reshape(rows, a, b)
        second = (np.ones(a, dtype=t.dtype) @ m).reshape(rows, *dims[h:])
        first = (m.reshape(-1, b) @ np.ones(b, dtype=t.dtype)).reshape(rows, *dims[:h])
        todo += (second, first)  # the first half's features come out first
    return out


def _rows_by_sdp(clf, odd, idx: dict, exact: bool) -> list:
    """Without the dense joint: one exact class joint and SDP per state of each feature."""
    joint = clf._class_joint(idx)
    total = sum(joint, Fraction(0))
    if total == 0:
        raise ExplanationError("the evidence has probability zero: nothing to observe")
    own = under.decide_masses(clf, idx, joint, 0)
    rows = []
    for f in clf.features:
        if f in idx:
            continue
        same = flip = Fraction(0)
        for s in range(len(clf.states(f))):
            more = {**idx, f: s}
            pj = clf._class_joint(more)
            p = sum(pj, Fraction(0)) / total
            if p == 0:
                continue
            d = under.decide_masses(clf, more, pj, 0)
            same += p * exact_sdp(clf, more, d, odd)
            flip += p if d != own else 0
        rows.append((f, same if exact else float(same), flip if exact else float(flip)))
    # (floats rounded once from exact values: in [0, 1], equal values equal)
    return rows
