"""The erosion engines checked against the brute force's robustness profile."""

from __future__ import annotations

import math

from bnx.changes._erosion import eroded_counts  # private: the profile's pass (a unit)
from bnx.diagram._arrays import negate  # private: the negative decision's arrays
from tests._support import oracle_reasons as brute

__all__ = ["erosion_engines_agree"]


def erosion_engines_agree(odd, args, immutable, rule="threshold") -> None:
    """The erosion engine, with stars by conjunction and, where the decision is unate, by
    one gather, counts each decision's instances by robustness as the brute force does."""
    enc = odd.encoding
    mutable = [f not in immutable for f in enc.features]
    pair = odd.meta.get("least_states")
    for decision, arrays in ((True, odd.arrays), (False, negate(odd.arrays))):
        want = brute.robustness_profile(args, immutable, rule, decision)
        stuck = want.pop(math.inf, 0)
        for least in [None] + ([pair[0 if decision else 1]] if pair is not None else []):
            assert eroded_counts(arrays, enc, mutable, least) == (want, stuck)

