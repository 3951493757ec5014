"""The same-decision probability (Choi, Xue and Darwiche 2012; Chen, Choi and Darwiche 2014).

Given a partial instance ``e``, the same-decision probability is the probability,
under the classifier's own distribution, that observing the missing features ``Z``
leaves the decision unchanged::

    SDP(e) = sum over completions z of Pr(z | e) [decision(e, z) = decision(e)]

With ``decision=`` it is the probability of that decision instead: for an
explanation ``e`` of some instance, its exact *precision* (Anchors samples it).

Given the class and the latent variables, the features are independent: with ``k`` a
joint state of the class and the latent variables (a class state on naive Bayes),
``Pr(k, e, z) = Pr(k) prod_f Pr(f | k)``. So for each ``k`` one weighted count over the
decision diagram gives ``sum_z Pr(k, e, z) [f(e, z) = d]``: one bottom-up pass over the
nodes below the root that agree with ``e``, each edge weighted by
``Pr(feature = state | its parent's state in k)`` (features a path skips contribute the
sum of their weights). Weights are exact rationals scaled to integers (one common
denominator per feature), so the pass is integer arithmetic; all ``k`` are carried
through the same pass. The cost is the number of joint states times the size of the
diagram. On a latent tree whose joint states outnumber the completions of ``e`` (or
exceed :data:`MAX_CONFIGURATIONS`), the documented fallback is used instead: the sum
over the completions of ``e``, each with the classifier's exact joint, whose cost grows
with the product of the missing features' numbers of states. On a TAN or any other
network, where the features are not independent given the hidden nodes, the masses come
from variable elimination along the diagram (:mod:`.frontier`).

The float answer (the default) runs the same passes in float64 (:class:`Flow`,
:func:`.frontier.decision_masses` with ``exact=False``), counting the roundings on the
longest chain to each mass as it goes, and returns the ratio when its proven bound
(:mod:`bnx._util.rounding`) is at most ``1e-9``; exact arithmetic answers otherwise.
"""

from __future__ import annotations

import itertools
import math
import weakref
from fractions import Fraction

import numpy as np

from .._util.guard import question
from .._util.rounding import Unsafe
from .._util.types import Instance
from ..classifier._classifier import Classifier, _argmax
from ..classifier._possible import impossible_error
from ..classifier._rules import decides
from ..diagram._memo import register
from ..errors import ArgumentError
from ..odd._odd import ODD, check_odd, classifier_and_odd
from ..question._reach import FALSE, TRUE, reached, view

__all__ = ["class_index", "exact_sdp", "same_decision_probability"]

register("flow_edges", 1, "per feature, its nodes' children and the edges that skip features "
         "(the same-decision probability's flows)")

_ODDS: weakref.WeakKeyDictionary[Classifier, ODD] = weakref.WeakKeyDictionary()


