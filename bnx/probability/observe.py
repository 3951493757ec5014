"""What to observe next.

The expected same-decision probability of each missing feature (Chen, Choi and Darwiche
2014) and the probability that observing it flips the decision.

For evidence ``e`` and a missing feature ``F``::

    expected_sdp(F)     = sum_v Pr(F = v | e) SDP(e + {F = v})
    flip_probability(F) = sum_v Pr(F = v | e) [decision(e + {F = v}) != decision(e)]

each SDP taken for the decision on ``e + {F = v}`` (on a multi-class classifier, the
class decided there: each outcome is decided by its own class). Both are sums of the network's joint
over the completions of ``e``: with ``m_d(v)`` the mass of the completions with ``F = v``
that the diagram decides ``d``, ``expected_sdp = sum_v m_{d_v}(v) / Pr(e)``. On naive
Bayes and latent trees, the weighted counts of :class:`~.probability.Flow` down and up the
diagram give every ``m_d(v)`` of every feature at once (per class formula of a
multi-class classifier); on a TAN or any other network, one elimination pass along the
diagram (:class:`~.frontier.Walk`), recorded level by level, is resumed at each feature's
level for each of its states. The same passes run in float64 or, with ``exact=True``, in
exact integers (answers as fractions). The decisions on ``e + {F = v}`` are exact (floats
decide unless too close to call), and floats are within ``1e-9`` of the exact values, with
a proven bound (:mod:`bnx._util.rounding`; exact arithmetic when the bound is larger).
"""

from __future__ import annotations

from fractions import Fraction

from .._util.guard import question
from .._util.rounding import Unsafe
from .._util.types import Instance
from ..classifier._classifier import Classifier
from ..classifier._possible import impossible_error
from ..odd._odd import ODD, classifier_and_odd
from . import under
from .frontier import Walk
from .same_decision import (
    FALSE,
    MAX_CONFIGURATIONS,
    TRUE,
    Flow,
    _configurations,
    _odd_for,
    exact_sdp,
    float_masses,
    outcome,
)

__all__ = ["next_observations", "ranked"]


