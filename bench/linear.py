"""Benchmark of bnx.linear: explanations of naive Bayes decisions without compiling.

Run from the repository root::

    PYTHONPATH=. python bench/linear.py            # both parts, 5 instances each
    PYTHONPATH=. python bench/linear.py --quick    # 2 instances, one pass
    PYTHONPATH=. python bench/linear.py --only xpxlc   # or --only wide

Part 1 (``xpxlc``): the first 1,000 PI-explanations of an instance, bnx.linear against
xpxlc (Marques-Silva et al., NeurIPS 2020), run side by side on the same machine. The
classifiers are xpxlc's XLC files shipped in ``tests/data/xpxlc`` (promoters, spam_48,
backache), read with :func:`bnx.linear.read_xlc`; instances are seeded random value
vectors. xpxlc runs as an external Perl program from ``../shared/peers/xpxlc/scripts``
(``perl ./xpxlc -C -s -t -n 1000 -f FILE -i INST``); its time is the wall time of the
process, and its "computing time" that minus the wall time of the same command with
``-n 1`` (interpreter start, parsing and the first explanation). Every time is the
best of 5 runs (milliseconds are noisy on a shared machine). bnx's time is that
of ``list(islice(bnx.linear.pi_explanations(clf, x), 1000))``, cold (including reading
the classifier's weights: the per-classifier cache emptied first) and warm (a second
call; the analogue of xpxlc's computing time, which excludes its parsing and
preprocessing). The numbers of
explanations must agree, and when an instance has fewer than 1,000 the two sets of
explanations are compared (with xpxlc's ``-w``).

Part 3 (``agree``): for every XLC classifier in xpxlc's ``bench/xlc`` (37), 3 seeded
instances each, the full set of PI-explanations of bnx.linear and of xpxlc (``-w -n
3000``) are compared (instances with 3,000 or more are skipped).

Part 4 (``tan``): TANs of 300 and 3,000 binary features (each feature's feature parent
drawn among the earlier ones, seeded Dirichlet columns): the first PI-explanation, the
robustness, the counterfactuals (or giving them up), ``check_explanation`` of the first
explanation and the first 10 PI-explanations, on a classifier whose tables are read
(reading them is its own row); then the delay of the enumeration (the first 100
PI-explanations of 300 features, 30 of 3,000: the median and largest time between two, and
the search nodes met by outcome, the most dead ones between two answers), with the shortest
search's proven lower bound against the first explanation's size and its outcome; then a
TAN of 20 features compiled with CUDD, all PI-explanations and the robustness of bnx.linear
beside those of the ODD (the sets must agree).

Part 2 (``wide``): naive Bayes classifiers with 5,000 binary and 5,000 four-valued
features (seeded Dirichlet CPT rows, uniform prior); for a random instance, the time of
a shortest PI-explanation, the MC-explanations (on = each feature's last state; the set,
or giving it up), the robustness, the first 1,000 PI-explanations and ``check_explanation``
of the shortest PI-explanation, each on a warm classifier (its weights read), plus that one-off
reading ("weights").
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _util  # noqa: F401  (puts the repository on sys.path)
from _util import load_line, machine_line, markdown_table

import bnx
from bnx.linear import _core

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "xpxlc"
_PEER = Path("shared") / "peers" / "xpxlc" / "scripts"  # ../shared beside the checkout
XPXLC = Path(os.environ.get("BNX_XPXLC") or next(
    (p / _PEER for p in (ROOT.parent, ROOT.parent.parent) if (p / _PEER).exists()),
    ROOT.parent / _PEER))
NAMES = ["promoters", "spam_48", "backache"]
REPEATS = 5


def _xpxlc(xlc: Path, inst: Path, n: int, write: bool = False) -> tuple[float, str]:
    cmd = ["perl", "./xpxlc", "-C", "-s", "-t", "-n", str(n), "-f", str(xlc), "-i", str(inst)]
    if write:
        cmd.insert(2, "-w")
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=XPXLC, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out


def _xpxlc_sets(out: str, clf) -> set:
    sets = set()
    for line in out.splitlines():
        if line.startswith("Expl:"):
            pairs = re.findall(r"v(\d+)=(\d+)", line)
            sets.add(frozenset((clf.features[int(i)], v) for i, v in pairs))
    return sets


def part_xpxlc(instances: int) -> None:
    if shutil.which("perl") is None or not (XPXLC / "xpxlc").exists():
        print(f"xpxlc part skipped: needs perl and {XPXLC}/xpxlc (set BNX_XPXLC)\n")
        return
    rows = []
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in NAMES:
            path = DATA / f"{name}.xlc"
            clf = bnx.linear.read_xlc(path)
            rng = random.Random(f"{name}-{instances}")
            for k in range(instances):
                x = {f: rng.choice(clf.states(f)) for f in clf.features}
                inst = Path(tmp) / f"{name}{k}.inst"
                values = [x[f] for f in clf.features]
                inst.write_text(f"{len(values)}\n" + "\n".join(values) + "\n0\n")
                t_all = t_one = t_cold = t_bnx = float("inf")
                for _ in range(REPEATS):  # the best of REPEATS runs of each
                    t, out = _xpxlc(path, inst, 1000)
                    t_all = min(t_all, t)
                    t_one = min(t_one, _xpxlc(path, inst, 1)[0])
                    _core._CACHE.pop(clf, None)
                    t = time.perf_counter()
                    got = list(itertools.islice(bnx.linear.pi_explanations(clf, x), 1000))
                    t_cold = min(t_cold, time.perf_counter() - t)
                    t = time.perf_counter()
                    got = list(itertools.islice(bnx.linear.pi_explanations(clf, x), 1000))
                    t_bnx = min(t_bnx, time.perf_counter() - t)
                n_x = int(re.search(r"Number of explanations:\s+(\d+)", out).group(1))
                assert len(got) == n_x, (name, k, len(got), n_x)
                same = ""
                if n_x < 1000:
                    _, written = _xpxlc(path, inst, 1000, write=True)
                    same = "yes" if _xpxlc_sets(written, clf) == {
                        frozenset(e.items()) for e in got} else "NO"
                compute = max(t_all - t_one, 1e-6)
                if n_x == 1000:
                    ratios.append(compute / t_bnx)
                rows.append([name, k, len(clf.features), n_x, same,
                             f"{t_all * 1000:.1f}", f"{compute * 1000:.1f}",
                             f"{t_cold * 1000:.1f}", f"{t_bnx * 1000:.1f}",
                             f"{compute / t_bnx:.1f}"])
    print("### First 1,000 PI-explanations: bnx.linear and xpxlc\n")
    print(markdown_table(["classifier", "instance", "features", "explanations",
                          "same set", "xpxlc wall ms", "xpxlc compute ms", "bnx cold ms",
                          "bnx warm ms", "xpxlc compute / bnx warm"], rows))
    print(f"\ninstances with 1,000 explanations: median ratio xpxlc compute / bnx.linear "
          f"warm {statistics.median(ratios):.1f} (min {min(ratios):.1f}, max "
          f"{max(ratios):.1f})\n")


def part_agree(instances: int) -> None:
    """Every XLC classifier of xpxlc's ``bench/xlc``: the full sets of PI-explanations of
    seeded instances, bnx.linear against xpxlc (instances with up to 3,000)."""
    if shutil.which("perl") is None or not (XPXLC / "xpxlc").exists():
        print(f"agreement part skipped: needs perl and {XPXLC}/xpxlc (set BNX_XPXLC)\n")
        return
    compared = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted((XPXLC.parent / "bench" / "xlc").glob("*/*.txt")):
            clf = bnx.linear.read_xlc(path)
            rng = random.Random(path.parent.name)
            for k in range(instances):
                x = {f: rng.choice(clf.states(f)) for f in clf.features}
                inst = Path(tmp) / "x.inst"
                inst.write_text(f"{len(x)}\n" + "\n".join(x[f] for f in clf.features) + "\n0\n")
                _, out = _xpxlc(path, inst, 3000, write=True)
                theirs = _xpxlc_sets(out, clf)
                if len(theirs) >= 3000:
                    continue
                ours = {frozenset(e.items()) for e in bnx.linear.pi_explanations(clf, x)}
                compared += 1
                if ours != theirs:
                    differ += 1
                    print(f"DIFFER: {path.parent.name} instance {k}: xpxlc {len(theirs)}, "
                          f"bnx.linear {len(ours)}")
    print(f"### Agreement with xpxlc\n\n{compared} instances compared, {differ} differ\n")


def _or_gives_up(call):
    """``call()``, or ``None`` when bnx.linear gives a set up as too large to build."""
    try:
        return call()
    except bnx.StructureError:
        return None


def wide_classifier(n: int, k: int, seed: int = 0):
    """Naive Bayes with ``n`` features of ``k`` states, Dirichlet(1) rows, uniform prior."""
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    rng = np.random.default_rng([seed, n, k])
    feats = [f"F{i}" for i in range(n)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["0", "1"]})]
    for f in feats:
        cols = rng.dirichlet(np.ones(k), size=2).T
        cpds.append(TabularCPD(f, k, cols, evidence=["C"], evidence_card=[2],
                               state_names={f: [str(j) for j in range(k)], "C": ["0", "1"]}))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", "1", threshold=0.5)


def part_wide(instances: int) -> None:
    rows = []
    for k in (2, 4):
        clf = wide_classifier(5000, k)
        rng = random.Random(k)
        on = {f: clf.states(f)[-1] for f in clf.features}
        times: dict[str, list[float]] = {}
        sizes: dict[str, list[int]] = {}
        for _ in range(instances):
            x = {f: rng.choice(clf.states(f)) for f in clf.features}
            _core._CACHE.pop(clf, None)
            t = time.perf_counter()
            _core.weights(clf).race(True), _core.weights(clf).race(False)
            times.setdefault("weights (once per classifier)", []).append(time.perf_counter() - t)
            shortest = bnx.linear.shortest_pi_explanation(clf, x)
            calls = [
                ("shortest PI-explanation", lambda: bnx.linear.shortest_pi_explanation(clf, x)),
                ("MC-explanations (the set, or giving up)",
                 lambda: _or_gives_up(lambda: bnx.linear.mc_explanations(clf, x, on=on))),
                ("robustness", lambda: bnx.linear.robustness(clf, x)),
                ("first 1,000 PI-explanations",
                 lambda: list(itertools.islice(bnx.linear.pi_explanations(clf, x), 1000))),
                ("check_explanation", lambda: bnx.linear.check_explanation(clf, x, shortest)),
            ]
            for label, call in calls:
                t = time.perf_counter()
                call()
                times.setdefault(label, []).append(time.perf_counter() - t)
            sizes.setdefault("shortest", []).append(len(shortest))
        for label, ts in times.items():
            rows.append([f"5,000 × {k} states", label, f"{statistics.median(ts) * 1000:.0f}",
                         f"{max(ts) * 1000:.0f}"])
        rows.append([f"5,000 × {k} states", "(shortest PI-explanation length, median)",
                     str(int(statistics.median(sizes["shortest"]))), ""])
    print(f"### Naive Bayes with 5,000 features ({instances} instances each)\n")
    print(markdown_table(["classifier", "question", "median ms", "max ms"], rows))
    print()


def tan_classifier(n: int, k: int, seed: int = 0):
    """A TAN with ``n`` features of ``k`` states: each feature's feature parent drawn
    uniformly among the earlier ones (the first has none), Dirichlet(1) columns, uniform
    prior."""
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    rng = np.random.default_rng([seed, n, k, 7])
    feats = [f"F{i}" for i in range(n)]
    parent = [None] + [feats[int(rng.integers(0, i))] for i in range(1, n)]
    edges = [("C", f) for f in feats] + [(p, f) for p, f in zip(parent, feats) if p]
    net = DiscreteBayesianNetwork(edges)
    states = [str(j) for j in range(k)]
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["0", "1"]})]
    for f, p in zip(feats, parent):
        if p is None:
            cols = rng.dirichlet(np.ones(k), size=2).T
            cpds.append(TabularCPD(f, k, cols, evidence=["C"], evidence_card=[2],
                                   state_names={f: states, "C": ["0", "1"]}))
        else:
            cols = rng.dirichlet(np.ones(k), size=2 * k).T
            cpds.append(TabularCPD(f, k, cols, evidence=["C", p], evidence_card=[2, k],
                                   state_names={f: states, "C": ["0", "1"], p: states}))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", "1", threshold=0.5, features=feats)


def part_tan(instances: int) -> None:
    from bnx.linear import _forest
    rows = []
    for n in (300, 3000):
        k = 2
        clf = tan_classifier(n, k)
        assert clf.structure == "tan"
        rng = random.Random(n)
        times: dict[str, list[float]] = {}
        sizes: dict[str, list[int]] = {}
        for _ in range(instances):
            x = {f: rng.choice(clf.states(f)) for f in clf.features}
            _core._CACHE.pop(clf, None)
            t = time.perf_counter()
            fr = _forest.forest(clf)
            fr.terms(True), fr.terms(False)
            times.setdefault("tables (once per classifier)", []).append(time.perf_counter() - t)
            first = []
            calls = [
                ("first PI-explanation",
                 lambda: first.append(next(bnx.linear.pi_explanations(clf, x)))),
                ("robustness", lambda: bnx.linear.robustness(clf, x)),
                ("counterfactuals (the set, or giving up)",
                 lambda: _or_gives_up(lambda: bnx.linear.counterfactuals(clf, x))),
                ("check_explanation (of the first)",
                 lambda: bnx.linear.check_explanation(clf, x, first[0])),
                ("first 10 PI-explanations",
                 lambda: list(itertools.islice(bnx.linear.pi_explanations(clf, x), 10))),
            ]
            for label, call in calls:
                t = time.perf_counter()
                call()
                times.setdefault(label, []).append(time.perf_counter() - t)
            sizes.setdefault("first", []).append(len(first[0]))
            sizes.setdefault("robustness", []).append(bnx.linear.robustness(clf, x) or 0)
        for label, ts in times.items():
            rows.append([f"TAN {n:,} × {k} states", label, f"{statistics.median(ts) * 1000:.0f}",
                         f"{max(ts) * 1000:.0f}"])
        for what, got in sizes.items():
            rows.append([f"TAN {n:,} × {k} states", f"({what} size, median)",
                         str(int(statistics.median(got))), ""])
    print(f"### TAN classifiers with 300 and 3,000 features ({instances} instances each)\n")
    print(markdown_table(["classifier", "question", "median ms", "max ms"], rows))
    print()
    part_tan_delay(instances)
    part_tan_compiled(instances)


def part_tan_delay(instances: int) -> None:
    """The delay between PI-explanations of wide TANs, the search nodes behind it, and the
    shortest search's bounds."""
    from bnx.linear import _branch
    from bnx.linear._tan import TanDecision
    rows = []
    for n, count in ((300, 100), (3000, 30)):
        clf = tan_classifier(n, 2)
        rng = random.Random(n)
        for k in range(instances):
            x = {f: rng.choice(clf.states(f)) for f in clf.features}
            d = TanDecision(clf, x)
            delays, most_dead, dead = [], 0, 0
            t = time.perf_counter()
            for s in itertools.islice(d.pi_sets(), count):
                now = time.perf_counter()
                delays.append(now - t)
                most_dead, dead = max(most_dead, d.nodes["dead"] - dead), d.nodes["dead"]
                t = now
                if len(delays) == 1:
                    first = len(s)
            t = time.perf_counter()
            try:
                shortest = f"{len(bnx.linear.shortest_pi_explanation(clf, x))} features"
            except bnx.StructureError:
                shortest = "gave up"
            t_short = time.perf_counter() - t
            nodes = d.nodes
            rows.append([f"{n:,}", k, len(delays), f"{statistics.median(delays) * 1000:.0f}",
                         f"{max(delays[1:] or delays) * 1000:.0f}", nodes["answer"],
                         nodes["empty"], nodes["dead"], most_dead,
                         f"{_branch.relaxation(d)[0]}-{first}",
                         f"{shortest} in {t_short * 1000:.0f} ms"])
    print("### TAN PI-explanations: the delay and the search behind it\n")
    print(markdown_table(["features", "instance", "listed", "median delay ms",
                          "max delay ms (after the first)", "answers", "empty nodes",
                          "dead nodes", "most dead between two", "shortest: bound-first",
                          "shortest_pi_explanation"], rows))
    print()