@question
def same_decision_probability(clf: Classifier | ODD, evidence: Instance, *,
                              decision: bool | None = None,
                              odd: ODD | None = None, exact: bool = False) -> float | Fraction:
    """Compute the probability that the decision on ``evidence`` survives the missing features.

    Parameters
    ----------
    clf : Classifier or ODD
        The classifier, or an ODD that holds it (``odd.classifier``: compiled here or
        loaded from a file of format 2 or later), whose decision function it then is.
    evidence : mapping
        A partial instance (features left out are unobserved).
    decision : bool, optional
        The decision whose probability is asked; by default the classifier's
        decision on ``evidence`` itself (``clf.decide(evidence, partial=True)``).
    odd : ODD, optional
        ``clf``'s compiled decision function (compiled once per classifier and kept
        when not given).
    exact : bool, default False
        Return the exact :class:`~fractions.Fraction`. By default a float within
        ``1e-9`` of it (the bound is proven, see ``docs/explanations.md``).

    Returns
    -------
    float or Fraction
        ``sum_z Pr(z | e) [decision(e, z) = decision]``.

    Raises
    ------
    ArgumentError
        ``clf`` is neither a classifier nor an ODD that holds one, or ``decision`` is
        not a decision of ``clf`` (a bool, or a class state of a multi-class classifier).
    UnknownStateError
        ``decision`` names no class state (a multi-class classifier).
    ExplanationError
        ``evidence`` has probability zero (the probability is undefined).

    See Also
    --------
    bnx.next_observations : Which feature to observe next to be surer of the decision.
    bnx.probable_reasons : Reasons that keep the decision with a given probability.

    Notes
    -----
    A multi-class classifier (no positive state): the probability that the complete
    instance is decided the class decided on ``evidence`` (``clf.predict(evidence,
    partial=True)``), or ``decision=`` (a class state). It is the binary probability of
    that class's argmax classifier, ``clf.class_classifier(state)``, which decides
    ``evidence`` positive exactly when that class is decided on it.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> e = {"GPA": "+", "EntranceExam": "+"}
    >>> round(bnx.same_decision_probability(clf, e), 4)
    0.9241
    >>> p = bnx.same_decision_probability(clf, e, exact=True)
    >>> p + bnx.same_decision_probability(clf, e, decision=False, exact=True) == 1
    True
    >>> round(bnx.same_decision_probability(clf, {"GPA": "+"}), 4)
    0.7946
    >>> round(bnx.same_decision_probability(bnx.compile(clf), {"GPA": "+"}), 4)
    0.7946

    A classifier that picks one of several classes:

    >>> asia = bnx.examples.asia()
    >>> many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> many.predict({"dysp": "yes"}, partial=True)
    'no'
    >>> round(bnx.same_decision_probability(many, {"dysp": "yes"}), 4)
    0.8379
    """
    clf, odd = classifier_and_odd(clf, odd)
    if clf.multiclass:
        decision = None if decision is None else class_index(clf, decision)
    elif decision is not None and not isinstance(decision, bool):
        raise ArgumentError(f"decision must be True, False or None, got {decision!r}")
    idx = clf.encode(evidence, partial=True)
    if not exact:
        got = sdp_with_bound(clf, idx, decision, odd)
        if got is not None:
            return got[0]
    p = exact_sdp(clf, idx, decision, odd)
    return p if exact else float(p)


def class_index(clf: Classifier, state) -> int:
    """Return the index of the class state ``state`` of a multi-class classifier.

    ``state`` is a decision of it; refused with a typed error naming it.
    """
    from ..classifier._classifier import _resolve_state
    from ..errors import UnknownStateError, closest_first
    if isinstance(state, bool):
        raise ArgumentError(f"decision={state!r}: this classifier picks one of "
                            f"{len(clf.classes)} class states; name one of them")
    j = _resolve_state(clf.classes, state)
    if j is None:
        raise UnknownStateError(f"decision={state!r} is not a state of the class "
                                f"{clf.class_var!r} (states, closest first: "
                                f"{closest_first(state, clf.classes)})")
    return j


def exact_sdp(clf: Classifier, idx: dict, decision: bool | int | None,
              odd: ODD | None) -> Fraction:
    """Compute the exact same-decision probability of the encoded evidence ``idx``.

    ``decision``: the index of a class of a multi-class classifier.
    """
    joint = clf._class_joint(idx)
    total = sum(joint, Fraction(0))
    if total == 0:
        raise impossible_error(clf, idx, "the evidence has probability zero (the "
                               "same-decision probability is undefined): ")
    if decision is None:
        decision = _decide(clf, joint)
    if clf.multiclass:  # the binary question on the class's formula: does it hold?
        odd = _odd_for(clf, odd).class_formula(clf.classes[decision])
        clf, decision = odd.classifier, True
    if clf.structure not in ("naive_bayes", "latent_tree"):  # TAN, general: along the ODD
        from .frontier import same_decision_fraction  # numpy: only when needed
        return same_decision_fraction(clf, _odd_for(clf, odd), idx, decision)
    priors, parents = _configurations(clf)
    completions = math.prod(len(clf.states(f)) for f in clf.features if f not in idx)
    if clf.structure == "naive_bayes" or completions > len(priors) <= MAX_CONFIGURATIONS:
        odd = _odd_for(clf, odd)
        same = _weighted_mass(clf, odd, idx, decision, priors, parents)
    else:
        if odd is not None:
            _check_match(clf, odd)
        same = _enumerated_mass(clf, idx, decision)
    return same / total


#: Latent trees with more joint states of the class and the latent variables than this
#: are answered by the sum over completions.
MAX_CONFIGURATIONS = 4096


