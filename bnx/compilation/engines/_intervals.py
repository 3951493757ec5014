"""Exact equivalence intervals of the odds ratio ``rho`` (shared by the interval engines).

A binary-class sub-classifier is summarised by ``rho = (1 - T) Pr(c, y) / (T Pr(not c, y))``
of the observed prefix ``y``; the prefixes with the same remaining decision function form
an interval of ``rho``. :class:`Intervals` holds the disjoint intervals of one level and
finds the one that holds a new ``rho``; :class:`Meet` computes a new node's interval from
its children's.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from fractions import Fraction
from typing import Any

from ...classifier._classifier import Classifier
from ...diagram import _setops as sets

__all__ = ["INF", "Intervals", "Meet", "prior_odds", "approx", "terminal"]

INF = None  # the state "rho = infinity": positive whatever comes next


def prior_odds(clf: Classifier) -> tuple[int, int, Fraction | None]:
    """Return ``(pos, neg, rho)`` for a binary class: the state before any feature.

    ``rho = (1 - T) Pr(c) / (T Pr(not c))`` (``INF`` when the denominator is 0).
    """
    pos = clf.class_states.index(clf.positive)
    neg = 1 - pos
    t = clf.threshold
    prior = clf.table(clf.class_var)[0]
    num, den = (1 - t) * prior[pos], t * prior[neg]
    return pos, neg, (INF if den == 0 else num / den)


def approx(x: Fraction) -> float:
    """Round ``x`` to a float monotonically (saturating at 0 and infinity)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf


class Intervals:
    """Disjoint intervals of ``rho`` at one level, each with its node, sorted by lower end.

    An entry is ``(node, lo, lo_closed, hi, hi_closed, approx(lo), approx(hi))``;
    ``hi is None`` is +infinity (its approximation ``inf``). Comparisons run on float approximations
    first: rounding is monotone, so a strict float inequality decides the exact one, and only float
    ties are settled exactly.
    """

    __slots__ = ("flos", "fhis", "keys", "entries")

    def __init__(self) -> None:
        self.flos: list[float] = []
        self.fhis: list[float] = []
        self.keys: list = []
        self.entries: list = []

    def find(self, rho: Fraction):
        """Find the entry whose interval holds ``rho``, or ``None``."""
        f = approx(rho)
        keys, flos = self.keys, self.flos
        if f == 0.0 or f == math.inf:  # saturated floats carry no order: search exactly
            j = bisect_right(keys, (rho, 0)) - 1
        else:
            j = bisect_right(flos, f) - 1
        while j >= 0 and flos[j] == f and keys[j] > (rho, 0):  # float ties: settle exactly
            j -= 1
        if j < 0:
            return None
        e = self.entries[j]
        # rho >= lo (strictly above when the interval is open at lo)
        if not (flos[j] < f or rho > e[1] or (e[2] and rho == e[1])):
            return None
        # rho <= hi (strictly below when open at hi)
        fh = self.fhis[j]
        if e[3] is None or f < fh or rho < e[3] or (e[4] and rho == e[3]):
            return e
        return None

    def add(self, entry) -> None:
        """Insert an entry, keeping the intervals sorted by lower end."""
        lo, f = entry[1], entry[5]
        key = (lo, 0 if entry[2] else 1)
        keys, flos = self.keys, self.flos
        if f == 0.0 or f == math.inf:  # saturated floats carry no order: search exactly
            j = bisect_right(keys, key)
        else:
            j = bisect_right(flos, f)
            while j > 0 and flos[j - 1] == f and keys[j - 1] > key:
                j -= 1
            while j < len(keys) and flos[j] == f and keys[j] <= key:
                j += 1
        keys.insert(j, key)
        flos.insert(j, f)
        self.fhis.insert(j, entry[6])
        self.entries.insert(j, entry)


class Meet:
    """The intersection of the children's intervals pulled back to the parent's ``rho``.

    Float approximations decide every comparison they can (rounding is monotone, so
    a strict float inequality holds exactly); float ties are settled exactly.
    """

    __slots__ = ("lo", "lo_closed", "hi", "hi_closed", "flo", "fhi")

    def __init__(self) -> None:
        self.lo, self.lo_closed, self.hi, self.hi_closed = Fraction(0), True, None, False
        self.flo, self.fhi = 0.0, math.inf

    def add(self, child, factor: Fraction | None = None) -> None:
        """Constrain by a child reached with ``rho * factor``.

        ``factor > 0``; ``None``: the child's state is ``rho`` itself.
        """
        _, clo, clc, chi, chc, cflo, cfhi = child
        if factor is None:
            plo, phi, fplo, fphi = clo, chi, cflo, cfhi
        else:
            plo = clo / factor
            fplo = approx(plo)
            if chi is None:
                phi, fphi = None, math.inf
            else:
                phi = chi / factor
                fphi = approx(phi)
        if fplo > self.flo or (fplo == self.flo and (plo > self.lo or
                                                    (plo == self.lo and not clc))):
            self.lo, self.lo_closed, self.flo = plo, clc, fplo
        if phi is not None and (self.hi is None or fphi < self.fhi or
                                (fphi == self.fhi and (phi < self.hi or
                                                       (phi == self.hi and not chc)))):
            self.hi, self.hi_closed, self.fhi = phi, chc, fphi

    def entry(self, node):
        """Return the entry of ``node`` with the interval met so far."""
        return (node, self.lo, self.lo_closed, self.hi, self.hi_closed, self.flo, self.fhi)


def terminal(bdd: Any, rho: Fraction):
    """Decide at the last level: the decision is ``rho >= 1``."""
    if rho >= 1:
        return sets.true(bdd), Fraction(1), True, None, False, 1.0, math.inf
    return sets.false(bdd), Fraction(0), True, Fraction(1), False, 0.0, 1.0

