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
"""

from __future__ import annotations

import itertools
import math
import weakref
from fractions import Fraction

import numpy as np

from .._util.types import Instance
from ..classifier._classifier import Classifier
from ..classifier._decisions import _argmax
from ..classifier._rules import decides
from ..errors import ArgumentError, ExplanationError
from ..odd._odd import ODD, check_odd, classifier_and_odd
from ._passes import FALSE, TRUE, reached, view

__all__ = ["class_index", "classifier_and_odd", "exact_sdp", "same_decision_probability"]

_ODDS: weakref.WeakKeyDictionary[Classifier, ODD] = weakref.WeakKeyDictionary()


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
        from .under import sdp_float  # numpy: only when needed
        got = sdp_float(clf, _odd_for(clf, odd), idx, decision)
        if got is not None:
            return got
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
        raise ExplanationError("the evidence has probability zero: the same-decision "
                               "probability is undefined")
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
    state on naive Bayes).
    """
    fv = view(odd)
    enc = odd.encoding
    n = fv.n
    ncls = len(prior)
    observed = [idx.get(f) for f in enc.features]
    # weights[i][c, v] = Pr(feature i = v | c) * scale[i] (an integer); 0 off the evidence
    weights, scale = [], []
    for i, f in enumerate(enc.features):
        table = clf.table(f)
        rows = [table[p] for p in parents[f]]
        allowed = [observed[i]] if observed[i] is not None else range(len(enc.states[i]))
        den = math.lcm(*(row[v].denominator for row in rows for v in allowed))
        w = np.zeros((ncls, len(enc.states[i])), dtype=object)
        for c, row in enumerate(rows):
            for v in allowed:
                w[c, v] = row[v].numerator * (den // row[v].denominator)
        weights.append(w)
        scale.append(den)
    sums = [w.sum(axis=1) for w in weights]  # per feature, per c

    # the nodes below the root that agree with the evidence, then one bottom-up pass
    # carrying per node and joint state c the weighted count of its completions
    seen = reached(fv, observed)
    value = np.zeros((ncls, fv.arrays.size), dtype=object)
    value[:, TRUE if decision else FALSE] = 1
    feature = fv.feature
    # skip[c, b]: the product of the weight sums of features i + 1 .. b - 1 (a path from
    # a node of feature i to a node of feature b skips those)
    skip = np.ones((ncls, n + 1), dtype=object)
    for i in range(n - 1, -1, -1):
        if i + 1 < n:
            skip[:, i + 2:] *= sums[i + 1][:, None]
        lo = int(fv.first_node[i])
        here = np.flatnonzero(seen[lo:int(fv.last_node[i])])
        if not len(here):
            continue
        kids = fv.kids[i][here]
        acc = None
        for v in ([observed[i]] if observed[i] is not None else range(kids.shape[1])):
            w = kids[:, v]
            val = value[:, w]
            skipped = np.flatnonzero(feature[w] != i + 1)  # (most edges skip nothing)
            if len(skipped):
                val[:, skipped] *= skip[:, feature[w[skipped]]]
            val *= weights[i][:, v:v + 1]
            acc = val if acc is None else acc + val
        value[:, lo + here] = acc
    top = value[:, fv.root]
    den = math.prod(scale)
    if n:
        skip[:, 1:] *= sums[0][:, None]  # now from feature 0
    first = skip[:, feature[fv.root]]
    return sum((prior[c] * Fraction(first[c] * top[c], den) for c in range(ncls)),
               Fraction(0))


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

