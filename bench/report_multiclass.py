"""The report on a multi-class decision: ``python bench/report_multiclass.py [--rounds N]``.

Two targets, each timed as a user meets it, in one process:

1. ``bnx.explain(odd, x)`` on child (pgmpy's, class ``Disease``, 6 states, its 7 leaves),
   compiled once: after the first report on the ODD (which builds its array views), the
   first report on each of ``--rounds`` random complete instances, then the same call
   again, and the report with a rival (the runner-up), under 20 ms;
2. the same on hepar2 (class ``Cirrhosis``, 3 states, the 14 clinical findings of
   ``bench/multiclass.py``'s ``HEPAR2_FINDINGS``), under 200 ms.

Each line gives the median and the worst of the wall times and the median CPU time
(``time.process_time``), which other load on a shared machine disturbs less.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _util
from multiclass import HEPAR2_FINDINGS, pgmpy_network

import bnx

CONFIGS = {
    "child": (lambda: pgmpy_network("child"), "Disease", None, 0.020),
    "hepar2-14": (lambda: pgmpy_network("hepar2"), "Cirrhosis", HEPAR2_FINDINGS, 0.200),
}


def _timed(call) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - t, time.process_time() - c


def run(name: str, rounds: int, seed: int = 7) -> None:
    make, class_var, features, target = CONFIGS[name]
    clf = bnx.Classifier(make(), class_var, features=features)
    t = time.perf_counter()
    odd = bnx.compile(clf)
    compiled = time.perf_counter() - t
    rng = random.Random(seed)
    xs = [{f: rng.choice(clf.states(f)) for f in clf.features} for _ in range(rounds + 1)]
    first_ever = _timed(lambda: bnx.explain(odd, xs[0]))[0]
    rows = {"first report on an instance": [], "the same report again": [],
            "with rival= (the runner-up)": []}
    for x in xs[1:]:
        rows["first report on an instance"].append(_timed(lambda: bnx.explain(odd, x)))
        rows["the same report again"].append(_timed(lambda: bnx.explain(odd, x)))
        probs = clf.class_probabilities(x)
        decided = odd.decide(x)
        rival = max((s for s in odd.classes if s != decided), key=probs.get)
        rows["with rival= (the runner-up)"].append(
            _timed(lambda: bnx.explain(odd, x, rival=rival)))
    print(f"{name}: {len(clf.features)} features, {len(odd.classes)} classes, ODD of "
          f"{odd.size} nodes compiled in {compiled:.2f} s; the first report on the fresh "
          f"ODD {first_ever * 1000:.0f} ms (target for the others < {target * 1000:.0f} ms)")
    for what, ts in rows.items():
        wall = [w for w, _ in ts]
        cpu = [c for _, c in ts]
        print(f"  {what}: median {statistics.median(wall) * 1000:.1f} ms wall, worst "
              f"{max(wall) * 1000:.1f} ms, median CPU {statistics.median(cpu) * 1000:.1f} ms "
              f"({len(ts)} instances)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=20, help="instances per network (default 20)")
    p.add_argument("--only", nargs="*", choices=sorted(CONFIGS), help="these networks only")
    args = p.parse_args()
    print(_util.machine_line())
    print(_util.load_line())
    for name in args.only or CONFIGS:
        run(name, args.rounds)


if __name__ == "__main__":
    main()
