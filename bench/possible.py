"""How long the refusal of an impossible instance takes: one check, and a whole conflict.

Run from the repository root::

    PYTHONPATH=. python bench/possible.py
    PYTHONPATH=. python bench/possible.py --only pathfinder --samples 3

Per network of pgmpy's (the class node named below, the leaves as features), in this
process:

* ``setup``: reading the tables' zero patterns (once per network, seconds);
* ``check``: whether ``Pr(x) > 0`` for instances drawn from the network (all possible),
  each the first time (ms per instance: what every explained instance costs once);
* ``one change``: every instance one feature away from a drawn one; how many the network
  cannot produce, and the mean and largest time to refuse one, its minimal conflict
  found (ms), and the mean time to pass a possible one.
"""

from __future__ import annotations

import argparse
import statistics
import time

import _util  # noqa: F401  (puts the repository on sys.path)

import bnx
from bnx.classifier._possible import conflict_of, zero_patterns

#: (network, class node)
CONFIGS = [("pathfinder", "Fault"), ("hepar2", "Cirrhosis"), ("munin1", "R_MED_ALLCV_EW"),
           ("alarm", "HYPOVOLEMIA"), ("win95pts", "Problem1")]


def run(name: str, class_var: str, samples: int, seed: int) -> dict:
    from pgmpy.sampling import BayesianModelSampling
    from pgmpy.utils import get_example_model
    net = get_example_model(name)
    feats = [n for n in net.nodes() if n != class_var and not list(net.successors(n))]
    clf = bnx.Classifier(net, class_var, features=feats)
    t = time.perf_counter()
    zp = zero_patterns(clf._inference)
    setup = time.perf_counter() - t
    frame = BayesianModelSampling(net).forward_sample(size=samples, seed=seed,
                                                      show_progress=False)
    checks, refused, passed = [], [], []
    for _, row in frame.iterrows():
        x = {f: row[f] for f in feats}
        t = time.perf_counter()
        assert conflict_of(clf, x) is None  # drawn from the network
        checks.append(time.perf_counter() - t)
        for f in feats:
            for s in clf.states(f):
                if s == x[f]:
                    continue
                y = {**x, f: s}
                t = time.perf_counter()
                found = conflict_of(clf, y)
                (passed if found is None else refused).append(time.perf_counter() - t)
    ms = 1000
    return {"network": name, "features": len(feats), "zero tables": len(zp.tables),
            "setup s": f"{setup:.2f}",
            "check ms": f"{ms * statistics.mean(checks):.1f}",
            "impossible": f"{len(refused)} of {len(refused) + len(passed)}",
            "refuse ms (mean/max)": (f"{ms * statistics.mean(refused):.0f} / "
                                     f"{ms * max(refused):.0f}") if refused else "-",
            "pass ms": f"{ms * statistics.mean(passed):.1f}" if passed else "-"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated network names")
    ap.add_argument("--samples", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    rows = [run(n, c, args.samples, args.seed) for n, c in CONFIGS
            if only is None or n in only]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")


if __name__ == "__main__":
    main()
