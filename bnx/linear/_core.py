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
(``0 >= 0``) and -inf in the strict one. Finite sums are floats with a proven error
bound (:attr:`Race.tol`); a comparison the float cannot settle is redone exactly on
the rational products (:meth:`Race.exact`).
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction
from functools import cmp_to_key

from ..errors import StructureError

__all__ = ["Race", "Weights", "weights"]

_U = 2.0 ** -49  # four units in the last place: each log below is within _U * its magnitude


def _log(v: Fraction) -> tuple[float, float]:
    """``(log v, magnitude)`` of a positive rational, via its integer parts (no underflow)."""
    ln, ld = math.log(v.numerator), math.log(v.denominator)
    return ln - ld, abs(ln) + abs(ld) + 1.0


class Weights:
    """The per-value factors of a naive Bayes classifier, read once per classifier.

    ``a[i][v]`` and ``b[i][v]`` are the exact factors of the positive and negative
    side, ``lg[i][v] = log(a / b)`` (0 where either vanishes) and ``mag[i][v]`` bounds
    the magnitudes it was computed from. The positive side wins ``A >= B`` (or
    ``A > B`` when ``strict``) with ``A = a0 * prod a`` and ``B = b0 * prod b``.
    """

    def __init__(self, clf) -> None:
        if getattr(clf, "structure", None) != "naive_bayes":
            raise StructureError(
                f"bnx.linear explains naive Bayes classifiers only; this one is a "
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
        self.a, self.b, self.lg, self.mag = [], [], [], []
        for f in self.features:
            table = clf.table(f)
            ra, rb = table[pos], table[neg]
            lgs, mags = [], []
            for x, y in zip(ra, rb):
                if x > 0 and y > 0:
                    (lx, mx), (ly, my) = _log(x), _log(y)
                    lgs.append(lx - ly)
                    mags.append(mx + my)
                else:
                    lgs.append(0.0)
                    mags.append(0.0)
            self.a.append(ra)
            self.b.append(rb)
            self.lg.append(lgs)
            self.mag.append(mags)
        if self.a0 > 0 and self.b0 > 0:
            (la, ma), (lb, mb) = _log(self.a0), _log(self.b0)
            self.lg0, self.mag0 = la - lb, ma + mb
        else:
            self.lg0, self.mag0 = 0.0, 0.0
        self.index = {f: i for i, f in enumerate(self.features)}

    def positive(self, x: list[int]) -> bool:
        """The exact decision on the complete instance ``x`` (state indices)."""
        return Race(self, True).exact(x)


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def weights(clf) -> Weights:
    """The :class:`Weights` of ``clf``, read once and remembered while ``clf`` lives."""
    try:
        got = _CACHE.get(clf)
    except TypeError:
        got = None
    if got is None:
        got = Weights(clf)
        try:
            _CACHE[clf] = got
        except TypeError:
            pass
    return got


class Race:
    """The race that keeps decision ``side`` (True: the positive side wins).

    Keeping a positive decision is ``A >= B`` (``A > B`` if the rule is strict);
    keeping a negative one is its complement ``B > A`` (``B >= A``).
    """

    def __init__(self, w: Weights, side: bool) -> None:
        self.w = w
        self.side = side
        self.strict = w.strict if side else not w.strict
        self.sign = 1.0 if side else -1.0
        self.c = self.term_of(w.a0, w.b0, w.lg0)
        self.tol = (len(w.features) + 8) * _U * (
            w.mag0 + sum(max(m, default=0.0) for m in w.mag) + 1.0)

    # -------------------------------------------------------------- terms
    def term_of(self, a: Fraction, b: Fraction, lg: float) -> tuple[int, float]:
        """``(flag, log)`` of a factor pair: flag +1 / -1 for +inf / -inf, else 0."""
        p, q = (a, b) if self.side else (b, a)
        if self.strict:
            flag = -1 if p == 0 else (1 if q == 0 else 0)
        else:
            flag = 1 if q == 0 else (-1 if p == 0 else 0)
        return flag, (self.sign * lg if flag == 0 else 0.0)

    def term(self, i: int, v: int) -> tuple[int, float]:
        w = self.w
        return self.term_of(w.a[i][v], w.b[i][v], w.lg[i][v])

    def ratio(self, i: int, v: int) -> Fraction:
        """The exact ``p / q`` of a finite term."""
        w = self.w
        p, q = (w.a[i][v], w.b[i][v]) if self.side else (w.b[i][v], w.a[i][v])
        return p / q

    def above(self, i: int, u: int, v: int) -> bool:
        """Is the finite term of value ``u`` of feature ``i`` above that of ``v`` (exactly)?"""
        diff = self.term(i, u)[1] - self.term(i, v)[1]
        if abs(diff) > 8 * _U * (max(self.w.mag[i]) + 1.0):
            return diff > 0
        return self.ratio(i, u) > self.ratio(i, v)

    def extreme(self, i: int, values, *, best: bool) -> int | None:
        """The worst (or best) of ``values`` of feature ``i`` in the term order, exactly."""
        values = list(values)
        if not values:
            return None
        terms = [self.term(i, v) for v in values]
        sgn = 1 if best else -1
        top = max(range(len(values)), key=lambda k: (sgn * terms[k][0], sgn * terms[k][1]))
        flag, lg = terms[top]
        if flag != 0:
            return values[top]
        tol = 4 * _U * (max(self.w.mag[i]) + 1.0)
        near = [k for k in range(len(values)) if terms[k][0] == 0
                and abs(terms[k][1] - lg) <= tol]
        if len(near) > 1:
            pick = max if best else min
            top = pick(near, key=lambda k: (self.ratio(i, values[k]), -k if best else k))
        return values[top]

    # -------------------------------------------------------------- deciding
    def exact(self, x: list[int]) -> bool:
        """Does the race hold on the complete assignment ``x``? Exact products."""
        w = self.w
        pa = [w.a0] + [w.a[i][v] for i, v in enumerate(x)]
        pb = [w.b0] + [w.b[i][v] for i, v in enumerate(x)]
        num = math.prod(f.numerator for f in pa) * math.prod(f.denominator for f in pb)
        den = math.prod(f.numerator for f in pb) * math.prod(f.denominator for f in pa)
        p, q = (num, den) if self.side else (den, num)
        return p > q if self.strict else p >= q

    def decide(self, plus: int, minus: int, s: float, assignment) -> bool:
        """The race given its counts of +inf and -inf terms and its finite sum ``s``.

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
        if s > self.tol:
            return True
        if s < -self.tol:
            return False
        return self.exact(assignment())

    def sort_desc(self, items: list[int], gain: list[float], ratio) -> list[int]:
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
                group.sort(key=cmp_to_key(lambda u, v: (ratio(v) > ratio(u)) - (ratio(v) < ratio(u))))
            out.extend(group)
            k = j
        return out
