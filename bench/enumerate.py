"""Cost of listing PI-explanations, per explanation (issue 7: about 1 µs).

Compiles the votes naive Bayes (``bench/_data.py``), draws random instances (seeded)
until ``--sets`` of them have at least ``--min`` PI-explanations, computes their sets
once, then times only the listing (``for e in pis``) over ``--repeats`` passes, in CPU
time (``time.process_time``). Prints the best pass's microseconds per explanation and,
for reference, the cost of building one explanation's dict alone.

Usage::

    PYTHONPATH=. python bench/enumerate.py [--backend cudd] [--sets 20] [--min 200]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _data
import _util

import bnx

SEED = 20180713


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cudd")
    ap.add_argument("--sets", type=int, default=20)
    ap.add_argument("--min", type=int, default=200, help="least explanations per set")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    clf = _data.votes().clf
    odd = bnx.compile(clf, backend=args.backend)
    rng = random.Random(SEED)
    sets = []
    while len(sets) < args.sets:
        x = {f: rng.choice(clf.states(f)) for f in clf.features}
        pis = bnx.pi_explanations(odd, x)
        if len(pis) >= args.min:
            sets.append(pis)
    total = sum(len(p) for p in sets)
    best = None
    for _ in range(args.repeats):
        t = time.process_time()
        for p in sets:
            for _e in p:
                pass
        el = time.process_time() - t
        best = el if best is None else min(best, el)
    items = [(f, clf.states(f)[0]) if i % 2 else None for i, f in enumerate(clf.features)]
    dict_us = min(timeit.repeat(lambda: dict(filter(None, items)), number=100_000,
                                repeat=3)) / 100_000 * 1e6
    print(f"{len(sets)} sets, {total / len(sets):.0f} explanations on average")
    print(f"listing: {best / total * 1e6:.2f} µs per explanation (CPU, best of "
          f"{args.repeats}); building one dict alone: {dict_us:.2f} µs")
    print(_util.load_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