def sdp_with_bound(clf: Classifier, idx: dict, decision: bool | int | None,
                   odd: ODD | None) -> tuple[float, Fraction] | None:
    """Return ``(sdp, bound)``: the same-decision probability in float64 and its bound.

    The same passes as :func:`exact_sdp`, in float64, and a proven bound (at most
    ``1e-9``) on the distance to the exact value; ``None`` when the bound would exceed
    ``1e-9``, floats could underflow or a latent tree has more than
    :data:`MAX_CONFIGURATIONS` joint states: the caller then asks :func:`exact_sdp`.
    """
    from .._util import rounding
    got = outcome(clf, _odd_for(clf, odd), idx, decision)
    if got is None:
        return None
    _, same, total, depth = got
    if not total:
        raise impossible_error(clf, idx, "the evidence has probability zero (the "
                               "same-decision probability is undefined): ")
    return rounding.probability(same, total, 2 * depth)


def outcome(clf: Classifier, odd: ODD, idx: dict, decision: bool | int | None,
            masses=None):
    """Return ``(decision, same, total, depth)`` on the evidence ``idx`` in float64.

    By the passes of :func:`exact_sdp`: the decision (given, or decided from the float class
    masses, exactly when they are too close), the mass of the completions decided so and
    that of all, each within ``gamma(depth)``; ``None`` as :func:`float_masses`.
    ``masses``: :func:`float_masses` or a function like it (one that resumes passes).
    """
    float_masses_ = float_masses if masses is None else masses
    binary, target = clf, odd
    if clf.multiclass:  # the class decided, then its formula's binary question
        if decision is None:
            first = odd.class_formula(clf.classes[0])
            got = float_masses_(first.classifier, first, idx)
            if got is None:
                return None
            if not any(got[1]):  # the evidence has probability zero
                return None, 0.0, 0.0, got[2] + 1
            decision = decide_masses(clf, idx, got[1], got[2] + 1)
        target = odd.class_formula(clf.classes[decision])
        binary = target.classifier
    got = float_masses_(binary, target, idx)
    if got is None:
        return None
    (neg, pos), masses, depth = got
    if not clf.multiclass and decision is None and neg + pos:
        decision = decide_masses(binary, idx, masses, depth + 1)
    same = pos if (clf.multiclass or decision) else neg
    return decision, same, neg + pos, depth + 1


def float_masses(clf: Classifier, odd: ODD, idx: dict):
    """Return ``((negative, positive), class masses, depth)`` of a binary ODD in float64.

    On the evidence ``idx``, by the pass :func:`exact_sdp` takes (each within
    ``gamma(depth)`` of the exact value, the class masses within ``gamma(depth + 1)``);
    ``None`` when floats could underflow or a latent tree has more than
    :data:`MAX_CONFIGURATIONS` joint states (then :func:`exact_sdp` enumerates).
    """
    if clf.structure not in ("naive_bayes", "latent_tree"):
        from .frontier import decision_masses  # numpy: only when needed
        got = decision_masses(clf, odd, idx, exact=False)
        if got is None:
            return None
        (neg, pos), masses, depth = got
        return (neg, pos), masses, depth
    priors, parents = _configurations(clf)
    if clf.structure != "naive_bayes" and len(priors) > MAX_CONFIGURATIONS:
        return None
    try:
        flow = Flow(clf, odd, idx, (FALSE, TRUE), exact=False,
                    configurations=(priors, parents))
    except Unsafe:
        return None
    return tuple(flow.mass()), flow.class_masses(), flow.depth


def decide_masses(clf, idx: dict, masses, depth: int):
    """Decide ``idx`` from class masses (:func:`bnx.probability.under.decide_masses`)."""
    from .under import decide_masses as decide
    return decide(clf, idx, masses, depth)


def _decide(clf: Classifier, joint: list[Fraction]) -> bool | int:
    """Decide on a class joint: a bool, or a multi-class classifier's class index."""
    if clf.multiclass:
        return _argmax(joint)
    return decides(joint, clf.rule, clf.class_states.index(clf.positive), clf.threshold)


