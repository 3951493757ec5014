"""The float contraction of the general engine's tail factor: within its proven bound."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bnx.compilation.engines._contraction import contract, plan  # private: a unit

VARS = ("A", "B", "C", "D", "E")


@st.composite
def factor_sets(draw):
    card = {v: draw(st.integers(1, 3)) for v in VARS}
    big = draw(st.sampled_from([1, 10 ** 20]))
    factors = []
    for _ in range(draw(st.integers(1, 5))):
        scope = tuple(draw(st.lists(st.sampled_from(VARS), min_size=1, max_size=3,
                                    unique=True)))
        size = math.prod(card[v] for v in scope)
        vals = draw(st.lists(st.integers(0, 7).map(lambda x: x * big), min_size=size,
                             max_size=size))
        factors.append((scope, np.array(vals, dtype=object).reshape([card[v]
                                                                     for v in scope])))
    used = sorted({v for s, _ in factors for v in s})
    keep = tuple(draw(st.lists(st.sampled_from(used), max_size=3, unique=True)))
    return factors, keep, card


@settings(max_examples=150, deadline=None)
@given(factor_sets())
def test_contraction_within_its_bound(case):
    """Every entry is within the relative ``err`` of the exact sum of products, and 0
    exactly where that is 0."""
    factors, keep, card = case
    p = plan([s for s, _ in factors], keep, card)
    out = contract(p, factors)
    assert out is not None
    table, scale, err = out
    assert 0 < err < 2.0 ** -30
    hidden = sorted({v for s, _ in factors for v in s} - set(keep))
    assert table.shape == tuple(card[v] for v in keep)
    for idx in itertools.product(*(range(card[v]) for v in keep)):
        x = 0  # brute force: every assignment of the summed variables
        for h in itertools.product(*(range(card[v]) for v in hidden)):
            value = dict(zip(keep, idx)) | dict(zip(hidden, h))
            x += math.prod(int(t[tuple(value[v] for v in sc)]) for sc, t in factors)
        got = Fraction(float(table[idx])) * Fraction(2) ** scale
        if x == 0:
            assert got == 0
        else:
            assert abs(got - x) <= Fraction(err) * x


def test_contraction_refuses_too_wide_a_range():
    """A product whose smallest nonzero terms could underflow gets no float result: the
    entry ``1 * 1 * ...`` of twenty factors ``[1, 2**60]`` is ``2**-1220`` of the largest."""
    factors = [((f"X{j}",), np.array([1, 1 << 60], dtype=object)) for j in range(20)]
    keep = tuple(f"X{j}" for j in range(20))
    p = plan([s for s, _ in factors], keep, {f"X{j}": 2 for j in range(20)})
    assert contract(p, factors) is None


def test_contraction_rescales_a_range_that_only_looks_too_wide():
    """Summed out, the same factors leave numbers near 1: the tracked range is measured
    and rescaled instead of refused, and the result is within its bound."""
    factors = [((f"X{j}",), np.array([1, 1 << 60], dtype=object)) for j in range(20)]
    p = plan([s for s, _ in factors], (), {f"X{j}": 2 for j in range(20)})
    table, scale, err = contract(p, factors)
    exact = (1 + (1 << 60)) ** 20
    assert abs(Fraction(float(table)) * Fraction(2) ** scale - exact) <= Fraction(err) * exact
