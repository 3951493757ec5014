"""Whether a compile's ``timeout=`` holds on a naive Bayes too wide to finish.

Run from the repository root::

    PYTHONPATH=. python bench/bounds.py
    PYTHONPATH=. python bench/bounds.py --features 60 --timeouts 2 5 10 --seeds 0 1

A binary class and ``--features`` five-state features, their tables drawn from a
Dirichlet(1) per class (``--seeds``); each ``bnx.compile(clf, max_nodes=math.inf,
timeout=T)`` runs in a fresh process (so its peak memory is its own): the seconds it took
(``wall``), how it ended, and its peak resident memory. The level engines size each
vectorised step before it starts (:meth:`bnx.compilation.budget.Budget.pace`): the bound
holds when ``wall`` is under ``T`` plus the larger of 0.5 s and 10 %. (A report's
bound, on every network pgmpy bundles: ``bench/every_network.py``.)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import _util

CHILD = r"""
import json, math, resource, sys, time
import numpy as np
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork
import bnx
k, seed, timeout = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
rng = np.random.default_rng(seed)
net = DiscreteBayesianNetwork([("C", f"F{i}") for i in range(k)])
cpds = [TabularCPD("C", 2, [[0.5], [0.5]])]
for i in range(k):
    cpds.append(TabularCPD(f"F{i}", 5, rng.dirichlet(np.ones(5), size=2).T,
                           evidence=["C"], evidence_card=[2]))
net.add_cpds(*cpds)
clf = bnx.Classifier(net, "C", 1)
start = time.monotonic()
try:
    odd = bnx.compile(clf, max_nodes=math.inf, timeout=timeout)
    ended = f"compiled, {odd.size:,} nodes"
except bnx.CompilationLimitError as exc:
    ended = "refused: " + ("its next step would end past the deadline"
                           if "next step" in str(exc) else "ran out of time")
wall = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall": wall, "ended": ended, "peak_mb": peak}))
"""


def run(k: int, seed: int, timeout: float) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(k), str(seed), str(timeout)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", type=int, default=60)
    ap.add_argument("--timeouts", type=float, nargs="+", default=[2.0, 5.0, 10.0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    args = ap.parse_args()
    print(_util.machine_line())
    print(_util.load_line())
    rows = []
    for timeout in args.timeouts:
        for seed in args.seeds:
            got = run(args.features, seed, timeout)
            held = got["wall"] <= timeout + max(0.5, 0.1 * timeout)
            rows.append([f"{timeout:g} s", seed, f"{got['wall']:.1f} s",
                         "yes" if held else "no", got["ended"], f"{got['peak_mb']:,.0f} MB"])
    print(_util.markdown_table(["timeout", "seed", "wall", "held", "how it ended", "peak"],
                               rows))


if __name__ == "__main__":
    main()
