"""MC-explanations of every votes instance (2^16), the issue-7 target "< 10 s".

Run from the repository root::

    PYTHONPATH=. python bench/mc_all.py [--backend autoref|cudd] [--pi]

Compiles the case study's votes classifier (``bnx.case_study.votes_classifier``), then
times ``mc_explanations`` (and with ``--pi`` also ``pi_explanations``) on all 65,536
instances, enumerating each result; prints wall and CPU time, total and per instance.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

import bnx
from bnx.tabular.case_study import votes_classifier


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--pi", action="store_true", help="also time pi_explanations")
    args = ap.parse_args()
    odd = bnx.compile(votes_classifier(), backend=args.backend)
    feats = odd.features
    instances = [dict(zip(feats, v))
                 for v in itertools.product(*[odd.states(f) for f in feats])]
    print(_util.machine_line())
    print(_util.load_line())
    kinds = [("MC", bnx.mc_explanations)] + ([("PI", bnx.pi_explanations)] if args.pi else [])
    rows = []
    for name, fn in kinds:
        c0, t0 = time.process_time(), time.perf_counter()
        found = 0
        for x in instances:
            found += sum(1 for _ in fn(odd, x))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append([name, odd.backend, f"{len(instances):,}", f"{found:,}", f"{wall:.2f} s",
                     f"{cpu:.2f} s", f"{wall / len(instances) * 1e3:.3f} ms",
                     f"{cpu / len(instances) * 1e3:.3f} ms"])
    print(_util.markdown_table(["explanations", "backend", "instances", "found", "wall",
                                "CPU", "wall per instance", "CPU per instance"], rows))
    print(_util.load_line())


if __name__ == "__main__":
    main()
