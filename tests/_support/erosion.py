"""The erosion engines checked against the brute force's robustness profile."""

from __future__ import annotations

import math

from bnx.changes._erosion import eroded_counts
from bnx.diagram._arrays import negate
from tests._support import oracle_reasons as brute

__all__ = ["erosion_engines_agree"]


def erosion_engines_agree(odd, args, immutable, rule="threshold") -> None:
    """Both erosion engines (numpy, Python lists), with stars by conjunction and, where
    the decision is unate, by one gather, count each decision's instances by robustness
    as the brute force does."""
    enc = odd.encoding
    mutable = [f not in immutable for f in enc.features]
    pair = odd.meta.get("least_states")
    for decision, arrays in ((True, odd.arrays), (False, negate(odd.arrays))):
        want = brute.robustness_profile(args, immutable, rule, decision)
        stuck = want.pop(math.inf, 0)
        for least in [None] + ([pair[0 if decision else 1]] if pair is not None else []):
            for small in (0, 1 << 40):
                assert eroded_counts(arrays, enc, mutable, least, small=small) == (want, stuck)

