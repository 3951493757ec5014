"""General reasons per instance on hepar2: class Cirrhosis, 14 clinical findings.

Run from the repository root::

    PYTHONPATH=. python bench/general.py                 # 200 instances
    PYTHONPATH=. python bench/general.py --instances 50 --rival

pgmpy's bundled hepar2 (``get_example_model("hepar2")``, no download), the multi-class
classifier of ``Cirrhosis`` (decompensate, compensate, absent: the most probable state
decides) over 14 clinical findings: age, sex, bilirubin, platelet, alt, ast, ggtp,
albumin, phosphatase, inr, cholesterol (ordinal, ``ordinal=True``: their state names
carry their ranges), ascites, spiders and jaundice (two states). Compiled once (its time
and the class formulas' sizes are printed); then, for random complete instances (seeded,
each state equally likely), ``bnx.general_reasons(odd, x)``: its ``.count``, its
``.lengths()`` and the first five reasons listed (fewest features first). Prints the CPU
time per instance (``time.process_time``: steadier on a loaded machine) as mean, median,
90th percentile and maximum in milliseconds, per decided class and in all, with the
number of general reasons and of PI-explanations per instance; ``--rival`` adds the same
for ``rival=`` the most probable other class. Each instance starts from an ODD that keeps
nothing of earlier ones (``odd.clear_caches()``: the times include remaking the class
formula's view per feature, each node's child per state, whose time is printed). Last,
each instance then the same with one random feature changed, as on the explorer: the
second question reuses the valid boxes of the nodes below the changed feature.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util  # (sets sys.path for bnx)

# isort: split
import bnx

#: The 14 clinical findings: eleven measured or graded (ordinal), three signs (two states).
FINDINGS = ["age", "sex", "bilirubin", "platelet", "alt", "ast", "ggtp", "albumin",
            "phosphatase", "inr", "cholesterol", "ascites", "spiders", "jaundice"]
SEED = 20260135


def classifier() -> bnx.Classifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # get_example_model's deprecation notice
        from pgmpy.utils import get_example_model
        net = get_example_model("hepar2")
    return bnx.Classifier(net, "Cirrhosis", features=FINDINGS, ordinal=True)


def _summary(ms: list[float]) -> str:
    s = sorted(ms)
    p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
    return (f"mean {statistics.fmean(s):7.1f}  median {statistics.median(s):7.1f}  "
            f"p90 {p90:7.1f}  max {s[-1]:7.1f} ms")


def run(odd, clf, xs, rival: bool) -> None:
    times: dict = {}
    counts, pis = [], []
    for x in xs:
        odd.clear_caches()  # nothing kept from the instance before
        decided = odd.decide(x)
        against = None
        if rival:
            probs = clf.class_probabilities(x)
            against = max((c for c in odd.classes if c != decided), key=probs.get)
        t = time.process_time()
        found = bnx.general_reasons(odd, x, rival=against)
        n = found.count
        found.lengths()
        first = [r for _, r in zip(range(5), found)]
        times.setdefault(decided, []).append((time.process_time() - t) * 1e3)
        assert first and n >= len(first)
        counts.append(n)
        pis.append(bnx.pi_explanations(odd.class_formula(against or decided), x).count)
    label = "rival=next most probable" if rival else "the decided class"
    print(f"general reasons, {label}: {len(xs)} instances")
    for c in odd.classes:
        if c in times:
            print(f"  {c:>13} ({len(times[c]):3}): {_summary(times[c])}")
    print(f"  {'all':>13} ({len(xs):3}): {_summary([t for v in times.values() for t in v])}")
    print(f"  general reasons per instance: median {statistics.median(counts):,.0f}, "
          f"max {max(counts):,}; PI-explanations: median {statistics.median(pis):,.0f}, "
          f"max {max(pis):,}")


def neighbours(odd, clf, xs, seed: int) -> None:
    """Each instance, then the same with one feature changed (as on the explorer): the
    second question finds the boxes of the nodes below that feature made."""
    rng = random.Random(seed)
    first, then = [], []
    for x in xs:
        odd.clear_caches()
        t = time.process_time()
        _ = bnx.general_reasons(odd, x).count
        first.append((time.process_time() - t) * 1e3)
        f = rng.choice(list(clf.features))
        y = dict(x, **{f: rng.choice([s for s in clf.states(f) if s != x[f]])})
        t = time.process_time()
        _ = bnx.general_reasons(odd, y).count
        then.append((time.process_time() - t) * 1e3)
    print(f"an instance, then one feature changed: {len(xs)} pairs")
    print(f"  {'first':>13} ({len(xs):3}): {_summary(first)}")
    print(f"  {'then':>13} ({len(xs):3}): {_summary(then)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--instances", type=int, default=200)
    ap.add_argument("--rival", action="store_true")
    args = ap.parse_args()
    print(_util.machine())
    clf = classifier()
    t = time.perf_counter()
    odd = bnx.compile(clf)
    print(f"compile: {time.perf_counter() - t:.2f} s wall; class formulas "
          f"{dict(zip(odd.classes, (f.size for f in odd.formulas)))} nodes; "
          f"instances decided {odd.count()}")
    from bnx.diagram._feature_view import feature_view
    odd.clear_caches()
    t = time.process_time()
    for f in odd.formulas:
        feature_view(f.arrays, f.encoding)
    print(f"each formula's view per feature: {(time.process_time() - t) * 1e3:.0f} ms CPU "
          f"for the three")
    rng = random.Random(SEED)
    xs = [{f: rng.choice(clf.states(f)) for f in clf.features} for _ in range(args.instances)]
    run(odd, clf, xs, False)
    if args.rival:
        run(odd, clf, xs, True)
    neighbours(odd, clf, xs, SEED + 1)


if __name__ == "__main__":
    main()
