"""Benchmark of ``bnx.explain_data`` on a classifier explained without compiling: rows per
second on 1 and 2 local joblib workers (each row's report is ``bnx.explain(clf, row)``).

Run from the repository root::

    PYTHONPATH=. python bench/explain_rows.py                       # hepar2, Cirrhosis
    PYTHONPATH=. python bench/explain_rows.py --network rtan60 --rows 200
    PYTHONPATH=. python bench/explain_rows.py --network nb400 --rows 400 --jobs 1 2
    PYTHONPATH=. python bench/explain_rows.py --network alarm --class BP --timeout 5

``--network`` is a network file (``.bif``, ``.xml``, ``.net``, ``.uai``, gzipped too), a
network pgmpy bundles (``hepar2``, ``alarm``, ``pathfinder``, ...: every leaf a feature)
or a seeded random classifier of the other benchmarks (``nb{n}``: naive Bayes with ``n``
binary features, ``rtan{n}``: a TAN with ``n`` binary/ternary features, ``bench/tan.py``).
``--class`` and ``--positive`` name the class and its positive state (without
``--positive``, the most probable class is decided); they default to hepar2's
``Cirrhosis`` and to ``C``/``1`` for the random classifiers.

The rows are drawn from the network itself (pgmpy's forward sampling, seeded), its feature
columns only; equal rows are explained once, so the table says how many are distinct. For
each number of workers the script first explains a few rows (the workers start, the
classifier's caches warm), then times ``explain_data(clf, rows, n_jobs=j)`` (wall time, the
median of ``--repeat`` runs) and checks that the answers equal those of one worker and,
on the first rows, those of the one-row calls ``bnx.explain(clf, row)`` (with
``--timeout``, the decisions only: what a bounded search proves depends on the clock, and
the workers' answers are not compared then either). The load average
before and after each run is printed with the table.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import re
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util  # noqa: F401  (the repository root on sys.path)
import pandas as pd

import bnx

SEED = 20260934


def load(name: str, class_var: str | None, positive: str | None, features: str | None):
    """The classifier ``--network`` names, with its network."""
    if re.fullmatch(r"(nb|rtan)\d+", name):
        import tan
        clf = tan.make(name)
        return clf, clf.network
    path = Path(name)
    if not path.exists():  # a network pgmpy bundles
        import pgmpy
        bundled = Path(pgmpy.__file__).parent / "utils" / "example_models" / f"{name}.bif.gz"
        if not bundled.exists():
            raise SystemExit(f"{name}: neither a file, nor a network pgmpy bundles, nor "
                             f"nb{{n}} / rtan{{n}}")
        path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bnx-bench-{name}.bif"
        if not path.exists():
            path.write_text(gzip.decompress(bundled.read_bytes()).decode("utf-8"),
                            encoding="utf-8")
    net = bnx.read_network(str(path))
    feats = None if features is None else features.split(",")
    return bnx.Classifier(net, class_var, positive, features=feats), net


def draw_rows(clf, net, n: int, seed: int) -> pd.DataFrame:
    """``n`` rows drawn from the network, its feature columns, states as strings."""
    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = BayesianModelSampling(net).forward_sample(size=n, seed=seed,
                                                          show_progress=False)
    return frame[list(clf.features)].astype(str).reset_index(drop=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--network", default="hepar2",
                   help="a network file, a network pgmpy bundles, nb{n} or rtan{n} "
                   "(default hepar2)")
    p.add_argument("--class", dest="class_var", help="the class (default Cirrhosis; C)")
    p.add_argument("--positive", help="its positive state (default: none, the most "
                   "probable class; 1 for nb/rtan)")
    p.add_argument("--features", help="F1,F2,...: the features (default: the leaves)")
    p.add_argument("--rows", type=int, default=100, help="rows drawn (default 100)")
    p.add_argument("--jobs", type=int, nargs="+", default=[1, 2],
                   help="numbers of joblib workers (default 1 2)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs each (default 3)")
    p.add_argument("--timeout", type=float, help="seconds per row's report (explain's "
                   "timeout=; none by default)")
    p.add_argument("--check", type=int, default=5,
                   help="rows checked against the one-row calls (default 5)")
    args = p.parse_args()
    synthetic = re.fullmatch(r"(nb|rtan)\d+", args.network) is not None
    class_var = args.class_var or ("C" if synthetic else "Cirrhosis")
    positive = args.positive if args.positive or not synthetic else "1"
    clf, net = load(args.network, class_var, positive, args.features)
    rows = draw_rows(clf, net, args.rows, SEED)
    distinct = len(rows.drop_duplicates())
    more = {} if args.timeout is None else {"timeout": args.timeout}
    print(f"# explain_data without compiling: {args.network}, class {class_var}"
          f"{'' if positive is None else f' = {positive}'} ({clf.structure}, "
          f"{len(clf.features)} features), {len(rows)} rows ({distinct} distinct)",
          file=sys.stderr)
    table, first = [], None
    for jobs in args.jobs:
        bnx.explain_data(clf, rows.head(2 * jobs), n_jobs=jobs, progress=False, **more)
        load_before = os.getloadavg()[0]
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            got = bnx.explain_data(clf, rows, n_jobs=jobs, progress=False, **more)
            times.append(time.perf_counter() - t0)
        load_after = os.getloadavg()[0]
        if first is None:
            first = got
        elif args.timeout is None:
            pd.testing.assert_frame_equal(got, first)
        wall = statistics.median(times)
        table.append([str(jobs), f"{wall:.2f} s", f"{len(rows) / wall:.1f}",
                      f"{distinct / wall:.1f}", f"{load_before:.1f} / {load_after:.1f}"])
        print(f"  {jobs} worker(s): {wall:.2f} s", file=sys.stderr)
    for i in range(min(args.check, len(rows))):  # the one-row calls give the same answers
        r = bnx.explain(clf, rows.loc[i].to_dict(), **more)
        want = r.decision if r.multiclass else bool(r.positive)
        assert first.loc[i, "decision"] == want, i
        rob = math.nan if r.robustness is None else float(r.robustness)
        shortest = len(r.reasons[0]) if r.reasons else math.nan
        if args.timeout is not None:  # what a bounded search proves depends on the clock
            continue
        for column, value in (("robustness", rob), ("pi_shortest", shortest)):
            have = first.loc[i, column]
            assert have == value or (math.isnan(have) and math.isnan(value)), (i, column)
    base = float(table[0][1].split()[0])
    for row in table:
        row.insert(3, f"{base / float(row[1].split()[0]):.2f}x")
    print(f"\n{args.network}, {class_var}: {len(rows)} rows drawn from the network "
          f"({distinct} distinct), {clf.structure}, {len(clf.features)} features\n")
    print("| workers | wall time | rows/s | speed-up | distinct rows/s | load avg before / after |")
    print("|--:|--:|--:|--:|--:|:--|")
    for row in table:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
