"""Explanation sets on a large ODD: the 40-feature random naive Bayes of issue 17.

Run from the repository root::

    PYTHONPATH=. python bench/explain_sets.py              # synthetic_nb(40), CUDD
    PYTHONPATH=. python bench/explain_sets.py --features 34 --instances 5

Compiles ``_data.synthetic_nb(n)`` and makes its array form (``odd.arrays``, timed
separately: reading it from dd is the lead's part of issue 17), then, on seeded random
instances, times each question separately: the PI-explanation set (pi-inst, the stars it
needs made on the way), its count, and the MC-explanation set; it reports the conjunction
store's size (the ODD's nodes plus the nodes its stars made) and the peak memory of the
process. Targets (issue 17): the first PI-explanation set and its count < 1 s after the
arrays exist.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _data
import _util  # noqa: F401  (sets sys.path for _data and bnx)
import numpy as np

import bnx
from bnx.explanation.pi import _store


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--features", type=int, default=40)
    ap.add_argument("--instances", type=int, default=3)
    ap.add_argument("--backend", default="cudd")
    args = ap.parse_args(argv)
    print("load average:", ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    bench = _data.synthetic_nb(args.features)
    t = time.perf_counter()
    odd = bnx.compile(bench.clf, backend=args.backend)
    print(f"compile: {time.perf_counter() - t:.2f} s, {odd.size:,} nodes (dd)")
    t = time.perf_counter()
    arrays = odd.arrays
    print(f"arrays from dd: {time.perf_counter() - t:.2f} s, {arrays.size:,} nodes")
    rng = np.random.default_rng(0)
    print("| instance | decision | PI set s | PI count s | PI-explanations | MC set s |"
          " MC-explanations | store nodes |")
    print("|---:|:---|---:|---:|---:|---:|---:|---:|")
    for k in range(args.instances):
        x = {f: odd.states(f)[int(rng.integers(len(odd.states(f))))] for f in odd.features}
        t = time.perf_counter()
        pis = bnx.pi_explanations(odd, x)
        t_pi = time.perf_counter() - t
        t = time.perf_counter()
        n = pis.count
        t_count = time.perf_counter() - t
        t = time.perf_counter()
        mcs = bnx.mc_explanations(odd, x)
        t_mc = time.perf_counter() - t
        store = _store(odd, pis.decision)
        print(f"| {k} | {'positive' if pis.decision else 'negative'} | {t_pi:.3f} | "
              f"{t_count:.4f} | {n:,} | {t_mc:.3f} | {mcs.count:,} | {store.n:,} |")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {rss:,.0f} MB")
    print("load average:", ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
