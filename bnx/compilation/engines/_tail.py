"""The tail of the general engine: exact truth tables of a state's last features.

At the tail level (:func:`tail_level`) the untouched factors are summed once into a
table ``R[c, o, z]`` (:class:`Tail`) over the class, the variables ``o`` of the state's
factors and the completions ``z`` of the remaining features; a state's remaining
decision is then ``rho A(z) >= B(z)`` for every completion, with
``A, B = sum_o k[c, o] R[c, o, z]`` (sums of nonnegative products), or a sign of
class-weighted sums, decided by :mod:`._truth`. ``R`` is exact (variable elimination in
integers) where that is narrow enough; otherwise, when no level allows it, ``R`` is a
float64 contraction with a proven error bound (:mod:`._contraction`) and its exact columns
are computed only for the completions the float filter cannot decide.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ...classifier._inference import (
    align,
    eliminate,
    elimination_order,
    indicator,
    observe,
    product,
    table_gcd,
)
from ...diagram import _setops as sets
from ._contraction import contract
from ._contraction import plan as contraction_plan
from ._execution import ones
from ._intervals import approx
from ._plan import elimination_width
from ._truth import _TINY, floats, tail_truth, weighted_truth

__all__ = ["Tail", "tail_level", "FloatRangeError"]


class FloatRangeError(ArithmeticError):
    """A float tail factor was planned but its inputs fail the contraction's guarantees.

    See :func:`.contraction.contract`; the engine then runs without a tail.
    """


# ---------------------------------------------------------------------- the tail level
TAIL_COMPLETIONS = 8192  # the tail's truth tables have at most this many entries
TAIL_ENTRIES = 1 << 22  # and its factor at most this many
TAIL_WIDTH = 1 << 20  # and computing it makes no table larger than this
STATE_COST = 1 << 19  # a state's fixed cost at the tail, in tail-factor entries
BUILD_COST = 2000  # building one exact entry of the tail factor, in the same units
# a float tail factor (only where no level allows an exact one)
FLOAT_COMPLETIONS = 1 << 20  # its truth tables have at most this many entries
FLOAT_ENTRIES = 1 << 24  # its factor at most this many
FLOAT_WIDTH = 1 << 25  # and contracting it makes no table larger than this


def _tail_keep(plan, i: int, features: tuple, c) -> tuple:
    """Return ``(opened, rest)`` at level ``i``.

    The state's variables that are not remaining features, and the remaining features.
    """
    opened = tuple(dict.fromkeys(v for _, sc in (plan.levels[i - 1][2] if i else ())
                                 for v in sc if v != c))
    rest = tuple(features[i:])
    return tuple(v for v in opened if v not in rest), rest


def tail_level(plan, features: tuple, card: dict, c, k: int) -> tuple[int, int, Any]:
    """Return ``(level, width, contraction)``: the tail level of a plan (``len(features)``: none).

    The largest table computing its factor exactly makes, and the float contraction that
    computes it instead (``None``: exact).

    Among the levels whose remaining features have at most ``TAIL_COMPLETIONS`` joint
    states, whose tail factor has at most ``TAIL_ENTRIES`` entries and takes no table
    over ``TAIL_WIDTH`` to compute, the one with the least estimated work:
    ``prefixes * (entries + STATE_COST)`` for the states, ``BUILD_COST * entries`` for
    the factor. When no level qualifies, the same among the levels with at most
    ``FLOAT_COMPLETIONS`` completions and ``FLOAT_ENTRIES`` entries whose float
    contraction makes no table over ``FLOAT_WIDTH``, its work counted in multiply-adds.
    """
    n = len(features)
    cards = [card[f] for f in features]
    best, best_cost, best_width = n, None, 0
    floats_ = []
    for i in range(n):
        rest = math.prod(cards[i:])
        if rest > max(TAIL_COMPLETIONS, FLOAT_COMPLETIONS) or TAIL_COMPLETIONS < 2:
            continue
        opened, _ = _tail_keep(plan, i, features, c)
        entries = k * rest * math.prod(card[v] for v in opened)
        keep = (c, *opened, *features[i:])
        scopes = [sc for _, sc in plan.levels[i][3]] + [(v,) for v in keep]
        states = math.prod(cards[:i]) * (entries + STATE_COST)
        if rest <= FLOAT_COMPLETIONS and entries <= FLOAT_ENTRIES:
            floats_.append((i, scopes, keep, states))
        if rest > TAIL_COMPLETIONS or entries > TAIL_ENTRIES:
            continue
        hidden = {v for sc in scopes for v in sc} - set(keep)
        order = elimination_order(scopes, sorted(hidden, key=str), card)
        width = elimination_width(scopes, order, card)
        if width > TAIL_WIDTH:
            continue
        cost = states + BUILD_COST * entries
        if best_cost is None or cost < best_cost:
            best, best_cost, best_width = i, cost, width
    if best_cost is not None:
        return best, best_width, None
    chosen = None
    for i, scopes, keep, states in floats_:
        p = contraction_plan(scopes, keep, card)
        if p.largest > FLOAT_WIDTH:
            continue
        cost = states + p.flops
        if best_cost is None or cost < best_cost:
            best, best_cost, chosen = i, cost, p
    return best, 0, chosen


class Tail:
    """The tail of the general engine at ``level``: the untouched factors alive there.

    Every other hidden variable is summed out once, as the table ``R[c, o, z]`` over the
    class, the variables ``o`` of the state's factors and the remaining features ``z``:
    exact integers (and their floats), or, given a ``contraction`` (:func:`tail_level`),
    floats within a proven relative error whose exact columns are computed on demand; a
    state's remaining function is then a truth table over the completions ``z``
    (:meth:`entry` for a pair of classes, :meth:`weighted` for class weights), whose node is
    built once per table.
    """

    def __init__(self, plan, level: int, static: dict, before: list, card: dict, c, k: int,
                 enc, bdd, contraction=None, budget=None):
        self.plan, self.level, self.card, self.c, self.k = plan, level, card, c, k
        self.enc, self.bdd, self.n = enc, bdd, len(enc.features)
        opened, rest = _tail_keep(plan, level, enc.features, c)  # opened: summed per state
        keep = (c, *opened, *rest)
        factors = [static[j] for j in before]
        factors += [((v,), ones(card[v])) for v in keep]
        self.opened = opened
        self.shape = tuple(card[v] for v in keep)
        self.o = math.prod(self.shape[1:1 + len(opened)])
        self.nodes: dict = {}  # (level, packed truth table) -> node
        self.memo: dict = {}  # (level, children) -> node
        self.err = 0.0
        self.budget = budget
        # building the table makes no node, and can take seconds: the budget's bar and
        # timeout name it, and its time is checked between the steps
        tick = None if budget is None else budget.check
        if budget is not None:
            budget.stage(f"the table of the last {len(rest)} features "
                         f"({math.prod(self.shape):,} entries)")
        floated = None
        if contraction is not None:
            if budget is not None:  # a product's two operands and result, each in float64
                budget.reserve(3 * 8 * max(contraction.largest, math.prod(self.shape)),
                               f"the table of the last {len(rest)} features")
            floated = contract(contraction, factors, tick=tick)
            if floated is None:  # never an exact elimination this wide instead
                raise FloatRangeError("the tail factor's entries span too wide a range "
                                      "for a float contraction with a proven bound")
        if floated is not None:
            table, _, self.err = floated
            table = align(table, contraction.keep, keep)
            table = np.broadcast_to(table, self.shape).reshape(k, self.o, -1)
            top = table.max() if table.size else 0.0
            if top > 0:  # scale by a power of two (exact) to put the largest near 1
                shift = math.frexp(top)[1]
                if math.ldexp(float(table[table > 0].min()), -shift) < 2.0 ** -1000:
                    raise FloatRangeError("the tail factor's entries span too wide a range "
                                          "to scale without underflow")
                table = np.ldexp(table, -shift)
            self.floats = rf = np.ascontiguousarray(table)
            self.exact = _Columns(factors, c, opened, rest, card, self.shape)
        else:
            hidden = {v for sc, _ in factors for v in sc} - set(keep)
            order = elimination_order([sc for sc, _ in factors], sorted(hidden, key=str), card)
            _, table = product(eliminate(factors, order, tick=tick), scope=keep, tick=tick)
            g = table_gcd(table, tick)
            if tick is not None:
                tick()
            if g > 1:  # a positive constant: it cancels
                table = table // g
            # (class, opened, completions), laid out once: reshaping a transposed object
            # array copies (and later frees) every entry
            self.exact = np.ascontiguousarray(table.reshape(k, self.o, -1))
            if tick is not None:
                tick()
            self.floats = rf = floats(self.exact)
        self.min = float(rf[rf > 0].min()) if rf is not None and (rf > 0).any() else 1.0
        if budget is not None:
            budget.stage(None)

    def entry(self, rho: Fraction, state: tuple) -> tuple:
        """Return the node and ``rho`` interval of a state at the tail level.

        For each completion ``z`` the decision is ``rho A(z) >= B(z)``, i.e. ``rho >= B(z) /
        A(z)`` (``A(z) = 0``: ``B(z) = 0``), so the states with the same truth table form
        the interval between the largest threshold met and the smallest one missed (or a
        sound part of it holding ``rho``, see :func:`tail_truth`).
        """
        kcols, sums = self._columns(state)
        truth, lo, hi, hi_closed = tail_truth(rho, kcols, sums, self.exact, err=self.err)
        node = self.node(self.level, truth)
        return (node, lo, True, hi, hi_closed, approx(lo),
                math.inf if hi is None else approx(hi))

    def weighted(self, w: tuple, state: tuple):
        """Return the node of a state at the tail level in the weight-vector mode.

        The truth table of ``sum_c w[c] Pr'(c, z) >= 0`` over the completions (exact; see
        :func:`weighted_truth` for the float filter).
        """
        kcols, sums = self._columns(state)
        return self.node(self.level,
                         weighted_truth(w, kcols, sums, self.exact, err=self.err))

    def _state(self, state: tuple) -> np.ndarray:
        """Multiply a tail-level state's factors, laid out over the tail factor's axes.

        Size 1 on the completions it does not mention.
        """
        i = self.level
        prev = self.plan.levels[i - 1][2] if i else ()
        kscope, k = product([(sc, t) for (_, sc), t in zip(prev, state)]
                            + [((self.c,), ones(self.k))])
        return align(k, kscope, (self.c, *self.opened, *self.enc.features[i:]))

    def _columns(self, state: tuple):
        """Return ``(kcols, sums)`` of a tail-level state with factors ``K``.

        ``kcols(zs)`` the exact ``K[:, :, zs]`` over the class and the opened variables, and
        ``sums`` the float ``A_c(z) = sum_o K[c, o, z] R[c, o, z]`` (``None``: no float
        filter, when ``R`` or ``K`` has no usable floats, see :func:`floats`). A ``K`` that
        mentions none of the remaining features (the common case) is one matrix for every
        ``z``, and the sums one batched matrix product.
        """
        k = self._state(state)
        o, nk, head_n = self.o, self.k, 1 + len(self.opened)
        flat = all(d == 1 for d in k.shape[head_n:])
        kf = floats(k) if self.floats is not None else None
        if kf is not None and (kf > 0).any() and kf[kf > 0].min() * self.min < _TINY:
            kf = None  # keep every product, and rho times a sum, far from underflow
        sums = None
        if kf is not None:
            if flat:
                sums = np.matmul(kf.reshape(nk, 1, o), self.floats)[:, 0, :]
            else:
                rf = self.floats.reshape(self.shape)
                sums = (kf * rf).reshape(nk, o, -1).sum(axis=1)
        if flat:
            kc = k.reshape(nk, o, 1)
            return (lambda zs: kc), sums
        kb = np.broadcast_to(k, self.shape)  # a view: only the exact columns are read
        head = (slice(None),) * head_n
        rest = self.shape[head_n:]
        return (lambda zs: kb[head + np.unravel_index(zs, rest)].reshape(nk, o, -1)), sums

    def node(self, i: int, truth) -> Any:
        """Build the node of the truth table ``truth`` over the completions of features ``i..``.

        ``truth`` holds booleans, the last feature varying fastest; built bottom-up, one
        level at a time: the distinct rows of children ids at each level (vectorised), each
        made a node once (memoised by level and children, across tables).
        """
        t = np.asarray(truth, dtype=bool).reshape(-1)
        key = (i, len(t), np.packbits(t).tobytes())
        hit = self.nodes.get(key)
        if hit is not None:
            return hit
        bdd, memo = self.bdd, self.memo
        nodes = [sets.false(bdd), sets.true(bdd)]
        ids = t.astype(np.int64)
        made = 0
        for j in reversed(range(i, self.n)):
            k = self.card[self.enc.features[j]]
            rows = ids.reshape(-1, k)
            if len(nodes) ** k < 1 << 62:  # one int64 key per row
                weights = np.array([len(nodes) ** p for p in reversed(range(k))],
                                   dtype=np.int64)
                _, first, inv = np.unique(rows @ weights, return_index=True,
                                          return_inverse=True)
                unique = rows[first]
            else:
                unique, inv = np.unique(rows, axis=0, return_inverse=True)
            level = []
            for row in unique.tolist():
                children = tuple(nodes[x] for x in row)
                node = memo.get((j, children))
                if node is None:
                    node = memo[(j, children)] = self.enc.select(bdd, j, list(children),
                                                                 sets.false(bdd))
                    made += 1
                level.append(node)
            nodes, ids = level, inv.reshape(-1)
        node = self.nodes[key] = nodes[int(ids[0])]
        if self.budget is not None and made:
            self.budget.spend(made)  # the nodes the tail makes count as the engine's
        return node


class _Columns:
    """The exact columns ``R[:, :, zs]`` of a float tail factor, each computed on demand and kept.

    By variable elimination in integers with the completion observed; indexed like the exact
    table, ``columns[:, :, zs]``.
    """

    def __init__(self, factors: list, c, opened: tuple, rest: tuple, card: dict,
                 shape: tuple):
        self.factors, self.rest, self.card = factors, rest, card
        self.keep = (c, *opened)
        self.head = (shape[0], math.prod(shape[1:1 + len(opened)]))
        self.cards = [card[f] for f in rest]
        self.shape = (*self.head, math.prod(self.cards))
        scopes = [tuple(v for v in sc if v not in rest) for sc, _ in factors]
        hidden = {v for sc in scopes for v in sc} - set(self.keep)
        self.order = elimination_order(scopes, sorted(hidden, key=str), self.card)
        self.cache: dict = {}

    def column(self, z: int) -> np.ndarray:
        """Compute the exact ``R[:, :, z]`` (an object array over the class and ``o``)."""
        hit = self.cache.get(z)
        if hit is None:
            values = dict(zip(self.rest, np.unravel_index(z, self.cards)))
            observed = []
            for scope, table in self.factors:
                f = (scope, table)
                for v in scope:
                    if v in values:
                        f = observe(f, v, indicator(self.card[v], int(values[v])))
                observed.append(f)
            _, table = product(eliminate(observed, self.order), scope=self.keep)
            hit = self.cache[z] = np.asarray(table, dtype=object).reshape(self.head)
        return hit

    def __getitem__(self, key) -> np.ndarray:
        zs = np.atleast_1d(key[2]).tolist()
        out = np.empty((*self.head, len(zs)), dtype=object)
        for j, z in enumerate(zs):
            out[:, :, j] = self.column(int(z))
        return out
