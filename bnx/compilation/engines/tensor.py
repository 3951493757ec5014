"""Engine 2: any class, exact tensors over the separator (sufficient merge test).

The state after a prefix ``y`` is the exact tensor ``Pr(c, y, s) * w(c)`` over the class
and the separator ``s`` (``w(positive) = 1 - T``, ``w(other) = -T``). States equal up to a
positive factor are merged, and a state whose decision is settled by exact bounds on
the rest becomes a terminal.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ...classifier._classifier import Classifier
from ...diagram import _setops as sets
from ...diagram._passes import unwind
from ...diagram.encoding import Encoding
from ..budget import Budget
from ._base import DdEngine, Verdict, accept, refuse

__all__ = ["TensorEngine", "advance"]


def _obj(values) -> np.ndarray:
    a = np.empty(len(values), dtype=object)
    a[:] = list(values)
    return a


def _table_array(table) -> np.ndarray:
    out = np.empty((len(table), len(table[0])), dtype=object)
    for a, row in enumerate(table):
        for b, v in enumerate(row):
            out[a, b] = v
    return out


def advance(m: np.ndarray, opens, pax: int, column: np.ndarray, closes) -> np.ndarray:
    """Make one observation on a separator tensor.

    Open latent nodes (a new last axis times their CPT along the parent's axis), multiply in
    the feature's column along its parent's axis, then sum out the nodes that are now fully
    observed.
    """
    for paxis, cpt in opens:
        shape = [1] * m.ndim + [cpt.shape[1]]
        shape[paxis] = cpt.shape[0]
        m = m[..., np.newaxis] * cpt.reshape(shape)
    shape = [1] * m.ndim
    shape[pax] = column.shape[0]
    m = m * column.reshape(shape)
    for ax in closes:
        m = m.sum(axis=ax)
    return m


class TensorEngine(DdEngine):
    """Any class, naive Bayes or latent tree: exact tensors over the separator."""

    name = "tree, exact tensors"
    with_bounds = True

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        if clf.rule != "threshold":
            return refuse(f"the {clf.rule} rule, not a threshold")
        if clf.structure not in ("naive_bayes", "latent_tree"):
            return refuse(f"a {clf.structure} network, not naive Bayes or a latent tree")
        return accept(f"a {clf.structure} threshold")

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, given=None, *,
                 backend: str = "autoref", memo: dict | None = None):
        super().__init__(clf, enc, budget, given, backend=backend, memo=memo)
        self.n = len(enc.features)
        root = clf.class_var
        pos = clf.class_states.index(clf.positive)
        t = clf.threshold
        prior = clf.table(root)[0]
        self.start = _obj([(1 - t) * p if c == pos else -t * p for c, p in enumerate(prior)])
        self.memo: list[dict] = [dict() for _ in range(self.n)]
        self._plan(clf)

    # -- static plan of separators, transitions and bounds
    def _plan(self, clf: Classifier) -> None:
        root = clf.class_var
        feats = set(clf.features)
        remaining: dict = {}

        for n in reversed(self._preorder(clf)):  # children before parents
            remaining[n] = 1 if n in feats else sum(remaining[ch] for ch in clf.children(n))
        # static bounds of max/min Pr(z_T | parent state) for every subtree T
        ub: dict = {}
        lb: dict = {}
        for n in reversed(self._preorder(clf)):
            if n == root:
                continue
            table = clf.table(n)
            if n in feats:
                ub[n] = [max(row) for row in table]
                lb[n] = [min(row) for row in table]
            else:
                kids = clf.children(n)
                inner_u = [math.prod((ub[ch][s] for ch in kids), start=Fraction(1))
                           for s in range(len(clf.states(n)))]
                inner_l = [math.prod((lb[ch][s] for ch in kids), start=Fraction(1))
                           for s in range(len(clf.states(n)))]
                ub[n] = [sum((r[s] * inner_u[s] for s in range(len(r))), Fraction(0))
                         for r in table]
                lb[n] = [sum((r[s] * inner_l[s] for s in range(len(r))), Fraction(0))
                         for r in table]
        sep = [root]
        opened = {root}
        self.steps = []
        for f in self.enc.features:
            # bounds on what is still to come, for the separator before this step (the
            # tensor engine's terminal test; the interval engine does not need them)
            maxg = ming = None
            if self.with_bounds:
                maxg, ming = self._bounds(clf, sep, opened, remaining, ub, lb)
            # ancestors to open, top-down
            chain = []
            a = clf.parent(f)
            while a not in opened:
                chain.append(a)
                a = clf.parent(a)
            opens = []
            for u in reversed(chain):
                opens.append((u, sep.index(clf.parent(u)), clf.table(u)))
                sep.append(u)
                opened.add(u)
            p = clf.parent(f)
            observe = (sep.index(p), clf.table(f))
            closes = []
            remaining[f] -= 1
            u = p
            while u != root:
                remaining[u] -= 1
                if remaining[u] > 0:
                    break
                closes.append(sep.index(u))
                sep.pop(sep.index(u))
                u = clf.parent(u)
            # every ancestor of u still has unobserved features: decrement them too
            while u != root:
                u = clf.parent(u)
                if u != root:
                    remaining[u] -= 1
            self.steps.append((maxg, ming, opens, observe, closes,
                               len(clf.states(f))))
        self.tables = {u: _table_array(clf.table(u)) for u in clf.latent}
        for i, step in enumerate(self.steps):
            self.tables[("column", i)] = _table_array(step[3][1])

    @staticmethod
    def _bounds(clf: Classifier, sep: list, opened: set, remaining: dict, ub: dict,
                lb: dict) -> tuple[np.ndarray, np.ndarray]:
        """Flat upper and lower bounds of ``Pr(rest | separator state)`` per separator state."""
        maxg = np.ones(tuple(len(clf.states(u)) for u in sep), dtype=object)
        ming = np.ones(tuple(len(clf.states(u)) for u in sep), dtype=object)
        for ax, u in enumerate(sep):
            pending = [ch for ch in clf.children(u) if ch not in opened and remaining[ch] > 0]
            shape = [1] * len(sep)
            shape[ax] = len(clf.states(u))
            vu = [math.prod((ub[ch][s] for ch in pending), start=Fraction(1))
                  for s in range(shape[ax])]
            vl = [math.prod((lb[ch][s] for ch in pending), start=Fraction(1))
                  for s in range(shape[ax])]
            maxg = maxg * _obj(vu).reshape(shape)
            ming = ming * _obj(vl).reshape(shape)
        return maxg.reshape(-1), ming.reshape(-1)

    @staticmethod
    def _preorder(clf: Classifier) -> list:
        out = []
        stack = [clf.class_var]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(clf.children(n))
        return out

    def root(self):
        """Compile the decision function and return its root."""
        return unwind(self.visit(0, self.start))

    def transition(self, i: int, m: np.ndarray, v: int) -> np.ndarray:
        """Return the state tensor after observing state ``v`` at step ``i``."""
        _, _, opens, (pax, ftable), closes, _ = self.steps[i]
        return advance(m, [(paxis, self.tables[u]) for u, paxis, _ in opens],
                        pax, self.tables[("column", i)][:, v], closes)

    def visit(self, i: int, m: np.ndarray):
        """Return the node of the state ``m`` at level ``i`` (memoised by its normalised tensor).

        A step of :func:`~bnx.diagram._passes.unwind`: it yields its children's steps.
        """
        bdd = self.bdd
        flat = m.reshape(-1)
        if i == self.n:
            return sets.true(bdd) if sum(flat, Fraction(0)) >= 0 else sets.false(bdd)
        scale = max((abs(x) for x in flat), default=Fraction(0))
        if scale == 0:
            return sets.true(bdd)  # 0 >= 0 whatever comes next
        key = tuple(x / scale for x in flat)
        memo = self.memo[i]
        hit = memo.get(key)
        if hit is not None:
            return hit
        maxg, ming = self.steps[i][0], self.steps[i][1]
        low = sum((x * (ming[j] if x > 0 else maxg[j]) for j, x in enumerate(flat)), Fraction(0))
        if low >= 0:
            memo[key] = sets.true(bdd)
            return sets.true(bdd)
        high = sum((x * (maxg[j] if x > 0 else ming[j]) for j, x in enumerate(flat)), Fraction(0))
        if high < 0:
            memo[key] = sets.false(bdd)
            return sets.false(bdd)
        self.budget.spend()
        k = self.steps[i][5]
        children = []
        for v in range(k):
            children.append((yield self.visit(i + 1, self.transition(i, m, v))))
        node = self.enc.select(bdd, i, children, sets.false(bdd))
        memo[key] = node
        return node

