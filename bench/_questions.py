"""The questions of issue 8, timed on the real data sets: ``bench/explain.py --questions``.

Per instance (50 distinct complete rows of each data set, as the PI benchmark): robustness,
counterfactuals, contrastive explanations, feature roles, decision bias (first two
features protected), check_explanation (of the instance's first half), and the
same-decision probability with 2, 4 and 8 of the instance's features observed (the first
ones of the classifier; naive Bayes, the ODD passed in). Per classifier: the robustness
profile and count_biased (first two features protected). Times are wall clock
(``time.perf_counter``) and CPU (``time.process_time``): per-instance means, the median
over the passes; whole-classifier figures are the median of the passes. One untimed call
of each question precedes the passes.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

import _data
import _util

import bnx

#: (question, limit in seconds) on votes with CUDD (issue 8)
TARGETS = {"robustness": 0.3e-3, "counterfactuals": 0.3e-3, "contrastive": 2e-3,
           "SDP (2 seen)": 5e-3, "SDP (4 seen)": 5e-3, "SDP (8 seen)": 5e-3,
           "robustness profile": 50e-3, "count_biased": 50e-3}


def _questions(clf, odd):
    feats = list(clf.features)
    prot = feats[:2]
    per_instance = {
        "robustness": lambda x: bnx.robustness(odd, x),
        "counterfactuals": lambda x: bnx.counterfactuals(odd, x),
        "contrastive": lambda x: bnx.contrastive_explanations(odd, x),
        "feature roles": lambda x: bnx.feature_roles(odd, x),
        "decision bias": lambda x: bnx.decision_bias(odd, x, prot),
        "check half": lambda x: bnx.check_explanation(
            odd, x, {f: x[f] for f in feats[:len(feats) // 2]}),
    }
    if clf.structure == "naive_bayes":
        for k in (2, 4, 8):
            per_instance[f"SDP ({k} seen)"] = (
                lambda x, k=k: bnx.same_decision_probability(
                    clf, {f: x[f] for f in feats[:k]}, odd=odd))
    whole = {"robustness profile": lambda: bnx.robustness_profile(odd),
             "count_biased": lambda: bnx.count_biased(odd, prot)}
    return per_instance, whole


def run(bench, backend: str, instances: list[dict], repeats: int) -> dict:
    clf = bench.clf
    odd = bnx.compile(clf, backend=backend)
    per_instance, whole = _questions(clf, odd)
    for fn in per_instance.values():
        fn(instances[0])
    for fn in whole.values():
        fn()
    wall = {k: [] for k in [*per_instance, *whole]}
    cpu = {k: [] for k in wall}
    for _ in range(repeats):
        for name, fn in per_instance.items():
            w0, c0 = time.perf_counter(), time.process_time()
            for x in instances:
                fn(x)
            wall[name].append((time.perf_counter() - w0) / len(instances))
            cpu[name].append((time.process_time() - c0) / len(instances))
        for name, fn in whole.items():
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            wall[name].append(time.perf_counter() - w0)
            cpu[name].append(time.process_time() - c0)
    facts = {
        "mean robustness": statistics.mean(
            r for r in (bnx.robustness(odd, x) for x in instances) if r != math.inf),
        "profile": bnx.robustness_profile(odd),
    }
    return {"name": bench.name, "backend": backend, "odd_size": odd.size,
            "wall": {k: statistics.median(v) for k, v in wall.items()},
            "cpu": {k: statistics.median(v) for k, v in cpu.items()}, "facts": facts}


def latent_sdp(sizes=(12, 16), seen=(2, 8), k: int = 10) -> list[list[str]]:
    """SDP on the synthetic latent trees (``bench/_data.synthetic_lt``, CUDD): the weighted
    count over the ODD per joint state of the class and latent variables beside the sum over
    completions (both exact and compared), CPU ms per evidence, ``k`` random evidences."""
    import random

    from bnx.probability import same_decision as P
    rows = []
    for n in sizes:
        clf = _data.synthetic_lt(n).clf
        odd = bnx.compile(clf, backend="cudd")
        priors, parents = P._configurations(clf)
        rng = random.Random(n)
        feats = list(clf.features)
        for m in seen:
            tw = te = 0.0
            for _ in range(k):
                idx = clf.encode({f: rng.choice(clf.states(f)) for f in feats[:m]}, partial=True)
                c0 = time.process_time()
                a = P._weighted_mass(clf, odd, idx, True, priors, parents)
                c1 = time.process_time()
                b = P._enumerated_mass(clf, idx, True)
                te += time.process_time() - c1
                tw += c1 - c0
                if a != b:
                    raise AssertionError(f"lt{n}: the two SDP methods disagree")
            rows.append([f"lt{n}", f"{odd.size}", f"{len(priors)}", f"{m}",
                         f"{tw / k * 1e3:.2f}", f"{te / k * 1e3:.2f}", f"{te / tw:.1f}"])
    return rows


def main(args, names: list[str], backends: list[str]) -> int:
    repeats = args.repeats or (1 if args.quick else 5)
    print(_util.machine_line())
    print(_util.load_line())
    print(f"settings: {args.instances} instances per data set, {repeats} pass(es), "
          f"backends={', '.join(backends)}\n")
    results = []
    for bench, instances in _data.explain_cases(names, args.instances):
        for backend in backends:
            results.append(run(bench, backend, instances, repeats))
            print(f"  done {bench.name} {backend}", file=sys.stderr, flush=True)
    keys = list(results[0]["wall"]) if results else []
    rows = []
    for r in results:
        for k in keys:
            rows.append([r["name"], r["backend"], k, f"{r['wall'][k] * 1e3:.3f}",
                         f"{r['cpu'][k] * 1e3:.3f}"])
    print("Questions of issue 8 (ms; per instance, or for the whole classifier for the "
          "profile and count_biased):\n")
    print(_util.markdown_table(["dataset", "backend", "question", "wall ms", "CPU ms"], rows,
                               align="lllrr"))
    print()
    for r in results:
        print(f"{r['name']} {r['backend']}: ODD size {r['odd_size']}, mean robustness of the "
              f"instances {r['facts']['mean robustness']:.2f}, profile {r['facts']['profile']}")
    print()
    for r in results:
        if r["name"] != "votes" or r["backend"] != "cudd":
            continue
        for label in ("wall", "cpu"):
            verdict = ", ".join(
                f"{k} {r[label][k] * 1e3:.3f} ms {'<' if r[label][k] < lim else '>='} "
                f"{lim * 1e3:g} ms ({'met' if r[label][k] < lim else 'NOT met'})"
                for k, lim in TARGETS.items() if k in r[label])
            print(f"votes targets, cudd, {label}: {verdict}")
    print("\nSame-decision probability on synthetic latent trees (CUDD, CPU ms per evidence):\n")
    print(_util.markdown_table(["classifier", "ODD size", "joint states", "features seen",
                                "weighted count", "sum over completions", "ratio"],
                               latent_sdp(), align="lrrrrrr"))
    print(f"\n{_util.load_line()}")
    return 0
