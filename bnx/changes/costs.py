"""Counterfactuals with costs, and the order of counterfactuals by their probability.

``bnx.counterfactuals(odd, x, cost=...)`` prices each change: moving feature ``i`` from
``x_i`` to state ``v`` costs ``c_i(v) >= 0`` (keeping ``x_i`` costs nothing), and a
counterfactual ``z`` (an instance with the other decision) costs the sum over the
features it changes. The cheapest ones are a min-cost path problem in the diagram, as
robustness is with unit costs (:mod:`._robustness`):

* one bottom-up pass over the diagram seen per feature (:mod:`bnx.diagram._feature_view`)
  gives every node's cheapest cost to the other decision, ``d(u) = min_v c_i(v) +
  d(child_v)``, a feature the diagram skips keeping its state for free;
* a walk from the root over the edges on cheapest paths (those whose cost drops ``d`` by
  exactly their price), depth first as a loop, builds the diagram of the cheapest changes.

Prices are exact: each is read as a fraction (a float exactly as stored) and all are
scaled to integers by their common denominator, so sums and ties are exact (numpy
integers while the largest possible sum fits, Python integers beyond). ``math.inf``
forbids a move.

:class:`Counterfactuals` is the set they come in (any costs, unit costs included): its
members are listed cheapest first — all of them cost :attr:`Counterfactuals.cost` — and,
when the ODD has its classifier, by the probability of the counterfactual instance
under the network, most probable first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from numbers import Real

import numpy as np

from .._util.guard import guarded
from ..classifier._classifier import _resolve_state
from ..diagram._feature_view import FeatureView
from ..diagram._traversals import post_order
from ..diagram.layout import Layout
from ..errors import ArgumentError, UnknownStateError, closest_first
from ..explanation.explanations import DROPPED, Explanations
from ..odd._tables import exact_probabilities, probability_order

__all__ = ["ORDER_LIMIT", "Counterfactuals", "cheapest", "prices"]

#: Counterfactual sets with at most this many members are listed by probability; larger
#: ones in the diagram's order.
ORDER_LIMIT = 10_000


def _price(value, where: str) -> Fraction | None:
    """Check an exact nonnegative price (``None``: infinite, the move is forbidden)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentError(f"the cost of {where} must be a nonnegative number, got "
                            f"{value!r}")
    if math.isnan(value) or value < 0:
        raise ArgumentError(f"the cost of {where} must be a nonnegative number, got "
                            f"{value!r}")
    if value == math.inf:
        return None
    return Fraction(value)


def prices(odd, cost, x: list[int], mutable: list[bool]) -> list[list[Fraction | None]]:
    """Price per feature (the ODD's order) and state the move of ``x`` there.

    ``0`` for ``x``'s own state, ``None`` for a forbidden move; ``cost`` as documented in
    :func:`bnx.counterfactuals` (``None``: 1 per change).
    """
    enc = odd.encoding
    out = [[None if not mutable[i] else Fraction(1) for _ in s]
           for i, s in enumerate(enc.states)]
    if cost is not None:
        if not isinstance(cost, Mapping):
            raise ArgumentError(f"cost must be a mapping from features to prices (or to "
                                f"{{state: price}}), got {type(cost).__name__}")
        for f, c in cost.items():
            i = odd._position(f)  # UnknownFeatureError
            states = enc.states[i]
            if isinstance(c, Mapping):
                for s, p in c.items():
                    j = _resolve_state(states, s)
                    if j is None:
                        raise UnknownStateError(
                            f"{s!r} is not a state of feature {f!r} (states, closest "
                            f"first: {closest_first(s, states)})")
                    if mutable[i]:
                        out[i][j] = _price(p, f"moving {f!r} to {s!r}")
            else:
                p = _price(c, f"changing {f!r}")
                if mutable[i]:
                    out[i] = [p] * len(states)
    for i, row in enumerate(out):
        row[x[i]] = Fraction(0)
    return out


def _scaled(price: list[list[Fraction | None]]) -> tuple[list[list[int | None]], int]:
    """Scale the prices to integers over their common denominator, and return that denominator."""
    den = 1
    for row in price:
        for p in row:
            if p is not None:
                den = math.lcm(den, p.denominator)
    return [[None if p is None else int(p * den) for p in row] for row in price], den


