"""SHAP and Banzhaf values on a deep diagram: no recursion (under ``limit_untouched``) and
no float overflow past 170 features (``n!`` no longer fits a double), against the
values of the majority function computed from binomials, without a diagram."""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest

import bnx
from bnx.attribution.shapley import coalition_weights
from tests._support.deep import limit_untouched, majority, majority_count, one_matters

BACKENDS = bnx.backends.available_backends()


@functools.cache
def _majority_value(n: int, k: int, on: bool, kind: str) -> Fraction:
    """The value of a feature that is ``on`` (or off) in the instance of ``majority(n)``
    with ``k`` features on, under the uniform background: by symmetry a sum over how
    many features on and off join the coalition."""
    half = -(-n // 2)

    def v(a: int, b: int) -> Fraction:  # a features kept on and b off, the rest uniform
        r = n - a - b
        return Fraction(sum(comb(r, j) for j in range(max(0, half - a), r + 1)), 2 ** r)

    ones, zeros = (k - 1, n - k) if on else (k, n - k - 1)
    total = Fraction(0)
    for s1 in range(ones + 1):
        for s0 in range(zeros + 1):
            s = s1 + s0
            w = (Fraction(factorial(s) * factorial(n - s - 1), factorial(n))
                 if kind == "shapley" else Fraction(1, 2 ** (n - 1)))
            gain = v(s1 + 1, s0) - v(s1, s0) if on else v(s1, s0 + 1) - v(s1, s0)
            total += comb(ones, s1) * comb(zeros, s0) * w * gain
    return total


def test_the_closed_form_on_a_small_majority():
    """The formula above, against the exact values of a majority compiled normally."""
    n, k = 7, 4
    odd = bnx.compile(majority(n), backend="autoref")
    x = {f: int(i < k) for i, f in enumerate(odd.features)}
    for kind, values in (("shapley", bnx.shap_values), ("banzhaf", bnx.banzhaf_values)):
        got = values(odd, x, {}, exact=True)
        want = [_majority_value(n, k, i < k, kind) for i in range(n)]
        assert list(got.values) == want


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_values_on_a_deep_majority(backend):
    n, k = 200, 101
    with limit_untouched():
        odd = bnx.compile(majority(n), backend=backend)
        x = {f: int(i < k) for i, f in enumerate(odd.features)}
        shap = bnx.shap_values(odd, x, {})
        banzhaf = bnx.banzhaf_values(odd, x, {})
    assert float(shap.base_values) == pytest.approx(majority_count(n) / 2 ** n, rel=1e-12)
    for got, kind in ((shap, "shapley"), (banzhaf, "banzhaf")):
        on, off = (float(_majority_value(n, k, s, kind)) for s in (True, False))
        want = np.array([on] * k + [off] * (n - k))
        assert np.allclose(np.asarray(got.values, dtype=float), want, rtol=1e-9, atol=0)


def test_coalition_weights_past_the_doubles_factorials():
    for n in (171, 1100):
        w = coalition_weights(n, "shapley", exact=False)
        exact = coalition_weights(n, "shapley", exact=True)
        assert w[-1] == 0 and np.isfinite(w).all()
        assert all(float(e) == x for e, x in zip(exact, w))  # correctly rounded
        assert coalition_weights(n, "banzhaf", exact=False)[0] == float(Fraction(1, 2 ** (n - 1)))
    small = coalition_weights(12, "shapley", exact=False)  # as before: n! fits a double
    assert list(small[:-1]) == [1.0 * factorial(k) * factorial(11 - k) / factorial(12)
                                for k in range(12)]


@pytest.mark.slow
def test_float_attributions_stop_where_doubles_overflow():
    """Past 1,024 features the float sums over coalitions overflow: a clear error that
    points to exact=True, not NaN values (exact=True answers, in about 20 s here)."""
    for n, fine in ((1024, True), (1025, False)):
        odd = bnx.compile(one_matters(n), backend="autoref")
        x = {f"f{i}": 1 for i in range(n)}
        background = {f"f{i}": {0: 0.5, 1: 0.5} for i in range(n)}
        for values in (bnx.shap_values, bnx.banzhaf_values):
            if fine:
                assert values(odd, x, background).values[0] == 0.5
            else:
                with pytest.raises(bnx.ArgumentError, match="exact=True"):
                    values(odd, x, background)
