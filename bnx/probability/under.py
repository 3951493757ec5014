"""Questions asked under the network's distribution, in floating point with a proven bound.

The dense joint of :mod:`._dense` restricted to some evidence (probable reasons, group
fairness, rules' violations), and the decision on a partial instance from its class
masses (exact whenever floating point cannot tell, :func:`bnx._util.rounding.compare`).
Every float returned here is within ``1e-9`` of the exact value; a computation whose
bound would exceed that returns ``None`` and the caller uses exact arithmetic instead
(see :mod:`._dense` for the argument). The same-decision probability and what to observe
next walk the diagram instead (:mod:`.probability`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._util.rounding import BOUND, NORMAL, compare, compare_all, float_gamma, gamma
from ..classifier._classifier import _argmax
from ..classifier._rules import decides
from ..diagram._memo import register
from . import _dense

register("dense_marginal", 1, "Pr(x) of every complete instance, dense, and its sum")

__all__ = ["BOUND", "View", "box_violations", "decide_masses", "view"]


class View:
    """The dense joint and the decisions of ``odd``, restricted to the evidence ``idx``.

    Attributes
    ----------
    free : list
        The unobserved features, in the ODD's order (the axes of ``table`` after the
        class's, and of ``decided``).
    table : numpy.ndarray
        ``Pr(class, e, z)`` over the completions ``z`` (float, or scaled exact integers).
    decided : numpy.ndarray
        The diagram's decision on each completion (bool).
    depth : int
        The roundings on the longest chain to an entry of ``table``.
    """

    def __init__(self, joint: _dense.Joint, decided: np.ndarray, idx: dict) -> None:
        sl = tuple(idx.get(f, slice(None)) for f in joint.features)
        self.features = joint.features
        self.free = [f for f in joint.features if f not in idx]
        self.table = joint.table[(slice(None), *sl)]
        self.decided = decided[sl]
        self.depth = joint.depth
        self.exact = joint.exact

    @property
    def size(self) -> int:
        """The number of completions."""
        return int(self.decided.size)

    def marginal(self) -> np.ndarray:
        """``Pr(e, z)`` over the completions ``z`` (the class summed out)."""
        return np.asarray(self.table.sum(axis=0), dtype=self.table.dtype)


def view(clf, odd, idx: dict, *, exact: bool = False) -> View | None:
    """Return the :class:`View` of ``clf`` (compiled as ``odd``) on ``idx``.

    ``None`` when the dense joint is out of reach (too many instances, floats could
    underflow, or the bound on a ratio of its sums would exceed :data:`BOUND`).
    """
    try:
        joint = _dense.joint(clf, odd.encoding.features, exact=exact)
    except _dense.TooLarge:
        return None
    # every answer is a ratio of two sums of at most all the entries of Pr(e, z)
    if not exact and gamma(2 * (joint.depth + joint.table.size) + 1) > BOUND:
        return None
    return View(joint, _dense.decisions(odd), idx)


def _decide_floats(clf, p: int, masses, depth: int) -> bool | None:
    """Decide from float class masses when floating point can tell, without a fraction.

    Each mass is within ``gamma(depth)`` of the exact value; ``None`` when too close.

    The sides compared carry ``depth`` roundings, up to ``classes - 2`` more for the sum
    of the other classes' masses and two for the product by the threshold (rounded once
    to a float): ``gamma(depth + classes + 4)`` bounds them (rounded up to a float).
    """
    f = [float(v) for v in masses]
    if any(0 < v < NORMAL for v in f):
        return None  # a subnormal mass: the relative bounds do not hold
    m = float_gamma(depth + len(f) + 4)
    if clf.rule == "threshold":
        t = clf.threshold
        a, b = float(1 - t) * f[p], float(t) * sum(f[:p] + f[p + 1:])
        if any(0 < abs(v) < NORMAL for v in (a, b, float(t))) or (b == 0 and t and any(
                f[:p] + f[p + 1:])):
            return None  # underflow (a tiny threshold, say): exact arithmetic decides
        return compare(a, b, m)
    got = True
    for c in range(len(f)):
        if c != p:
            here = compare(f[p], f[c], m, strict=c < p)
            if here is False:
                return False
            if here is None:
                got = None
    return got


def decide_masses(clf, idx: dict, masses, depth: int) -> bool | int:
    """Decide ``clf`` exactly on the partial instance ``idx`` from its computed class masses.

    The masses ``[Pr(c, e) for c]`` are floats with at most ``depth`` roundings each, or
    exact; floating point decides unless it is too close to call, exact arithmetic then. A
    multi-class classifier's decision is the index of its class: the first largest mass,
    when the argmax rule with that class as the positive one holds exactly.
    """
    multi = clf.positive is None
    if multi:  # the candidate: the first largest computed mass
        p = max(range(len(masses)), key=lambda c: (masses[c], -c))
    else:
        p = clf.class_states.index(clf.positive)
    got = _decides(clf, idx, p, masses, depth)
    if multi:
        return p if got else _argmax(clf._decision_joint(idx))
    return got


def _decides(clf, idx: dict, p: int, masses, depth: int) -> bool:
    """Whether the rule decides for the class ``p`` (see :func:`decide_masses`)."""
    if depth and not isinstance(masses[0], (int, Fraction)):
        got = _decide_floats(clf, p, masses, depth)
        if got is not None:
            return got
    f = [Fraction(v) if isinstance(v, (int, Fraction)) else Fraction(float(v)) for v in masses]
    g = gamma(depth) if depth else Fraction(0)
    if clf.rule == "threshold":
        t = clf.threshold
        got = compare((1 - t) * f[p], t * (sum(f) - f[p]), g)
    else:
        got = True
        for c in range(len(f)):
            if c != p:
                here = compare(f[p], f[c], g, strict=c < p)
                if here is False:
                    got = False
                    break
                if here is None:
                    got = None
    if got is None:  # too close to call in floats
        got = decides(clf._decision_joint(idx), clf.rule, p, clf.threshold)
    return got


def box_violations(clf, odd, box: list, value: bool):
    """Return ``(probability, states)`` of the instances in ``box`` not decided ``value``.

    ``box`` holds per feature in the ODD's order the list of its state indices allowed; of
    the complete instances in it that ``odd`` does not decide ``value``, of which there is
    at least one: their probability under the network (a float within :data:`BOUND` of the
    exact value) and the state indices of the most probable of them (exact: floats pick it
    unless others come within their rounding bound, which exact arithmetic then compares).
    ``None`` when the dense joint is out of reach or the bound would exceed :data:`BOUND`.
    """
    v = view(clf, odd, {})
    if v is None:
        return None
    ncls = v.table.shape[0]
    # the two sums: at most size entries of Pr(x) (ncls - 1 roundings each), then a division
    if gamma(2 * (v.depth + ncls - 1 + v.size - 1) + 1) > BOUND:
        return None
    cache = odd.arrays.cache
    key = (id(clf), clf.fingerprint)
    got = cache.get("dense_marginal", key)
    if got is None:
        whole = v.marginal()
        got = cache.put("dense_marginal", key, (whole, float(whole.sum())))
    pr, total = got
    decided = v.decided
    for i, states in enumerate(box):  # the box, one axis at a time
        if len(states) < pr.shape[i]:
            pr = np.take(pr, states, axis=i)
            decided = np.take(decided, states, axis=i)
    bad = np.where(decided, 0.0, pr) if value else np.where(decided, pr, 0.0)
    probability = float(bad.sum() / total)
    k = int(bad.argmax())
    best = float(bad.reshape(-1)[k])
    if best == 0:  # every violation has probability zero: the first one
        k = int(np.flatnonzero((decided != value).reshape(-1))[0])
        near = [k]
    else:  # every violation the floats cannot put below the most probable one
        _, below = compare_all(best, bad.reshape(-1), float_gamma(v.depth + ncls + 1),
                               strict=True)
        near = np.flatnonzero(~below).tolist()
    states = [[box[i][j] for i, j in enumerate(np.unravel_index(q, pr.shape))]
              for q in near]
    if len(states) > 1:  # too close for floats: exact, the first of equals
        mass = [sum(clf._class_joint(dict(zip(v.features, s))), Fraction(0)) for s in states]
        states = [states[mass.index(max(mass))]]
    return probability, states[0]
