"""Benchmark: what the cross-check of a loaded ODD file costs.

``bnx.ODD.load`` checks a file against itself (``bnx/odd/io/check.py``: its diagram's
decisions against its classifier's tables on 256 instances, or every instance up to 4,096).
This times the load of the votes file (both backends) and of nb40 (the 40-feature random
naive Bayes of ``bench/_data.py``, 1.59 M nodes, CUDD) with the check and with it turned off
(``cross_check`` replaced by a no-op: the load as it was before), alternately in one process
(best of ``--repeats``), and in fresh processes (``import bnx`` then one load; best of 3):
what a user who loads once pays. Target: within 1.2x of the load without the check.

    PYTHONPATH=. python bench/load_check.py [--repeats 20]
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=20)
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
    rows = []
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
            fresh_on = min(_fresh(path, backend, False) for _ in range(3))
            fresh_off = min(_fresh(path, backend, True) for _ in range(3))
            rows.append((label, fmt_seconds(off), fmt_seconds(on), f"{on / off:.2f}x",
                         fmt_seconds(fresh_off), fmt_seconds(fresh_on),
                         f"{fresh_on / fresh_off:.2f}x"))
    print(markdown_table(["file", "load without the check", "with it", "ratio",
                          "fresh process: without", "with", "ratio"], rows))
    print(f"\n{machine_line()}\n{load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
