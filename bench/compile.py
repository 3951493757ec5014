"""Compile-time benchmark: time, ODD size, positive-instance count and peak memory.

Run from the repository root::

    PYTHONPATH=. python bench/compile.py            # full run, both backends
    PYTHONPATH=. python bench/compile.py --quick    # fewer repeats, no n=40
    PYTHONPATH=. python bench/compile.py --backend cudd --only votes spect

For every classifier of ``bench/_data.py`` and every backend, the table gives:

* time: wall time (and CPU time of this process, ``time.process_time``), each the
  median of up to ``--repeats`` runs of ``bnx.compile`` (``time.perf_counter``,
  default order, tracemalloc off); runs stop early once a case has used
  ``--timeout`` seconds, and a single run is interrupted after ``--timeout`` seconds;
* size: ``ODD.size`` (nodes, terminals included), count: ``ODD.count()``;
* peak MB: the ``tracemalloc`` peak of one extra run (Python allocations only: the C
  heap of CUDD is not seen by tracemalloc).

``max_nodes`` (``--max-nodes``, default 4,000,000) bounds every compile: a case that
exceeds it prints "over budget"; one that runs out of time prints "timeout".
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _data
import _util

import bnx


def run_case(bench: _data.Bench, backend: str, *, repeats: int, timeout: float,
             max_nodes: int) -> dict:
    clf = bench.clf
    times: list[float] = []
    cpu: list[float] = []
    out: dict = {"name": bench.name, "n": bench.n, "backend": backend}
    spent = 0.0
    for r in range(repeats):
        gc.collect()
        try:
            # the clock is read inside the time limit: its exit runs gc.collect()
            with _util.time_limit(max(timeout - spent, 0.5) if r else timeout):
                c0 = time.process_time()
                t0 = time.perf_counter()
                odd = bnx.compile(clf, backend=backend, max_nodes=max_nodes)
                dt = time.perf_counter() - t0
                dc = time.process_time() - c0
        except bnx.CompilationLimitError:
            out["status"] = f"over budget (max_nodes={max_nodes:,})"
            return out
        except _util.Timeout:
            if not times:
                out["status"] = f"timeout (> {timeout:g} s)"
                return out
            break  # later repeats only
        cpu.append(dc)
        times.append(dt)
        spent += dt
        if r == 0:
            out["size"] = odd.size
            out["count"] = odd.count()
        del odd
        if spent >= timeout:
            break
    out["time"] = statistics.median(times)
    out["cpu"] = statistics.median(cpu)
    out["runs"] = len(times)
    # one more run under tracemalloc, for the peak of Python allocations
    gc.collect()
    tracemalloc.start()
    try:
        with _util.time_limit(max(timeout, 2 * times[0] + 5)):
            odd = bnx.compile(clf, backend=backend, max_nodes=max_nodes)
        out["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        del odd
    except _util.Timeout:
        out["peak_mb"] = None
    finally:
        tracemalloc.stop()
    out["status"] = "ok"
    return out


def row(res: dict) -> list:
    if res["status"] != "ok":
        return [res["name"], res["n"], res["backend"], res["status"], "", "", "", "", ""]
    peak = "timeout" if res["peak_mb"] is None else f"{res['peak_mb']:.1f}"
    return [res["name"], res["n"], res["backend"], _util.fmt_seconds(res["time"]),
            _util.fmt_seconds(res["cpu"]), res["runs"], f"{res['size']:,}", f"{res['count']:,}",
            peak]


HEADER = ["classifier", "n", "backend", "compile time (median)", "CPU time (median)", "runs",
          "ODD size", "positive instances", "peak MB (tracemalloc)"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="2 repeats, skip n=40")
    ap.add_argument("--backend", default="all",
                    help="autoref, cudd or all (default: every available backend)")
    ap.add_argument("--repeats", type=int, default=None, help="runs per case (default 5, quick 2)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per case (default 15, quick 10)")
    ap.add_argument("--max-nodes", type=int, default=4_000_000)
    ap.add_argument("--only", nargs="*", default=None, help="classifier names, e.g. votes nb30")
    args = ap.parse_args(argv)

    backends = _util.pick_backends(ap, args.backend)
    repeats = args.repeats or (2 if args.quick else 5)
    timeout = args.timeout or (10.0 if args.quick else 15.0)
    sizes = (20, 30) if args.quick else (20, 30, 40)
    loaders = {**_data.REAL, **_data.synthetic(sizes)}
    if args.only:
        unknown = [k for k in args.only if k not in loaders]
        if unknown:
            ap.error(f"unknown classifier(s) {unknown}; known: {', '.join(loaders)}")
        loaders = {k: loaders[k] for k in args.only}

    print(_util.machine_line())
    print(_util.load_line())
    print(f"settings: repeats={repeats}, timeout={timeout:g} s per case, "
          f"max_nodes={args.max_nodes:,}, backends={', '.join(backends)}")
    print()
    t_all = time.perf_counter()
    results = []
    for name, load in loaders.items():
        try:
            bench = load()
        except _data.BenchDataError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
            continue
        for backend in backends:
            res = run_case(bench, backend, repeats=repeats, timeout=timeout,
                           max_nodes=args.max_nodes)
            results.append(res)
            print("  " + " | ".join(map(str, row(res))), file=sys.stderr, flush=True)
    print(_util.markdown_table(HEADER, [row(r) for r in results], align="lrlrrrrrr"))
    print()
    print(f"total wall time: {time.perf_counter() - t_all:.1f} s; {_util.load_line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
