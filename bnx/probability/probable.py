"""Probable reasons (Wäldchen et al. 2021; Izza et al. 2023).

The smallest parts of an instance that make its decision probable enough under the network.

A part ``S`` of the instance ``x`` *qualifies* when ``Pr(decision = d | x_S) >= delta``,
``d`` the decision on ``x``: the same-decision probability of ``d`` given ``x_S``. That is
not monotone in ``S`` (observing more can make ``d`` less probable), so the answer is the
*subset-minimal* qualifying parts: no proper subset qualifies.

Up to :data:`EXACT_FEATURES` features every part is tried at once on the dense joint
(:mod:`.under`): per feature, its axis of ``Pr(z)`` and of ``Pr(z) [f(z) = d]`` becomes
two entries, the sum over its states (dropped) and the entry at ``x``'s state (kept), so
``2^n`` entries hold the two masses of every part; a subset-or transform over the ``2^n``
parts then finds the minimal qualifying ones. Each comparison with ``delta`` is exact: a
float ratio decides when its proven bound keeps it off ``delta``, the exact SDP otherwise.
Beyond that (or without the dense joint), parts are tried one by one: all of them by size
up to :data:`EXACT_FEATURES` features, else one part made locally minimal (no single
feature can be dropped) by greedy deletions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from .._util.guard import question
from .._util.rounding import compare, compare_all, float_gamma
from .._util.types import Instance
from ..classifier._classifier import Classifier
from ..classifier._possible import impossible_error
from ..errors import ArgumentError
from ..odd._odd import ODD, classifier_and_odd
from ..question._classes import ask
from . import under
from .same_decision import _odd_for, exact_sdp, sdp_with_bound

__all__ = ["EXACT_FEATURES", "ProbableReasons", "probable_reasons"]

#: Up to this many features, every subset-minimal probable reason is found.
EXACT_FEATURES = 16


class ProbableReasons:
    """The probable reasons of an instance's decision, smallest first.

    Iterates over the reasons, each a ``{feature: state}`` dict.

    Attributes
    ----------
    reasons : list of dict
    decision : bool
        The decision on the instance (of a multi-class classifier: of the class formula
        asked, ``True`` for the decided class's, ``False`` for a rival's).
    delta : float
    exact : bool
        ``True``: every subset-minimal reason is listed. ``False``: one reason, locally
        minimal (no single feature can be dropped), found by greedy deletions.
    minimality : str
        ``"subset"`` or ``"local"``.
    decision_text : str or None
        The decision in the class's words (``"Admit = +"``, ``"Disease = PAIVS"``,
        ``"Disease = PAIVS and not TGA"``); ``None`` when not known.
    decided, rival : class state or None
        Of a multi-class classifier: the class decided on the instance and the rival
        (``rival=``); ``None``, not applicable, otherwise.
    """

    def __init__(self, reasons: list, decision: bool, delta, exact: bool, *,
                 decision_text: str | None = None, decided=None, rival=None) -> None:
        self.reasons, self.decision, self.delta, self.exact = reasons, decision, delta, exact
        self.decision_text, self.decided, self.rival = decision_text, decided, rival

    @property
    def minimality(self) -> str:
        """How the reasons are minimal: ``"subset"`` when exact, else ``"local"``."""
        return "subset" if self.exact else "local"

    def __iter__(self):
        """Iterate over the reasons."""
        return iter(self.reasons)

    def __len__(self) -> int:
        """Count the reasons."""
        return len(self.reasons)

    def __getitem__(self, i):
        """Return the ``i``-th reason."""
        return self.reasons[i]

    def __str__(self) -> str:
        """List the reasons in sentences."""
        what = self.decision_text or \
            f"a {'positive' if self.decision else 'negative'} decision"
        head = (f"{len(self.reasons)} probable reason{'s' if len(self.reasons) != 1 else ''}"
                f" for {what} (Pr >= {float(self.delta):g}; {self.minimality}-minimal)")
        blocks = ["\n".join(f"  {f} = {s}" for f, s in r.items()) or "  (empty)"
                  for r in self.reasons]
        return "\n".join([head, *(f"reason {i + 1}:\n{b}" for i, b in enumerate(blocks))])

    __repr__ = __str__


@question
def probable_reasons(clf: Classifier | ODD, instance: Instance, *, delta=0.95, odd=None,
                     rival=None) -> ProbableReasons:
    """Find the subset-minimal parts of ``instance`` that make its decision probable enough.

    The parts ``S`` with ``Pr(decision on instance | x_S) >= delta`` under the network,
    smallest first (on a multi-class classifier, the probability that the class decided on
    ``instance`` is decided).

    Of a multi-class classifier (no positive state), the decision is the class ``a``
    decided on ``instance``: ``S`` qualifies when the complete instance, drawn from the
    network given ``x_S``, is decided ``a`` with probability at least ``delta``; with
    ``rival=b``, when it is decided other than ``b`` with that probability ("why ``a`` and
    not ``b``").

    Parameters
    ----------
    clf : Classifier or ODD
        A classifier, or an ODD that holds its classifier (``odd.classifier``; the ODD is
        then ``odd=`` too).
    instance : mapping
        A complete instance.
    delta : real in (0, 1], default 0.95
    odd : ODD, optional
        ``clf``'s compiled decision function (compiled once per classifier when not given).
    rival : class state, optional
        Of a multi-class classifier, a class other than the decided one; of a binary one,
        its other decision (the same question).

    Returns
    -------
    ProbableReasons
        Exact (every subset-minimal reason) up to 16 features; beyond, one locally minimal
        reason (``.exact`` is ``False``, ``.minimality`` ``"local"``).

    Raises
    ------
    ArgumentError
        ``delta`` is not in (0, 1], or ``rival`` is the decided class.
    ExplanationError
        The instance has probability zero under the network.

    See Also
    --------
    bnx.pi_explanations : The reasons that keep the decision whatever the rest is.
    bnx.same_decision_probability : How likely the decision stays, given a partial instance.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+",
    ...      "GPA": "-"}
    >>> r = bnx.probable_reasons(clf, x, delta=0.9)
    >>> print(r)
    2 probable reasons for Admit = + (Pr >= 0.9; subset-minimal)
    reason 1:
      WorkExperience = +
      FirstTimeApplicant = +
    reason 2:
      WorkExperience = +
      EntranceExam = +
    >>> r.exact
    True

    A multi-class classifier: two symptoms of three make the flu probable; winter alone,
    or one symptom, makes an allergy improbable:

    >>> clf = bnx.examples.illness()
    >>> x = {"Season": "winter", "Fever": "yes", "Sneezing": "no", "Aches": "yes"}
    >>> [list(r) for r in bnx.probable_reasons(clf, x, delta=0.9)]
    [['Fever', 'Sneezing'], ['Fever', 'Aches'], ['Sneezing', 'Aches']]
    >>> print(bnx.probable_reasons(clf, x, delta=0.99, rival="allergy"))
    3 probable reasons for Illness = flu and not allergy (Pr >= 0.99; subset-minimal)
    reason 1:
      Season = winter
    reason 2:
      Fever = yes
    reason 3:
      Aches = yes
    """
    clf, odd = classifier_and_odd(clf, odd)
    if isinstance(delta, bool) or not isinstance(delta, (int, float, Fraction)) or \
            not 0 < delta <= 1:
        raise ArgumentError(f"delta must be a number in (0, 1], got {delta!r}")
    idx = clf.encode(instance)
    odd = _odd_for(clf, odd)
    if sum(clf._class_joint(idx)) == 0:
        raise impossible_error(clf, idx, "the instance has probability zero under the "
                               "network (no part of it makes its decision probable): ")
    q = ask(odd, instance, rival)
    if odd.multiclass:  # the class formula asked, and its binary classifier
        odd = q.formula
        clf = odd.classifier
    d = odd.decide(instance, within="all")  # (refused above when impossible)
    dx = Fraction(delta)
    feats = list(odd.encoding.features)
    if len(feats) <= EXACT_FEATURES:
        v = under.view(clf, odd, {})
        found = (_all_dense(clf, odd, idx, d, dx, v) if v is not None
                 else _all_by_size(clf, odd, idx, d, dx, feats))
        exact = True
    else:
        found = [_greedy(clf, odd, idx, d, dx, feats)]
        exact = False
    found.sort(key=lambda s: (len(s), [feats.index(f) for f in s]))
    reasons = [{f: clf.states(f)[idx[f]] for f in s} for s in found]
    words = q.wording()
    return ProbableReasons(reasons, d, delta, exact, decision_text=words[0] if d else words[1],
                           decided=q.decided, rival=q.rival)


def _qualifies(clf, odd, idx: dict, part, d: bool, delta: Fraction) -> bool:
    e = {f: idx[f] for f in part}
    got = sdp_with_bound(clf, e, d, odd)
    if got is not None:
        value, bound = got  # |value - SDP| <= bound
        sure = compare(value, delta, 0, err=bound)
        if sure is not None:
            return sure
    return exact_sdp(clf, e, d, odd) >= delta


def _greedy(clf, odd, idx, d, delta, feats) -> list:
    part = list(feats)
    changed = True
    while changed:  # the SDP is not monotone: repeat until no single drop qualifies
        changed = False
        for f in list(part):
            rest = [g for g in part if g != f]
            if _qualifies(clf, odd, idx, rest, d, delta):
                part, changed = rest, True
    return part


def _all_by_size(clf, odd, idx, d, delta, feats) -> list:
    found: list = []
    for r in range(len(feats) + 1):
        for part in itertools.combinations(feats, r):
            if any(set(s) <= set(part) for s in found):
                continue  # a proper subset qualifies (an equal one is the same part)
            if _qualifies(clf, odd, idx, part, d, delta):
                found.append(list(part))
    return found


def _all_dense(clf, odd, idx, d, delta, v: under.View) -> list:
    feats = v.free
    n = len(feats)
    pr = v.marginal()
    good = np.where(v.decided == d, pr, 0)
    for a, f in enumerate(feats):  # axis a: [summed out, at x's state]
        pr = np.stack([pr.sum(axis=a), np.take(pr, idx[f], axis=a)], axis=a)
        good = np.stack([good.sum(axis=a), np.take(good, idx[f], axis=a)], axis=a)
    ncls = v.table.shape[0]
    k = 2 * (v.depth + ncls - 1 + v.size - 1) + 1
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = good / pr  # within gamma(k) of the SDP; delta rounds once to a float
    settled, qual = compare_all(ratio, float(delta), float_gamma(k))
    qual &= pr > 0
    close = np.argwhere((pr > 0) & ~settled)
    for m in close:  # too close to delta for floats: decided exactly
        part = [f for f, bit in zip(feats, m) if bit]
        qual[tuple(m)] = exact_sdp(clf, {f: idx[f] for f in part}, d, odd) >= delta
    below = qual.copy()  # below[m]: some subset of m qualifies
    for a in range(n):
        sl0 = [slice(None)] * n
        sl1 = [slice(None)] * n
        sl0[a], sl1[a] = 0, 1
        below[tuple(sl1)] |= below[tuple(sl0)]
    proper = np.zeros_like(qual)
    for a in range(n):
        sl0 = [slice(None)] * n
        sl1 = [slice(None)] * n
        sl0[a], sl1[a] = 0, 1
        proper[tuple(sl1)] |= below[tuple(sl0)]
    return [[f for f, bit in zip(feats, m) if bit] for m in np.argwhere(qual & ~proper)]
