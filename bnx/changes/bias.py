"""Decision bias: whether a decision depends on protected features.

A decision on ``x`` is *biased* (Darwiche and Hirth, ECAI 2020) when some instance
that differs from ``x`` only on the protected features gets the other decision.
:func:`decision_bias` finds such an instance by the shortest-path pass of
:mod:`._robustness` with every unprotected feature immutable (the closest one, so
the fewest protected features change). :func:`count_biased` counts the biased
instances of the whole classifier on the diagram: ``x`` is biased exactly when both
decisions occur among the instances that agree with it off the protected features. One
top-down pass over the array form carries the *frontiers* of the unprotected prefixes
(:func:`_count_by_frontiers`); with many joint protected states, the count of
``EXISTS p. f  AND  EXISTS p. NOT f`` on the ``dd`` diagram (``p``: the protected
features' bits, both sides restricted to valid codes) is used instead.

A multi-class ODD (:class:`~bnx.MulticlassODD`): the decision on ``x``, decided ``a``, is
biased when a change of protected features gives another class, which is the binary
question on ``a``'s class formula (:func:`~bnx.odd._odd.formula_for`). Its instances are
biased exactly when the instances that agree with them off the protected features are
decided more than one class, that is when one class formula takes both values among
them: the frontier pass carries the frontiers of every class formula side by side (in
the formulas' one shared diagram, :attr:`~bnx.MulticlassODD.shared`) and counts a
prefix out when one of them holds both terminals; the quantified count takes the union
of the formulas' ``EXISTS p. f  AND  EXISTS p. NOT f``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .._util.guard import question
from .._util.types import Feature, Instance
from .._util.wording import terms
from ..diagram import _setops as sets
from ..diagram._feature_view import FeatureView, feature_view
from ..diagram._traversals import count as _count_models
from ..errors import ArgumentError
from ..explanation.mc import _features_arg
from ..odd._odd import ODD, check_odd, formula_for
from ..question import _cache
from ..question._indices import instance_indices, named
from ..question._reach import FALSE, TRUE, closest_flip, decide, distinct_rows, view

__all__ = ["Bias", "decision_bias", "count_biased"]


@dataclass(frozen=True)
class Bias:
    """Whether a decision depends on protected features, and how.

    Attributes
    ----------
    biased : bool
        Some instance that differs from the instance only on the protected features
        gets the other decision. ``bool(bias)`` is this.
    protected : tuple
        The protected features, in the classifier's order.
    decision : str
        The decision on the instance in the class's words (``"Admit = +"``).
    witness : dict or None
        When biased: such an instance, one that changes the fewest protected features
        (``None`` when the decision is unbiased: no such instance exists).
    changes : dict
        When biased: the protected features the witness changes, with their new states
        (empty when unbiased).
    other : str
        The other decision in the class's words.
    """

    biased: bool
    protected: tuple
    decision: str
    witness: dict | None = field(default=None)
    changes: dict = field(default_factory=dict)
    other: str = ""

    def __bool__(self) -> bool:
        """Tell whether the decision is biased."""
        return self.biased

    def __str__(self) -> str:
        """Say whether the decision depends on the protected features, in sentences."""
        on = ", ".join(map(str, self.protected)) or "no feature"
        if not self.biased:
            return (f"Unbiased: no change of {on} alone changes the decision "
                    f"{self.decision}.")
        return (f"Biased: the decision {self.decision} depends on {on}; changing "
                f"{terms(self.changes)} gives {self.other}.")


def _protected(odd: ODD, protected: Iterable[Feature]) -> set:
    if isinstance(protected, (str, bytes)) or not isinstance(protected, Iterable):
        raise ArgumentError(f"protected must be a list of features, got {protected!r}")
    return _features_arg(odd, protected, "protected")


@question
def decision_bias(odd: ODD, instance: Instance, protected: Iterable[Feature], *,
                  within="support") -> Bias:
    """Whether the decision on ``instance`` depends on the ``protected`` features.

    The decision is biased when some instance of the world (by default one the network
    allows) that differs from ``instance`` only on ``protected`` features gets the other
    decision (on a multi-class ODD: another class); the answer's witness is one that
    changes the fewest protected features.

    Parameters
    ----------
    odd : ODD
        The decision function.
    instance : mapping
        A complete instance.
    protected : iterable of features
        The features the decision should not depend on.
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances a witness may be: those the network allows (its support,
        :func:`bnx.support`), every complete instance (the total decision function), or
        a set (:func:`bnx.forbid`, an ``&`` of sets). ``instance`` must be one of them.

    Returns
    -------
    Bias
        ``bias.biased`` (also ``bool(bias)``), and when biased the witness instance
        (``bias.witness``) and the protected features it changes (``bias.changes``).

    See Also
    --------
    bnx.count_biased : How many instances are decided with bias.
    bnx.group_fairness : Decision rates compared between groups, under the network.
    bnx.counterfactuals : The closest changes of any features that flip the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> print(bnx.decision_bias(odd, x, ["WorkExperience"]))
    Unbiased: no change of WorkExperience alone changes the decision Admit = +.
    >>> b = bnx.decision_bias(odd, {**x, "GPA": "-"}, ["WorkExperience"])
    >>> b.biased, b.changes
    (True, {'WorkExperience': '-'})
    >>> print(b)  # doctest: +NORMALIZE_WHITESPACE
    Biased: the decision Admit = + depends on WorkExperience; changing WorkExperience = - gives
    Admit = -.

    On a classifier that picks one of several classes, the witness's class is named:

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
    ...                    backend="autoref")
    >>> print(bnx.decision_bias(many, {"xray": "yes", "dysp": "yes"}, ["dysp"]))
    Biased: the decision either = yes depends on dysp; changing dysp = no gives either = no.
    """
    from ..explanation._within import within_odd
    check_odd(odd)
    source, odd = odd, formula_for(odd, instance)
    x = instance_indices(odd, instance)
    prot = _protected(odd, protected)
    fv = view(within_odd(odd, instance, within))  # a witness of the world
    y = closest_flip(fv, x, [f in prot for f in odd.encoding.features])
    decision = decide(fv, x)
    shown = tuple(f for f in odd.display_order if f in prot)
    if source.multiclass:  # the decided class, and the witness's
        this = source.decision_text(source.decide(instance, within="all"))
        other = "" if y is None else source.decision_text(source.decide(named(odd, y),
                                                                             within="all"))
    else:
        this, other = odd.decision_text(decision), odd.decision_text(not decision)
    if y is None:
        return Bias(False, shown, this, other=other)
    witness = named(odd, y)
    states = odd.encoding.states
    before = {f: states[i][x[i]] for i, f in enumerate(odd.encoding.features)}
    changes = {f: witness[f] for f in shown if witness[f] != before[f]}
    return Bias(True, shown, this, witness=witness, changes=changes, other=other)


@question
def count_biased(odd: ODD, protected: Iterable[Feature], *, within="support") -> int:
    """Count the instances whose decision is biased on ``protected``, exactly.

    An instance of the world is biased when another instance of it that differs only on
    the protected features gets another decision (:func:`decision_bias`).

    Parameters
    ----------
    odd : ODD
        The decision function.
    protected : iterable of features
        The features decisions should not depend on.
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances counted and compared: those the network allows (its support,
        :func:`bnx.support`), every complete instance (the total decision function), or
        a set (:func:`bnx.forbid`, an ``&`` of sets).

    Returns
    -------
    int
        The exact number of biased instances of the world.

    See Also
    --------
    bnx.decision_bias : Whether one decision is biased, with a witness.
    bnx.group_fairness : Decision rates compared between groups, under the network.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.count_biased(odd, ["WorkExperience"]), bnx.count_biased(odd, [])
    (8, 0)

    A classifier that picks one of several classes: with ``xray = yes``, ``dysp`` decides
    between ``either = yes`` and ``either = no``, so both instances are biased.

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
    ...                    backend="autoref")
    >>> bnx.count_biased(many, ["dysp"])
    2
    """
    from ..explanation._within import within_root
    check_odd(odd)
    prot = _protected(odd, protected)
    enc = odd.encoding
    bits = [v for i, f in enumerate(enc.features) if f in prot for v in enc.bits[i]]
    if not bits:
        return 0
    protected_mask = [f in prot for f in enc.features]
    width = math.prod(len(s) for s, p in zip(enc.states, protected_mask) if p)
    formulas = odd.formulas if odd.multiclass else (odd,)
    kappa = within_root(formulas[0], within)
    if width <= MAX_FRONTIER and kappa is None:
        if odd.multiclass:  # every class formula's frontier, in their one diagram
            arrays, roots = odd.shared
            return _count_by_frontiers(feature_view(arrays, enc), protected_mask, roots)
        return _count_by_frontiers(view(odd), protected_mask)
    # within κ: x of κ is biased when both decisions occur on κ's instances that agree
    # with it off the protected features
    dom = odd.domain if kappa is None else sets.intersect(odd.domain, kappa)
    mixed = sets.false(odd.bdd)  # the instances where some formula takes both values
    for f in formulas:
        pos = sets.exist(bits, sets.intersect(f.root, dom))
        neg = sets.exist(bits, sets.difference(dom, f.root))
        mixed = sets.union(mixed, sets.intersect(pos, neg))
    n = _count_models(sets.intersect(mixed, dom), enc.nvars)
    _cache.tidy(formulas[0], odd.bdd)
    return n


#: Protected features with more joint states than this are counted by quantifying on the
#: ``dd`` diagram instead of by frontiers.
MAX_FRONTIER = 64


def _count_by_frontiers(fv: FeatureView, protected: list[bool], roots=None) -> int:
    """:func:`count_biased` by one top-down pass over the features.

    ``roots``: the roots of several functions in ``fv``'s diagram that partition the
    instances (the class formulas of a multi-class ODD; default ``fv``'s root alone).
    Each row then holds one frontier per function side by side, and the instances of a
    prefix are biased when one of them reaches both terminals.

    An assignment ``y`` of the unprotected features leads from the root to a *frontier*:
    the nodes reached by following ``y`` and every state of the protected features (at
    most one node per joint state of the protected features: a row of fixed width). Its
    instances are biased exactly when the frontier reaches both terminals. The pass
    carries the distinct frontiers of the prefixes of ``y`` with their numbers of
    prefixes, one vectorised step per feature, and counts a frontier out as soon as it
    holds both terminals (or drops it when it holds only one decision).
    """
    n = fv.n
    states = fv.nstates
    width = math.prod(k for k, p in zip(states, protected) if p)
    # per feature i, the number of assignments of the unprotected features after i
    after = [1] * (n + 1)
    for i in range(n - 1, -1, -1):
        after[i] = after[i + 1] * (1 if protected[i] else states[i])
    exact = after[0] * width >= 1 << 62
    rows = np.array([[fv.root] if roots is None else list(roots)], dtype=np.int64)
    parts = rows.shape[1]  # the frontiers side by side, each a contiguous block
    count = np.ones(1, dtype=object if exact else np.int64)
    biased = 0
    for i in range(n):
        if not len(rows):
            break
        kids, first = fv.kids[i], int(fv.first_node[i])
        if not len(kids):  # the diagram never tests feature i
            kids = np.zeros((1, states[i]), dtype=np.int64)
        tests = fv.feature[rows] == i
        at = np.where(tests, rows - first, 0)
        if protected[i]:  # every state: the row grows
            grown = np.where(tests[:, :, None], kids[at], rows[:, :, None])
            rows = grown.reshape(len(rows), -1)
        else:  # one row per state
            rows = np.concatenate([np.where(tests, kids[at, v], rows)
                                   for v in range(states[i])])
            count = np.tile(count, states[i])
        blocks = np.sort(rows.reshape(len(rows), parts, -1), axis=2)
        rows = blocks.reshape(len(rows), -1)
        both = ((blocks[:, :, 0] == FALSE) & (blocks == TRUE).any(axis=2)).any(axis=1)
        if both.any():
            biased += int(count[both].sum()) * after[i + 1]
        keep = ~both & (rows.max(axis=1) > TRUE)  # a row of terminals has one decision
        rows, count = rows[keep], count[keep]
        if len(rows):
            rows, inverse = distinct_rows(rows, fv.arrays.size)
            summed = np.zeros(len(rows), dtype=count.dtype)
            np.add.at(summed, inverse, count)
            count = summed
    return biased * width
