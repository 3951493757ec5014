"""The weight-vector tail's float filter agrees with exact integer arithmetic."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings, strategies as st

from bnx.compilation.tail import floats, weighted_truth


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
    if kf is not None and rf is not None and not ((kf > 0).any() and kf[kf > 0].min() < 2.0 ** -100):
        af = (kf[:, :, None] * rf).sum(axis=1)
    got = weighted_truth(w, lambda z: k, af, r)
    assert got == _exact(w, k, r)  # ties (sum exactly 0) included: they go to integers
    assert weighted_truth(w, lambda z: k, None, r) == _exact(w, k, r)