def part_tan_compiled(instances: int) -> None:
    """Side by side with the compiled ODD on a TAN small enough to compile (20 features):
    all PI-explanations, a robustness; the sets must agree."""
    clf = tan_classifier(20, 2)
    t = time.perf_counter()
    odd = bnx.compile(clf, backend="cudd")
    t_compile = time.perf_counter() - t
    rng = random.Random(20)
    rows = []
    for k in range(instances):
        x = {f: rng.choice(clf.states(f)) for f in clf.features}
        t = time.perf_counter()
        want = bnx.pi_explanations(odd, x).to_set()
        r_odd = bnx.robustness(odd, x)
        t_odd = time.perf_counter() - t
        t = time.perf_counter()
        got = {frozenset(e.items()) for e in bnx.linear.pi_explanations(clf, x)}
        r_lin = bnx.linear.robustness(clf, x)
        t_lin = time.perf_counter() - t
        assert got == want and r_odd == r_lin, (k, len(got), len(want), r_odd, r_lin)
        rows.append([k, len(want), r_lin, f"{t_odd * 1000:.1f}", f"{t_lin * 1000:.1f}",
                     f"{t_odd / t_lin:.2f}"])
    print(f"### TAN with 20 features: bnx.linear beside the compiled ODD (compiled once in "
          f"{t_compile:.2f} s, {odd.size:,} nodes)\n")
    print(markdown_table(["instance", "PI-explanations", "robustness",
                          "ODD: all PIs + robustness ms", "bnx.linear: same ms",
                          "ODD / linear"], rows))
    print()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 instances")
    ap.add_argument("--only", choices=["xpxlc", "wide", "agree", "tan"])
    args = ap.parse_args(argv)
    instances = 2 if args.quick else 5
    print(machine_line())
    print(load_line() + "\n")
    if args.only in (None, "xpxlc"):
        part_xpxlc(instances)
    if args.only in (None, "wide"):
        part_wide(instances)
    if args.only in (None, "tan"):
        part_tan(instances)
    if args.only in (None, "agree"):
        part_agree(3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
