"""TAN benchmark (issue 18): the TAN engine against the general engine.

Run from the repository root::

    PYTHONPATH=. python bench/tan.py                      # every classifier, CUDD
    PYTHONPATH=. python bench/tan.py --only rtan24 --general-timeout 60

Classifiers (seeded, binary class, threshold 0.5, the default order):

* ``rtan{n}``: a random TAN with ``n`` features of 2 or 3 states (equally likely), each
  feature's tree parent uniform among the earlier features, Pr(C) ~ Beta(2, 2) and every
  CPT column ~ Dirichlet(1, ..., 1);
* ``mtan{n}x{k}``: as ``rtan{n}`` with ``k`` classes (prior ~ Dirichlet(2, ..., 2)) under
  the argmax rule, the last class positive (one TAN-engine comparison per other class);
* ``kdb{n}``: a random 2-dependence Bayesian classifier (KDB, :func:`random_kdb`): as
  ``rtan{n}`` with each feature's feature parents two distinct uniform earlier features
  (one for the second feature); its factors over the class and three features make
  triangles, not a forest: the TAN engine on its greedy small-context order;
* ``ltan{n}``: a TAN learned by ``bnx.learn_tan`` (K2 prior) from a synthetic data set of
  ``n`` binary features and 2,000 rows (:func:`tan_frame`: each feature copies a random
  earlier one with noise, and leans towards the class).

Each compile runs in a fresh process (``--timeout`` seconds, the general engine
``--general-timeout``): nodes of the ODD, wall and CPU seconds of ``bnx.compile`` (CPU is
less sensitive to other jobs on the shared cores), CPU µs per node, the process's peak
resident size (``ru_maxrss``, CUDD's heap included; in brackets its growth during the
compile), ``bnx.estimate_size`` and, where the
general engine finishes on the same order, its CPU seconds and whether it built a
diagram of the same size and count (the test suite checks node equality). ``--nb`` adds
naive Bayes peers (``bench/_data.py``) for the per-node ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

SEED = 20250418


def random_tan(n: int, seed: int = SEED, classes: int = 2):
    """A random TAN classifier with ``n`` binary/ternary features (see the module); with
    more than two classes, under the argmax rule (the positive class the last)."""
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    import bnx
    rng = np.random.default_rng([seed, n, 18])
    feats = [f"F{i}" for i in range(1, n + 1)]
    card = {f: int(rng.integers(2, 4)) for f in feats}
    parent = {f: (feats[int(rng.integers(0, i))] if i else None) for i, f in enumerate(feats)}
    edges = [("C", f) for f in feats] + [(parent[f], f) for f in feats if parent[f]]
    net = DiscreteBayesianNetwork(edges)
    p = rng.beta(2, 2)
    names = {f: [str(s) for s in range(card[f])] for f in feats}
    names["C"] = [str(c) for c in range(classes)]
    prior = [[1 - p], [p]] if classes == 2 else [[q] for q in rng.dirichlet([2.0] * classes)]
    cpds = [TabularCPD("C", classes, prior, state_names={"C": names["C"]})]
    for f in feats:
        ev = ["C"] + ([parent[f]] if parent[f] else [])
        cols = int(np.prod([len(names[e]) for e in ev]))
        values = rng.dirichlet([1.0] * card[f], size=cols).T
        cpds.append(TabularCPD(f, card[f], values, evidence=ev,
                               evidence_card=[len(names[e]) for e in ev],
                               state_names={v: names[v] for v in [f, *ev]}))
    net.add_cpds(*cpds)
    if classes > 2:
        return bnx.Classifier(net, "C", names["C"][-1], rule="argmax", features=feats)
    return bnx.Classifier(net, "C", "1", threshold=0.5, features=feats)


def random_kdb(n: int, seed: int = SEED, k: int = 2):
    """A random k-dependence Bayesian classifier with ``n`` binary/ternary features (see
    the module)."""
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    import bnx
    rng = np.random.default_rng([seed, n, k, 18])
    feats = [f"F{i}" for i in range(1, n + 1)]
    card = {f: int(rng.integers(2, 4)) for f in feats}
    parents = {f: [feats[j] for j in sorted(rng.choice(i, min(i, k), replace=False))]
               for i, f in enumerate(feats)}
    net = DiscreteBayesianNetwork([("C", f) for f in feats]
                                  + [(p, f) for f in feats for p in parents[f]])
    p = rng.beta(2, 2)
    names = {f: [str(s) for s in range(card[f])] for f in feats}
    names["C"] = ["0", "1"]
    cpds = [TabularCPD("C", 2, [[1 - p], [p]], state_names={"C": names["C"]})]
    for f in feats:
        ev = ["C"] + parents[f]
        cols = int(np.prod([len(names[e]) for e in ev]))
        cpds.append(TabularCPD(f, card[f], rng.dirichlet([1.0] * card[f], size=cols).T,
                               evidence=ev, evidence_card=[len(names[e]) for e in ev],
                               state_names={v: names[v] for v in [f, *ev]}))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", "1", threshold=0.5, features=feats)


def tan_frame(n: int, rows: int = 2000, seed: int = SEED):
    """A synthetic data set with ``n`` dependent binary features and a class ``C``."""
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng([seed, n, 40])
    cls = rng.random(rows) < 0.4
    cols = {"C": np.where(cls, "yes", "no")}
    bits = []
    for i in range(n):
        base = rng.random(rows) < rng.uniform(0.2, 0.8)
        if i:
            src = bits[int(rng.integers(0, i))]
            copy = rng.random(rows) < rng.uniform(0.3, 0.8)
            base = np.where(copy, src, base)
        flip = cls & (rng.random(rows) < rng.uniform(0.0, 0.3))
        b = base ^ flip
        bits.append(b)
        cols[f"X{i + 1}"] = np.where(b, "1", "0")
    return pd.DataFrame(cols)


def learned_tan(n: int, seed: int = SEED):
    """The K2 TAN learned from :func:`tan_frame`."""
    import bnx
    frame = tan_frame(n, seed=seed)
    net = bnx.learn_tan(frame, "C")
    return bnx.Classifier(net, "C", "yes", threshold=0.5,
                          features=[c for c in frame.columns if c != "C"])


def make(name: str):
    if name.startswith("mtan"):  # mtan{n}x{k}: k classes, argmax
        n, k = name[4:].split("x")
        return random_tan(int(n), classes=int(k))
    if name.startswith("kdb"):
        return random_kdb(int(name[3:]))
    if name.startswith("rtan"):
        return random_tan(int(name[4:]))
    if name.startswith("ltan"):
        return learned_tan(int(name[4:]))
    if name.startswith("nb"):
        import _data
        return _data.synthetic_nb(int(name[2:])).clf
    raise SystemExit(f"unknown classifier {name!r}")


def child(name: str, engine: str, backend: str) -> None:
    """Compile one classifier (in this fresh process) and print a JSON line."""
    import resource
    import time

    import bnx
    clf = make(name)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if engine == "general":
        from bnx.compilation import _choose  # the general engine, same order
        _choose.ENGINES = tuple(e for e in _choose.ENGINES if e.__name__ != "TanEngine")
    t0, c0 = time.perf_counter(), time.process_time()
    odd = bnx.compile(clf, backend=backend)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        est = bnx.estimate_size(clf)
    except Exception:
        est = -1
    print(json.dumps({"nodes": odd.size, "count": odd.count(), "seconds": dt, "cpu": cpu,
                      "rss": rss, "rss_before": before, "estimate": est}))


def run(name: str, engine: str, backend: str, timeout: float) -> dict | None:
    cmd = [sys.executable, __file__, "--child", name, engine, backend]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode:
        raise RuntimeError(f"{name} ({engine}) failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="+", default=["rtan24", "rtan28", "ltan30", "ltan40"])
    ap.add_argument("--backend", default="cudd")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--general-timeout", type=float, default=120)
    ap.add_argument("--nb", nargs="*", default=["nb40"], help="naive Bayes peers")
    args = ap.parse_args()
    print(_util.machine_line())
    print(_util.load_line())
    rows = []
    for name in args.only:
        tan = run(name, "tan", args.backend, args.timeout)
        gen = run(name, "general", args.backend, args.general_timeout) \
            if args.general_timeout > 0 else None
        if tan is None:
            rows.append([name, "timeout", "", "", "", "", "", ""])
            continue
        same = "" if gen is None else ("same" if gen["count"] == tan["count"]
                                       and gen["nodes"] == tan["nodes"] else "DIFFERENT")
        rows.append([name, f"{tan['nodes']:,}", f"{tan['seconds']:.2f}", f"{tan['cpu']:.2f}",
                     f"{1e6 * tan['cpu'] / tan['nodes']:.2f}",
                     f"{tan['rss']:.0f} ({tan['rss'] - tan['rss_before']:+.0f})",
                     f"{tan['estimate']:,}",
                     (f">{args.general_timeout:g} wall" if gen is None else
                      f"{gen['cpu']:.1f} ({same})")])
        print(rows[-1], flush=True)
    for name in args.nb:
        nb = run(name, "tan", args.backend, args.timeout)
        if nb is not None:
            rows.append([name + " (naive Bayes)", f"{nb['nodes']:,}", f"{nb['seconds']:.2f}",
                         f"{nb['cpu']:.2f}", f"{1e6 * nb['cpu'] / nb['nodes']:.2f}",
                         f"{nb['rss']:.0f} ({nb['rss'] - nb['rss_before']:+.0f})",
                         f"{nb['estimate']:,}", ""])
    print(_util.markdown_table(["classifier", "nodes", "wall s", "CPU s", "CPU µs/node",
                                "peak MB (compile)", "estimate", "general engine CPU s"], rows))


if __name__ == "__main__":
    main()