@question
def next_observations(clf: Classifier | ODD, evidence: Instance, *, odd=None,
                      exact: bool = False):
    """Rank each unobserved feature by what observing it can do to the decision.

    The probability that it changes the decision first, then the expected same-decision
    probability after observing it.

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
        Indexed by feature (the unobserved ones), best first (:func:`ranked`): by
        ``flip_probability`` descending, then ``expected_sdp`` descending, equal values in
        the classifier's feature order (a feature that cannot flip the decision comes
        last, with the SDP of ``evidence`` itself as its expected SDP, exactly), with columns
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
    rows = None if exact else _float_rows(clf, odd, idx)
    if rows is None:
        rows = _exact_rows(clf, odd, idx)
        if not exact:  # (floats rounded once from exact values: equal values equal)
            rows = [(f, float(a), float(b)) for f, a, b in rows]
    frame = pd.DataFrame(rows, columns=["feature", "expected_sdp", "flip_probability"])
    if not exact:
        frame = frame.astype({"expected_sdp": float, "flip_probability": float})
    return ranked(frame.set_index("feature"), clf.features)


def ranked(frame, features, by: str = "expected_sdp"):
    """Sort a frame of next observations best first: by what each can do to the decision.

    The probability that observing the feature changes the decision first (a feature that
    cannot change it, probability 0, comes last), then ``by`` (the expected same-decision
    probability, or a proven low bound of it), both descending; equal values in the order
    of ``features``. :func:`next_observations` and the search without compiling
    (:mod:`bnx.local`) rank by this one function.

    Parameters
    ----------
    frame : pandas.DataFrame
        Indexed by feature, with the columns ``flip_probability`` and ``by``.
    features : sequence
        The classifier's features, in its order (which breaks ties).
    by : str, default "expected_sdp"
        The column that ranks features equally likely to change the decision.

    Returns
    -------
    pandas.DataFrame
        ``frame``'s rows, best first.

    Examples
    --------
    >>> import pandas as pd
    >>> from bnx.probability.observe import ranked
    >>> frame = pd.DataFrame({"expected_sdp": [0.43, 0.41, 0.64],
    ...                       "flip_probability": [0.0, 0.63, 0.29]}, index=["a", "b", "c"])
    >>> list(ranked(frame, ["a", "b", "c"]).index)
    ['b', 'c', 'a']
    """
    pos = {f: i for i, f in enumerate(features)}
    flips, values = frame["flip_probability"].tolist(), frame[by].tolist()
    order = sorted(range(len(frame)),
                   key=lambda i: (-flips[i], -values[i], pos[frame.index[i]]))
    return frame.iloc[order]


def _flows(clf, odd, idx: dict, exact: bool) -> dict | None:
    """Return per decision label the :class:`~.probability.Flow` that ends in it.

    Each flow has the masses per feature and state, and its ``TRUE`` end is that decision:
    one for a binary classifier (its
    ``FALSE`` end the other decision), one per class formula of a multi-class one (made
    when first asked: a dict that makes them). ``None`` when the weighted count does not
    apply (a TAN or general network, a latent tree answered by enumeration) or floats
    could underflow.
    """
    if clf.structure not in ("naive_bayes", "latent_tree"):
        return None
    priors, _ = _configurations(clf)
    if clf.structure != "naive_bayes" and len(priors) > MAX_CONFIGURATIONS:
        return None

    class Made(dict):
        def __missing__(self, d):
            target = odd.class_formula(clf.classes[d]) if clf.multiclass else odd
            got = self[d] = Flow(target.classifier if clf.multiclass else clf, target, idx,
                                 (FALSE, TRUE), exact=exact, per_feature=True)
            return got

    made = Made()
    try:
        made[0 if clf.multiclass else True]
    except Unsafe:
        return None
    return made


def _by_flows(clf, idx: dict, flows, exact: bool):
    """Return the rows from the flows.

    Per unobserved feature and state, the decision there (from its class masses: floats
    unless too close, exact then) and the mass decided so; in floats ``None`` when a bound
    exceeds ``1e-9``.
    """
    from .._util import rounding
    first = flows[0 if clf.multiclass else True]
    neg, pos = first.mass()
    total = neg + pos
    if not total:
        raise impossible_error(clf, idx, "the evidence has probability zero (nothing to "
                               "observe): ")
    depth = 0 if exact else first.depth + 1  # the total and the class masses
    own = under.decide_masses(clf, idx, first.class_masses(), depth)
    # a feature whose observation cannot flip the decision keeps the SDP on average:
    # E[SDP(e + F)] = SDP(e) exactly, so all such features get this one value
    kept = flows[own].mass()[1] if clf.multiclass else (pos if own else neg)
    rows = []
    for i, f in enumerate(first.fv.enc.features):
        if f in idx:
            continue
        per_end, per_class = first.feature_masses(i)
        fdepth = 0 if exact else first.feature_depth + 1
        same = flip = 0
        for v, (ends, masses) in enumerate(zip(per_end, per_class)):
            d = under.decide_masses(clf, {**idx, f: v}, masses, fdepth)
            if clf.multiclass:
                same += flows[d].feature_masses(i)[0][v][1]
                fdepth = 0 if exact else max(fdepth, flows[d].feature_depth + 1)
            else:
                same += ends[1] if d else ends[0]
            if d != own:
                flip += ends[0] + ends[1]
        k = len(per_end)
        if exact:
            rows.append((f, kept / total if flip == 0 else same / total, flip / total))
            continue
        a = rounding.probability(kept if flip == 0 else same, total,
                                 2 * depth if flip == 0 else fdepth + k + depth)
        b = rounding.probability(flip, total, fdepth + k + depth)
        if a is None or b is None:
            return None
        rows.append((f, a[0], b[0]))
    return rows


def _float_rows(clf, odd, idx: dict):
    """Return the rows in float64 by the passes of the exact ones (``None``: exact needed)."""
    from .._util import rounding
    flows = _flows(clf, odd, idx, False)
    if flows is not None:
        return _by_flows(clf, idx, flows, False)
    walks: dict = {}

    def masses(binary, target, more: dict):
        """Return :func:`~.probability.float_masses` by resuming a recorded pass.

        One pass per diagram (along it, the evidence ``idx``), resumed at the level of the
        one feature ``more`` adds.
        """
        if binary.structure in ("naive_bayes", "latent_tree"):
            return float_masses(binary, target, more)
        if id(target) not in walks:
            try:
                walks[id(target)] = (target, Walk(binary, target, idx, exact=False,
                                                  record=True))
            except Unsafe:
                walks[id(target)] = (target, None)
        walk = walks[id(target)][1]
        if walk is None:
            return None
        extra = [f for f in more if f not in idx]
        return walk.with_state(extra[0], more[extra[0]]) if extra else walk.masses()

    base = outcome(clf, odd, idx, None, masses)
    if base is None:
        return None
    own, kept, total, depth = base
    if not total:
        raise impossible_error(clf, idx, "the evidence has probability zero (nothing to "
                               "observe): ")
    rows = []
    for f in clf.features:
        if f in idx:
            continue
        same = flip = 0.0
        most = 0
        k = len(clf.states(f))
        for v in range(k):
            got = outcome(clf, odd, {**idx, f: v}, None, masses)
            if got is None:
                return None
            d, m, every, dv = got
            most = max(most, dv)
            same += m
            if d != own:
                flip += every
        a = rounding.probability(kept if flip == 0 else same, total,
                                 2 * depth if flip == 0 else most + k + depth)
        b = rounding.probability(flip, total, most + k + depth)
        if a is None or b is None:
            return None
        rows.append((f, a[0], b[0]))
    return rows


def _exact_rows(clf, odd, idx: dict) -> list:
    """Return the rows in exact fractions: the flows, or one exact SDP per feature and state."""
    flows = _flows(clf, odd, idx, True)
    if flows is not None:
        return _by_flows(clf, idx, flows, True)
    return _rows_by_sdp(clf, odd, idx)


def _rows_by_sdp(clf, odd, idx: dict) -> list:
    """One exact class joint and SDP per state of each unobserved feature."""
    joint = clf._class_joint(idx)
    total = sum(joint, Fraction(0))
    if total == 0:
        raise impossible_error(clf, idx, "the evidence has probability zero (nothing to "
                               "observe): ")
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
        rows.append((f, same, flip))
    return rows
