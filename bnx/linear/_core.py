"""The arithmetic under :mod:`bnx.linear`: a naive Bayes decision as a race of two products.

A naive Bayes decision compares two products, ``P = P0 * prod_i p_i(x_i)`` against
``Q = Q0 * prod_i q_i(x_i)``, with ``P >= Q`` (or ``P > Q``, strict). Every question
about keeping or flipping a decision is a question about keeping such a race: the
decision ``d`` of the classifier is kept iff the race of the side that ``d`` favours
holds. The race is monotone in every factor's *term*, ordered

    -inf (p = 0: P vanishes)  <  log(p / q)  <  +inf (q = 0: Q vanishes),

and holds iff, in the non-strict race, some term is +inf or (no term is -inf and the
finite terms sum to >= 0); in the strict race, no term is -inf and (some term is +inf
or the finite sum is > 0). A value with ``p = q = 0`` is +inf in the non-strict race
(``0 >= 0``) and -inf in the strict one. Finite logs are rounded to integers in
units of ``2**-40``, each with a proven error bound, so sums of them are exact
integers within :attr:`Race.tol` of the true sum; a comparison that the rounded sum
cannot settle is redone exactly on the rational products (:meth:`Race.exact`).
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction
from functools import cmp_to_key

from .._util.rounding import compare, log_ratio
from ..errors import StructureError

__all__ = ["Race", "Weights", "nudged", "remembered", "weights"]

#: logs are held as integers in units of 2**-40, so that sums of them are exact
SCALE = 2 ** 40


def _log_ratio(a: Fraction, b: Fraction) -> tuple[int, int]:
    """Return ``(L, E)`` with ``|L / SCALE - log(a / b)| <= E / SCALE``, for positive rationals.

    The log-weight of :func:`bnx._util.rounding.log_ratio` (the compiler's too) in units of
    ``1 / SCALE`` (rounding to an integer errs by at most one half).
    """
    lg, err = log_ratio(a, b)
    return round(lg * SCALE), math.ceil(err * SCALE) + 1


class Weights:
    """The per-value factors of a naive Bayes classifier, read once per classifier.

    ``a[i][v]`` and ``b[i][v]`` are the exact factors of the positive and negative
    side, ``lg[i][v]`` is ``log(a / b)`` in units of ``1 / SCALE`` (0 where either
    vanishes), within ``err[i][v]`` units. The positive side wins ``A >= B`` (or
    ``A > B`` when ``strict``) with ``A = a0 * prod a`` and ``B = b0 * prod b``.
    """

    def __init__(self, clf, support: bool = False, witness: bool = False) -> None:
        if getattr(clf, "structure", None) != "naive_bayes":
            raise StructureError(
                f"bnx.linear explains naive Bayes and TAN classifiers only; this one is a "
                f"{getattr(clf, 'structure', type(clf).__name__)} (compile it with bnx.compile "
                f"and use the ODD's explanations)")
        rule = getattr(clf, "rule", "threshold")
        cstates = tuple(clf.class_states)
        pos = cstates.index(clf.positive)
        if len(cstates) != 2:
            raise StructureError(
                f"bnx.linear needs a class with two states; {clf.class_var!r} has "
                f"{len(cstates)}, and deciding one state against several others is not a "
                f"linear threshold (compile the classifier with bnx.compile instead)")
        neg = 1 - pos
        prior = clf.table(clf.class_var)[0]
        if rule == "argmax":  # two classes: a tie goes to the first class state
            self.a0, self.b0, self.strict = prior[pos], prior[neg], pos != 0
        elif rule == "threshold":
            t = clf.threshold
            self.a0, self.b0, self.strict = (1 - t) * prior[pos], t * prior[neg], False
        else:
            raise StructureError(f"unknown decision rule {rule!r}")
        self.clf = clf
        self.features = tuple(clf.features)
        self.states = [tuple(clf.states(f)) for f in self.features]
        self.a, self.b, self.lg, self.err = [], [], [], []
        for f in self.features:
            table = clf.table(f)
            ra, rb = table[pos], table[neg]
            lgs, errs = [], []
            for x, y in zip(ra, rb):
                lg, err = _log_ratio(x, y) if x.numerator and y.numerator else (0, 0)
                lgs.append(lg)
                errs.append(err)
            self.a.append(ra)
            self.b.append(rb)
            self.lg.append(lgs)
            self.err.append(errs)
        self.lg0, self.err0 = (_log_ratio(self.a0, self.b0) if self.a0 and self.b0
                               else (0, 0))
        self.errmax = [max(e, default=0) for e in self.err]
        self.za = [[x.numerator == 0 for x in row] for row in self.a]
        self.zb = [[y.numerator == 0 for y in row] for row in self.b]
        self.index = {f: i for i, f in enumerate(self.features)}
        self.support = support or witness
        self.witness = witness
        if self.support:
            self.nudged = nudged(clf, self, [[(x, y) for x, y in zip(ra, rb)]
                                             for ra, rb in zip(self.a, self.b)],
                                 (prior[pos], prior[neg]))

    def constant(self, side: bool) -> tuple:
        """Return ``(a0, b0, lg0, err0, strict)``: the constant of the race keeping ``side``.

        Within the support the strict race is the non-strict one with the other side's
        constant nudged up (:func:`nudged`). For witnesses (``witness=True``) the race
        keeping ``side`` is the complement of the support's race keeping the other side:
        it holds exactly on the instances of positive probability decided ``side`` (an
        instance of probability zero keeps every decision within the support, so it
        keeps none here).
        """
        if self.witness:
            *c, strict = self._support_constant(not side)
            return (*c, not strict)
        return self._support_constant(side) if self.support else (
            self.a0, self.b0, self.lg0, self.err0, self.strict if side else not self.strict)

    def _support_constant(self, side: bool) -> tuple:
        strict = self.strict if side else not self.strict
        got = self.nudged.get(side) if strict else None  # (none at the threshold 0)
        return got if got is not None else (self.a0, self.b0, self.lg0, self.err0, strict)

    def race(self, side: bool) -> Race:
        """Return the :class:`Race` keeping decision ``side``, made once per classifier."""
        got = self.__dict__.get(("race", side))
        if got is None:
            got = self.__dict__[("race", side)] = Race(self, side)
        return got


def nudged(clf, w, factors: list, prior: tuple) -> dict:
    """Return the strict race's constant made non-strict, within the support.

    ``A > B`` on rationals ``A = a0 prod a_i``, ``B = b0 prod b_i`` is ``N > D`` on the
    integers of the cross-multiplied fractions, so ``A / B >= 1 + 1 / D`` whenever it is
    above 1; with ``D`` at most ``D_max`` (the product of each factor's largest
    ``num(b) den(a)``) and ``eps = 2 ** -(bits of D_max + 1)``, ``A > B`` iff ``A >= (1 +
    eps) B`` exactly. The race ``A >= (1 + eps) B`` is non-strict: it holds on any vanishing
    ``B`` (``+inf`` first), so also on ``A = B = 0``, an instance of probability zero,
    which within the support keeps every decision. At the threshold 1 the negative
    decision's race ``B > 0 = A`` is ``B >= eps' A*`` (``A*`` with the class prior
    ``prior[0]`` in place of the weight ``0``, ``eps'`` below every positive ``B / A*``):
    it holds where ``B > 0`` or the positive class is excluded; at the threshold 0 the
    strict race keeps a negative decision, which no instance of positive probability has,
    and is left as it is. ``factors``: per feature, the ``(a, b)`` pairs of its entries;
    ``prior``: the class prior's (or constant factor's) two entries, unweighted.
    ``{side: (a0, b0, lg0, err0, False)}`` for the strict side.
    """
    def bits(p0, q0, side: bool) -> int:  # the bits of a bound on the denominator D
        bound = p0 * q0
        for row in factors:
            bound *= max(((y if side else x).numerator * (x if side else y).denominator
                          for x, y in row), default=1)
        return bound.bit_length() + 1

    t = clf.threshold if getattr(clf, "rule", "threshold") == "threshold" else None
    out = {}
    for side in (True, False):
        if (w.strict if side else not w.strict) is False or t == 0:
            continue
        if side:  # keeping a positive decision strictly: A > B
            eps = Fraction(1, 2 ** bits(w.b0.numerator, w.a0.denominator, True))
            a0, b0 = w.a0, w.b0 * (1 + eps)
        elif w.a0 or t != 1:  # keeping a negative one: B > A
            eps = Fraction(1, 2 ** bits(w.a0.numerator, w.b0.denominator, False))
            a0, b0 = w.a0 * (1 + eps), w.b0
        else:  # the threshold 1: B > 0, or no instance
            pa = Fraction(prior[0])
            eps = Fraction(1, 2 ** bits(w.b0.denominator * pa.numerator, 1, False))
            a0, b0 = eps * pa, w.b0
        lg0, err0 = _log_ratio(a0, b0) if a0 and b0 else (0, 0)
        out[side] = (a0, b0, lg0, err0, False)
    return out


def _prod(ints: list[int]) -> int:
    """Multiply ``ints`` by a balanced tree (fast for thousands of big factors)."""
    while len(ints) > 1:
        ints = [ints[k] * ints[k + 1] for k in range(0, len(ints) - 1, 2)] + (
            [ints[-1]] if len(ints) % 2 else [])
    return ints[0] if ints else 1


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def remembered(clf, make):
    """``make(clf)``, made once per ``(clf, make)`` and remembered while ``clf`` lives."""
    try:
        mine = _CACHE.setdefault(clf, {})
    except TypeError:
        return make(clf)
    got = mine.get(make)
    if got is None:
        got = mine[make] = make(clf)
    return got


def _support_weights(clf) -> Weights:
    return Weights(clf, support=True)


def _witness_weights(clf) -> Weights:
    return Weights(clf, witness=True)


def weights(clf, support: bool = False, witness: bool = False) -> Weights:
    """Return the :class:`Weights` of ``clf``, read once and remembered while ``clf`` lives.

    ``support``: the races within the network's support (:func:`nudged`); ``witness``: the
    races that hold on the instances of the support with their decision only
    (:meth:`Weights.constant`).
    """
    return remembered(clf, _witness_weights if witness else
                      _support_weights if support else Weights)


class Race:
    """The race that keeps decision ``side`` (True: the positive side wins).

    Keeping a positive decision is ``A >= B`` (``A > B`` if the rule is strict);
    keeping a negative one is its complement ``B > A`` (``B >= A``).
    """

    def __init__(self, w: Weights, side: bool) -> None:
        self.w = w
        self.side = side
        self.a0, self.b0, lg0, err0, self.strict = w.constant(side)
        self.sign = 1 if side else -1
        self.c = self.term_of(self.a0, self.b0, lg0)
        #: a sum of terms, one per feature at most, errs by at most ``tol`` units
        self.tol = err0 + sum(w.errmax)
        pz, qz = (w.za, w.zb) if side else (w.zb, w.za)  # which factors vanish
        if self.strict:  # P vanishing (-inf) beats Q vanishing (+inf)
            top, top_z, low, low_z = (-1, 0), pz, (1, 0), qz
        else:
            top, top_z, low, low_z = (1, 0), qz, (-1, 0), pz
        sign = self.sign
        self.terms = [[top if t else (low if u else (0, sign * lg))
                       for t, u, lg in zip(tz, uz, lgi)]
                      for tz, uz, lgi in zip(top_z, low_z, w.lg)]
        #: each feature's worst state, and its worst state other than that
        self.worst = [self.extreme(i, range(len(t)), best=False) for i, t in enumerate(self.terms)]
        self.worst2 = [self.extreme(i, [v for v in range(len(t)) if v != self.worst[i]],
                                    best=False) for i, t in enumerate(self.terms)]
        self.W = [t[v] for t, v in zip(self.terms, self.worst)]

    def worst_other(self, i: int, v: int) -> int | None:
        """Return the worst state of feature ``i`` other than ``v``."""
        return self.worst2[i] if v == self.worst[i] else self.worst[i]

    # -------------------------------------------------------------- terms
    def term_of(self, a: Fraction, b: Fraction, lg: int) -> tuple[int, int]:
        """Return ``(flag, log)`` of a factor pair.

        Flag +1 / -1 for +inf / -inf, else 0 and the log in units of ``1 / SCALE``.
        """
        p, q = (a.numerator, b.numerator) if self.side else (b.numerator, a.numerator)
        if self.strict:
            flag = -1 if p == 0 else (1 if q == 0 else 0)
        else:
            flag = 1 if q == 0 else (-1 if p == 0 else 0)
        return flag, (self.sign * lg if flag == 0 else 0)

    def term(self, i: int, v: int) -> tuple[int, int]:
        return self.terms[i][v]

    def ratio(self, i: int, v: int) -> Fraction:
        """Return the exact ``p / q`` of a finite term."""
        w = self.w
        p, q = (w.a[i][v], w.b[i][v]) if self.side else (w.b[i][v], w.a[i][v])
        return p / q

    def above(self, i: int, u: int, v: int) -> bool:
        """Tell whether value ``u``'s finite term of feature ``i`` is above ``v``'s, exactly."""
        got = compare(self.term(i, u)[1], self.term(i, v)[1], 0, strict=True,
                      err=2 * self.w.errmax[i])
        return self.ratio(i, u) > self.ratio(i, v) if got is None else got

    def extreme(self, i: int, values, *, best: bool) -> int | None:
        """Return the worst (or best) of ``values`` of feature ``i`` in the term order, exactly.

        The first of equal ones.
        """
        values = list(values)
        if not values:
            return None
        terms = self.terms[i]
        top = (max if best else min)(values, key=terms.__getitem__)
        flag, lg = terms[top]
        if flag != 0:
            return top
        tol = 2 * self.w.errmax[i]
        near = [v for v in values if terms[v][0] == 0 and abs(terms[v][1] - lg) <= tol]
        if len(near) > 1:
            if best:
                top = max(near, key=lambda v: (self.ratio(i, v), -v))
            else:
                top = min(near, key=lambda v: (self.ratio(i, v), v))
        return top

    # -------------------------------------------------------------- deciding
    def exact(self, x: list[int]) -> bool:
        """Tell whether the race holds on the complete assignment ``x``, by exact products."""
        w = self.w
        pa = [self.a0] + [w.a[i][v] for i, v in enumerate(x)]
        pb = [self.b0] + [w.b[i][v] for i, v in enumerate(x)]
        num = _prod([f.numerator for f in pa] + [f.denominator for f in pb])
        den = _prod([f.numerator for f in pb] + [f.denominator for f in pa])
        p, q = (num, den) if self.side else (den, num)
        return p > q if self.strict else p >= q

    def decide(self, plus: int, minus: int, s: int, assignment) -> bool:
        """Decide the race given its counts of +inf and -inf terms and its finite sum ``s``.

        ``assignment()`` builds the complete assignment for the exact check, called
        only when ``s`` is within :attr:`tol` of 0.
        """
        if self.strict:
            if minus:
                return False
            if plus:
                return True
        else:
            if plus:
                return True
            if minus:
                return False
        sure = compare(s, 0, 0, strict=self.strict, err=self.tol)
        return self.exact(assignment()) if sure is None else sure

    def sort_desc(self, items: list[int], gain: dict, ratio) -> list[int]:
        """``items`` by decreasing gain; near-ties ordered by the exact ``ratio(item)``."""
        order = sorted(items, key=lambda k: -gain[k])
        out: list[int] = []
        k = 0
        eps = 4 * self.tol
        while k < len(order):
            j = k + 1
            while j < len(order) and gain[order[j - 1]] - gain[order[j]] <= eps:
                j += 1
            group = order[k:j]
            if len(group) > 1:
                group.sort(key=cmp_to_key(
                    lambda u, v: (ratio(v) > ratio(u)) - (ratio(v) < ratio(u))))
            out.extend(group)
            k = j
        return out
