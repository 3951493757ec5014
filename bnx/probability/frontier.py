"""Probability mass of each decision, by variable elimination along the decision diagram.

On a TAN or any other network the features are not independent given the class, so
the weighted count of :mod:`bnx.probability.same_decision` does not apply. This is the general
method. The diagram's order observes the features one at a time; walk it top-down,
carrying to each node the sum, over the paths that reach it, of the product of the
network's factors that are complete by then (every factor joins at the level of its
last feature), with every variable that no later factor mentions summed out. What
remains is a factor over the *frontier*: the hidden nodes (the class, the latent
ones) and the features already observed that later factors still mention (a TAN
feature whose children come later). Along an edge the feature is set to the edge's
state (or summed over when the edge skips it or the feature is not observed); paths
that meet at a node add their factors, which is exact because everything below the
node is linear in them. At the two terminals the factors are numbers: the mass of
each decision, ``sum_z Pr(e, z) [f(e, z) = d]``.

Arithmetic is on exact integers (each factor scaled by its common denominator, a
constant that cancels in the ratio). The cost is one product of the frontier factor
with the level's factors per diagram node and per feature a path skips, each the size
of the frontier table: linear in the diagram, times the largest frontier.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from .._util.rounding import Unsafe
from ..classifier._inference import (
    as_table,
    eliminate,
    elimination_order,
    indicator,
    integer_factor,
    observe,
    product,
    sum_out,
)
from ..classifier._inference import (
    plan as contraction_plan,
)
from ..diagram._arrays import FALSE, TRUE
from ..diagram._feature_view import feature_view

__all__ = ["decision_masses", "most_probable", "same_decision_fraction", "walk_cost"]


class _Plan:
    """Which factors join at each level of the diagram, and each level's frontier.

    ``keep``: variables kept in every frontier to the end (the class, so that the
    terminals' factors give the class masses). Exact (integer factors), or in float64
    (``exact=False``: each CPT entry rounded once) with :attr:`depth`, the roundings on
    the longest chain to an entry of :attr:`start`.
    """

    def __init__(self, clf, features: tuple, *, exact: bool = True, keep: tuple = ()) -> None:
        if exact:
            factors = [integer_factor(f)[0] for group in clf._aside for f in group]
            factors += list(clf._int_main)
        else:
            raw = [f for group in clf._aside for f in group] + list(clf._main)
            factors = [(tuple(s), np.asarray(t, dtype=np.float64)) for s, t in raw]
            low = 0.0
            for _, t in factors:
                nz = t[t > 0]
                low += math.log2(min(1.0, float(nz.min()))) if nz.size else 0.0
            if low < -1000:  # a nonzero product could leave the normal floats
                raise Unsafe("the float pass could underflow")
        self.exact = exact
        n = len(features)
        pos = {f: i for i, f in enumerate(features)}
        self.card = {v: len(clf.states(v)) for v in {*features, *(v for s, _ in factors
                                                                    for v in s)}}
        level = [max((pos[v] for v in s if v in pos), default=-1) for s, _ in factors]
        last: dict = {}
        for (s, _), lv in zip(factors, level):
            for v in s:
                last[v] = max(last.get(v, -1), lv)
        for f in features:  # a feature no factor mentions is done with at once
            last.setdefault(f, -1)
        for v in keep:
            last[v] = n
        rank = {v: j for j, v in enumerate(sorted(last, key=lambda v: (pos.get(v, -1), str(v))))}
        self.at = [[f for f, lv in zip(factors, level) if lv == i] for i in range(n)]
        # the frontier entering level i: met by a factor of a level < i or observed, and
        # needed at i or later
        met: set = set()
        self.scope = []
        for i in range(n + 1):
            if i:
                met.update(v for s, _ in self.at[i - 1] for v in s)
                met.add(features[i - 1])
            else:
                met.update(v for (s, _), lv in zip(factors, level) if lv < 0 for v in s)
            self.scope.append(tuple(sorted((v for v in met if last[v] >= i), key=rank.get)))
        self.last = last
        start = [f for f, lv in zip(factors, level) if lv < 0]
        gone = [v for v in {v for s, _ in start for v in s} if last[v] < 0]
        self._first = (start, elimination_order([s for s, _ in start], gone, self.card))
        # per factor one rounding and one product; per variable summed, its states' sum
        self.depth = 0 if exact else 2 * len(start) + sum(self.card[v] for v in gone)

    @functools.cached_property
    def start(self):
        """The factor over the first frontier: the factors of no feature, the rest summed."""
        start, order = self._first
        table = _canonical(_times(eliminate(start, order), self.exact), self.scope[0])
        return table if self.exact else np.asarray(table, dtype=np.float64)

    def cost(self, fl) -> tuple[int, int]:
        """Return ``(multiply-adds, largest table)`` of a pass along the diagram ``fl``.

        Sized before anything is computed (a pass cannot be interrupted and its tables,
        the frontier's, can be too large for memory): the first factor's contraction,
        then per level each factor arriving there (one per node reached, a node skipping
        levels counted at each) times the product with the level's factors.
        """
        start, order = self._first
        scopes = [s for s, _ in start]
        first = contraction_plan(scopes, self.scope[0], self.card, order) if scopes else None
        entries = math.prod(self.card[v] for v in self.scope[0])  # the first factor's
        flops = entries + (first.flops if first is not None else 0)
        largest = max(entries, first.largest if first is not None else 1)
        n = len(self.scope) - 1
        alive = np.zeros(n + 2, dtype=np.int64)  # arrivals per level, as differences
        low = np.full(len(fl.feature), n, dtype=np.int64)  # each node's highest parent
        for i in range(n):
            if fl.kids[i].size:
                np.minimum.at(low, fl.kids[i].reshape(-1), i)
        low[int(fl.root)] = -1
        reached = low < n
        here = np.minimum(fl.feature[reached], n - 1)
        np.add.at(alive, low[reached] + 1, 1)
        np.add.at(alive, here + 1, -1)
        alive = np.cumsum(alive)
        for k in range(n):
            entries = math.prod(self.card[v] for v in {*self.scope[k], *(
                v for s, _ in self.at[k] for v in s)})
            largest = max(largest, entries)
            flops += int(alive[k]) * entries * (1 + len(self.at[k]))
        return flops, largest


def _times(factors: list, exact: bool = True):
    """Multiply ``factors`` (exactly, or in floats), numbers (empty scopes) included."""
    c = 1
    for s, t in factors:
        if not s:
            c *= np.asarray(t).reshape(-1)[0]
    rest = [f for f in factors if f[0]]
    if not rest:
        return (), (as_table(c) if exact else np.asarray(float(c)))
    s, t = product(rest)
    return s, (t if c == 1 else t * c)


def _canonical(factor, scope: tuple):
    """Return the table of ``factor`` with its axes in ``scope`` order (same variables)."""
    s, t = factor
    if tuple(s) != scope:
        t = np.transpose(t, [s.index(v) for v in scope])
    return t


def _step(plan: _Plan, i: int, feature, P, state: int | None):
    """Set feature ``i`` to ``state`` in the product ``P`` and reduce it to the next frontier.

    ``P`` is over the frontier and level ``i``'s factors; ``state`` ``None``: any state;
    reduced to the frontier of level ``i + 1``. In floats, ``(table, roundings added)``.
    """
    s, t = P
    out_scope = plan.scope[i + 1]
    vec = indicator(plan.card[feature], state)
    added = 0
    if not plan.exact:
        vec = vec.astype(np.float64)
    if plan.last[feature] > i:  # a later factor needs it: restrict, keep the axis
        s, t = _times([(s, t), ((feature,), vec)], plan.exact)
        added += 1
    elif feature in s:
        s, t = observe((s, t), feature, vec)
        added += plan.card[feature]
    for v in [v for v in s if v not in out_scope]:
        s, t = sum_out((s, t), v)
        added += plan.card[v] - 1
    t = _canonical((s, t), out_scope)
    if plan.exact:
        return t
    return np.asarray(t, dtype=np.float64), added


def decision_masses(clf, odd, idx: dict, *, exact: bool = True):
    """Return ``(negative, positive)``: the masses of the evidence ``idx`` decided each way.

    ``idx`` is ``{feature: state}``, or ``{feature: collection of states}`` for a feature
    known to be one of them; the masses of its completions the diagram decides negative and
    positive, each in the same positive units (their ratio to their sum, and to the masses
    of other evidence, is exact).

    With ``exact=False`` the same pass runs in float64 with the class kept to the end:
    ``((negative, positive), class masses, depth)``, probabilities each within
    ``gamma(depth)`` of the exact value (the class masses within ``gamma(depth + 1)``),
    ``depth`` counted along the pass (:mod:`bnx._util.rounding`); ``None`` when floats
    could underflow.

    Examples
    --------
    >>> import bnx
    >>> from bnx.probability.frontier import decision_masses
    >>> clf = bnx.examples.asia()
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> neg, pos = decision_masses(clf, odd, clf.encode({"smoke": "yes"}, partial=True))
    >>> neg > 0, pos >= 0
    (True, True)
    >>> (fneg, fpos), _, depth = decision_masses(clf, odd, clf.encode({"smoke": "yes"},
    ...                                          partial=True), exact=False)
    >>> abs(fpos / (fneg + fpos) - pos / (neg + pos)) < 1e-12
    True
    """
    try:
        walk = Walk(clf, odd, idx, exact=exact)
    except Unsafe:
        return None
    return walk.masses()


class Walk:
    """The pass of :func:`decision_masses` on the evidence ``idx``.

    With ``record``, the factors arriving at each level are kept, so that
    :meth:`with_state` answers the evidence with one more feature observed by resuming at
    that feature's level (the levels above it are the same). Raises :class:`Unsafe` when
    floats could underflow.
    """

    def __init__(self, clf, odd, idx: dict, *, exact: bool = True, record: bool = False) -> None:
        self.clf, self.exact = clf, exact
        self.fl = feature_view(odd.arrays, odd.encoding)
        self.features = odd.encoding.features
        self.plan = _Plan(clf, self.features, exact=exact,
                          keep=() if exact else (clf.class_var,))
        self.observed = [idx.get(f) for f in self.features]
        self.levels: list | None = [] if record else None
        self.end = self._run(0, {int(self.fl.root): (self.plan.start, self.plan.depth)},
                             self.observed)

    def _run(self, k0: int, start: dict, observed: list) -> dict:
        """Return the factors arriving at the terminals, each ``(table, depth)``.

        ``start`` holds the arrivals at level ``k0``.
        """
        fl, plan, exact, features = self.fl, self.plan, self.exact, self.features
        n = len(features)
        here = start
        for k in range(k0, n):
            if self.levels is not None and k0 == 0:
                self.levels.append(here)
            nxt: dict = {}
            f = features[k]
            scope = plan.scope[k]
            for node, (table, depth) in here.items():
                if plan.at[k]:
                    P = _times([(scope, table)] + plan.at[k], exact)
                    depth += 2 * len(plan.at[k])  # each factor's rounding and its product
                else:
                    P = (scope, table)
                if fl.feature[node] == k:
                    kids = fl.kids[k][node - fl.first_node[k]].tolist()
                    for v in _states(observed[k], len(kids)):
                        _arrive(nxt, kids[v], *_stepped(plan, k, f, P, v, depth), exact)
                else:  # the node is further down: feature k is skipped
                    _arrive(nxt, node, *_stepped(plan, k, f, P, observed[k], depth), exact)
            here = nxt
        return here

    def masses(self, end: dict | None = None):
        """Return what :func:`decision_masses` returns, from the terminals' factors."""
        end = self.end if end is None else end
        if self.exact:
            return tuple(int(as_table(end[t][0]).reshape(-1)[0]) if t in end else 0
                         for t in (FALSE, TRUE))
        ncls = len(self.clf.class_states)
        zero = np.zeros(ncls)
        per = [np.asarray(end[t][0], dtype=np.float64).reshape(ncls) if t in end else zero
               for t in (FALSE, TRUE)]
        depth = max((end[t][1] for t in end), default=0) + ncls - 1
        return (float(per[0].sum()), float(per[1].sum())), (per[0] + per[1]).tolist(), depth

    def with_state(self, feature, state: int):
        """:meth:`masses` on the evidence with ``feature`` (unobserved) at ``state``."""
        k = self.features.index(feature)
        observed = list(self.observed)
        observed[k] = state
        return self.masses(self._run(k, self.levels[k], observed))


def _arrive(nxt: dict, node: int, table, depth: int, exact: bool) -> None:
    """Add a factor arriving at ``node``: paths that meet add (one more rounding)."""
    got = nxt.get(node)
    if got is None:
        nxt[node] = (table, depth)
    else:
        nxt[node] = (got[0] + table if not exact else as_table(got[0] + table),
                     max(got[1], depth) + 1)


def _stepped(plan: _Plan, k: int, f, P, state, depth: int):
    """:func:`_step` with the roundings on the chain: ``(table, depth)``."""
    got = _step(plan, k, f, P, state)
    if plan.exact:
        return got, 0
    return got[0], depth + got[1]


def _states(observed, card: int):
    """Return the states a feature may take: all (``None``), one, or those of a collection."""
    if observed is None:
        return range(card)
    if isinstance(observed, (int, np.integer)):
        return (observed,)
    return sorted(observed)


def most_probable(clf, odd, allowed: dict, decision: bool):
    """Find the most probable complete instance within ``allowed`` that is decided ``decision``.

    ``allowed`` is ``{feature: collection of state indices}``; a feature left out may take
    any state. The answer is ``(states, mass)``, its state index per feature in the ODD's
    order and its probability in the units of :func:`decision_masses`; ``None`` when there
    is none.

    A max-product pass along the diagram, top-down as :func:`decision_masses`, but over
    single instances: a path chooses a state for every feature, skipped ones included,
    and carries the factor over its frontier (the hidden nodes and the observed features
    later factors need). An instance's probability sums its frontier out at the end, so
    paths that meet at a node cannot be reduced to one maximum; a node keeps every factor
    no other one dominates (entry by entry at least as large), which is exact: what lies
    below a node is linear in its factor with nonnegative coefficients. The cost is the
    diagram's size times the number of factors kept per node: one when the frontier is a
    single entry (no hidden node left to sum: then it is the Viterbi pass), and otherwise
    up to the number of paths, since the most probable instance with the class summed out
    is a marginal MAP problem, NP-hard already on naive Bayes (de Campos 2011).

    Examples
    --------
    >>> import bnx
    >>> from bnx.probability.frontier import most_probable
    >>> clf = bnx.examples.asia()
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> states, mass = most_probable(clf, odd, {}, True)
    >>> clf.decide(dict(zip(odd.features, (odd.states(f)[j] for f, j in
    ...                                        zip(odd.features, states)))))
    True
    """
    fl = feature_view(odd.arrays, odd.encoding)
    features = odd.encoding.features
    n = len(features)
    plan = _Plan(clf, features)
    wanted, other = (TRUE, FALSE) if decision else (FALSE, TRUE)
    arrivals: list[dict] = [dict() for _ in range(n + 1)]
    arrivals[0][int(fl.root)] = [(plan.start, ())]
    for k in range(n):
        here, arrivals[k] = arrivals[k], {}
        f = features[k]
        scope = plan.scope[k]
        states = _states(allowed.get(f), fl.nstates[k])
        for node, kept in here.items():
            tests = fl.feature[node] == k
            kids = fl.kids[k][node - fl.first_node[k]].tolist() if tests else None
            for table, path in _undominated(kept):
                P = _times([(scope, table)] + plan.at[k]) if plan.at[k] else (scope, table)
                for v in states:
                    child = kids[v] if tests else node
                    if child != other:
                        arrivals[k + 1].setdefault(child, []).append(
                            (_step(plan, k, f, P, v), (*path, v)))
    best = None
    for table, path in arrivals[n].get(wanted, ()):
        mass = int(as_table(table).reshape(-1)[0])
        if best is None or mass > best[1]:
            best = (list(path), mass)
    return best


def _undominated(kept: list) -> list:
    """Keep the factors of ``kept`` that no other one dominates.

    ``kept`` holds ``(table, path)``, one frontier; one dominates another when every entry
    is at least as large; of equal ones, the first is kept.
    """
    if len(kept) < 2:
        return kept
    flat = [np.asarray(t, dtype=object).reshape(-1) for t, _ in kept]
    out = []
    for i, a in enumerate(flat):
        if not any(j != i and (b >= a).all() and (j < i or (b != a).any())
                   for j, b in enumerate(flat)):
            out.append(kept[i])
    return out


def walk_cost(clf, odd) -> tuple[int, int]:
    """Return ``(multiply-adds, largest table)`` of :func:`decision_masses` in exact integers.

    What a bounded caller sizes the pass by before it starts: in big integers it cannot be
    interrupted, and on a network of wide frontiers (barley's restricted to a partial
    instance) its tables do not fit in memory.

    Examples
    --------
    >>> import bnx
    >>> from bnx.probability.frontier import walk_cost
    >>> clf = bnx.examples.asia()
    >>> flops, largest = walk_cost(clf, bnx.compile(clf, backend="autoref"))
    >>> 0 < largest <= flops
    True
    """
    return _Plan(clf, odd.encoding.features).cost(feature_view(odd.arrays, odd.encoding))


def same_decision_fraction(clf, odd, idx: dict, decision: bool) -> Fraction:
    """``sum_z Pr(z | e) [f(e, z) = decision]`` exactly (``Pr(e) > 0``).

    Examples
    --------
    >>> import bnx
    >>> from bnx.probability.frontier import same_decision_fraction
    >>> clf = bnx.examples.asia()
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> e = {"smoke": "yes", "xray": "yes"}
    >>> p = same_decision_fraction(clf, odd, clf.encode(e, partial=True), True)
    >>> p == bnx.same_decision_probability(clf, e, decision=True, exact=True)
    True
    """
    neg, pos = decision_masses(clf, odd, idx)
    return Fraction(pos if decision else neg, pos + neg)
