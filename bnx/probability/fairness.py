"""Group fairness under the network (Ghosh, Basu and Meel 2021).

How often each group of the protected features gets the positive decision, overall and per
class state.

For each joint state ``g`` of the protected features, ``Pr(positive decision | g)``
(statistical parity compares these across groups) and, per class state ``c``,
``Pr(positive decision | g, class = c)`` (equalised odds compares these). The other
features follow the network's own distribution: every probability is a ratio of sums
of the dense joint ``Pr(class, x)`` (:mod:`.under`) over the instances the diagram decides
positive, so floats are within ``1e-9`` of the exact values (``exact=True`` gives them).

A multi-class classifier decides one of several class states: each group gets one column
per decided class ``d``, ``Pr(decision = d | g)`` (the row sums to 1), the same sums over
the instances the diagram decides ``d``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from .._util.guard import question
from ..classifier._classifier import Classifier
from ..errors import ArgumentError, ExplanationError, UnknownFeatureError, closest_first
from ..odd._odd import ODD, classifier_and_odd
from . import _dense, under
from .same_decision import _odd_for

__all__ = ["group_fairness"]


@question
def group_fairness(clf: Classifier | ODD, protected, *, odd=None, exact: bool = False):
    """Compute the positive rate of each group of ``protected``, overall and per class state.

    Parameters
    ----------
    clf : Classifier or ODD
        A classifier, or an ODD that holds its classifier (``odd.classifier``; the ODD is
        then ``odd=`` too).
    protected : feature or sequence of features
    odd : ODD, optional
        ``clf``'s compiled decision function (compiled once per classifier when not given).
    exact : bool, default False
        Fractions instead of floats (within ``1e-9`` of them).

    Returns
    -------
    pandas.DataFrame
        One row per joint state of the protected features (the index: a MultiIndex for
        several), columns ``"all"`` (``Pr(positive decision | group)``) and one per class
        state ``c`` (``Pr(positive decision | group, class = c)``). A group or class of
        probability zero has NaN, the table's mark of an undefined rate (exact or not).
        A multi-class classifier: one column per class state ``d`` instead, ``Pr(decided d
        | group)``.

    Raises
    ------
    UnknownFeatureError
        A protected name is not a feature.
    ArgumentError
        No protected feature, or one named twice.
    ExplanationError
        The network's features have too many joint states for the dense joint
        (``bnx.probability._dense.LIMIT``).

    See Also
    --------
    bnx.decision_bias : Whether one decision depends on the protected features.
    bnx.count_biased : How many instances are decided with bias.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> bnx.group_fairness(clf, "WorkExperience").round(4)  # doctest: +NORMALIZE_WHITESPACE
                       all       -       +
    WorkExperience
    -               0.0083  0.0033  0.2716
    +               0.8138  0.1367  0.9784

    A classifier that picks one of several classes: the rate of each decided class.

    >>> asia = bnx.examples.asia()
    >>> many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> bnx.group_fairness(many, "dysp").round(4)  # doctest: +NORMALIZE_WHITESPACE
             yes     no
    dysp
    yes   0.1621  0.8379
    no    0.0000  1.0000
    """
    import pandas as pd
    clf, odd = classifier_and_odd(clf, odd)
    names = [protected] if isinstance(protected, str) or not isinstance(
        protected, Sequence) else list(protected)
    if not names:
        raise ArgumentError("group_fairness needs at least one protected feature")
    for f in names:
        if f not in clf.features:
            raise UnknownFeatureError(f"{f!r} is not a feature of this classifier "
                                      f"(features, closest first: "
                                      f"{closest_first(f, clf.features)})")
    if len(set(names)) != len(names):
        raise ArgumentError(f"a protected feature is named twice: {names!r}")
    odd = _odd_for(clf, odd)
    v = under.view(clf, odd, {}, exact=exact)
    if v is None:
        raise ExplanationError(f"group_fairness needs the network's joint over the features "
                               f"as one table, of at most {_dense.LIMIT:,} entries (or "
                               f"floats that cannot underflow); these features have too "
                               f"many joint states")
    axes = [v.free.index(f) for f in names]
    rest = tuple(j + 1 for j in range(len(v.free)) if j not in axes)
    kept = sorted(axes)
    table = v.table
    # (classes, protected in ODD order)
    order = [0, *(1 + kept.index(a) for a in axes)]  # to the order of ``names``
    # the instances of each decision asked about: the positive ones, or each class's
    masks = ([v.decided == j for j in range(len(clf.classes))] if clf.multiclass
             else [v.decided])
    pos = [np.transpose(_dense.sum_over(np.where(m, table, 0), rest), order) for m in masks]
    every = np.transpose(_dense.sum_over(table, rest), order)
    rows = []
    for combo in itertools.product(*(range(len(clf.states(f))) for f in names)):
        ps, t = [p[(slice(None), *combo)] for p in pos], every[(slice(None), *combo)]
        if clf.multiclass:
            rows.append([_ratio(p.sum(), t.sum(), exact) for p in ps])
        else:
            p = ps[0]
            rows.append([_ratio(p.sum(), t.sum(), exact),
                         *(_ratio(p[c], t[c], exact) for c in range(len(p)))])
    labels = [tuple(clf.states(f)[j] for f, j in zip(names, combo)) for combo in
              itertools.product(*(range(len(clf.states(f))) for f in names))]
    if len(names) == 1:
        index = pd.Index([lab[0] for lab in labels], name=names[0])
    else:
        index = pd.MultiIndex.from_tuples(labels, names=names)
    columns = list(clf.classes) if clf.multiclass else ["all", *clf.class_states]
    frame = pd.DataFrame(rows, index=index, columns=columns)
    return frame if exact else frame.astype(float)


def _ratio(num, den, exact: bool):
    if den == 0:
        return float("nan")  # undefined: pandas' missing value, in Fraction columns too
    return Fraction(int(num), int(den)) if exact else _dense.probability(num / den)