def _check_match(clf: Classifier, odd) -> None:
    check_odd(odd)
    if odd.classifier is not clf and odd.meta.get("fingerprint") != clf.fingerprint:
        raise ArgumentError("odd was not compiled from this classifier")


def _odd_for(clf: Classifier, odd: ODD | None) -> ODD:
    """``odd`` checked against ``clf``, or ``clf``'s ODD (compiled once and kept)."""
    if odd is not None:
        _check_match(clf, odd)
        return odd
    got = _ODDS.get(clf)
    if got is None:
        from ..compilation import compile as compile_
        got = _ODDS[clf] = compile_(clf)
    return got


def _configurations(clf: Classifier) -> tuple[list[Fraction], dict]:
    """Enumerate the joint states ``k`` of the class and the latent variables.

    Their probabilities ``Pr(k)`` and, per feature, its parent's state in each ``k``.

    Given ``k``, the features are independent: ``Pr(k, x) = Pr(k) prod_f Pr(x_f | k)``.
    On naive Bayes the joint states are the class states.
    """
    inner = [clf.class_var, *clf.latent]
    pos = {node: j for j, node in enumerate(inner)}
    priors, rows = [], []
    for k in itertools.product(*(range(len(clf.states(node))) for node in inner)):
        p = clf.table(clf.class_var)[0][k[0]]
        for j, node in enumerate(inner[1:], 1):
            if p == 0:
                break
            p *= clf.table(node)[k[pos[clf.parent(node)]]][k[j]]
        priors.append(p)
        rows.append(k)
    parents = {f: [k[pos[clf.parent(f)]] for k in rows] for f in clf.features}
    return priors, parents


def _weighted_mass(clf: Classifier, odd: ODD, idx: dict, decision: bool,
                   prior: list[Fraction], parents: dict) -> Fraction:
    """Compute ``sum_z Pr(e, z) [f(e, z) = decision]`` by weighted counts over the ODD.

    One weighted count per joint state of the class and the latent variables (per class
    state on naive Bayes), by :class:`Flow`.
    """
    flow = Flow(clf, odd, idx, (TRUE if decision else FALSE,), exact=True,
                configurations=(prior, parents))
    return flow.mass()[0]


