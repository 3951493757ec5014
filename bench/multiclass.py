"""Multi-class compiles: one ``bnx.compile`` of a classifier without a positive state, against
the per-class argmax compiles it replaces, side by side in one process.

Run from the repository root::

    PYTHONPATH=. python bench/multiclass.py            # every configuration, 3 rounds
    PYTHONPATH=. python bench/multiclass.py --rounds 5 --only child nb5x30

For each configuration, each round times ``bnx.compile(Classifier(net, class_var))`` (one
multi-class ODD: the argmax rule's pairwise comparisons compiled once and shared by the
class formulas) and then the ``k`` compiles of ``Classifier(net, class_var, state,
rule="argmax")``, one per class state, in the same process and order; the table gives the
best round of each (``max_nodes=math.inf``: the default budget's estimate refuses nb5x30,
whose estimate runs about 13 times its size; CPU time of the process, which other load on
a shared machine disturbs less than wall time), the multi-class ODD's shared size, and
checks that every
class formula counts as many instances as its per-class compile.

Configurations: pgmpy's bundled child (``Disease``, 6 states, its 7 leaves), insurance
(``Accident``, 4 states, its leaves), alarm (``INTUBATION``, 3 states, its leaves),
hepar2 (``Cirrhosis``, 3 states, the 14 clinical findings of :data:`HEPAR2_FINDINGS`) and
``nb5x30``, a naive Bayes with a 5-state class and 30 binary features (seeded random
CPTs).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util
import numpy as np

import bnx

#: hepar2's clinical findings used by the multi-class benchmarks (the children of
#: Cirrhosis among its leaves, with bilirubin and platelet): compiles in a few seconds.
HEPAR2_FINDINGS = ("phosphatase", "edema", "alcohol", "alt", "ast", "spleen", "spiders",
                   "albumin", "edge", "irregular_liver", "palms", "carcinoma", "bilirubin",
                   "platelet")


def pgmpy_network(name: str):
    """A network pgmpy ships (read from the installed package, no download)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        return get_example_model(name)


def naive_bayes(classes: int, features: int, seed: int = 5):
    """A naive Bayes with ``classes`` class states and binary features, seeded CPTs."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    rng = np.random.default_rng(seed)
    names = [f"f{i}" for i in range(features)]
    net = DiscreteBayesianNetwork([("C", f) for f in names])
    prior = rng.dirichlet(np.ones(classes))
    cpds = [TabularCPD("C", classes, prior.reshape(-1, 1),
                       state_names={"C": [f"c{j}" for j in range(classes)]})]
    for f in names:
        on = rng.beta(1, 1, size=classes)
        cpds.append(TabularCPD(f, 2, np.vstack([on, 1 - on]), evidence=["C"],
                               evidence_card=[classes],
                               state_names={f: ["yes", "no"],
                                            "C": [f"c{j}" for j in range(classes)]}))
    net.add_cpds(*cpds)
    return net


CONFIGS = {
    "child": lambda: (pgmpy_network("child"), "Disease", None),
    "insurance": lambda: (pgmpy_network("insurance"), "Accident", None),
    "alarm": lambda: (pgmpy_network("alarm"), "INTUBATION", None),
    "hepar2-14": lambda: (pgmpy_network("hepar2"), "Cirrhosis", HEPAR2_FINDINGS),
    "nb5x30": lambda: (naive_bayes(5, 30), "C", None),
}


def cpu() -> float:
    return time.process_time()


def run(name: str, rounds: int) -> dict:
    net, class_var, features = CONFIGS[name]()
    many = bnx.Classifier(net, class_var, features=features)
    per = [bnx.Classifier(net, class_var, s, rule="argmax", features=features)
           for s in many.classes]
    best_one = best_per = float("inf")
    for _ in range(rounds):
        t = cpu()
        odd = bnx.compile(many, max_nodes=math.inf)
        best_one = min(best_one, cpu() - t)
        t = cpu()
        odds = [bnx.compile(c, max_nodes=math.inf) for c in per]
        best_per = min(best_per, cpu() - t)
    counts = odd.count()
    for s, o in zip(many.classes, odds):
        if counts[s] != o.count():
            raise SystemExit(f"{name}: class {s!r} counts {counts[s]} against {o.count()}")
    return {"name": name, "classes": len(many.classes), "features": len(many.features),
            "size": odd.size, "sizes": [o.size for o in odds], "one": best_one,
            "per": best_per}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=list(CONFIGS))
    args = parser.parse_args()
    print(_util.machine() if hasattr(_util, "machine") else "")
    print("| configuration | classes | features | multi-class ODD nodes | per-class ODD nodes "
          "| one compile (CPU) | per-class compiles (CPU) | ratio |")
    print("|:--|--:|--:|--:|:--|--:|--:|--:|")
    for name in args.only or CONFIGS:
        r = run(name, args.rounds)
        print(f"| {r['name']} | {r['classes']} | {r['features']} | {r['size']:,} | "
              f"{', '.join(f'{s:,}' for s in r['sizes'])} | {r['one']:.3f} s | "
              f"{r['per']:.3f} s | {r['one'] / r['per']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
