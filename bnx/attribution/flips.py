"""The interval of a changed CPT entry ``t`` that keeps one decision.

When the class joints of an instance are lines ``Pr(c, x)(t) = a[c] + b[c] t`` (one CPT
entry moved to ``t``, its column co-varied proportionally), the decision is one linear
inequality in ``t`` under the threshold rule and an intersection of them under argmax
(see :mod:`bnx.classifier._rules`), so the values of ``t`` that keep it form one interval, solved
here exactly in fractions. Shared by :mod:`.sensitivity` (one instance) and
:mod:`.sensitivity_all` (every instance).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["flip_interval"]


def _constraints(a: list, b: list, rule: str, p: int, threshold) -> list:
    """Write the decision on ``joint(t) = a + b t`` as ``[(h0, h1, strict)]``.

    Positive iff ``h0 + h1 t > 0`` (strict) or ``>= 0`` for every item.
    """
    if rule == "argmax":
        return [(a[p] - a[c], b[p] - b[c], c < p) for c in range(len(a)) if c != p]
    t = threshold
    h0 = (1 - t) * a[p] - t * (sum(a) - a[p])
    h1 = (1 - t) * b[p] - t * (sum(b) - b[p])
    return [(h0, h1, False)]


def flip_interval(a: list, b: list, theta: Fraction, rule: str, p: int,
                  threshold) -> tuple[Fraction, Fraction, bool]:
    """Return ``(low, high, positive)``: where the decision stays what it is at ``theta``.

    The interval of ``t`` in ``[0, 1]`` around ``theta`` in which the decision on ``joint(t)
    = a + b t`` stays what it is at ``theta``.

    Every ``t`` strictly between ``low`` and ``high`` keeps the decision; an endpoint
    inside ``(0, 1)`` is a flip point, where the decision may already be the other one.
    """
    lo, hi = Fraction(0), Fraction(1)
    empty = False
    cons = _constraints(a, b, rule, p, threshold)
    for h0, h1, strict in cons:
        if h1 == 0:
            if h0 < 0 or (strict and h0 == 0):
                empty = True
            continue
        root = Fraction(-h0) / h1
        if h1 > 0:
            lo = max(lo, root)
        else:
            hi = min(hi, root)
    positive = all((h0 + h1 * theta > 0) if s else (h0 + h1 * theta >= 0)
                   for h0, h1, s in cons)
    if positive:
        return lo, hi, True
    if not empty and lo == hi:  # a single point: positive only if no strict test is tight
        empty = not all((h0 + h1 * lo > 0) if s else (h0 + h1 * lo >= 0) for h0, h1, s in cons)
    if empty or lo > hi:  # positive nowhere in [0, 1]
        return Fraction(0), Fraction(1), False
    return (Fraction(0), lo, False) if theta <= lo else (hi, Fraction(1), False)
