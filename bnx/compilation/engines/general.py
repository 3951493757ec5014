"""The general engine: any network, by variable elimination along the order (exact).

The state after a prefix ``y`` is the list of *touched* factors of the elimination
(:mod:`._plan`), each normalised, plus class weights: for a comparison of two class
states ``a`` and ``b`` the odds ``rho`` with exact equivalence intervals (as for naive
Bayes and latent trees), for a threshold over more than two states the exact weight
vector. See ``docs/compilation.md`` for why both merge tests are exact.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ...classifier._classifier import Classifier
from ...classifier._inference import indicator, table_gcd
from ...classifier._rules import argmax_pairs
from ...diagram import _setops as sets
from ...diagram._traversals import unwind
from ...diagram.encoding import Encoding
from ...errors import CompilationLimitError
from ..budget import Budget
from ._base import DdEngine, Verdict, accept
from ._bounds import bounds
from ._execution import prepare, prepared_scopes, run_ops
from ._intervals import INF, Intervals, Meet, approx, terminal
from ._plan import Plan
from ._tail import FloatRangeError, Tail, tail_level

__all__ = ["FactorElimination", "FactorEngine", "general_order"]

TRUE = None  # a transition whose every completion is positive
MAX_TABLE = 1 << 24  # no plan may make a larger table (a CompilationLimitError instead)


class FactorEngine(DdEngine):
    """Any network and rule, by variable elimination along the order (:class:`FactorElimination`).

    ``given``: the comparisons ``(pair, weights, keep)`` whose conjunction is the decision,
    each kept or negated: one for a threshold (on two class states a pair, on more a weight
    vector with ``pair=None``), the pairwise comparisons of the positive state for the
    argmax rule (``>=`` kept, ``>`` the negation of the reversed one).
    """

    name = "any network, elimination"

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        pos = clf.class_states.index(clf.positive)
        if clf.rule == "argmax":  # positive iff Pr(pos) > Pr(c) for earlier c, >= for later
            return accept("the argmax rule, by its pairwise comparisons",
                          [(pair, (1, 1), pair[0] == pos)
                           for pair in argmax_pairs(len(clf.class_states), pos)])
        t = clf.threshold
        if len(clf.class_states) == 2:
            return accept("a binary-class threshold", [((pos, 1 - pos), (1 - t, t), True)])
        weights = tuple(1 - t if c == pos else -t for c in range(len(clf.class_states)))
        return accept("a threshold over more than two class states", [(None, weights, True)])

    def root(self):
        """Conjoin the comparisons, in :attr:`bdd`."""
        root = sets.true(self.bdd)
        for pair, weights, keep in self.given:
            ge = self.compared(
                pair if weights == (1, 1) else None,
                lambda p=pair, w=weights: FactorElimination(
                    self.clf, self.enc, self.bdd, self.budget, pair=p, weights=w).run())
            root = sets.intersect(root, ge) if keep else sets.difference(root, ge)
        return root


class FactorElimination:
    """One comparison on any network.

    ``pair=(a, b)``: decide ``wa Pr(a, x) >= wb Pr(b, x)`` with states ``(rho, touched
    factors)`` and exact intervals of ``rho``; ``pair=None``: decide ``sum_c w[c] Pr(c, x)
    >= 0`` with states ``(weights, touched factors)``.
    """

    def __init__(self, clf: Classifier, enc: Encoding, bdd: Any, budget: Budget, *,
                 pair: tuple | None, weights: tuple):
        self.enc, self.bdd, self.budget = enc, bdd, budget
        self.c = clf.class_var
        self.pair = pair
        self.static, scopes, const, hidden, largest = prepare(clf, pair)
        self.card = dict(clf._card)
        if pair is not None:
            self.card[self.c] = 2
        k = self.card[self.c]
        plan = Plan(scopes, self.c, hidden, self.card)
        self.n = len(enc.features)
        for i, f in enumerate(enc.features):
            plan.observe(f, last=(i == self.n - 1))
        self.plan = plan
        self.width = plan.width
        self.k = k
        self.tail, self.tail_width, contraction = tail_level(plan, enc.features, self.card,
                                                             self.c, k)
        largest = max(largest, plan.largest, self.tail_width)
        if largest > MAX_TABLE:
            raise CompilationLimitError(
                f"compiling needs a table of {largest} entries (the elimination along "
                f"this order is too wide; the limit is {MAX_TABLE}); try another order or "
                f"fewer features")
        # ops on untouched factors only are the same for every prefix: run them once
        self.ops = []
        self.level_bounds = []  # per level: bounds of the untouched factors alive before it
        for i, (ops, _, _, before) in enumerate(plan.levels):
            if i > self.tail:  # the tail tables replace the levels below
                break
            if i == self.tail:
                try:
                    self.tail_table = Tail(plan, i, self.static, [j for j, _ in before],
                                           self.card, self.c, k, enc, bdd, contraction,
                                           budget)
                except FloatRangeError:
                    budget.stage(None)
                    self.tail = self.n  # no tail: expand-then-merge to the end
            self.level_bounds.append(bounds([self.static[j] for j, _ in before], self.c)
                                     if pair is not None else None)
            dynamic = []
            for op in ops:
                srcs = (op[1],) if op[0] == "obs" else op[1]
                if op[0] != "obs" and all(j in self.static for j in srcs):
                    run_ops([op], self.static, self.static, self.card)
                else:
                    dynamic.append(op)
            self.ops.append(tuple(dynamic))
        self.vecs = [[indicator(self.card[f], v) for v in range(self.card[f])]
                     for f in enc.features]
        # the class weights before any observation
        w = [Fraction(x) for x in weights]
        for scope, table in const:
            vals = [int(x) for x in table.reshape(-1)]
            w = [a * (vals[j] if scope else vals[0]) for j, a in enumerate(w)]
        self.w0 = w
        self.memo: list[dict] = [dict() for _ in range(max(self.n, 1))]
        self.trans: list[dict] = [dict() for _ in range(max(self.n, 1))]

    # -- one level on concrete factors
    def step(self, i: int, state: tuple, v: int):
        """Take one step: ``None`` (every completion positive) or ``(ratios, new state)``.

        ``ratios`` is the per-class factor taken out by normalisation (a list of ints).
        """
        _, folds, out, _ = self.plan.levels[i]
        prev = self.plan.levels[i - 1][2] if i else ()
        regs = {j: (scope, t) for (j, scope), t in zip(prev, state)}
        f = self.enc.features[i]
        run_ops(self.ops[i], regs, self.static, self.card, {f: self.vecs[i][v]},
                tick=self.budget.check)
        k = self.k
        ratio = [1] * k
        for j in folds:
            scope, table = regs[j] if j in regs else self.static[j]
            vals = [int(x) for x in table.reshape(-1)]
            if not scope:
                vals = vals * k
            ratio = [a * b for a, b in zip(ratio, vals)]
        tables = []
        for j, _ in out:
            scope, table = regs[j]
            if scope[0] == self.c:
                gs = [table_gcd(table[c]) for c in range(k)]
                if all(g == 0 for g in gs):
                    return TRUE if self.pair is not None else ("zero",)
                table = table.copy()
                for c in range(k):
                    if gs[c] > 1:
                        table[c] = table[c] // gs[c]
                ratio = [a * g for a, g in zip(ratio, gs)]
            else:
                g = table_gcd(table)
                if g == 0:
                    return TRUE if self.pair is not None else ("zero",)
                if g > 1:
                    table = table // g
            tables.append(table)
        return ratio, tuple(tables)

    def _transitions(self, i: int, key, state: tuple) -> list:
        memo = self.trans[i]
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = [self.step(i, state, v) for v in range(len(self.vecs[i]))]
        return hit

    @staticmethod
    def _key(state: tuple) -> tuple:
        return tuple(tuple(t.reshape(-1).tolist()) for t in state)

    def run(self):
        """Compile the decision function and return its root."""
        if self.pair is not None:
            wa, wb = self.w0
            if wb == 0:
                return sets.true(self.bdd)
            return unwind(self.visit2(0, wa / wb, ()))[0]
        g = _vec_gcd(self.w0)
        w0 = tuple(self.w0) if g == 0 else tuple(x / g for x in self.w0)
        return unwind(self.visit_k(0, w0, ()))

    # -- a pair of classes: intervals of rho
    def visit2(self, i: int, rho: Fraction, state: tuple):
        """Return the node and ``rho`` interval of a two-class state at a level.

        A step of :func:`~bnx.diagram._traversals.unwind`: it yields its children's steps.
        """
        bdd = self.bdd
        if i == self.n:
            return terminal(bdd, rho)
        key = self._key(state)
        level = self.memo[i].get(key)
        if level is None:
            level = self.memo[i][key] = Intervals()
        hit = level.find(rho)
        if hit is not None:
            return hit
        settled = self._settled(i, rho, state)
        if settled is not None:
            level.add(settled)
            return settled
        self.budget.spend()
        if i == self.tail:
            entry = self.tail_table.entry(rho, state)
            level.add(entry)
            return entry
        meet = Meet()
        children = []
        for res in self._transitions(i, key, state):
            if res is TRUE:
                children.append(sets.true(bdd))
                continue
            (ra, rb), st = res
            if rb == 0:
                children.append(sets.true(bdd))
                continue
            if ra == 0:
                child = yield self.visit2(i + 1, Fraction(0), st)
            else:
                r = Fraction(ra, rb)
                child = yield self.visit2(i + 1, rho * r, st)
                meet.add(child, None if r == 1 else r)
            children.append(child[0])
        entry = meet.entry(self.enc.select(bdd, i, children, sets.false(bdd)))
        level.add(entry)
        return entry

    def _settled(self, i: int, rho: Fraction, state: tuple):
        """Return a terminal entry when exact ratio bounds settle every completion, else None.

        With ``L <= A(z) / B(z) <= U`` (see :func:`_bounds`): ``rho L >= 1`` makes every
        completion positive; ``rho U < 1`` with ``B(z) > 0`` everywhere, negative.
        """
        prev = self.plan.levels[i - 1][2] if i else ()
        lo, hi, positive = bounds([(scope, t) for (_, scope), t in zip(prev, state)], self.c,
                                   self.level_bounds[i])
        if lo is INF or (lo > 0 and rho * lo >= 1):
            lo_end = Fraction(0) if lo is INF else 1 / lo
            return (sets.true(self.bdd), lo_end, True, None, False, approx(lo_end), math.inf)
        if positive and hi is not INF and rho * hi < 1:
            hi_end = None if hi == 0 else 1 / hi
            return (sets.false(self.bdd), Fraction(0), True, hi_end, False, 0.0,
                    math.inf if hi_end is None else approx(hi_end))
        return None

    # -- a threshold over more than two class states: exact weight vectors
    def visit_k(self, i: int, w: tuple, state: tuple):
        """Return the node of a state with class weights (three or more classes) at a level.

        A step of :func:`~bnx.diagram._traversals.unwind`: it yields its children's steps.
        """
        bdd = self.bdd
        if i == self.n:
            return sets.true(bdd) if sum(w, Fraction(0)) >= 0 else sets.false(bdd)
        if all(x >= 0 for x in w):
            return sets.true(bdd)  # no negative weight left: sum_c w_c Pr(c, x) >= 0
        key = (w, self._key(state))
        memo = self.memo[i]
        hit = memo.get(key)
        if hit is not None:
            return hit
        self.budget.spend()
        if i == self.tail:
            node = memo[key] = self.tail_table.weighted(w, state)
            return node
        children = []
        for res in self._transitions(i, self._key(state), state):
            if res is TRUE or res[0] == "zero":
                children.append(sets.true(bdd))
                continue
            ratio, st = res
            w2 = [a * r for a, r in zip(w, ratio)]
            g = _vec_gcd(w2)
            w2 = tuple(w2) if g == 0 else tuple(x / g for x in w2)
            children.append((yield self.visit_k(i + 1, w2, st)))
        node = self.enc.select(bdd, i, children, sets.false(bdd))
        memo[key] = node
        return node


def _vec_gcd(w) -> Fraction:
    """Return a positive scale that makes ``w`` canonical up to positive factors (0 if all zero)."""
    m = max((abs(x) for x in w), default=0)
    return Fraction(m)


def general_order(clf: Classifier, *, classes: tuple | None = None,
                  timeout: float | None = None) -> list:
    """Order the features for the general engine, greedily.

    Next comes the feature that leaves the smallest state (touched factors' size after its
    level, see :mod:`._plan`), ties in the features' order.

    Parameters
    ----------
    clf : Classifier
        Any classifier.
    classes : tuple of class states, optional
        The class states whose formulas the order is for (a multi-class classifier; by
        default the classifier's own).
    timeout : float, optional
        Seconds the greedy choice may take (it tries every feature left at every step:
        about ten on munin); past them a :class:`~bnx.CompilationLimitError`.

    Returns
    -------
    list
        The features, in the order to compile them.

    Raises
    ------
    CompilationLimitError
        The order was not chosen within ``timeout``.

    See Also
    --------
    bnx.compilation.default_order : The order compile uses, this one for general networks.
    bnx.compilation.tan_order : The order for networks without hidden variables.

    Examples
    --------
    >>> import bnx
    >>> bnx.compilation.general_order(bnx.examples.asia())
    ['asia', 'xray', 'smoke', 'dysp']
    """
    from ..budget import order_deadline
    return greedy_order(clf, classes, order_deadline(timeout))


def greedy_order(clf: Classifier, classes: tuple | None, check) -> list:
    """:func:`general_order`, ``check()`` (its deadline) called between the trials."""
    c = clf.class_var
    if classes is None and len(clf.class_states) == 2:
        classes = (0, 1)
    found, hidden = prepared_scopes(clf)  # the scopes alone: no table is made
    scopes = {j: s for j, s in enumerate(found) if [v for v in s if v != c]}
    check()
    card = dict(clf._card)
    if classes is not None:
        card[c] = len(classes)
    plan = Plan(scopes, c, hidden, card)
    left = list(clf.features)
    order = []
    while left:
        best, best_key = None, None
        for j, f in enumerate(left):
            check()
            trial = plan.copy()
            trial.observe(f, last=len(left) == 1)
            key = (trial.state_size(), j)
            if best_key is None or key < best_key:
                best, best_key = (f, trial), key
        f, plan = best
        order.append(f)
        left.remove(f)
    return order
