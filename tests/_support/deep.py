"""Deep diagrams and a guard that Python's recursion limit is left alone.

``majority(n)`` is a naive Bayes whose features all weigh the same: its decision is
"at least half the features on", a diagram ``n`` levels deep and about ``n * n / 4`` nodes
wide, deep enough that a pass recursing once or more per level would pass Python's
default recursion limit (1,000) at ``n = 200``.
"""

from __future__ import annotations

import contextlib
import sys

from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

import bnx

__all__ = ["majority", "limit_untouched"]


def majority(n: int, *, lean: float = 0.75) -> bnx.Classifier:
    """A naive Bayes over ``n`` binary features ``f0 .. f{n-1}`` with one CPT each."""
    feats = [f"f{i}" for i in range(n)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]])]
    cpds += [TabularCPD(f, 2, [[lean, 1 - lean], [1 - lean, lean]], evidence=["C"],
                        evidence_card=[2]) for f in feats]
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", 1)


@contextlib.contextmanager
def limit_untouched(limit: int = 1000):
    """Run the block with Python's recursion limit at ``limit`` and fail if anything in
    it calls :func:`sys.setrecursionlimit`; the old limit is restored afterwards."""
    old, setter = sys.getrecursionlimit(), sys.setrecursionlimit
    setter(limit)

    def refuse(value):
        raise AssertionError(f"sys.setrecursionlimit({value}) called")

    sys.setrecursionlimit = refuse
    try:
        yield
    finally:
        sys.setrecursionlimit = setter
        setter(old)
