"""Reports in the two worlds on pgmpy's bundled networks: ``python bench/world.py``.

Per network (a class node named below, its leaves as features; multi-class, the most
probable class decides), instances drawn from the network (pgmpy's forward sampling,
seeded) are explained twice by ``bnx.explain(clf, x, timeout=T)`` without compiling: among
the instances the network allows (the default) and over every instance
(``within="all"``). Printed per network: whether a table of the features or their
ancestors has a zero entry, whether the support (``bnx.support``) holds every instance,
and per instance the two reports' seconds, reason sizes and robustness, whether the two
reports are the same (every field but ``world``), and whether every counterfactual of the
default report is an instance the network allows (``bnx.classifier._possible.conflict_of``:
exact, from the tables' zero patterns).

What it checks: where the support holds every instance the two reports are the same (a
regression test of the default world; fields a bound cut short may differ in how far they
got, so a row whose report says a part was not proven in time is marked, not counted); the
default report's counterfactuals are possible everywhere.

    PYTHONPATH=. python bench/world.py
    PYTHONPATH=. python bench/world.py --networks hepar2,pathfinder --rows 5 --timeout 10
"""

from __future__ import annotations

import argparse
import time
import warnings

import _util  # noqa: F401  (puts the repository on sys.path)

import bnx
from bnx.classifier._possible import conflict_of, may_be_impossible

#: network -> class node
NETWORKS = {"asia": "lung", "cancer": "Cancer", "earthquake": "Burglary", "sachs": "Akt",
            "survey": "E", "alarm": "HYPOVOLEMIA", "child": "Disease",
            "insurance": "Accident", "hailfinder": "Scenario", "win95pts": "Problem1",
            "hepar2": "Cirrhosis", "andes": "TRY12", "pathfinder": "Fault"}


def _network(name: str):
    import pathlib

    import pgmpy
    return bnx.read_network(pathlib.Path(pgmpy.__file__).parent / "utils" / "example_models"
                            / f"{name}.bif.gz")


def _rows(net, n: int, seed: int):
    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BayesianModelSampling(net).forward_sample(size=n, seed=seed,
                                                         show_progress=False)


def _same(a, b) -> bool:
    da, db = a.to_dict(), b.to_dict()
    da.pop("world", None)
    db.pop("world", None)
    return da == db


def _proven(r) -> bool:
    """Whether every part of the report was settled (nothing cut short by the bound)."""
    return r.reasons_proven in ("shortest", "minimal") and r.robustness is not None


def run(name: str, rows: int, timeout: float, seed: int) -> list[str]:
    net = _network(name)
    class_var = NETWORKS[name]
    leaves = [v for v in net.nodes() if v != class_var and not list(net.successors(v))]
    clf = bnx.Classifier(net, class_var, features=leaves)
    zeros = bool(may_be_impossible(clf))
    total = 1
    for f in leaves:
        total *= len(clf.states(f))
    everything = True
    if zeros:
        try:
            everything = bnx.support(clf).count == total
        except bnx.BnxError as e:  # (a support too large to build: said so)
            everything = None
            print(f"  {name}: support not built ({e})")
    out = []
    frame = _rows(net, rows, seed)
    for k, (_, row) in enumerate(frame.iterrows()):
        x = {f: row[f] for f in leaves}
        t = time.perf_counter()
        got = bnx.explain(clf, x, timeout=timeout)
        t_support = time.perf_counter() - t
        t = time.perf_counter()
        other = bnx.explain(clf, x, timeout=timeout, within="all")
        t_all = time.perf_counter() - t
        possible = all(conflict_of(clf, {**x, **{f: new for f, (_, new) in c.items()}}) is None
                       for c in got.counterfactuals)
        same = _same(got, other)
        settled = _proven(got) and _proven(other)
        size = (lambda r: len(r.reasons[0]) if r.reasons else "-")
        verdict = ("same" if same else "differ" if settled else "differ (bounded)")
        if everything is False:
            verdict = "same" if same else "-"  # a world with impossible instances
        out.append(f"| {name} | {len(leaves)} | {'yes' if zeros else 'no'} | "
                   f"{'-' if everything is None else 'yes' if everything else 'no'} | {k} | "
                   f"{t_support:.2f} / {t_all:.2f} | {size(got)} / {size(other)} | "
                   f"{got.robustness} / {other.robustness} | "
                   f"{len(got.counterfactuals)} {'all possible' if possible else 'NOT'} | "
                   f"{verdict} |")
        print(out[-1], flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(NETWORKS))
    parser.add_argument("--rows", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("| network | features | a zero entry | support is every instance | row | "
          "seconds (support / all) | reason size | robustness | counterfactuals "
          "(default world) | the two reports |")
    print("|:--|--:|:--|:--|--:|--:|--:|--:|:--|:--|")
    bad = 0
    for name in args.networks.split(","):
        for line in run(name, args.rows, args.timeout, args.seed):
            bad += "NOT" in line or line.rstrip(" |").endswith("differ")
    print(f"\n{bad} row(s) failing a check")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
