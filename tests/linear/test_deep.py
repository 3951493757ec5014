"""The explanations without compiling, on networks deeper than Python's default recursion
limit (under ``limit_untouched``): a TAN whose tree is a path of 450 features, a naive
Bayes of 500 features and a majority of 300, against answers known in closed form."""

from __future__ import annotations

import pytest

import bnx
from tests._support.deep import limit_untouched, majority, one_matters


@pytest.mark.slow
def test_deep_networks_without_compiling():
    with limit_untouched():
        for clf in (one_matters(450, "tan"), one_matters(500)):
            x = dict.fromkeys(clf.features, 1)  # positive because f0 = 1, and only so
            assert bnx.linear.shortest_pi_explanation(clf, x) == {"f0": 1}
            assert bnx.linear.robustness(clf, x) == 1
        clf = majority(300)
        x = dict.fromkeys(clf.features, 1)  # at least 150 of 300 on: positive
        assert len(bnx.linear.shortest_pi_explanation(clf, x)) == 150
        assert bnx.linear.robustness(clf, x) == 151
