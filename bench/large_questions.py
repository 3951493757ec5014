"""The questions of issue 17 on a large random naive Bayes, each on its own
(``bench/large_questions.py --features 40``).

Compiles ``synthetic_nb(n)`` (``bench/_data.py``), reads its array form
(``odd.arrays``, timed on its own: until the compiler writes arrays directly it is a walk
through CUDD's DDDMP dump) and then asks the questions of one instance, then of a second
one: robustness, counterfactuals (and their count; the distances of robustness are
kept), contrastive explanations (and their count), feature roles (read off the
contrastive explanations, which the instance's memo keeps), check_explanation (of the
instance's first half),
decision_bias (first two features protected) and the same-decision probability with 8
features observed. The first question pays for the per-feature view of the arrays
(``feature_view``); it is timed separately too. Wall-clock seconds of one run each; the
machine's load (``uptime``) is printed, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import _data
import _util  # noqa: F401  (sets sys.path)
import numpy as np

import bnx
from bnx.diagram._feature_view import feature_view


def _timed(label: str, fn, rows: list):
    t = time.perf_counter()
    got = fn()
    dt = time.perf_counter() - t
    rows.append((label, dt))
    print(f"{label:40s} {dt:8.3f} s", flush=True)
    return got


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--features", type=int, default=40)
    ap.add_argument("--backend", default="cudd")
    ap.add_argument("--seed", type=int, default=1, help="seed of the two instances")
    args = ap.parse_args(argv)
    print("load:", os.getloadavg())
    bench = _data.synthetic_nb(args.features)
    clf = bench.clf
    feats = list(clf.features)
    rows: list = []
    odd = _timed("compile", lambda: bnx.compile(clf, backend=args.backend), rows)
    arrays = _timed("odd.arrays (from dd)", lambda: odd.arrays, rows)
    print(f"nodes: {odd.size:,} (dd), {arrays.size:,} (arrays)")
    _timed("feature_view (part of the first question)",
           lambda: feature_view(arrays, odd.encoding), rows)
    rng = np.random.default_rng(args.seed)
    for which in ("first", "second"):
        x = {f: clf.states(f)[int(rng.integers(len(clf.states(f))))] for f in feats}
        print(f"-- {which} instance: decision {odd.decide(x)}")
        r = _timed(f"{which}: robustness", lambda: bnx.robustness(odd, x), rows)
        cfs = _timed(f"{which}: counterfactuals + count",
                     lambda: (lambda c: (c, c.count))(bnx.counterfactuals(odd, x)), rows)
        ces = _timed(f"{which}: contrastive + count",
                     lambda: (lambda c: (c, c.count))(bnx.contrastive_explanations(odd, x)),
                     rows)
        roles = _timed(f"{which}: feature roles (contrastive kept)",
                       lambda: bnx.feature_roles(odd, x), rows)
        _timed(f"{which}: check_explanation (half)",
               lambda: bnx.check_explanation(odd, x, {f: x[f] for f in feats[:len(feats) // 2]}),
               rows)
        _timed(f"{which}: decision_bias (2 protected)",
               lambda: bnx.decision_bias(odd, x, feats[:2]), rows)
        _timed(f"{which}: same-decision probability (8 seen)",
               lambda: bnx.same_decision_probability(clf, {f: x[f] for f in feats[:8]},
                                                     odd=odd), rows)
        kinds = {k: list(roles.values()).count(k) for k in ("necessary", "relevant")}
        print(f"   robustness {r}, {cfs[1]} counterfactuals, {ces[1]} contrastive "
              f"(diagram {ces[0].size} nodes), roles {kinds}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MB")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
