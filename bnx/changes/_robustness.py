"""Robustness, counterfactuals and the robustness profile (Shih, Choi and Darwiche, PGM 2018).

The robustness of a decision is the fewest features of the instance that must change
(each to any other state) for the classifier to decide otherwise. It is a shortest
path in the decision diagram: following the instance's state costs 0, any other
state costs 1, a feature the diagram skips costs nothing, and the path must end in
the other decision. One bottom-up pass over the diagram gives every node's distance
to the other decision (:func:`robustness`); a second pass keeps only the edges on
shortest paths, which is the set of closest counterfactual instances as a diagram
(:func:`counterfactuals`).

The robustness profile of a classifier counts the instances by their robustness
without visiting them: the positive instances whose every neighbour within ``k``
changes is positive form a function ``F_k``, each one an erosion of the one before,
made and counted on the arrays (:mod:`._erosion`); ``|F_{k-1}| - |F_k|`` positive
instances have robustness ``k``. Likewise with the roles swapped.

A multi-class ODD (:class:`~bnx.MulticlassODD`) asks each question of one class formula
(:func:`~bnx.odd._odd.formula_for`): an instance decided ``a`` is positive on ``a``'s
formula and negative exactly where another class is decided, so its robustness there is
its distance to any other class; with ``target=b`` it is negative on ``b``'s formula,
and the counterfactuals there are the closest instances decided ``b``. Its profile is
the sum over the classes of the positive part of each class formula's profile (each
instance is positive on exactly one formula).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from fractions import Fraction
from numbers import Real

import numpy as np

from .._util.guard import question
from .._util.types import Instance
from ..diagram._arrays import negate
from ..diagram._feature_view import FeatureView
from ..errors import ArgumentError
from ..explanation._pi_memo import CORE_LIMIT
from ..explanation.explanations import DROPPED, Layout, wording_of
from ..odd._odd import ODD, check_odd, formula_for
from ..question import _cache
from ..question._indices import instance_indices
from ..question._reach import FALSE, INF, TRUE, decide, instance_distances, view
from .costs import Counterfactuals, Paths, cheapest, prices

__all__ = ["robustness", "counterfactuals", "robustness_profile"]


def _setup(odd: ODD, instance: Instance, immutable: Iterable, within="support",
           target=None) -> tuple:
    from ..explanation.mc import _features_arg
    check_odd(odd)
    odd = formula_for(odd, instance, target=target)
    from ..explanation._within import within_odd
    odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    fixed = _features_arg(odd, immutable, "immutable")
    mutable = [f not in fixed for f in odd.encoding.features]
    fv = view(odd)
    return odd, fv, x, mutable, decide(fv, x)


@question
def robustness(odd: ODD, instance: Instance, *, immutable: Iterable = (),
               within="support", target=None) -> int | float:
    """Count the fewest features of ``instance`` to change for the other decision.

    Changing a feature means giving it any other of its states; ``immutable``
    features keep theirs. On a multi-class ODD, the fewest changes for any other class
    than the one decided, or (``target=``) for that class. ``math.inf`` when no such
    change flips the decision (no finite number of changes does: the decision function
    is constant on the instances those changes reach). With
    ``within=`` (a set ``κ`` of instances, see :func:`bnx.pi_explanations`), only the
    instances of ``κ`` count: the fewest changes that reach an instance of ``κ`` with
    the other decision.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    immutable : iterable of features
        Features that may not change.
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The set ``κ`` the changed instances must lie in: by default the instances the
        network allows; ``"all"`` every instance; or a set (:func:`bnx.support`,
        :func:`bnx.forbid`, ...; see :func:`bnx.pi_explanations`). The instance must be
        in it.
    target : class state, optional
        The class to reach (a multi-class ODD; on a binary one it may only name the
        other decision's state). By default any other class than the one decided.

    Returns
    -------
    int or float
        The fewest features to change; ``math.inf`` (a float) when no change flips it.

    Raises
    ------
    ArgumentError
        ``target`` is the class decided on ``instance`` (or, on a binary ODD, not the
        other decision).
    UnknownStateError
        ``target`` is not a class state.

    See Also
    --------
    bnx.counterfactuals : The closest instances with the other decision.
    bnx.robustness_profile : Every instance counted by its robustness.
    bnx.contrastive_explanations : The features whose change can flip the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.robustness(odd, x), bnx.robustness(odd, x, immutable=["GPA", "WorkExperience"])
    (2, inf)

    A classifier that picks one of several classes (asia's ``either``, two features):

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
    ...                    backend="autoref")
    >>> y = {"xray": "yes", "dysp": "yes"}
    >>> many.decide(y), bnx.robustness(many, y), bnx.robustness(many, y, target="no")
    ('yes', 1, 1)
    """
    odd, fv, x, mutable, decision = _setup(odd, instance, immutable, within, target)
    d = int(instance_distances(odd, fv, x, FALSE if decision else TRUE, mutable)[fv.root])
    return math.inf if d >= INF else d


@question
def counterfactuals(odd: ODD, instance: Instance, *, immutable: Iterable = (),
                    within="support", cost=None, target=None,
                    timeout: float | None = None) -> Counterfactuals:
    """Every cheapest instance with the other decision, as the changes that lead to it.

    Each member is a partial instance ``{feature: new state}`` naming the features
    that change and their new states (the others keep the instance's). Without
    ``cost``, a change costs 1: all have :func:`robustness` many changes. Empty (its
    ``cost`` is ``math.inf``) when no change flips the decision. Members are listed
    most probable first (the probability of the counterfactual instance under the
    network) when the ODD has its classifier (see
    :class:`~bnx.changes.costs.Counterfactuals`); ``.cost`` is their price, and
    ``.decisions`` the class state each one leads to, in the same order.

    On a multi-class ODD (:class:`~bnx.MulticlassODD`) the other decision is any other
    class than the one decided on ``instance`` (each counterfactual may lead to a
    different one: ``.decisions`` says which), or with ``target=`` that class.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    immutable : iterable of features
        Features that may not change.
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        Only counterfactuals in this set ``κ`` of instances: by default those the
        network allows; ``"all"`` every instance; or a set (:func:`bnx.support`,
        :func:`bnx.forbid`, ...; see :func:`bnx.pi_explanations`). The instance must
        be in it.
    cost : mapping, optional
        ``{feature: price}``, the price of changing the feature (to any state), or
        ``{feature: {state: price}}``, the price of moving it to that state (states
        left out cost 1); features left out cost 1 per change. Prices are nonnegative
        numbers (exact: a float as stored); ``math.inf`` forbids a move. The result
        holds the counterfactuals of least total price (computed by one min-cost pass
        over the diagram, exact).
    target : class state, optional
        The class the counterfactuals must be decided (a multi-class ODD; on a binary
        one it may only name the other decision's state). By default any other class
        than the one decided.
    timeout : float, optional
        The seconds, counted from this call, that listing them most probable first may
        take (each probability in floats within a proven bound, the exact values only
        where bounds overlap). Past it, or where an exact value it needs is too large to
        compute in time, they are listed in the diagram's order and
        :attr:`~bnx.changes.costs.Counterfactuals.by_probability` is False. The set
        itself, its count and cost are exact and computed at once. ``None``: no bound.

    Returns
    -------
    Counterfactuals
        Partial instances ``{feature: new state}`` (the changes).

    Raises
    ------
    ArgumentError
        ``target`` is the class decided on ``instance`` (or, on a binary ODD, not the
        other decision).
    UnknownStateError
        ``target`` is not a class state.

    See Also
    --------
    bnx.robustness : Their number of changes.
    bnx.contrastive_explanations : Which features to free, not which states to take.
    bnx.decision_bias : The closest change of the protected features alone.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> cfs = bnx.counterfactuals(odd, x)
    >>> cfs.count, cfs.lengths(), set(cfs.decisions)
    (5, {2: 5}, {'-'})
    >>> sorted(sorted(c.items()) for c in cfs)[0]
    [('EntranceExam', '-'), ('GPA', '-')]

    When a bad GPA costs 5 and work experience cannot change:

    >>> cheap = bnx.counterfactuals(odd, x, cost={"GPA": 5}, immutable=["WorkExperience"])
    >>> cheap.cost, [dict(c) for c in cheap]
    (6, [{'EntranceExam': '-', 'GPA': '-'}, {'FirstTimeApplicant': '-', 'GPA': '-'}])

    A classifier that picks one of several classes: each change says the class it gives.

    >>> asia = bnx.examples.asia()
    >>> clf = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> many = bnx.compile(clf, backend="autoref")
    >>> print(bnx.counterfactuals(many, {"xray": "yes", "dysp": "yes"}))
    ... # doctest: +NORMALIZE_WHITESPACE
    2 closest counterfactuals of either = yes (the fewest changes that give another class
    than yes):
      dysp from yes to no makes it no
      xray from yes to no makes it no
    """
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, Real)
                                or not timeout > 0):
        raise ArgumentError(f"timeout must be a positive number of seconds or None, "
                            f"got {timeout!r}")
    deadline = None if timeout is None else time.monotonic() + timeout
    source = odd if isinstance(odd, ODD) else None
    odd, fv, x, mutable, decision = _setup(odd, instance, immutable, within, target)
    goal = FALSE if decision else TRUE
    enc = odd.encoding
    layout = _cache.layout(odd, "partial")
    variables = layout.variables
    core = _cache.node_table(odd, variables, limit=CORE_LIMIT)
    if cost is None:
        d = instance_distances(odd, fv, x, goal, mutable)
        price = None if d[fv.root] >= INF else int(d[fv.root])
        if price is None:
            root = 0
        else:
            root = _Paths(fv, x, mutable, d, layout, core).run(fv.root, price, 0)
    else:
        d, inf, den, scaled = cheapest(fv, goal, prices(odd, cost, x, mutable))
        best = d[fv.root]
        price = None if best >= inf else Fraction(int(best), den)
        if price is None:
            root = 0
        else:
            root = Paths(fv, x, scaled, d, layout, core).run(fv.root, best, 0)
            if price.denominator == 1:
                price = int(price)
    if price is None:
        price = math.inf  # no counterfactual: no finite price reaches the other decision
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    wording, lead = _leads(source, odd, named, decision, target)
    return Counterfactuals(None, None, layout, kind="counterfactual", decision=decision,
                           instance=named, feature_order=odd.display_order, cost=price,
                           odd=source, core=(core, root), wording=wording, lead=lead,
                           deadline=deadline,
                           make_manager=lambda: _cache.aux_manager(odd, variables))


def _leads(source, formula: ODD, named: dict, decision: bool, target) -> tuple:
    """Return ``(wording, lead)`` of the counterfactuals of ``named`` on ``formula``.

    ``formula`` is the binary ODD asked: both decisions in the class's words (see
    :class:`Explanations`), and the class state the counterfactual instance of given changes
    is decided, or that state itself when all of them lead to one.
    """
    if source is None or not source.multiclass:
        return wording_of(formula), formula.decision_state(not decision)
    c = source.class_var
    if target is not None:  # negative on the target's formula: every one leads there
        state = source.decision_state(target)
        return (f"{c} = {state}", f"{c} = {source.decide(named, within='all')}"), state
    here = source.decision_state(source.decide(named, within="all"))
    return ((f"{c} = {here}", f"another class than {here}"),
            lambda changes: source.decide({**named, **changes}, within="all"))


class _Paths(Paths):
    """The shortest paths from the root to the other decision, as a diagram of changes.

    In the node table ``out`` (:class:`~bnx.diagram.store.Store`), in the ``partial`` layout
    ("unchanged": the kept bit and the value bits 0; a change to state ``v``: the kept bit 1
    and ``v``'s code).

    :class:`~.costs.Paths`' walk with unit costs: from the root over the edges on
    shortest paths only (those whose distance drops by their cost), memoised per node
    and feature: its work is one node per node of the result, whatever the size of the
    ODD. Below a node at distance 0 nothing changes: the "all unchanged" chain.
    """

    def __init__(self, fv: FeatureView, x: list[int], mutable: list[bool], d: np.ndarray,
                 layout: Layout, out) -> None:
        self.fv, self.x, self.mutable, self.d = fv, x, mutable, d
        self.layout, self.out = layout, out
        self.memo: dict = {}
        self.unchanged: dict = {fv.n: 1}

    def _settled(self, u: int, du: int, i: int):
        if du == 0:
            return self.chain(i)
        return self.memo.get((u, i))

    def _edges(self, u: int, du: int, i: int) -> list:
        fv = self.fv
        if int(fv.feature[u]) > i:  # feature i does not matter here: it keeps its state
            return [(DROPPED, u, du)]
        row = fv.kids[i][u - fv.first_node[i]].tolist()
        dist = self.d[row].tolist()
        xi = self.x[i]
        out = [(DROPPED, row[xi], du)] if dist[xi] == du else []
        if self.mutable[i]:
            out += [(v, w, dw) for v, (w, dw) in enumerate(zip(row, dist))
                    if v != xi and dw + 1 == du]
        return out


@question
def robustness_profile(odd: ODD, *, immutable: Iterable = (), within="support") -> dict:
    """``{k: number of instances whose robustness is k}``, over the instances the network allows.

    Counted on the diagram's arrays, never by visiting instances: ``k`` runs over the
    robustness values that occur, in increasing order; instances that no change of
    the mutable features can flip have robustness ``math.inf`` (as
    :func:`robustness` says) and are counted under that key, last. The answer does not
    depend on the backend. On a multi-class ODD an instance's robustness is its
    distance to the nearest instance decided another class (as :func:`robustness`
    without ``target``): the instances decided each class are counted on that class's
    formula, and the counts added.

    Parameters
    ----------
    odd : ODD
        The decision function.
    immutable : iterable of features
        Features that may not change.
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances counted, and those a change may reach: the instances the network
        allows (its support, :func:`bnx.support`; each counted at its distance to the
        nearest *possible* instance with another decision, as :func:`robustness` says
        by default), every complete instance (the total decision function), or a set
        (:func:`bnx.forbid`, an ``&`` of sets).

    Returns
    -------
    dict
        ``{robustness: number of instances}``, the keys ints and possibly ``math.inf``;
        the counts add up to the number of instances of the world.

    See Also
    --------
    bnx.robustness : One instance's robustness.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.robustness_profile(odd)
    {1: 12, 2: 4}
    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
    ...                    backend="autoref")
    >>> bnx.robustness_profile(many)
    {1: 3, 2: 1}
    """
    from ..explanation._within import keep_within, within_root
    from ..explanation.mc import _features_arg
    check_odd(odd)
    fixed = _features_arg(odd, immutable, "immutable")
    enc = odd.encoding
    mutable = [f not in fixed for f in enc.features]
    # each instance once: positive on its own class's formula, or on a binary ODD on
    # the function or its negation
    parts = ([(f, True) for f in odd.formulas] if odd.multiclass
             else [(odd, True), (odd, False)])
    counts: dict = {}
    stuck = 0
    for formula, decision in parts:
        kappa = within_root(formula, within)
        if kappa is not None:  # f ∨ ¬κ (or f ∧ κ, negated): only κ's flips count
            formula = keep_within(formula, not decision, within)
        got, left = _eroded(formula, decision, mutable, kappa)
        for k, c in got.items():
            counts[k] = counts.get(k, 0) + c
        stuck += left
    out = {k: counts[k] for k in sorted(counts)}
    if stuck:
        out[math.inf] = stuck
    return out


def _eroded(odd: ODD, decision: bool, mutable: list, care=None) -> tuple[dict, int]:
    """Count the instances ``odd`` decides ``decision`` by robustness, and those never flipped.

    By :func:`~._erosion.eroded_counts`; only those of ``care`` (a node of ``odd.bdd``)
    when given.
    """
    from ._erosion import eroded_counts
    arrays = odd.arrays if decision else _cache.store(odd, "negated",
                                                      lambda: negate(odd.arrays))
    return eroded_counts(arrays, odd.encoding, mutable, _cache.least_states(odd, decision),
                         care)
