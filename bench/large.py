"""Questions on a million-node ODD (issue 17): ``python bench/large.py [--features 40]``.

One process, CUDD, the random naive Bayes of ``bench/_data.py`` (``synthetic_nb``, binary
features, seeded). In order, each timed once (wall clock), as a user would meet them:

1. compile; the first question on the fresh ODD (PI count of instance A, which builds
   the array views); each further question on A (robustness, feature roles,
   counterfactuals, contrastive count, the shortest PI-explanation, MC count);
   PI count plus robustness on a new instance B;
2. ``count``; ``save``; ``ODD.load`` in the same process; the first question on the
   loaded ODD (PI count of A); and the peak memory of the whole run (``ru_maxrss``).

The targets of issue 17 are printed beside the times. A separate one-shot process (start
Python, load the saved ODD, count A's PI-explanations) is timed with ``--oneshot``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

import _data
import _util

import bnx

TARGETS = {"first question (fresh)": 3.0, "first question (loaded)": 3.0, "save": 3.0,
           "load": 3.0, "count": 0.5, "PI count + robustness (new instance)": 0.5}
FURTHER = 1.0  # each further question on the same instance


def _timed(rows, name, fn):
    t = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t
    rows.append((name, dt, out))
    print(f"{name:42s} {dt:8.3f} s   {_short(out)}", flush=True)
    return out


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def _instance(clf, seed):
    rng = random.Random(seed)
    return {f: rng.choice(clf.states(f)) for f in clf.features}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--features", type=int, default=40)
    ap.add_argument("--oneshot", action="store_true",
                    help="also time a fresh process that loads the file and lists A's PIs")
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    bench = _data.synthetic_nb(args.features)
    clf = bench.clf
    a, b = _instance(clf, 1), _instance(clf, 2)
    rows: list = []
    odd = _timed(rows, "compile", lambda: bnx.compile(clf, backend="cudd"))
    print(f"  ODD: {odd.size:,} nodes, {odd.arrays.size:,} array nodes")
    _timed(rows, "first question (fresh)", lambda: bnx.pi_explanations(odd, a).count)
    _timed(rows, "robustness", lambda: bnx.robustness(odd, a))
    _timed(rows, "feature roles", lambda: sorted(bnx.feature_roles(odd, a).values()).count(
        "necessary"))
    _timed(rows, "counterfactuals", lambda: len(bnx.counterfactuals(odd, a)))
    _timed(rows, "contrastive count", lambda: len(bnx.contrastive_explanations(odd, a)))
    _timed(rows, "shortest PI-explanation", lambda: len(bnx.pi_explanations(odd, a).shortest()))
    _timed(rows, "MC count", lambda: len(bnx.mc_explanations(odd, a)))
    _timed(rows, "PI count + robustness (new instance)",
           lambda: (bnx.pi_explanations(odd, b).count, bnx.robustness(odd, b)))
    _timed(rows, "count", odd.count)
    path = os.path.join(tempfile.mkdtemp(), f"nb{args.features}.bnx")
    _timed(rows, "save", lambda: odd.save(path))
    print(f"  file: {os.path.getsize(path) / 1e6:.1f} MB")
    again = _timed(rows, "load", lambda: bnx.ODD.load(path, backend="cudd"))
    _timed(rows, "first question (loaded)", lambda: bnx.pi_explanations(again, a).count)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (ru_maxrss) {peak:,.0f} MB (target < 1,500 MB)")
    if args.oneshot:
        code = ("import sys, bnx; odd = bnx.ODD.load(sys.argv[1], backend='cudd'); "
                "x = dict(zip(odd.features, sys.argv[2:])); "
                "print(bnx.pi_explanations(odd, x).count)")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code, path, *(a[f] for f in again.features)],
                       check=True, capture_output=True)
        print(f"{'one-shot process (load, PI count)':42s} {time.perf_counter() - t:8.3f} s")
    print()
    table = []
    for name, dt, _ in rows:
        limit = TARGETS.get(name, FURTHER if name not in ("compile",) else None)
        table.append([name, _util.fmt_seconds(dt),
                      "" if limit is None else f"< {limit:g} s",
                      "" if limit is None else ("yes" if dt < limit else "NO")])
    print(_util.markdown_table(["step", "time", "target", "met"], table))
    print(_util.load_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
