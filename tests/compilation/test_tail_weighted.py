"""The weight-vector tail's float filter agrees with exact integer arithmetic."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bnx.compilation.engines._truth import floats, tail_truth, weighted_truth  # private: units


def _exact(w, k, r):
    nc, m, nz = r.shape
    return [sum(w[c] * sum(int(k[c, o]) * int(r[c, o, z]) for o in range(m))
                for c in range(nc)) >= 0 for z in range(nz)]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_weighted_truth_matches_exact(data):
    nc = data.draw(st.integers(2, 4))
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 4))
    big = data.draw(st.sampled_from([1, 10 ** 30]))
    ints = st.integers(0, 5).map(lambda x: x * big)
    k = np.array(data.draw(st.lists(ints, min_size=nc * m, max_size=nc * m)),
                 dtype=object).reshape(nc, m)
    r = np.array(data.draw(st.lists(ints, min_size=nc * m * nz, max_size=nc * m * nz)),
                 dtype=object).reshape(nc, m, nz)
    w = data.draw(st.lists(st.fractions(-1, 1, max_denominator=7), min_size=nc, max_size=nc))
    top = max((abs(x) for x in w), default=Fraction(0))
    if top:
        w = [x / top for x in w]
    w = tuple(Fraction(x) for x in w)
    kf, rf = floats(k), floats(r)
    af = None
    if (kf is not None and rf is not None
            and not ((kf > 0).any() and kf[kf > 0].min() < 2.0 ** -100)):
        af = (kf[:, :, None] * rf).sum(axis=1)
    got = weighted_truth(w, lambda zs: k[:, :, None], af, r).tolist()
    assert got == _exact(w, k, r)  # ties (sum exactly 0) included: they go to integers
    assert weighted_truth(w, lambda zs: k[:, :, None], None, r).tolist() == _exact(w, k, r)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_tail_truth_filter_matches_exact(data):
    """The pair mode's truth table and exact ``rho`` interval: the float filter (sums
    from a batched matrix product, as the engine makes them) gives what the exact
    integers give, ties and zero columns included, and every ``rho`` in the interval
    has the same table."""
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 6))
    big = data.draw(st.sampled_from([1, 10 ** 30]))
    ints = st.integers(0, 5).map(lambda x: x * big)
    scale = data.draw(st.sampled_from([1, 2 ** 300]))  # B / A far from 1
    k = np.array(data.draw(st.lists(ints, min_size=2 * m, max_size=2 * m)),
                 dtype=object).reshape(2, m)
    r = np.array(data.draw(st.lists(ints, min_size=2 * m * nz, max_size=2 * m * nz)),
                 dtype=object).reshape(2, m, nz)
    r[1] = r[1] * scale
    rho = data.draw(st.fractions(Fraction(1, 12), 20, max_denominator=12))
    rho *= Fraction(2) ** data.draw(st.sampled_from([0, 0, -300, -995, 90, 120]))
    kf, rf = floats(k), floats(r)
    sums = None
    if kf is not None and rf is not None and (
            not (kf > 0).any() or not (rf > 0).any()
            or kf[kf > 0].min() * rf[rf > 0].min() >= 2.0 ** -900):  # the engine's guard
        sums = np.matmul(kf.reshape(2, 1, m), rf)[:, 0, :]
    truth, lo, hi, _ = tail_truth(rho, lambda zs: k[:, :, None], None, r)
    got = tail_truth(rho, lambda zs: k[:, :, None], sums, r)
    assert (got[0].tolist(), got[1], got[2]) == (truth.tolist(), lo, hi)
    truth = truth.tolist()
    pairs = [(sum(int(k[0, o]) * int(r[0, o, z]) for o in range(m)),
              sum(int(k[1, o]) * int(r[1, o, z]) for o in range(m))) for z in range(nz)]
    def table(x):
        return [b == 0 if a == 0 else x * a >= b for a, b in pairs]
    assert truth == table(rho) == table(lo)
    if hi is not None:
        assert lo <= rho < hi and table(hi) != truth


class _Lazy:
    """Exact columns on demand, as a float tail factor's (``r[:, :, zs]``)."""

    def __init__(self, r):
        self.r, self.shape = r, r.shape

    def __getitem__(self, key):
        return self.r[key]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_tail_truth_with_float_factor_is_exact_and_its_interval_sound(data):
    """With a tail factor known only in floats within a relative ``err`` (its exact
    columns computed on demand), the truth table is still exact, and the interval it
    returns holds ``rho`` and gives every ``rho`` in it the same table."""
    m = data.draw(st.integers(1, 3))
    nz = data.draw(st.integers(1, 6))
    ints = st.integers(0, 5)
    k = np.array(data.draw(st.lists(ints, min_size=2 * m, max_size=2 * m)),
                 dtype=object).reshape(2, m)
    r = np.array(data.draw(st.lists(ints, min_size=2 * m * nz, max_size=2 * m * nz)),
                 dtype=object).reshape(2, m, nz)
    rho = data.draw(st.fractions(Fraction(0), 6, max_denominator=6))
    err = 2.0 ** -40
    rf = floats(r)
    noise = np.array(data.draw(st.lists(st.floats(-1, 1), min_size=r.size,
                                        max_size=r.size))).reshape(r.shape)
    rf = rf * (1 + err * noise)  # a float factor off by up to err, zeros exact
    sums = np.matmul(floats(k).reshape(2, 1, m), rf)[:, 0, :] if (k > 0).any() else \
        np.zeros((2, nz))
    truth, lo, hi, hi_closed = tail_truth(rho, lambda zs: k[:, :, None], sums, _Lazy(r),
                                          err=err)
    pairs = [(sum(int(k[0, o]) * int(r[0, o, z]) for o in range(m)),
              sum(int(k[1, o]) * int(r[1, o, z]) for o in range(m))) for z in range(nz)]

    def table(x):
        return [b == 0 if a == 0 else x * a >= b for a, b in pairs]
    assert truth.tolist() == table(rho)
    assert lo <= rho and (hi is None or rho < hi or (hi_closed and rho == hi))
    for x in [lo, (lo + rho) / 2] + ([] if hi is None else [hi] if hi_closed else
                                      [(rho + hi) / 2]):
        assert table(x) == table(rho)
