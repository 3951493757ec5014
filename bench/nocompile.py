"""One decision of a network too large to compile (issue 34):
``python bench/nocompile.py [--rows 5] [--timeout 5]``.

pgmpy's bundled hepar2 (class ``Cirrhosis``, its 41 findings, every feature a leaf, bnx's
default) and pathfinder (class ``Fault``, 63 states, its 77 findings), multi-class (the
most probable class decides). For each, instances drawn from the network (pgmpy's
``BayesianModelSampling.forward_sample``, seeded) are explained by
``bnx.explain(clf, x, timeout=T)`` without compiling. Printed per instance: the wall
time, the decision, how far each part was proven (the reason: shortest, subset-minimal
or sufficient; its size; the robustness, exact or "at least k"), the number of checks.
The targets of issue 34: hepar2 under 5 s, pathfinder under 10 s (reading the network
file and building the classifier are not counted: they are timed apart).

Issue 43: ``--within support`` (the default) or ``all`` picks the world the report answers
in; ``--check`` also reports every row in the other world (the reason's size there, "all"
first) and asks pyAgrum (``LazyPropagation`` on the network through
``bnx.network.pyagrum.to_pyagrum``) whether every counterfactual the search found is an
instance of positive probability, and bnx whether it has another decision: per row, the
counterfactuals found, how many pyAgrum gives positive probability, how many change the
decision.
"""

from __future__ import annotations

import argparse
import time
import warnings

import _util

import bnx

CASES = {"hepar2": ("Cirrhosis", 5.0), "pathfinder": ("Fault", 10.0)}


def _network(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        return get_example_model(name)


def _rows(net, n: int, seed: int):
    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BayesianModelSampling(net).forward_sample(size=n, seed=seed,
                                                         show_progress=False)


def _check(net, clf, x, report, limit: float, within: str) -> None:
    """Print the other world's reason size and pyAgrum's verdict on every counterfactual."""
    from bnx.local import answer
    from bnx.network.pyagrum import to_pyagrum
    other = "all" if within == "support" else "support"
    r = bnx.explain(clf, x, timeout=limit, within=other)
    sizes = {w: len(q.reasons[0]) if q.reasons else "-" for w, q in ((within, report),
                                                                     (other, r))}
    import pyagrum as gum
    bn = _check.__dict__.setdefault(id(net), to_pyagrum(net))
    idx = clf.encode(x)
    a = answer(clf, idx, timeout=limit, most=5, within=within)
    possible = changed = 0
    for setting, _ in a.changes:
        y = {**x, **{f: clf.states(f)[j] for f, j in setting.items()}}
        ie = gum.LazyPropagation(bn)
        ie.setEvidence({f: str(v) for f, v in y.items()})
        try:
            ie.makeInference()
            p = ie.evidenceProbability()
        except gum.GumException:  # incompatible evidence: probability zero
            p = 0.0
        possible += p > 0
        changed += clf.decide(y) != clf.decide(x)
    print(f"    reason size: all {sizes['all']}, support {sizes['support']}; "
          f"{within}: {len(a.changes)} counterfactuals found, {possible} of positive "
          f"probability (pyAgrum), {changed} with another decision", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per report (default: each network's target)")
    ap.add_argument("--networks", default="hepar2,pathfinder")
    ap.add_argument("--within", default="support", choices=["support", "all"])
    ap.add_argument("--check", action="store_true",
                    help="the other world's reason size, and every counterfactual by pyAgrum")
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    for name in args.networks.split(","):
        cls, target = CASES[name]
        t = time.perf_counter()
        net = _network(name)
        read = time.perf_counter() - t
        t = time.perf_counter()
        clf = bnx.Classifier(net, cls)
        build = time.perf_counter() - t
        print(f"\n{name}: class {cls} ({len(clf.class_states)} states), "
              f"{len(clf.features)} features; read {read:.1f} s, classifier {build:.2f} s")
        rows = _rows(net, args.rows, args.seed)
        limit = args.timeout or target
        table = []
        for k in range(len(rows)):
            x = {f: rows.iloc[k][f] for f in clf.features}
            t = time.perf_counter()
            r = bnx.explain(clf, x, timeout=limit, within=args.within)
            dt = time.perf_counter() - t
            if args.check:
                _check(net, clf, x, r, limit, args.within)
            rob = (r.robustness if r.robustness is not None
                   else f">= {r.robustness_at_least}")
            size = len(r.reasons[0]) if r.reasons else "-"
            table.append((k, f"{dt:.2f}", r.decision, f"{r.posterior:.3g}",
                          r.reasons_proven, size, len(r.reasons), rob,
                          "yes" if dt <= target else "NO"))
            print(f"  row {k}: {dt:.2f} s, {r.decision}, reasons {r.reasons_proven} "
                  f"(size {size}, {len(r.reasons)} shown), robustness {rob}", flush=True)
        print(_util.markdown_table(
            ["row", "seconds", "decision", "Pr", "reasons proven", "size", "shown",
             "robustness", f"< {target:g} s"], table))
    print(_util.load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
