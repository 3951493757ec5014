"""Benchmark of exact attributions and parameter sensitivity (issue 19).

Run from the repository root::

    PYTHONPATH=. python bench/attributions.py            # every part
    PYTHONPATH=. python bench/attributions.py --only votes nb30

Parts:

* ``votes``: K2 naive Bayes on the UCI votes data (16 binary features), 30 complete rows
  as background, 5 complete rows explained. ``shap.explainers.Exact`` with a
  ``shap.maskers.Independent(background, max_samples=30)`` masker, its model the fastest
  decision bnx offers (:func:`bnx.diagram._feature_view.decide_states` on the state codes,
  which are the bits of
  binary features), against :func:`bnx.shap_values`, side by side in one run; the
  largest difference of the values is printed (must be < 1e-9). shap's first call (JIT
  and set-up) is timed apart; the per-instance time is that of the later calls.
* ``all``: all 232 complete votes rows explained against all 232 as background.
* ``nb30``: the synthetic 30-feature naive Bayes of ``bench/_data.py`` (about 50 K
  nodes), 500 seeded random background rows, 3 instances: seconds per instance.
* ``whole``: :func:`bnx.parameter_sensitivity` without an instance on the votes naive
  Bayes, on the votes TAN (``bnx.case_study.votes_tan_classifier``) and on the synthetic
  20-feature naive Bayes of ``bench/_data.py``. ``--peer PATH``
  times the same on another checkout of bnx (e.g. the code before a change) in a
  subprocess of the same run, and checks that the two frames are equal.
* ``whole3``: the same on seeded random naive Bayes and TANs (a chain of feature
  parents) with a three-state class over 10 to 18 binary features, under argmax and under
  the threshold 1/3: seconds and the largest Pareto frontier a pass held.
* ``network``: :func:`bnx.shap_values` with the network's own distribution as the
  background (``background=clf``), 100 complete votes rows explained: on the votes naive
  Bayes (a mixture of two products, one pass per row and class state) and on the votes
  TAN (its contexts carried along the ODD's order); local accuracy printed.
* ``sensitivity``: :func:`bnx.parameter_sensitivity` on win95pts (class PTROFFLINE =
  Offline, its 16 leaves as features, 1,148 CPT entries) for one decision; reading the
  network is not timed. Reads ``../shared/data/networks/win95pts.net``.

Every time is the best of ``--repeat`` runs (default 3) of wall time.
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction

import _data
import _util  # noqa: F401  (sys.path)
import numpy as np
import pandas as pd

import bnx
from bnx.diagram._feature_view import decide_states, feature_view


def best(fn, repeat):
    out, times = None, []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def votes(repeat: int) -> None:
    import shap
    odd = bnx.compile(bnx.case_study.votes_classifier())
    feats = list(odd.features)
    rows = bnx.datasets.load_votes().dropna()[feats]
    bg, X = rows.iloc[:30], rows.iloc[30:35]
    codes = {f: {s: j for j, s in enumerate(odd.states(f))} for f in feats}
    num = lambda d: np.array([[codes[f][s] for f, s in zip(feats, r)] for r in d.values])

    def model(a):
        return decide_states(feature_view(odd.arrays, odd.encoding),
                             np.asarray(a, dtype=np.int64)).astype(float)

    explainer = shap.explainers.Exact(model, shap.maskers.Independent(num(bg),
                                                                      max_samples=len(bg)))
    t = time.perf_counter()
    explainer(num(X.iloc[:1]))
    first = time.perf_counter() - t
    t_shap, ref = best(lambda: explainer(num(X)), repeat)
    bnx.shap_values(odd, X.iloc[:1], bg)  # the per-ODD layers, made once
    t_bnx, got = best(lambda: bnx.shap_values(odd, X, bg), repeat)
    diff = np.abs(got.values - ref.values[:, [feats.index(f) for f in got.feature_names]]).max()
    print(f"votes, 30 background rows, {len(X)} instances: shap {shap.__version__} Exact "
          f"{1000 * t_shap / len(X):.1f} ms/instance (first call {first:.2f} s), "
          f"bnx {1000 * t_bnx / len(X):.3f} ms/instance, ratio {t_shap / t_bnx:,.0f}x, "
          f"max |difference| {diff:.1e}")


def all_rows(repeat: int) -> None:
    odd = bnx.compile(bnx.case_study.votes_classifier())
    rows = bnx.datasets.load_votes().dropna()[list(odd.features)]
    bnx.shap_values(odd, rows.iloc[:1], rows.iloc[:2])
    t, a = best(lambda: bnx.shap_values(odd, rows, rows), repeat)
    acc = np.abs(a.base_values + a.values.sum(axis=1) - a.decisions).max()
    print(f"votes, all {len(rows)} complete rows against all {len(rows)}: {t:.2f} s "
          f"(local accuracy within {acc:.1e})")


def nb30(repeat: int) -> None:
    b = _data.synthetic_nb(30)
    odd = bnx.compile(b.clf)
    rng = np.random.default_rng(_data.SEED)
    states = {f: odd.states(f) for f in odd.features}
    frame = pd.DataFrame({f: [states[f][j] for j in rng.integers(0, len(states[f]), 503)]
                          for f in odd.features})
    bg, X = frame.iloc[:500], frame.iloc[500:]
    t0 = time.perf_counter()
    bnx.shap_values(odd, X.iloc[0], bg)
    first = time.perf_counter() - t0
    times = []
    for i in range(len(X)):
        t, _ = best(lambda: bnx.shap_values(odd, X.iloc[i], bg), repeat)
        times.append(t)
    print(f"nb30 ({odd.arrays.size:,} nodes), 500 background rows: "
          f"{np.mean(times):.2f} s per instance (first call, with the per-ODD layers: "
          f"{first:.2f} s)")


def network(repeat: int) -> None:
    from bnx.attribution.network_background import network_background
    for name, clf in (("naive Bayes", bnx.case_study.votes_classifier()),
                      ("TAN", bnx.case_study.votes_tan_classifier())):
        odd = bnx.compile(clf)
        X = bnx.datasets.load_votes().dropna()[list(odd.features)].iloc[:100]
        bnx.shap_values(odd, X.iloc[:1], clf)  # the per-ODD layers, made once
        t, a = best(lambda: bnx.shap_values(odd, X, clf), repeat)
        tb, _ = best(lambda: bnx.banzhaf_values(odd, X, clf), repeat)
        acc = np.abs(a.base_values + a.values.sum(axis=1) - a.decisions).max()
        got = network_background(odd, clf, False)
        how = (f"{len(got[1])} components" if got[0] == "mixture"
               else f"at most {max(got[1].sizes)} contexts a layer")
        print(f"votes {name} ({odd.arrays.size:,} nodes), background=clf ({how}), "
              f"{len(X)} rows: SHAP {1000 * t:.0f} ms ({1000 * t / len(X):.2f} ms/row), "
              f"Banzhaf {1000 * tb:.0f} ms; local accuracy within {acc:.1e}")


def sensitivity(repeat: int) -> None:
    net = bnx.read_network(str(_data.DATA / "networks" / "win95pts.net"))
    clf = bnx.Classifier(net, "PTROFFLINE", "Offline")
    x = {f: clf.states(f)[0] for f in clf.features}
    t, s = best(lambda: bnx.parameter_sensitivity(clf, x), repeat)
    flips = int(((s.low > 0) | (s.high < 1)).sum())
    print(f"win95pts sensitivity, one decision: {t:.2f} s for {len(s):,} CPT entries "
          f"({flips} with a flip point)")


_WHOLE_PEER = """
import pickle, sys, time
sys.path.insert(0, "bench")
import _data
import bnx
out = {}
for name in ("naive Bayes", "TAN", "nb20"):
    clf = (bnx.case_study.votes_classifier() if name == "naive Bayes"
           else bnx.case_study.votes_tan_classifier() if name == "TAN"
           else _data.synthetic_nb(20).clf)
    bnx.compile(clf)
    times = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        s = bnx.parameter_sensitivity(clf, exact=True)
        times.append(time.perf_counter() - t)
    out[name] = (min(times), [(r.low, r.high) for r in s.itertuples()])
