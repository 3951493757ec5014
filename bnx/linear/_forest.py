"""A TAN decision as a race of two products over a forest of features.

A tree-augmented naive Bayes classifier (TAN: the class a root and a parent of every
feature, each feature with at most one feature parent) with a two-state class decides
by comparing ``A = a0 * prod_i a_i(x_i, x_pa(i))`` with ``B = b0 * prod_i b_i(x_i,
x_pa(i))``: the positive side wins ``A >= B`` (``A > B`` when strict), exactly as in
:mod:`bnx.linear._core` but with each factor over a feature *and its parent* in the
feature forest. :class:`Forest` reads the classifier's exact factors once: every factor
over the class and at most two features that are a forest edge is multiplied into the
table of its child feature (a factor without the class multiplies both sides), a
factor over the class alone into ``a0`` and ``b0``. The terms of the race, their
ordering (``-inf < log(p / q) < +inf``) and its sums follow :mod:`bnx.linear._core`:
logs rounded to integers in units of ``2**-40`` with a proven error bound, and the
exact rational ratios for the comparisons the rounded sums cannot settle.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import StructureError
from ._core import _log_ratio, nudged, remembered

__all__ = ["Forest", "forest", "pair_forests"]


def _refuse(clf, why: str) -> StructureError:
    return StructureError(
        f"bnx.linear explains naive Bayes and TAN classifiers with a two-state class; {why} "
        f"(compile it with bnx.compile and use the ODD's explanations)")


class Forest:
    """The exact per-edge factors of a two-class TAN, rooted as a forest of features.

    Attributes
    ----------
    parent : list of int
        The parent of each feature, ``n`` (a virtual root with one state) for the roots.
    children : list of list of int
        The children of each feature and, at position ``n``, the roots.
    postorder : list of int
        Every feature, children before parents, then ``n``.
    a, b : list of list of list of Fraction
        ``a[i][v][u]``: the positive side's factor of feature ``i`` at state ``v`` with its
        parent at ``u`` (``u = 0`` for a root); ``b`` the negative side's.
    lg, err : the same shape
        ``log(a / b)`` in units of ``1 / SCALE`` (0 where either vanishes) within ``err``.
    """

    def __init__(self, clf, against: int | None = None, support: bool = False) -> None:
        import numpy as np  # not at import: loading a saved ODD never needs numpy
        structure = getattr(clf, "structure", type(clf).__name__)
        if structure != "tan":
            raise _refuse(clf, f"this one is a {structure}")
        cstates = tuple(clf.class_states)
        pos = cstates.index(clf.positive)
        if against is None and len(cstates) != 2:
            raise _refuse(clf, f"{clf.class_var!r} has {len(cstates)} states, and deciding "
                               f"one state against several others is not one race")
        neg = 1 - pos if against is None else against
        self.clf = clf
        self.features = tuple(clf.features)
        self.index = {f: i for i, f in enumerate(self.features)}
        self.states = [tuple(clf.states(f)) for f in self.features]
        n = self.n = len(self.features)
        c = clf.class_var
        a0, b0 = Fraction(1), Fraction(1)
        groups: dict = {}
        for scope, table in clf._main:
            feats = [v for v in scope if v != c]
            if any(v not in self.index for v in feats) or len(feats) > 2:
                raise _refuse(clf, f"a factor over {list(scope)} is not over the class and "
                                   f"at most two features")
            if c in scope:
                ax = scope.index(c)
                ta, tb = np.take(table, pos, axis=ax), np.take(table, neg, axis=ax)
            else:
                ta = tb = table
            key = tuple(sorted(self.index[v] for v in feats))
            order = [feats.index(self.features[i]) for i in key]
            ta, tb = np.transpose(ta, order), np.transpose(tb, order)
            if not key:
                a0 *= ta.item()
                b0 *= tb.item()
            elif key in groups:
                pa, pb = groups[key]
                groups[key] = (pa * ta, pb * tb)
            else:
                groups[key] = (ta, tb)
        self._root_forest(clf, [k for k in groups if len(k) == 2])
        self.a, self.b = [], []
        for i in range(n):
            ki, p = len(self.states[i]), self.parent[i]
            kp = 1 if p == n else len(self.states[p])
            parts = []
            if (i,) in groups:
                ta, tb = groups[(i,)]
                parts.append((ta.reshape(ki, 1), tb.reshape(ki, 1)))
            if p != n:
                ta, tb = groups[(min(i, p), max(i, p))]
                parts.append((ta.T, tb.T) if p < i else (ta, tb))  # the key's axes: (p, i)
            A = B = np.full((ki, 1), Fraction(1), dtype=object) if not parts else None
            for ta, tb in parts:  # multiplying only what is there
                A = ta if A is None else A * ta
                B = tb if B is None else B * tb
            self.a.append(np.broadcast_to(A, (ki, kp)).tolist())
            self.b.append(np.broadcast_to(B, (ki, kp)).tolist())
        rule = getattr(clf, "rule", "threshold")
        if rule == "argmax":  # the positive state against one other: earlier ones win ties
            self.a0, self.b0, self.strict = a0, b0, neg < pos
        else:
            t = clf.threshold
            self.a0, self.b0, self.strict = (1 - t) * a0, t * b0, False
        self.lg, self.err = [], []
        for A, B in zip(self.a, self.b):
            lg = [[0] * len(row) for row in A]
            err = [[0] * len(row) for row in A]
            for v, (ra, rb) in enumerate(zip(A, B)):
                for u, (x, y) in enumerate(zip(ra, rb)):
                    if x.numerator and y.numerator:
                        lg[v][u], err[v][u] = _log_ratio(x, y)
            self.lg.append(lg)
            self.err.append(err)
        self.lg0, self.err0 = (_log_ratio(self.a0, self.b0) if self.a0 and self.b0 else (0, 0))
        #: within the support, the strict race's constant made non-strict (``nudged``)
        self.nudged = nudged(clf, self, [[(x, y) for ra, rb in zip(A, B)
                                          for x, y in zip(ra, rb)]
                                         for A, B in zip(self.a, self.b)],
                              (a0, b0)) if support else {}
        err0 = max([self.err0] + [e for _, _, _, e, _ in self.nudged.values()])
        #: every complete assignment's rounded sum errs by at most ``tol`` units
        self.tol = err0 + sum(max(max(r) for r in e) for e in self.err)
        self._terms: dict = {}

    def _root_forest(self, clf, edges: list) -> None:
        n = self.n
        adj: list[list[int]] = [[] for _ in range(n)]
        for i, j in edges:
            adj[i].append(j)
            adj[j].append(i)
        parent = [-1] * n
        children: list[list[int]] = [[] for _ in range(n + 1)]
        order: list[int] = []  # parents before children
        for r in range(n):
            if parent[r] != -1:
                continue
            parent[r] = n
            children[n].append(r)
            stack = [r]
            while stack:
                u = stack.pop()
                order.append(u)
                for v in adj[u]:
                    if parent[v] == -1:
                        parent[v] = u
                        children[u].append(v)
                        stack.append(v)
        if len(edges) != n - len(children[n]):
            raise _refuse(clf, "its features' dependencies are not a forest")
        self.parent, self.children = parent, children
        self.postorder = order[::-1] + [n]

    def card(self, i: int) -> int:
        """Return the number of states of feature ``i`` (1 for the virtual root ``n``)."""
        return 1 if i == self.n else len(self.states[i])

    def terms(self, side: bool, exact: bool = False) -> tuple:
        """Return ``(strict, c, T)``: the race keeping decision ``side`` (True: positive wins).

        Its constant term ``c`` and ``T[i][v][u]``, each term a triple ``(plus, minus,
        value)`` (one +inf, one -inf, or a finite value: the rounded log, or with ``exact``
        the exact ratio ``p / q``). ``T[n] = [[c]]``.
        """
        got = self._terms.get((side, exact))
        if got is None:
            strict = self.strict if side else not self.strict
            a0, b0, lg0 = self.a0, self.b0, self.lg0
            if strict and side in self.nudged:
                a0, b0, lg0, _, strict = self.nudged[side]
            one = Fraction(1) if exact else 0

            def term(x: Fraction, y: Fraction, lg: int) -> tuple:
                p, q = (x, y) if side else (y, x)
                if p.numerator == 0 and q.numerator == 0:  # 0 >= 0 holds, 0 > 0 does not
                    return (0, 1, one) if strict else (1, 0, one)
                if q.numerator == 0:
                    return (1, 0, one)
                if p.numerator == 0:
                    return (0, 1, one)
                return (0, 0, p / q if exact else (lg if side else -lg))

            T = [[[term(x, y, lg) for x, y, lg in zip(ra, rb, rl)]
                  for ra, rb, rl in zip(A, B, L)] for A, B, L in zip(self.a, self.b, self.lg)]
            c = term(a0, b0, lg0)
            T.append([[c]])
            got = self._terms[(side, exact)] = (strict, c, T)
        return got


def _pair_forests(clf, support: bool = False) -> list[Forest]:
    rule = getattr(clf, "rule", "threshold")
    k = len(clf.class_states)
    if rule != "argmax" or k == 2:
        return [forest(clf, support)]
    pos = clf.class_states.index(clf.positive)
    return [Forest(clf, against=c, support=support) for c in range(k) if c != pos]


def _support_pair_forests(clf) -> list[Forest]:
    return _pair_forests(clf, True)


def pair_forests(clf, support: bool = False) -> list[Forest]:
    """Return the races a positive decision must win.

    One :class:`Forest` for a two-state class; under ``rule="argmax"`` with more states, one
    per other class state (the positive state beats it, strictly if it comes first).
    ``support``: within the network's support (a pair of classes both at zero is no
    instance of theirs: either a third class wins, whose race fails, or none has any
    probability and the instance is none).
    """
    return remembered(clf, _support_pair_forests if support else _pair_forests)


def _support_forest(clf) -> Forest:
    return Forest(clf, support=True)


def forest(clf, support: bool = False) -> Forest:
    """Return the :class:`Forest` of ``clf``, read once and remembered while ``clf`` lives.

    ``support``: its races within the network's support.
    """
    return remembered(clf, _support_forest if support else Forest)
