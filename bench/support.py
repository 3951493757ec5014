"""The instances a network allows (``bnx.support``), and questions asked within them.

Run from the repository root::

    PYTHONPATH=. python bench/support.py
    PYTHONPATH=. python bench/support.py --only alarm-hypovolemia --samples 100

Per classifier, in this process (each classifier is made afresh, so no cache is shared):

* support: ``bnx.support(clf, odd=odd)`` on a fresh classifier and ODD (first call, wall
  seconds), and ``bnx.support(clf)`` without the ODD; the number of instances of
  positive probability (``.count``) against all instances, and the set's diagram size;
* check: ``--samples`` instances, half drawn uniformly and half forward-sampled from the
  network (those have positive probability), each tested ``x in support`` against
  ``sum(clf.class_joint(x)) > 0`` (exact); a mismatch fails the run;
* for the classifiers that compile (the leaves as features): the PI-explanations, the
  robustness and the counterfactuals with costs (``cost={f: 1 + k % 3}``) of the first
  forward-sampled instances, with and without ``within=support`` (mean seconds per
  instance, the ODD's caches warm).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from fractions import Fraction

import _data
import _util

import bnx

NETWORKS = _data.DATA / "networks"

#: (name, file, class, positive, features: None = the leaves, "all" = every other node)
CONFIGS = [
    ("alarm-hypovolemia", "alarm.net", "HYPOVOLEMIA", "TRUE", None),
    ("alarm-lvfailure", "alarm.net", "LVFAILURE", "TRUE", None),
    ("alarm-hypovolemia-all", "alarm.net", "HYPOVOLEMIA", "TRUE", "all"),
    ("child-all", "child.net", "BirthAsphyxia", "yes", "all"),
    ("insurance-all", "insurance.net", "Theft", "True", "all"),
    ("win95pts-all", "win95pts.net", "PTROFFLINE", "Offline", "all"),
]


def _classifier(net, class_var, positive, features):
    feats = [n for n in net.nodes() if n != class_var] if features == "all" else None
    return bnx.Classifier(net, class_var, positive, features=feats)


def _samples(net, clf, k, seed):
    from pgmpy.sampling import BayesianModelSampling
    rng = random.Random(seed)
    uniform = [{f: rng.choice(clf.states(f)) for f in clf.features} for _ in range(k // 2)]
    frame = BayesianModelSampling(net).forward_sample(size=k - k // 2, seed=seed,
                                                      show_progress=False)
    drawn = [{f: row[f] for f in clf.features} for _, row in frame.iterrows()]
    return uniform, drawn


def run(name, file, class_var, positive, features, samples, seed):
    net = bnx.read_network(str(NETWORKS / file))
    clf = _classifier(net, class_var, positive, features)
    row = {"name": name, "features": len(clf.features), "hidden": len(clf.latent)}
    total = math.prod(len(clf.states(f)) for f in clf.features)
    odd = bnx.compile(clf) if features is None else None
    t = time.perf_counter()
    s = bnx.support(clf, odd=odd) if odd is not None else bnx.support(clf)
    row["support s"] = time.perf_counter() - t
    alone = _classifier(net, class_var, positive, features)
    t = time.perf_counter()
    bnx.support(alone)
    row["no odd s"] = time.perf_counter() - t
    row["allowed"] = f"{s.count:.4g} of {total:.4g}"
    row["size"] = s.size
    uniform, drawn = _samples(net, clf, samples, seed)
    bad = 0
    for x in uniform + drawn:
        if (x in s) != (sum(clf.class_joint(x), Fraction(0)) > 0):
            bad += 1
    assert all(x in s for x in drawn)
    row["check"] = f"{len(uniform) + len(drawn)} ok" if not bad else f"{bad} WRONG"
    if odd is not None:
        xs = drawn[:5]
        cost = {f: 1 + k % 3 for k, f in enumerate(clf.features)}
        for label, within in (("", None), (" within", s)):
            t = time.perf_counter()
            for x in xs:
                _ = bnx.pi_explanations(odd, x, within=within).count
                bnx.robustness(odd, x, within=within)
                _ = bnx.counterfactuals(odd, x, within=within, cost=cost).count
            row[f"questions{label} s"] = (time.perf_counter() - t) / len(xs)
    return row, bad


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*")
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--seed", type=int, default=27)
    args = p.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    rows, failed = [], 0
    for config in CONFIGS:
        if args.only and config[0] not in args.only:
            continue
        row, bad = run(*config, args.samples, args.seed)
        failed += bad
        rows.append(row)
        print(row, flush=True)
    header = ["name", "features", "hidden", "support s", "no odd s", "allowed", "size",
              "check", "questions s", "questions within s"]
    print(_util.markdown_table(header, [[_fmt(r.get(h, "")) for h in header] for r in rows]))
    return 1 if failed else 0


def _fmt(v):
    return f"{v:.3f}" if isinstance(v, float) else v


if __name__ == "__main__":
    sys.exit(main())
