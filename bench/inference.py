"""Class probabilities of one instance: bnx against pyAgrum's ``LazyPropagation``, side by
side in one run, on pgmpy's bundled networks.

Run from the repository root::

    PYTHONPATH=. python bench/inference.py
    PYTHONPATH=. python bench/inference.py --only pathfinder,munin1 --instances 3

Cases: alarm (``INTUBATION``), hailfinder (``Scenario``), hepar2 (``Cirrhosis``),
pathfinder (``Fault``) and munin1 (``DIFFN_TYPE``), each a multi-class classifier whose
features are every leaf of the network (bnx's default). Both libraries read the same BIF
(pgmpy's bundled file, decompressed): bnx through pgmpy, pyAgrum through
``pyagrum.loadBN``. Instances are drawn from the network by forward sampling (seeded); each
is given to both as hard evidence on every feature.

Per instance, the least of ``--repeat`` calls (the machine is shared: the least is the
call least disturbed): bnx's call with its plan for the pattern of observed features made
("bnx first": the plans cleared before each) and with the plan cached ("bnx"); pyAgrum's
call, a new ``LazyPropagation`` on the loaded network, the evidence set,
``makeInference`` and the class's posterior (one engine reused with its evidence erased
and set again is slower, not faster). The table gives the median over instances, the
ratios bnx / pyAgrum, and the largest difference between the two libraries' class
probabilities (pgmpy's and pyAgrum's BIF readers differ by about 1e-9 on some entries).
``--exact`` also times bnx's exact rational answer (``exact=True``).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util
import numpy as np

import bnx

SEED = 20271129

#: network: the class variable (features: every leaf).
CASES = {
    "alarm": "INTUBATION",
    "hailfinder": "Scenario",
    "hepar2": "Cirrhosis",
    "pathfinder": "Fault",
    "munin1": "DIFFN_TYPE",
}


def _bif(name: str, directory: Path) -> Path:
    import pgmpy
    source = Path(pgmpy.__file__).parent / "utils" / "example_models" / f"{name}.bif.gz"
    path = directory / f"{name}.bif"
    path.write_bytes(gzip.decompress(source.read_bytes()))
    return path


def _sample(network, n: int, rng: np.random.Generator) -> list[dict]:
    """``n`` joint states of every node, drawn by forward sampling."""
    import networkx as nx
    cpds = {c.variable: c for c in network.get_cpds()}
    order = list(nx.topological_sort(network))
    out = []
    for _ in range(n):
        row: dict = {}
        for v in order:
            cpd = cpds[v]
            values = np.asarray(cpd.values)
            index = tuple(list(cpd.state_names[p]).index(row[p]) for p in cpd.variables[1:])
            column = values[(slice(None), *index)]
            row[v] = cpd.state_names[v][rng.choice(len(column), p=column / column.sum())]
        out.append(row)
    return out


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _run(name: str, class_var: str, directory: Path, n: int, repeat: int, exact: bool):
    import pyagrum as gum
    path = _bif(name, directory)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        network = bnx.read_network(path)
    clf = bnx.Classifier(network, class_var)
    bn = gum.loadBN(str(path))
    rng = np.random.default_rng(SEED)
    rows = _sample(network, n, rng)
    first_b, rep_b, rep_a, diff, exact_t = [], [], [], 0.0, []
    for row in rows:
        x = {f: row[f] for f in clf.features}
        got = clf.class_probabilities(x)

        def planned():
            clf._plans_clear()
            return clf.class_probabilities(x)

        first_b.append(min(_timed(planned)[1] for _ in range(repeat)))
        rep_b.append(min(_timed(lambda: clf.class_probabilities(x))[1] for _ in range(repeat)))
        evidence = {f: str(s) for f, s in x.items()}

        def agrum():
            ie = gum.LazyPropagation(bn)
            ie.setEvidence(evidence)
            ie.makeInference()
            return ie.posterior(class_var)

        post = agrum()
        rep_a.append(min(_timed(agrum)[1] for _ in range(repeat)))
        labels = list(post.variable(0).labels())
        theirs = {s: post[{class_var: labels.index(str(s))}] for s in clf.classes}
        diff = max(diff, max(abs(got[s] - theirs[s]) for s in clf.classes))
        if exact:
            exact_t.append(min(_timed(lambda: clf.class_probabilities(x, exact=True))[1]
                               for _ in range(repeat)))
    med = statistics.median
    row = [f"{name}, {class_var}", len(clf.features), len(clf.classes),
           _util.fmt_seconds(med(rep_a)), _util.fmt_seconds(med(first_b)),
           _util.fmt_seconds(med(rep_b)), f"{med(first_b) / med(rep_a):.2f}",
           f"{med(rep_b) / med(rep_a):.2f}", f"{diff:.1e}"]
    if exact:
        row.append(_util.fmt_seconds(med(exact_t)))
    return row


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated network names")
    ap.add_argument("--instances", type=int, default=5, help="instances per network")
    ap.add_argument("--repeat", type=int, default=5, help="repeated calls per instance")
    ap.add_argument("--exact", action="store_true", help="also time exact=True")
    args = ap.parse_args(argv)
    names = args.only.split(",") if args.only else list(CASES)
    print(_util.machine_line())
    print(_util.load_line())
    header = ["network, class", "features", "classes", "pyAgrum", "bnx first", "bnx",
              "first / pyAgrum", "bnx / pyAgrum", "largest difference"]
    if args.exact:
        header.append("bnx exact")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            rows.append(_run(name, CASES[name], Path(tmp), args.instances, args.repeat,
                             args.exact))
            print(" | ".join(map(str, rows[-1])), flush=True)
    print()
    print(_util.markdown_table(header, rows))
    print(_util.load_line())


if __name__ == "__main__":
    main()
