"""Votes per new instance, the count included: MC- and PI-explanations.

Run from the repository root::

    PYTHONPATH=. python bench/per_instance.py              # 3,000 MC / 300 PI instances
    PYTHONPATH=. python bench/per_instance.py --rounds 3   # median of 3 rounds

A freshly compiled ODD of the K2 naive Bayes of votes (``bench/_data.py``); random
complete instances (seeded), each asked once: ``bnx.mc_explanations(odd, x).count`` over
3,000 instances and ``bnx.pi_explanations(odd, x).count`` over 300. Prints the mean CPU
time (``time.process_time``) per instance in milliseconds (median over rounds, each round on
a new ODD).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util  # noqa: F401  (sets sys.path for bnx)

# isort: split
import _data

import bnx


def per_instance(clf, question, k: int, seed: int) -> float:
    odd = bnx.compile(clf)
    rng = random.Random(seed)
    xs = [{f: rng.choice(clf.states(f)) for f in clf.features} for _ in range(k)]
    t = time.process_time()  # the CPU time of this process: steadier on a loaded machine
    for x in xs:
        _ = question(odd, x).count
    return (time.process_time() - t) / k * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--mc", type=int, default=3000)
    ap.add_argument("--pi", type=int, default=300)
    args = ap.parse_args()
    clf = _data.votes().clf
    mc = [per_instance(clf, bnx.mc_explanations, args.mc, r) for r in range(args.rounds)]
    pi = [per_instance(clf, bnx.pi_explanations, args.pi, r) for r in range(args.rounds)]
    print(f"votes MC per instance: {statistics.median(mc):.3f} ms ({args.mc} instances)")
    print(f"votes PI per instance: {statistics.median(pi):.3f} ms ({args.pi} instances)")


if __name__ == "__main__":
    main()
