"""Benchmark: what the cross-check of a loaded ODD file costs.

``bnx.ODD.load`` checks a file against itself (``bnx/odd/io/check.py``: its diagram's
decisions against its classifier's tables on 256 instances, or every instance up to 4,096).
This times the load of the votes file (both backends) and of nb40 (the 40-feature random
naive Bayes of ``bench/_data.py``, 1.59 M nodes, CUDD) with the check and with it turned off
(``cross_check`` replaced by a no-op: the load as it was before), alternately in one process
(best of ``--repeats``), and in fresh processes (``import bnx`` then one load; best of 5):
what a user who loads once pays. Target: within 1.2x of the load without the check.

``--baseline DIR``: a checkout of bnx from before the check (``git worktree add DIR
"$(git log -1 --format=%H --grep='is cross-checked against itself')^"``) loads the same
files too, in child processes alternating with this tree's
(best of ``--repeats`` loads each, three rounds): the load with the check against the
load as it was when the check came.

    PYTHONPATH=. python bench/load_check.py [--repeats 20] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

import _util  # noqa: F401  (sys.path)
from _util import fmt_seconds, load_line, machine_line, markdown_table

import bnx
import bnx.odd.io.load as _load


def _once(path: str, backend: str) -> float:
    gc.collect()
    t = time.perf_counter()
    bnx.ODD.load(path, backend=backend)
    return time.perf_counter() - t


def _timed(path: str, backend: str, repeats: int) -> tuple[float, float]:
    """Best load time with the check, and without it, alternating."""
    check = _load.cross_check
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        for k, fn in enumerate((check, lambda *a: None)):
            _load.cross_check = fn
            try:
                best[k] = min(best[k], _once(path, backend))
            finally:
                _load.cross_check = check
    return best[0], best[1]


def _fresh(path: str, backend: str, off: bool) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", path, "--backend", backend]
                         + (["--off"] if off else []), check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    return json.loads(out.stdout)["load"]


#: This tree's root (the bnx the benchmark measures).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_REPEATED = """
import gc, json, sys, time
import bnx
path, backend, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
bnx.ODD.load(path, backend=backend)
best = float("inf")
for _ in range(k):
    gc.collect()
    t = time.perf_counter()
    bnx.ODD.load(path, backend=backend)
    best = min(best, time.perf_counter() - t)
print(json.dumps({"load": best, "bnx": bnx.__file__}))
"""


def _repeated(root: str, path: str, backend: str, k: int) -> float:
    """Best of ``k`` loads of ``path`` by the bnx of the tree ``root``, in a child process."""
    root = os.path.abspath(root)
    out = subprocess.run([sys.executable, "-c", _REPEATED, path, backend, str(k)], cwd=root,
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": root})
    got = json.loads(out.stdout)
    if not got["bnx"].startswith(root):
        raise SystemExit(f"the child loaded {got['bnx']}, not the bnx of {root}")
    return got["load"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--baseline", help="a checkout of bnx from before the check")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--backend", default="cudd", help=argparse.SUPPRESS)
    ap.add_argument("--off", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        if args.off:
            _load.cross_check = lambda *a: None
        json.dump({"load": _once(args.child, args.backend)}, sys.stdout)
        return 0
    from _data import synthetic_nb
    rows, before = [], []
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for name, clf, backends in (("votes", bnx.case_study.votes_classifier(),
                                     ("autoref", "cudd")),
                                    ("nb40", synthetic_nb(40).clf, ("cudd",))):
            for backend in backends:
                path = os.path.join(tmp, f"{name}-{backend}.bnx")
                bnx.compile(clf, backend=backend).save(path)
                files.append((f"{name} ({backend})", path, backend))
        for label, path, backend in files:
            k = args.repeats if "votes" in label else max(3, args.repeats // 4)
            on, off = _timed(path, backend, k)
            fresh_on = fresh_off = float("inf")
            for _ in range(5):  # alternately: the machine's load drifts
                fresh_on = min(fresh_on, _fresh(path, backend, False))
                fresh_off = min(fresh_off, _fresh(path, backend, True))
            rows.append((label, fmt_seconds(off), fmt_seconds(on), f"{on / off:.2f}x",
                         fmt_seconds(fresh_off), fmt_seconds(fresh_on),
                         f"{fresh_on / fresh_off:.2f}x"))
            if args.baseline:
                then = now = float("inf")
                for _ in range(3):
                    then = min(then, _repeated(args.baseline, path, backend, k))
                    now = min(now, _repeated(_ROOT, path, backend, k))
                before.append((label, fmt_seconds(then), fmt_seconds(now), f"{now / then:.2f}x"))
    print(markdown_table(["file", "load without the check", "with it", "ratio",
                          "fresh process: without", "with", "ratio"], rows))
    if before:
        print(f"\nAgainst the load before the check ({args.baseline}):\n")
        print(markdown_table(["file", "load before the check", "load now, with it", "ratio"],
                             before))
    print(f"\n{machine_line()}\n{load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
