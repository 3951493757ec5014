"""A report's bound on every network pgmpy bundles: ``python bench/every_network.py``.

Run from the repository root::

    PYTHONPATH=. python bench/every_network.py                      # every network
    PYTHONPATH=. python bench/every_network.py --networks munin1 diabetes --rows 5

Per network pgmpy bundles as a BIF file (``pgmpy/utils/example_models/*.bif.gz``), a class
node (the one named in :data:`CLASSES`, else the node with the most leaves among its
descendants, ties by name) with the network's leaves as features, the most probable
class deciding. ``--rows`` instances drawn from the network (pgmpy's forward sampling,
seed 0) are each explained by ``bnx.explain(clf, x, timeout=T)`` without compiling, as a
user of a network too large to compile would; a network runs in a fresh process, so the
peak memory (``ru_maxrss``) is its own, reading the file included. Printed per network:
the seconds reading the file took (not bounded: pgmpy's parser), the slowest and the
median report, whether every report ended within ``T`` plus the larger of 0.5 s and 10 %,
what the reports proved (the reasons shortest, subset-minimal or only sufficient; the
robustness exact or "at least"), whether a report's text contradicts itself (a reason
said to need every feature while only proven sufficient), and the peak memory. With
``--partial`` each instance has only the first half of its features observed (the rest
missing): the column of what was proven then says whether the same-decision probability
is exact or a proven interval.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import _util

#: network -> class node (the issue's and bench/world.py's choices; the others by rule)
CLASSES = {"asia": "lung", "cancer": "Cancer", "earthquake": "Burglary", "sachs": "Akt",
           "survey": "E", "alarm": "HYPOVOLEMIA", "child": "Disease",
           "insurance": "Accident", "hailfinder": "Scenario", "win95pts": "Problem1",
           "hepar2": "Cirrhosis", "andes": "TRY12", "pathfinder": "Fault",
           "munin1": "DIFFN_TYPE", "diabetes": "ins_sens", "barley": "jordtype",
           "link": "N12_a_f"}

CHILD = r"""
import json, resource, statistics, sys, time, warnings
warnings.simplefilter("ignore")
import bnx
from pgmpy.sampling import BayesianModelSampling
path, rows, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
cls = sys.argv[4] or None
partial = sys.argv[5] == "1"
start = time.monotonic()
net = bnx.read_network(path)
read = time.monotonic() - start
leaves = sorted(v for v in net.nodes() if not list(net.successors(v)))
if cls is None:  # the node with the most leaves below it
    import networkx as nx
    cls = max(sorted(net.nodes(), key=str),
              key=lambda v: len(nx.descendants(net, v) & set(leaves)))
clf = bnx.Classifier(net, cls, features=[v for v in leaves if v != cls])
xs = BayesianModelSampling(net).forward_sample(rows, seed=0, show_progress=False)
walls, proven, robust, odd = [], [], [], 0
for k in range(rows):
    x = {f: xs.iloc[k][f] for f in clf.features}
    if partial:  # the first half of the features observed, the rest missing
        x = dict(list(x.items())[:len(x) // 2])
    t = time.monotonic()
    r = bnx.explain(clf, x, timeout=timeout)
    walls.append(time.monotonic() - t)
    if partial:  # how sure: the same-decision probability exact, or a proven interval
        proven.append("SDP exact" if r.sdp is not None else "SDP interval"
                      if r.sdp_bounds is not None else "-")
        robust.append("-")
    else:
        proven.append(r.reasons_proven or "-")
        robust.append("exact" if r.robustness is not None else
                      f">={r.robustness_at_least}" if r.robustness_at_least is not None
                      else "-")
    text = r.text()
    if r.reasons_proven == "sufficient" and ("no feature can be left out" in text
                                             or "every feature is needed" in text):
        odd += 1
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"class": str(cls), "features": len(clf.features), "read": read,
                  "walls": walls, "proven": proven, "robust": robust, "contradictions": odd,
                  "peak_mb": peak}))
"""


def bundled() -> dict[str, Path]:
    """The BIF networks pgmpy ships: name -> file."""
    import pgmpy
    folder = Path(pgmpy.__file__).parent / "utils" / "example_models"
    return {p.name[:-len(".bif.gz")]: p for p in sorted(folder.glob("*.bif.gz"))}


def run(path: Path, name: str, rows: int, timeout: float, limit: float,
        partial: bool = False) -> dict | None:
    argv = [sys.executable, "-c", CHILD, str(path), str(rows), str(timeout),
            CLASSES.get(name, ""), "1" if partial else "0"]
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _counts(values: list) -> str:
    seen: dict = {}
    for v in values:
        seen[v] = seen.get(v, 0) + 1
    return ", ".join(f"{v} {n}" for v, n in seen.items())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", nargs="+", default=None, help="default: every one")
    ap.add_argument("--rows", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--partial", action="store_true",
                    help="instances with the first half of the features observed")
    ap.add_argument("--limit", type=float, default=900.0,
                    help="seconds a network's process may take in all (reading included)")
    args = ap.parse_args()
    files = bundled()
    names = args.networks or list(files)
    print(_util.machine_line())
    print(_util.load_line())
    slack = args.timeout + max(0.5, 0.1 * args.timeout)
    table = []
    for name in names:
        got = run(files[name], name, args.rows, args.timeout, args.limit, args.partial)
        if got is None or "error" in got:
            why = "did not finish" if got is None else got["error"][:60]
            table.append([name, "-", "-", "-", "-", "-", "no", why, "-", "-", "-"])
            continue
        walls = sorted(got["walls"])
        table.append([name, got["class"], got["features"], f"{got['read']:.1f} s",
                      f"{walls[-1]:.1f} s", f"{walls[len(walls) // 2]:.1f} s",
                      "yes" if walls[-1] <= slack else "no", _counts(got["proven"]),
                      _counts(got["robust"]), got["contradictions"],
                      f"{got['peak_mb']:,.0f} MB"])
        print(" | ".join(map(str, table[-1])), flush=True)
    print(_util.markdown_table(["network", "class", "features", "read", "slowest", "median",
                                f"within {slack:g} s",
                                "how sure" if args.partial else "reasons proven", "robustness",
                                "contradictions", "peak"], table))


if __name__ == "__main__":
    main()
