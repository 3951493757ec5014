"""Floating-point contraction of nonnegative integer factors, with a proven error bound.

The general engine's tail factor (:mod:`._tail`) sums the untouched factors down to the
class, the state's variables and the remaining features. Variable elimination in exact
integers is too wide for that on some networks (andes); a contraction path found by
``opt_einsum`` (a dependency of pgmpy) is far narrower, and float64 far faster. This
module plans such a contraction (:func:`plan`) and runs it (:func:`contract`), returning
the table scaled by a power of two together with a bound ``err`` on every entry's
relative error, so that callers can decide comparisons exactly (see ``tail_truth``).

Why the bound holds: every input is correctly rounded from an exact nonnegative
integer scaled by a power of two (relative error ``u = 2**-53``), and every entry of the
result is a sum of products of one entry of each input. Along any contraction path each
such product passes through at most ``F`` input roundings, one rounding per
multiplication of the steps it takes part in, and ``m - 1`` roundings of the summation
of each step that sums ``m`` terms (in any order: all terms are nonnegative, so no
cancellation), provided no operation underflows or overflows. The plan guarantees that:
every factor's largest entry lies in ``[1/2, 1)``, the product of the smallest nonzero
entries is at least ``2**-1000`` and the number of terms at most ``2**1000``, so every
nonzero partial result is a normal float. With ``N`` roundings in all, the relative error
is at most ``N u / (1 - N u)``, and an entry is 0 exactly when the exact sum is 0.

Examples
--------
>>> import numpy as np
>>> from bnx.compilation.engines._contraction import plan, contract
>>> a = np.array([[1, 2], [3, 4]], dtype=object)  # over (X, Y)
>>> b = np.array([5, 6], dtype=object)  # over (Y,)
>>> p = plan([("X", "Y"), ("Y",)], ("X",), {"X": 2, "Y": 2})
>>> table, scale, err = contract(p, [(("X", "Y"), a), (("Y",), b)])
>>> (table * 2.0 ** scale).tolist(), err < 2.0 ** -50
([17.0, 39.0], True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import opt_einsum

__all__ = ["Contraction", "plan", "contract"]

_U = 2.0 ** -53


@dataclass(frozen=True)
class Contraction:
    """A planned contraction of factors with ``scopes`` down to ``keep``.

    Pairwise ``steps`` (positions in the list of live tables; the result goes to its end),
    the largest table made, the multiply-adds, and the roundings along a term's path (the
    relative error is at most ``roundings * u / (1 - roundings * u)``).
    """

    scopes: tuple
    keep: tuple
    steps: tuple
    largest: int
    flops: int
    roundings: int


def plan(scopes: Sequence[Sequence], keep: Sequence, card: dict) -> Contraction:
    """Plan a contraction of factors with these ``scopes`` down to the variables ``keep``.

    In that order, along the best of ``opt_einsum``'s random greedy paths (each step a
    batched matrix product, see :func:`contract`).
    """
    names: dict = {}
    for v in [*keep, *(v for s in scopes for v in s)]:
        names.setdefault(v, opt_einsum.get_symbol(len(names)))
    equation = (",".join("".join(names[v] for v in s) for s in scopes) + "->"
                + "".join(names[v] for v in keep))
    shapes = [tuple(card[v] for v in s) for s in scopes]
    state = random.getstate()  # opt_einsum seeds the global generator for each trial
    try:
        path, _ = opt_einsum.contract_path(equation, *shapes, shapes=True,
                                           optimize=opt_einsum.RandomGreedy(max_repeats=16))
    finally:
        random.setstate(state)
    live = [tuple(s) for s in scopes]
    steps, largest, flops = [], max((math.prod(x) for x in shapes), default=1), 0
    roundings = len(scopes) + 1
    for pos in path:
        pos = tuple(sorted(pos))
        taken = [live[j] for j in pos]
        live = [s for j, s in enumerate(live) if j not in pos]
        need = set(keep).union(*map(set, live))
        out = taken[0]
        out, n = _step_scope(out, taken[1:], need, card) if len(taken) > 1 else (
            tuple(v for v in out if v in need), math.prod(card[v] for v in out))
        largest = max(largest, math.prod(card[v] for v in out))
        flops += n
        roundings += _step_roundings(taken, need, card)
        steps.append(pos)
        live.append(out)
    return Contraction(tuple(tuple(s) for s in scopes), tuple(keep), tuple(steps), largest,
                       flops, roundings)


def _pair(a: tuple, b: tuple, need: set) -> tuple:
    """Return the axes of a pairwise product: ``(batch, left, right, summed)``."""
    batch = tuple(v for v in a if v in b and v in need)
    left = tuple(v for v in a if v not in b and v in need)
    right = tuple(v for v in b if v not in a and v in need)
    summed = tuple(v for v in a if v in b and v not in need)
    return batch, left, right, summed


def _step_scope(a: tuple, rest: list, need: set, card: dict) -> tuple:
    """Return the scope after folding ``rest`` into ``a`` pairwise, and the multiply-adds."""
    n = 0
    for j, b in enumerate(rest):
        later = need.union(*map(set, rest[j + 1:]))
        a = tuple(v for v in a if v in later or v in b)
        b = tuple(v for v in b if v in later or v in a)
        batch, left, right, summed = _pair(a, b, later)
        n += math.prod(card[v] for v in (*batch, *left, *right, *summed))
        a = (*batch, *left, *right)
    return a, n


def _step_roundings(taken: list, need: set, card: dict) -> int:
    """Bound the roundings one term meets in a step.

    One per multiplication, and ``m - 1`` per summation of ``m`` terms (every variable
    summed in the step, at most).
    """
    summed = set().union(*map(set, taken)) - need
    return len(taken) + math.prod(card[v] for v in summed)


def contract(p: Contraction, factors: Sequence[tuple[Sequence, Any]]) -> tuple | None:
    """Contract the exact nonnegative integer ``factors`` in floats: ``(table, scale, err)``.

    One factor per planned scope, the same variables: their contraction ``p`` is ``table *
    2**scale`` to within a relative ``err`` in every entry (0 exactly where it is 0), axes
    in ``p.keep`` order; ``None`` when the guarantees of the module docstring cannot be
    given (the inputs' range is too wide, or ``err`` would exceed ``2**-30``).
    """
    live, scale, low, terms = [], 0, 0.0, 0.0
    for want, (scope, table) in zip(p.scopes, factors):
        table = np.asarray(table)
        if tuple(scope) != want:  # the same variables, in the plan's axis order
            table = table.transpose([tuple(scope).index(v) for v in want])
        flat = [int(x) for x in table.reshape(-1)]
        if any(x < 0 for x in flat):
            return None
        terms += math.log2(max(len(flat), 1))
        e = max((x.bit_length() for x in flat), default=0)
        if e == 0:  # an all-zero factor: the whole contraction is 0
            live.append((want, np.zeros(table.shape)))
            continue
        scale += e
        if e <= 1000:  # float(x) is correctly rounded; scaling by 2**-e is exact
            arr = np.array(flat, dtype=np.float64) * 2.0 ** -e
        else:
            arr = np.array([x / (1 << e) for x in flat], dtype=np.float64)
        low += math.log2(arr[arr > 0].min())
        live.append((want, arr.reshape(table.shape)))
    if low < -1000 or terms > 1000 or p.roundings * _U > 2.0 ** -30:
        return None
    for pos in p.steps:
        taken = [live[j] for j in pos]
        live = [f for j, f in enumerate(live) if j not in pos]
        need = set(p.keep).union(*(set(s) for s, _ in live))
        out = taken[0]
        for j in range(1, len(taken)):
            later = need.union(*(set(s) for s, _ in taken[j + 1:]))
            out = _multiply(out, taken[j], later)
        if len(taken) == 1:
            out = _sum_to(out, need)
        live.append(out)
    while len(live) > 1:  # a path that leaves several tables: fold them
        live.append(_multiply(live.pop(0), live.pop(0), set(p.keep).union(
            *(set(s) for s, _ in live))))
    scope, table = _sum_to(live[0], set(p.keep)) if live else ((), np.ones(()))
    table = table.transpose([scope.index(v) for v in p.keep])
    n = p.roundings
    return np.array(table, dtype=np.float64, order="C"), scale, n * _U / (1 - n * _U)


def _sum_to(f: tuple, need: set) -> tuple:
    """``f`` with every variable outside ``need`` summed out."""
    scope, table = f
    drop = tuple(j for j, v in enumerate(scope) if v not in need)
    if not drop:
        return f
    return tuple(v for v in scope if v in need), table.sum(axis=drop)


def _multiply(fa: tuple, fb: tuple, need: set) -> tuple:
    """Multiply two tables and sum down to ``need``, as one batched matrix product.

    ``numpy.matmul`` (BLAS) over the axes both keep.
    """
    (sa, ta), (sb, tb) = _sum_to(fa, need | set(fb[0])), _sum_to(fb, need | set(fa[0]))
    batch, left, right, summed = _pair(sa, sb, need)
    size = dict(zip(sa, ta.shape)) | dict(zip(sb, tb.shape))
    nb, nl, nr, ns = (math.prod(size[v] for v in g) for g in (batch, left, right, summed))
    a = ta.transpose([sa.index(v) for v in (*batch, *left, *summed)]).reshape(nb, nl, ns)
    b = tb.transpose([sb.index(v) for v in (*batch, *summed, *right)]).reshape(nb, ns, nr)
    out = np.matmul(a, b).reshape([size[v] for v in (*batch, *left, *right)])
    return (*batch, *left, *right), out