sys.stdout.buffer.write(pickle.dumps(out))
"""


def whole(repeat: int, peer: str | None = None) -> None:
    import pickle
    import subprocess
    import sys
    theirs = {}
    if peer:
        run = subprocess.run([sys.executable, "-c", _WHOLE_PEER, str(repeat)], check=True,
                             capture_output=True, cwd=peer,
                             env={**os.environ, "PYTHONPATH": peer})
        theirs = pickle.loads(run.stdout)
    for name, clf in (("naive Bayes", bnx.case_study.votes_classifier()),
                      ("TAN", bnx.case_study.votes_tan_classifier()),
                      ("nb20", _data.synthetic_nb(20).clf)):
        odd = bnx.compile(clf)
        t, s = best(lambda: bnx.parameter_sensitivity(clf, exact=True), repeat)
        room = float((s.value - s.low).combine(s.high - s.value, min).min())
        what = name if name == "nb20" else f"votes {name}"
        line = (f"{what} ({odd.size} nodes), whole-classifier sensitivity: {t:.2f} s for "
                f"{len(s)} CPT entries (smallest room {room:.1e})")
        if name in theirs:
            t_peer, ends = theirs[name]
            same = ends == [(r.low, r.high) for r in s.itertuples()]
            line += f"; peer {t_peer:.2f} s, ratio {t_peer / t:.1f}x, equal: {same}"
        print(line)


def _three_class(n: int, tan: bool, rule: str) -> bnx.Classifier:
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    rng = np.random.default_rng([_data.SEED, n, int(tan), 3])
    feats = [f"F{i}" for i in range(n)]
    edges = [("C", f) for f in feats] + ([(a, b) for a, b in zip(feats, feats[1:])] if tan
                                         else [])
    net = DiscreteBayesianNetwork(edges)
    cls = ["a", "b", "c"]
    cpds = [TabularCPD("C", 3, rng.dirichlet([4, 4, 4]).reshape(3, 1), state_names={"C": cls})]
    for i, f in enumerate(feats):
        pa = ["C"] + ([feats[i - 1]] if tan and i else [])
        cols = 3 * (2 if len(pa) == 2 else 1)
        vals = rng.dirichlet([1, 1], size=cols).T
        names = {f: ["0", "1"], "C": cls, **({pa[1]: ["0", "1"]} if len(pa) == 2 else {})}
        cpds.append(TabularCPD(f, 2, vals, evidence=pa, evidence_card=[3, 2][:len(pa)],
                               state_names=names))
    net.add_cpds(*cpds)
    kw = {"rule": "argmax"} if rule == "argmax" else {"threshold": Fraction(1, 3)}
    return bnx.Classifier(net, "C", "a", features=feats, **kw)


def whole3(repeat: int) -> None:
    from bnx.attribution import sensitivity_paths as paths
    exact = paths._exact
    largest = [0]

    def counting(points, logs):
        out = exact(points, logs)
        largest[0] = max(largest[0], len(out.pts))
        return out

    paths._exact = counting
    try:
        for n, tan in ((10, False), (14, False), (18, False), (10, True), (14, True)):
            for rule in ("argmax", "threshold"):
                clf = _three_class(n, tan, rule)
                odd = bnx.compile(clf)
                largest[0] = 0
                t, s = best(lambda: bnx.parameter_sensitivity(clf), repeat)
                flips = int(((s.low > 0) | (s.high < 1)).sum())
                print(f"3 classes, {'TAN' if tan else 'naive Bayes'}, {n} features, {rule}: "
                      f"{t:.2f} s for {len(s)} CPT entries ({flips} with a flip point; "
                      f"{odd.size} nodes; largest frontier {largest[0]})")
    finally:
        paths._exact = exact


PARTS = {"votes": votes, "all": all_rows, "nb30": nb30, "network": network,
         "sensitivity": sensitivity,
         "whole": whole, "whole3": whole3}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="+", choices=list(PARTS), default=list(PARTS))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--peer", help="whole: another checkout of bnx to time side by side")
    args = p.parse_args()
    for name in args.only:
        if name == "whole":
            whole(args.repeat, args.peer)
        else:
            PARTS[name](args.repeat)


if __name__ == "__main__":
    main()
