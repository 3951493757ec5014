"""Parameter sensitivity: how far each CPT entry may move before a decision changes.

Change one CPT entry ``theta = Pr(V = v | u)`` to ``t`` and scale the other entries of
its column proportionally, by ``(1 - t) / (1 - theta)`` (when ``theta = 1`` the others
are 0 and each gets ``(1 - t) / (k - 1)``). Every term of the network polynomial holds
exactly one entry of ``V``'s table, so each class joint ``Pr(c, e)`` is linear in ``t``
(Chan and Darwiche, "When do numbers really matter?", JAIR 2002):

    Pr(c, e)(t) = R_c + t D_c(v) + (1 - t) M_c,

where ``D_c(v') = dPr(c, e) / dtheta_{v'|u}`` is the product of every factor but
``V``'s own, summed over everything but ``c``, ``V`` and its parents (one exact
variable elimination per variable) and ``M_c`` the co-varied entries' share. The
decision is then a conjunction of linear inequalities in ``t`` (one under the
threshold rule, one per other class under argmax), so the values of ``t`` that keep it
form one interval around ``theta``, solved exactly in fractions.

:func:`parameter_sensitivity` returns one row per CPT entry with that interval.
Without an instance it is the interval in which no decision of the classifier changes
(see :mod:`bnx.attribution.sensitivity_all`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .._util.guard import question
from ..classifier._classifier import Classifier
from ..classifier._inference import (
    eliminate,
    elimination_order,
    indicator,
    integer_factor,
    observe,
    product,
)
from ..classifier._possible import refuse_impossible
from ..classifier._relevance import exact_cpds
from ..errors import ArgumentError
from ..odd._odd import ODD, classifier_and_odd
from .entries import entries, entry_label, flip_room, sensitivity_frame
from .flips import flip_interval

__all__ = ["parameter_sensitivity", "plot_sensitivity", "family_derivatives", "derivative",
           "linear_joint", "flip_interval", "entries", "sensitivity_frame",
           "sensitivity_columns"]


def family_derivatives(states: dict, parents: dict, factors: dict, class_var: Any,
                       evidence: dict, var: Any, order: list | None = None) -> tuple[tuple, Any]:
    """Return ``(scope, table)``: every factor but ``var``'s multiplied, the evidence applied.

    Summed over everything but the class, ``var`` and its parents (scope ``(class, var,
    *parents)`` without repeats), up to one positive constant.

    ``order``: an elimination order of all unobserved variables to follow (the ones
    kept are skipped); by default a greedy one is made for ``var``.
    """
    keep = tuple(dict.fromkeys((class_var, var, *parents[var])))
    card = {n: len(s) for n, s in states.items()}
    pool = [((*keep,), _ones([card[v] for v in keep]))]
    for n, f in factors.items():
        if n == var:
            continue
        for v in f[0]:
            if v in evidence and v not in keep:
                f = observe(f, v, indicator(card[v], evidence[v]))
        pool.append(f)
    for v in keep:
        if v in evidence:
            pool.append(((v,), indicator(card[v], evidence[v])))
    hidden = {v for s, _ in pool for v in s if v not in keep}
    if order is None:
        order = elimination_order([s for s, _ in pool], sorted(hidden, key=str), card)
    else:
        order = [v for v in order if v in hidden]
    return product(eliminate(pool, order), scope=keep)


def _ones(shape):
    import numpy as np
    t = np.empty(shape, dtype=object)
    t[...] = 1
    return t


def derivative(scope: tuple, phi: Any, class_var: Any, var: Any, pa: tuple, u: tuple,
               c: int, j: int):
    """Return ``dPr(c, e) / dtheta`` for the entry ``j`` of column ``u`` of ``var``'s table.

    0 when the class state ``c`` contradicts the entry's own states.
    """
    w = {class_var: c}
    for v, k in ((*zip(pa, u), (var, j))):
        if w.setdefault(v, k) != k:
            return 0
    return phi[tuple(w[v] for v in scope)]


def linear_joint(d: list, j: int, column: list, total: list) -> tuple[list, list]:
    """Return ``(a, b)`` with ``Pr(c, e)(t) = a[c] + b[c] t`` for the entry ``j`` of a column.

    ``d[c][jj]`` is the derivative of ``Pr(c, e)`` with respect to the column's entry ``jj``
    (:func:`derivative`), ``total`` the class joints at the table's values, on the same
    scale.
    """
    k = len(column)
    theta = column[j]
    a, b = [], []
    for c, dc in enumerate(d):
        others = sum(column[jj] * dc[jj] for jj in range(k) if jj != j)
        if theta != 1:
            m = others / (1 - theta)
        else:
            m = Fraction(sum(dc[jj] for jj in range(k) if jj != j), k - 1) if k > 1 else 0
        rest = total[c] - theta * dc[j] - others
        a.append(rest + m)
        b.append(dc[j] - m)
    return a, b


@question
def parameter_sensitivity(clf: Classifier | ODD, instance: Any = None, *,
                          exact: bool = False):
    """How far each CPT entry may move before a decision changes.

    Parameters
    ----------
    clf : Classifier or ODD
        Any classifier (latent and hidden nodes included), or an ODD that holds its
        classifier (``odd.classifier``).
    instance : mapping or pandas Series, optional
        The instance whose decision is kept. Without one: every decision of the
        classifier is kept (the whole decision function), for naive Bayes and TAN
        networks of the class and the features only (any number of class states, either
        rule, zero entries; see :mod:`bnx.attribution.sensitivity_all`); other
        structures raise a :class:`~bnx.StructureError`.
    exact : bool, default False
        ``value``, ``low`` and ``high`` as exact :class:`~fractions.Fraction` objects
        instead of floats.

    Returns
    -------
    pandas.DataFrame
        One row per CPT entry ``theta = Pr(variable = state | parents)``: columns
        ``variable``, ``state``, ``parents`` (a dict of the parents' states, empty for
        a root), ``value`` (``theta``), ``low`` and ``high``. Moving ``theta`` to any
        ``t`` strictly between ``low`` and ``high`` (the rest of its column scaled
        proportionally) keeps the decision; ``low > 0`` or ``high < 1`` is a flip point.
        Under the threshold rule a flip point itself belongs to the positive side. An
        entry at 1 moved to ``t`` gives each other entry of its column ``(1 - t) / (k - 1)``;
        the other zero entries of a column stay 0.

    Raises
    ------
    ImpossibleInstanceError
        The network cannot produce ``instance`` (its conflicting findings named): its
        decision is the tie rule's, with no posterior for a parameter to move.

    See Also
    --------
    bnx.plot_sensitivity : The entries closest to flipping the decision, drawn.
    bnx.robustness : How many features, not parameters, must change to flip it.
    bnx.shap_values : How much each feature contributes to the decision.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> s = bnx.parameter_sensitivity(clf, x)
    >>> r = s[(s.variable == "Admit") & (s.state == "+")].iloc[0]
    >>> float(r.value), round(float(r.low), 3), float(r.high), clf.decide(x)
    (0.3, 0.249, 1.0, True)

    A multi-class classifier keeps the decided class as long as that class's binary
    classifier (:meth:`~bnx.Classifier.class_classifier`) keeps its decision; without an
    instance, every class's decisions are kept where every class formula's are (the
    intervals intersected).

    >>> many = bnx.examples.illness()
    >>> y = {"Season": "winter", "Fever": "yes", "Sneezing": "no", "Aches": "yes"}
    >>> t = bnx.parameter_sensitivity(many, y)
    >>> t.equals(bnx.parameter_sensitivity(many.class_classifier(many.predict(y)), y))
    True
    """
    clf, _ = classifier_and_odd(clf)
    if clf.multiclass:
        if instance is not None:  # the decided class's binary classifier keeps it
            one = clf.class_classifier(clf.predict(instance))
            return parameter_sensitivity(one, instance, exact=exact)
        frames = [parameter_sensitivity(clf.class_classifier(s), exact=exact)
                  for s in clf.classes]
        out = frames[0].copy()
        for f in frames[1:]:
            out["low"] = [max(a, b) for a, b in zip(out["low"], f["low"])]
            out["high"] = [min(a, b) for a, b in zip(out["high"], f["high"])]
        return out
    if instance is None:
        from .sensitivity_all import whole_sensitivity
        return whole_sensitivity(clf, exact=exact)
    evidence = clf.encode(instance)
    # (its decision would be the tie rule's: no posterior to keep)
    refuse_impossible(clf, {f: clf.states(f)[j] for f, j in evidence.items()})
    states, parents, cpds = exact_cpds(clf.network)
    ints = {n: integer_factor(f)[0] for n, f in cpds.items()}
    c = clf.class_var
    p = states[c].index(clf.positive)
    nclass = len(states[c])
    card = {n: len(s) for n, s in states.items()}
    # one greedy elimination order for every variable (the kept ones are skipped)
    scopes = [tuple(v for v in f[0] if v not in evidence) for f in ints.values()]
    order = elimination_order(scopes, sorted({v for s in scopes for v in s if v != c}, key=str),
                              card)
    rows = []
    for var in clf.network.nodes():
        scope, phi = family_derivatives(states, parents, ints, c, evidence, var, order)
        pa = parents[var]
        cols = list(entries(states, parents, cpds, var))
        ders = {}  # per column: d[c][state]
        for u, _, _, _, column in cols:
            if u not in ders:
                ders[u] = [[derivative(scope, phi, c, var, pa, u, cc, jj)
                            for jj in range(len(column))] for cc in range(nclass)]
        total = [sum(theta * ders[u][cc][j] for u, _, j, theta, _ in cols)
                 for cc in range(nclass)]
        for u, given, j, theta, column in cols:
            a, b = linear_joint(ders[u], j, column, total)
            lo, hi, _ = flip_interval(a, b, theta, clf.rule, p, clf.threshold)
            if len(column) == 1:
                lo = hi = Fraction(1)
            rows.append((var, states[var][j], given, theta, lo, hi))
    return sensitivity_frame(rows, exact)


def sensitivity_columns(classifier: Classifier | None, features, frame: Any):
    """Compute the sensitivity columns of :func:`bnx.explain_data`.

    A DataFrame on ``frame``'s index with the columns ``sensitivity`` (how far the CPT entry
    closest to flipping the row's decision may move, :func:`~.entries.flip_room`; ``inf``
    when no single entry can flip it) and ``sensitivity_entry`` (that entry, ``"Pr(V=s |
    ...)"``; ``None`` when no entry can flip it), each distinct complete row computed once;
    NaN on rows with missing values. The closest entry is found on the exact rooms.
    """
    import pandas as pd
    if classifier is None:
        raise ArgumentError("what='sensitivity' needs the classifier, which this ODD does "
                            "not have (a file of format version 1): compile it again")
    feats = list(features)
    room = pd.Series(float("nan"), index=frame.index, dtype=float)
    entry = pd.Series(None, index=frame.index, dtype=object)
    sub = frame[feats]
    complete = sub.notna().all(axis=1)
    done: dict = {}
    for pos, row in enumerate(sub.itertuples(index=False, name=None)):
        if not complete.iloc[pos]:
            continue
        got = done.get(row)
        if got is None:
            s = parameter_sensitivity(classifier, dict(zip(feats, row)), exact=True)
            r = flip_room(s, exact=True).tolist()
            k = min(range(len(r)), key=r.__getitem__)  # exact: rooms may tie as floats
            got = done[row] = (float(r[k]), None if r[k] == math.inf else entry_label(
                s["variable"].iloc[k], s["state"].iloc[k], s["parents"].iloc[k]))
        room.iloc[pos], entry.iloc[pos] = got
    return pd.DataFrame({"sensitivity": room, "sensitivity_entry": entry})


def plot_sensitivity(frame, ax=None, *, top: int = 15):
    """Draw the CPT entries of a :func:`parameter_sensitivity` frame closest to flipping it.

    The ``top`` entries closest to flipping the decision (matplotlib), each as its interval
    around its value.

    Parameters
    ----------
    frame : pandas.DataFrame
        What :func:`~bnx.parameter_sensitivity` answers, with an instance.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).
    top : int, default 15
        The number of entries drawn.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    bnx.parameter_sensitivity : The frame drawn.

    Examples
    --------
    >>> import bnx, matplotlib
    >>> matplotlib.use("Agg")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> frame = bnx.parameter_sensitivity(bnx.examples.admissions(), x)
    >>> ax = bnx.plot_sensitivity(frame, top=5)
    >>> len(ax.get_yticklabels())
    5
    """
    from ._draw import draw_sensitivity
    return draw_sensitivity(frame, ax, top=top)