def cheapest(fv: FeatureView, target: int, price: list[list[Fraction | None]]) -> tuple:
    """Return ``(d, inf, den, scaled)``: per node, the cheapest price of a path to ``target``.

    Scaled by ``den``, of a path to the terminal ``target`` (``inf`` where there is none),
    and the scaled prices.
    """
    scaled, den = _scaled(price)
    bound = sum(max((p for p in row if p is not None), default=0) for row in scaled)
    inf = bound + 1
    dtype = np.int64 if 2 * inf < 1 << 62 else object
    d = np.full(fv.arrays.size, inf, dtype=dtype)
    d[target] = 0
    for i in range(fv.n - 1, -1, -1):
        lo, hi = int(fv.first_node[i]), int(fv.last_node[i])
        if lo == hi:
            continue
        kids = fv.kids[i]
        best = None
        for v, p in enumerate(scaled[i]):
            if p is None:
                continue
            dv = d[kids[:, v]] + p if p else d[kids[:, v]].copy()
            best = dv if best is None else np.minimum(best, dv)
        d[lo:hi] = np.minimum(best, inf)
    return d, inf, den, scaled


class Paths:
    """The cheapest paths from the root to the other decision as a diagram of changes.

    In the node table ``out`` (:class:`~bnx.diagram.store.Store`; the ``partial`` layout:
    "unchanged", or a change to state ``v``); memoised per node and feature, one node per
    node of the result.
    """

    def __init__(self, fv: FeatureView, x: list[int], scaled: list, d, layout: Layout,
                 out) -> None:
        self.fv, self.x, self.scaled, self.d = fv, x, scaled, d
        self.layout, self.out = layout, out
        self.memo: dict = {}
        n = fv.n
        free = [False] * (n + 1)  # free[i]: some feature i.. changes for nothing
        for i in range(n - 1, -1, -1):
            free[i] = free[i + 1] or any(p == 0 and v != x[i]
                                         for v, p in enumerate(scaled[i]))
        self.free = free
        self.unchanged: dict = {n: 1}

    def chain(self, i: int):
        """Features ``i..`` all unchanged (built from the last feature up, once)."""
        unchanged = self.unchanged
        j = i
        while j not in unchanged:
            j += 1
        build, out = self.layout.build_table, self.out
        for k in range(j - 1, i - 1, -1):
            unchanged[k] = build(out, k, {DROPPED: unchanged[k + 1]})
        return unchanged[i]

    def _settled(self, u: int, du: int, i: int):
        """Return the node below ``u`` at feature ``i`` when it needs no walk, else None.

        ``du`` left to pay: the target, the "all unchanged" chain, or a pair in the memo.
        """
        if i == self.fv.n:  # u is the target: only edges that keep d finite are followed
            return 1
        if du == 0 and not self.free[i]:
            return self.chain(i)
        return self.memo.get((u, i))

    def _edges(self, u: int, du: int, i: int) -> list:
        """Return the edges of ``u`` at feature ``i`` on cheapest paths.

        ``[(label, child, left to pay), ...]``, ``label`` ``DROPPED`` for keeping the
        instance's state.
        """
        fv, xi = self.fv, self.x[i]
        if int(fv.feature[u]) > i:  # feature i is skipped: every state leads to u
            row = [u] * len(self.scaled[i])
        else:
            row = fv.kids[i][u - fv.first_node[i]].tolist()
        d = self.d
        return [(DROPPED if v == xi else v, w, du - p)
                for v, (w, p) in enumerate(zip(row, self.scaled[i]))
                if p is not None and d[w] + p == du]

    def run(self, u: int, du: int, i: int):
        """Build the diagram of the cheapest changes from node ``u`` at feature ``i``.

        ``du`` left to pay: a post-order over the edges on cheapest paths
        (:func:`~bnx.diagram._traversals.post_order`), memoised per node and feature.
        """
        got = self._settled(u, du, i)
        if got is not None:
            return got
        settled, edges = self._settled, self._edges
        build, out, memo = self.layout.build_table, self.out, self.memo
        left = {(u, i): du}  # pair -> left to pay, until its edges are read
        kept: dict = {}  # pair -> its edges [(label, child pair), ...], until it is built

        def children(key: tuple) -> list:
            u, i = key
            kids = []
            for label, w, dw in edges(u, left.pop(key), i):
                k = (w, i + 1)
                if k not in memo:
                    got = settled(w, dw, i + 1)
                    if got is None:
                        left[k] = dw
                    else:
                        memo[k] = got  # (the target or the unchanged chain: no walk)
                kids.append((label, k))
            kept[key] = kids
            return [k for _, k in reversed(kids)]  # (built first to last)

        def make(key: tuple, _) -> int:
            return build(out, key[1], {label: memo[k] for label, k in kept.pop(key)})

        return post_order((u, i), children, make, memo)


