"""Benchmark: saving and loading a big ODD (format 3), and the first count on the loaded one.

The classifier is the 40-feature random naive Bayes of ``bench/_data.py``
(``synthetic_nb(40)``, about 1.55 M nodes with CUDD). Each step runs in this one process,
in order; peak RSS is the process's ``ru_maxrss`` after each step (it never goes down).

* ``compile``: ``bnx.compile(clf, backend=...)`` (for context, not a target);
* ``save``: ``odd.save(path)`` (arrays to bytes, header, checksum, fsync, rename);
* ``load``: ``bnx.ODD.load(path)`` (read, checksum, every structural check of the arrays,
  the domain check and the exact count and size, see ``docs/file-format.md``);
* ``count``: the first ``count()`` on the loaded ODD;
* ``pickle``: ``pickle.loads(pickle.dumps(odd))`` (the same bytes, in memory);
* ``fresh process``: a new Python that imports bnx, loads the file and counts; its own
  times and peak RSS (what a user who only loads pays).

With ``--legacy``, the same ODD is also written as a file of format 2 (the all-JSON file
of bnx before format 3, by the old writer kept in ``tests/_support/legacy_files.py``) and loaded:
the peer, side by side. With ``--profile``, the load step runs under cProfile and the top entries
are printed on stderr. Targets (issue 17): ``save`` and ``load`` < 3 s each, ``count`` < 0.5 s.

    PYTHONPATH=. python bench/files.py [--n 40] [--backend cudd] [--repeats 3] [--profile]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time

import _util  # noqa: F401  (sys.path)
from _util import fmt_seconds, load_line, machine_line, markdown_table

_T0 = time.perf_counter()
import bnx  # noqa: E402

_IMPORT = time.perf_counter() - _T0


def _rss_mb() -> float:
    """Peak RSS of this process in MB: VmHWM (``ru_maxrss`` would carry the parent's peak
    into a child started by fork and exec)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _timed(f):
    gc.collect()
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def _child(path: str, backend: str) -> int:
    """Load ``path`` and count in this fresh process; print the times and RSS as JSON."""
    out = {}
    t = time.perf_counter()
    out["import bnx"], out["rss import bnx"] = _IMPORT, _rss_mb()
    back, out["load"] = _timed(lambda: bnx.ODD.load(path, backend=backend))
    out["rss load"] = _rss_mb()
    got, out["count"] = _timed(back.count)
    out["rss count"] = _rss_mb()
    out["models"], out["wall"] = str(got), time.perf_counter() - t
    json.dump(out, sys.stdout)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=40, help="features of the naive Bayes (40)")
    ap.add_argument("--backend", default="cudd")
    ap.add_argument("--repeats", type=int, default=3, help="loads (and saves) to time")
    ap.add_argument("--profile", action="store_true", help="profile one load (stderr)")
    ap.add_argument("--legacy", action="store_true",
                    help="also time a format-2 file of the same ODD (slow: about a minute)")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # a file to load in this process
    args = ap.parse_args(argv)
    if args.child:
        return _child(args.child, args.backend)

    from _data import synthetic_nb
    clf = synthetic_nb(args.n).clf
    odd, t_compile = _timed(lambda: bnx.compile(clf, backend=args.backend))
    rows = [("compile", fmt_seconds(t_compile), f"{_rss_mb():.0f}")]
    print(f"nb{args.n}: {odd.arrays.size:,} nodes (arrays), count {odd.count()}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"nb{args.n}.bnx")
        saves = [_timed(lambda: odd.save(path))[1] for _ in range(args.repeats)]
        rows.append(("save", fmt_seconds(min(saves)), f"{_rss_mb():.0f}"))
        size = os.path.getsize(path)
        loads, counts = [], []
        for _ in range(args.repeats):
            back, t = _timed(lambda: bnx.ODD.load(path, backend=args.backend))
            loads.append(t)
            got, t = _timed(back.count)
            counts.append(t)
            assert got == odd.count()
            del back
        rows.append(("load", fmt_seconds(min(loads)), f"{_rss_mb():.0f}"))
        rows.append(("count (first, on the loaded ODD)", fmt_seconds(min(counts)),
                     f"{_rss_mb():.0f}"))
        _, t_pickle = _timed(lambda: pickle.loads(pickle.dumps(odd)))
        rows.append(("pickle round trip", fmt_seconds(t_pickle), f"{_rss_mb():.0f}"))
        fresh = json.loads(subprocess.run(
            [sys.executable, __file__, "--child", path, "--backend", args.backend],
            check=True, capture_output=True, text=True).stdout)
        assert int(fresh["models"]) == odd.count()
        for step in ("import bnx", "load", "count"):
            rows.append((f"fresh process: {step}", fmt_seconds(fresh[step]),
                         f"{fresh['rss ' + step]:.0f}"))
        if args.legacy:
            from tests._support.legacy_files import write_legacy
            old = os.path.join(tmp, f"nb{args.n}.bnx.json")
            _, t = _timed(lambda: write_legacy(odd, old))
            rows.append(("format 2: write (old writer, tests/_support/legacy_files.py)",
                         fmt_seconds(t), f"{_rss_mb():.0f}"))
            back, t = _timed(lambda: bnx.ODD.load(old, backend=args.backend))
            assert back.count() == odd.count()
            rows.append((f"format 2: load ({os.path.getsize(old) / 2**20:.0f} MiB)",
                         fmt_seconds(t), f"{_rss_mb():.0f}"))
            del back
        if args.profile:
            import cProfile
            import pstats
            prof = cProfile.Profile()
            prof.enable()
            bnx.ODD.load(path, backend=args.backend)
            prof.disable()
            pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    print(f"nb{args.n} ({args.backend}): {odd.arrays.size:,} nodes in arrays, "
          f"size {odd.size:,}, file {size / 2**20:.1f} MiB; best of {args.repeats}")
    print(markdown_table(["step", "time", "peak RSS (MB)"], rows))
    print(f"\n{machine_line()}\n{load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