class Flow:
    """The weighted count of :func:`exact_sdp` over the ODD, exact or in float64: one body.

    For each joint state ``c`` of the class and the latent variables (a class state on
    naive Bayes) and each terminal ``t`` of ``ends``, one bottom-up pass gives per node
    ``bwd[c, t, u]``: the weighted count of the completions below ``u`` that reach ``t``,
    each edge weighted by ``Pr(feature = state | c)`` (zero off the evidence) and each
    skipped feature by the sum of its allowed weights. With ``per_feature``, a top-down
    pass gives ``fwd[c, u]``, the weighted count of the paths from the root into ``u``,
    and then, for each unobserved feature ``F`` and state ``v``, the weighted count of
    the completions with ``F = v`` that reach ``t`` (:meth:`feature_masses`): the paths
    through a node that tests ``F`` along its ``v`` edge, plus the paths along an edge
    that skips ``F``, whose weight for ``F`` is the sum of its weights (so ``F = v``
    takes the share ``Pr(F = v | c)`` of it).

    Exact (``exact=True``): weights are integers, one common denominator per feature
    (their product :attr:`scale` divides the masses), and the masses are fractions. In
    floats: weights are the CPT entries rounded once, every value a sum of products of
    nonnegative numbers, and :attr:`depth` bounds the roundings on the longest chain to a
    mass (see :mod:`bnx._util.rounding`): per feature on a path its weight's or skipped
    sum's rounding and product, the sum over its states, the products of the skipped
    sums; in the top-down pass a node's in-degree; and the sums over the nodes of a
    level, in blocks. A float flow is refused (:class:`Unsafe`) when some nonzero value
    could underflow: when the product of the least nonzero weights falls below
    ``2**-1000``.
    """

    def __init__(self, clf, odd, idx: dict, ends: tuple, *, exact: bool,
                 configurations=None, per_feature: bool = False) -> None:
        prior, parents = configurations or _configurations(clf)
        self.classes = len(clf.class_states)
        fv = self.fv = view(odd)
        enc = odd.encoding
        n = fv.n
        self.exact, self.ends, self.prior = exact, ends, prior
        ncls = len(prior)
        rows = len(ends) * ncls  # row e * ncls + c: end e, joint state c
        observed = self.observed = [idx.get(f) for f in enc.features]
        dtype = object if exact else np.float64
        self.weights, self.sums, self.scale = [], [], 1
        low = _log2(min((p for p in prior if p), default=1))
        for i, f in enumerate(enc.features):
            table = clf.table(f)
            cpd = [table[p] for p in parents[f]]
            allowed = [observed[i]] if observed[i] is not None else range(len(enc.states[i]))
            w = np.zeros((ncls, len(enc.states[i])), dtype=dtype)
            if exact:
                den = math.lcm(*(row[v].denominator for row in cpd for v in allowed))
                for c, row in enumerate(cpd):
                    for v in allowed:
                        w[c, v] = row[v].numerator * (den // row[v].denominator)
                s = w.sum(axis=1)
                self.scale *= den
            else:
                for c, row in enumerate(cpd):
                    for v in allowed:
                        w[c, v] = float(row[v])
                s = np.array([float(sum((row[v] for v in allowed), Fraction(0)))
                              for row in cpd])
                least = min((*w[w > 0].tolist(), *s[s > 0].tolist(), 1.0))
                low += _log2(least) if any(row[v] for row in cpd for v in allowed) else 0.0
            self.weights.append(np.tile(w, (len(ends), 1)))
            self.sums.append(np.tile(s, len(ends)))
        if not exact and low < -1000:
            raise Unsafe("a weighted count could underflow")
        self.n, self.ncls, self.rows, self.dtype = n, ncls, rows, dtype
        seen = self.seen = reached(fv, observed)
        feature = fv.feature
        # bottom-up: bwd[r, u]; skips[i][:, b] the product of the sums of features
        # i + 1 .. b - 1 (a path from a node of feature i to a node of feature b skips
        # those); skips[n] those of features 0 .. b - 1, from the top
        bwd = self.bwd = np.zeros((rows, fv.arrays.size), dtype=dtype)
        for e, t in enumerate(ends):
            bwd[e * ncls:(e + 1) * ncls, t] = 1
        skip = np.ones((rows, n + 1), dtype=dtype)
        self.skips = [None] * (n + 1)
        for i in range(n - 1, -1, -1):
            if i + 1 < n:
                skip[:, i + 2:] *= self.sums[i + 1][:, None]
            self.skips[i] = skip.copy()
            lo = int(fv.first_node[i])
            here = np.flatnonzero(seen[lo:int(fv.last_node[i])])
            if not len(here):
                continue
            kids = fv.kids[i][here]
            acc = None
            for v in self._allowed(i, kids.shape[1]):
                w = kids[:, v]
                val = bwd[:, w]
                skipped = np.flatnonzero(feature[w] != i + 1)  # (most edges skip nothing)
                if len(skipped):
                    val[:, skipped] *= skip[:, feature[w[skipped]]]
                val *= self.weights[i][:, v:v + 1]
                acc = val if acc is None else acc + val
            bwd[:, lo + here] = acc
        if n:
            skip[:, 1:] *= self.sums[0][:, None]
        self.skips[n] = skip
        self.first = skip[:, feature[fv.root]]
        self.top = self.first * bwd[:, fv.root]
        states = sum(len(s) for s in enc.states)
        # a path: per feature its weight (1 rounding) and product (1), its states' sum
        # (k - 1), or a skipped sum (1) and its product (1); then the skip from the top
        self.path = states + 4 * n + 4
        self.depth = 0 if exact else self.path + len(prior) + 2
        self.per = self._top_down() if per_feature else None

    def _allowed(self, i: int, k: int):
        return [self.observed[i]] if self.observed[i] is not None else range(k)

    def mass(self) -> list:
        """Return per end ``sum_z Pr(e, z) [f(e, z) reaches it]``.

        A fraction, or a float within ``gamma(depth)`` of it.
        """
        return [self._combine(self.top[e * self.ncls:(e + 1) * self.ncls])
                for e in range(len(self.ends))]

    def class_masses(self) -> list:
        """Return ``Pr(class = y, e)`` per class state ``y``.

        Every end summed (``ends`` must be both terminals), within ``gamma(depth + 1)`` in
        floats.
        """
        return self._by_class(self.top.reshape(len(self.ends), self.ncls).sum(axis=0))

    def _combine(self, per_c):
        """``sum_c prior[c] per_c[c]`` (exactly: divided by the scale)."""
        if self.exact:
            return sum((p * Fraction(int(x), self.scale) for p, x in zip(self.prior, per_c)
                        if p), Fraction(0))
        return float(sum(float(p) * float(x) for p, x in zip(self.prior, per_c)))

    def _by_class(self, per_c) -> list:
        ncls = len(self.prior)
        classes = self.classes
        per = ncls // classes
        return [self._combine_some(per_c, range(y * per, (y + 1) * per)) for y in range(classes)]

    def _combine_some(self, per_c, cs):
        if self.exact:
            return sum((self.prior[c] * Fraction(int(per_c[c]), self.scale) for c in cs
                        if self.prior[c]), Fraction(0))
        return float(sum(float(self.prior[c]) * float(per_c[c]) for c in cs))

    def _top_down(self) -> dict:
        """Return per unobserved feature ``i`` the weighted counts per state.

        An array ``(rows, states)`` of the weighted counts of the completions with feature
        ``i`` at each state, per end and joint state (before the prior); the roundings on
        their chains go to :attr:`feature_depth`.
        """
        fv, n, rows, dtype = self.fv, self.n, self.rows, self.dtype
        feature, bwd = fv.feature, self.bwd
        ncls, ends = self.ncls, len(self.ends)
        # the top-down flow is the same for every end: one row per joint state
        fwd = np.zeros((ncls, fv.arrays.size), dtype=dtype)
        fwd[:, fv.root] = self.first[:ncls]
        # pair[a + 1, b]: the flow along the edges from feature a (a = -1: the top) to
        # feature b that skip the features between
        pair = np.zeros((n + 1, n + 1, rows), dtype=dtype)
        pair[0, feature[fv.root]] = self.top
        tested = [None] * n
        edges = _edges(fv)
        extra = 0
        for i in range(n):
            lo, hi = int(fv.first_node[i]), int(fv.last_node[i])
            k = fv.nstates[i]
            if hi == lo:
                tested[i] = np.zeros((rows, k), dtype=dtype)
                continue
            nodes, at, b, far, groups = edges[i]
            kids = fv.kids[i].reshape(-1)
            # the flow along every edge of the level (node-major, state-minor); edges off
            # the evidence, or from nodes no completion reaches, carry 0
            t = (fwd[:, lo:hi, None] * self.weights[i][:ncls, None, :]).reshape(ncls, -1)
            t *= self.skips[i][:ncls, b]
            fwd[:, nodes] += _gather(t, at, len(nodes))
            flow = (bwd[:, kids].reshape(ends, ncls, -1) * t).reshape(rows, -1)
            tested[i], x = _total(flow.reshape(rows, hi - lo, k).transpose(0, 2, 1))
            extra = max(extra, x)
            if len(far):
                flow = flow[:, far]
                for bj, a, z in groups:
                    got, x = _total(flow[:, a:z])
                    pair[i + 1, bj] += got
                    extra = max(extra, x)
        # the flow along edges that skip feature i (a < i < b), whose share of F = v is
        # Pr(F = v | c) over the sum of its weights (1 in exact arithmetic)
        out = {}
        for i in range(n):
            if self.observed[i] is not None:
                continue
            cross = pair[:i + 1, i + 1:].reshape(-1, rows).sum(axis=0)
            share = cross[:, None] * self.weights[i]
            if self.exact:  # each flow across feature i holds its weights' sum: exact
                share = np.array([[x // d if d else 0 for x in r] for r, d in
                                  zip(share.tolist(), self.sums[i].tolist())], dtype=object)
            else:
                s = self.sums[i][:, None]
                share = np.divide(share, s, out=np.zeros_like(share), where=s > 0)
            out[i] = tested[i] + share
        if self.exact:
            self.feature_depth = 0
        else:
            # the top-down flow into a node: its parents' flows times a weight and a skip,
            # summed (in-degree - 1 roundings), per feature on a path
            down = self.path + sum(d + 4 for d in edges[n])
            self.feature_depth = (down + self.path + 2 * n + 8 + extra + (n + 1) ** 2
                                  + max(fv.nstates, default=1) + len(self.prior) + 4)
        return out

    def feature_masses(self, i: int) -> tuple[list, list]:
        """Return for unobserved feature ``i``, per state ``v``, the masses per end and class.

        The masses per end of the completions with ``F = v`` and the class masses
        ``Pr(class = y, e, F = v)`` (in floats within ``gamma(feature_depth)`` and
        ``gamma(feature_depth + 1)``).
        """
        m = self.per[i]
        ncls, ends = self.ncls, len(self.ends)
        per_end, per_class = [], []
        for v in range(m.shape[1]):
            col = m[:, v]
            per_end.append([self._combine(col[e * ncls:(e + 1) * ncls]) for e in range(ends)])
            per_class.append(self._by_class(col.reshape(ends, ncls).sum(axis=0)))
        return per_end, per_class


def _edges(fv) -> list:
    """Return per feature ``i`` the edges of its nodes (``kids[i]`` flattened, node-major).

    Each is ``(nodes, at, b, far, groups)``: the distinct children and each edge's position among
    them, each child's feature, the edges that skip a feature (sorted by the child's
    feature) and their runs ``(feature, start, stop)`` in that order; last, per feature
    and for the terminals, the largest in-degree of a node (made once per diagram).
    """
    cache = fv.arrays.cache
    key = fv.enc.first_level
    got = cache.get("flow_edges", key)
    if got is not None:
        return got
    indeg = np.zeros(fv.arrays.size, dtype=np.int64)
    out = []
    for i in range(fv.n):
        kids = fv.kids[i].reshape(-1)
        bound = int(fv.first_node[i])  # children come first: every child is below it
        if bound > 8 * len(kids):
            nodes, at = np.unique(kids, return_inverse=True)
            at = at.reshape(-1)
        else:  # by marking: linear in the nodes below
            flag = np.zeros(bound, dtype=bool)
            flag[kids] = True
            nodes, at = np.flatnonzero(flag), (np.cumsum(flag) - 1)[kids]
        indeg[nodes] += np.bincount(at, minlength=len(nodes))
        b = fv.feature[kids]
        far = np.flatnonzero(b > i + 1)
        far = far[np.argsort(b[far], kind="stable")]
        bs, starts = np.unique(b[far], return_index=True)
        stops = [*starts[1:].tolist(), len(far)]
        out.append((nodes, at, b, far, list(zip(bs.tolist(), starts.tolist(), stops))))
    most = [int(indeg[int(fv.first_node[i]):int(fv.last_node[i])].max(initial=0))
            for i in range(fv.n)]
    out.append([*most, int(indeg[:2].max())])
    return cache.put("flow_edges", key, out)


def _gather(vals, at, size: int):
    """``out[:, at[a]] += vals[:, a]`` for every ``a`` into a new ``(rows, size)`` array."""
    rows = vals.shape[0]
    if vals.dtype == object:
        out = np.zeros((rows, size), dtype=object)
        np.add.at(out.T, at, vals.T)
        return out
    flat = (np.arange(rows)[:, None] * size + at[None, :]).ravel()
    return np.bincount(flat, weights=vals.ravel(), minlength=rows * size).reshape(rows, size)


def _log2(x) -> float:
    """``log2`` of a positive number, ``-inf`` when its float underflows to 0."""
    f = float(x)
    return math.log2(f) if f > 0 else -math.inf


def _total(x):
    """Sum over the last axis, with its roundings (:func:`bnx._util.rounding.total`)."""
    from .._util.rounding import total
    return total(x)


def _enumerated_mass(clf: Classifier, idx: dict, decision: bool) -> Fraction:
    """Compute ``sum_z Pr(e, z) [decision(e, z) = decision]`` over every completion.

    The fallback.
    """
    missing = [f for f in clf.features if f not in idx]
    same = Fraction(0)
    for states in itertools.product(*(range(len(clf.states(f))) for f in missing)):
        full = dict(idx)
        full.update(zip(missing, states))
        joint = clf._class_joint(full)
        if _decide(clf, joint) == decision:
            same += sum(joint, Fraction(0))
    return same