@guarded
class Counterfactuals(Explanations):
    """The cheapest counterfactuals of a decision (see :func:`bnx.counterfactuals`).

    Each member is a partial instance ``{feature: new state}`` naming the features that
    change; iteration lists them most probable first (the probability of the
    counterfactual instance under the network) when the ODD has its classifier and
    there are at most :data:`ORDER_LIMIT` of them, else in the diagram's order.

    Printed, each member says the changes and, on a multi-class ODD, the class they give
    (``XrayReport from Normal to Plethoric makes it TGA``).

    Attributes
    ----------
    cost : int, Fraction or float
        The price of each of them (their number of changes without ``cost=``);
        ``math.inf`` when there is none (no finite price reaches the other decision).
    """

    def __init__(self, *args, cost=None, odd=None, lead=None, deadline=None,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.cost = cost
        self._odd = odd
        self._lead = lead  # the state every member leads to, or a function of a member
        self._deadline = deadline  # of ordering them by probability (time.monotonic())
        self._by_probability: list | bool | None = None  # made on first use

    @property
    def multiclass(self) -> bool:
        """Whether the counterfactuals are of a multi-class decision.

        Each may lead to a different class.
        """
        return bool(getattr(self._odd, "multiclass", False))

    def leads_to(self, changes) -> object:
        """Return the class state the instance changed by ``changes`` (a member) is decided.

        Returns
        -------
        state
            On a binary ODD the other decision's state (``"not <positive>"`` for a
            threshold on one of several states).
        """
        lead = self._lead
        return lead(dict(changes)) if callable(lead) else lead

    @property
    def decisions(self) -> list:
        """The class state each counterfactual leads to, in the order of iteration.

        The other decision's state for all of them on a binary ODD; on a multi-class ODD
        without ``target=`` each its own class, which is never the one decided.
        """
        return [self.leads_to(c) for c in self]

    def _ordered(self) -> list | None:
        """List the members most probable first (made once; see :attr:`by_probability`).

        ``None`` when they are listed in the diagram's order. Listing them (at most
        :data:`ORDER_LIMIT` and one) counts them too.
        """
        if self._by_probability is None:
            got = False
            if self._odd is not None and (self._count is None or self._count <= ORDER_LIMIT):
                rows = list(itertools.islice(super().__iter__(), ORDER_LIMIT + 1))
                if len(rows) <= ORDER_LIMIT:
                    self._count = len(rows)
                    order = probability_order(self._odd, self.instance, rows,
                                              deadline=self._deadline)
                    if order is not None:
                        got = [rows[k] for k in order]
            self._by_probability = got
        return self._by_probability or None

    @property
    def by_probability(self) -> bool:
        """Whether iteration lists the members most probable first.

        True when the ODD has its classifier, there are at most :data:`ORDER_LIMIT` of
        them and, with a ``timeout``, their order was settled within it (each probability
        in floats within a proven bound, the exact values where bounds overlap); else they
        come in the diagram's order.
        """
        return self._ordered() is not None

    def __iter__(self):
        """Iterate over the counterfactuals, most probable first when the ODD has its classifier."""
        got = self._ordered()
        return super().__iter__() if got is None else (dict(r) for r in got)

    def probabilities(self) -> list:
        """Return ``[(changes, Pr(counterfactual instance))]`` in the order of iteration.

        The probabilities as exact fractions (``None``, not applicable, without the
        classifier).

        Returns
        -------
        list of tuple
            ``(changes, probability)`` per counterfactual, in the order of iteration.
        """
        rows = list(self)
        weight = None if self._odd is None else exact_probabilities(self._odd, self.instance,
                                                                      rows)
        return list(zip(rows, weight or [None] * len(rows)))
