"""Data-set benchmark: decide_many and explain_data on the votes classifier (issue 10).

Run from the repository root::

    PYTHONPATH=. python bench/data.py                 # everything, the cudd backend
    PYTHONPATH=. python bench/data.py --backend autoref --rows 1000000 --jobs 1 2

Measures, for the K2 naive Bayes votes classifier (``bnx.case_study.votes_classifier``):

* ``odd.decide_many`` over ``--rows`` random complete rows (a DataFrame of ``'y'``/``'n'``
  strings, seeded; then the same frame with categorical columns), wall-clock and CPU time,
  encoding of the rows included;
* ``bnx.explain_data`` of all 2^16 instances with ``what=("decision", "mc_count",
  "pi_count", "pi_shortest")``, once per ``--jobs`` value (joblib processes),
  ``progress=False``, wall-clock; the answers of every run are checked equal.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import pandas as pd

import bnx


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    clf = bnx.case_study.votes_classifier()
    odd = bnx.compile(clf, backend=args.backend)
    print(f"votes ODD: {odd.size} nodes, backend {odd.backend}")

    rng = np.random.default_rng(2018)
    frame = pd.DataFrame(rng.choice(np.array(["n", "y"], dtype=object),
                                    size=(args.rows, len(clf.features))), columns=clf.features)
    odd.decide_many(frame.iloc[:10])  # builds the node arrays once
    for kind, rows in (("strings", frame), ("categorical", frame.astype("category"))):
        t0, c0 = time.perf_counter(), time.process_time()
        d = odd.decide_many(rows)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"decide_many, {kind} columns: {args.rows:,} rows in {dt:.3f} s wall, "
              f"{cpu:.3f} s CPU ({int(d.sum()):,} positive)")

    every = pd.DataFrame(list(itertools.product(*(clf.states(f) for f in clf.features))),
                         columns=clf.features)
    what = ("decision", "mc_count", "pi_count", "pi_shortest")
    first = None
    times = {}
    for jobs in args.jobs:
        t0, c0 = time.perf_counter(), time.process_time()
        got = bnx.explain_data(odd, every, what=what, n_jobs=jobs, progress=False)
        times[jobs] = time.perf_counter() - t0
        cpu = time.process_time() - c0
        print(f"explain_data, all {len(every):,} instances, n_jobs={jobs}: {times[jobs]:.1f} s "
              f"wall, {cpu:.1f} s CPU in this process")
        if first is None:
            first = got
        else:
            pd.testing.assert_frame_equal(got, first)
    if 1 in times:
        for jobs, t in times.items():
            if jobs != 1:
                print(f"speed-up with n_jobs={jobs}: {times[1] / t:.2f}x")


if __name__ == "__main__":
    main()
