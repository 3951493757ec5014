"""bnx side by side with xpxlc (Marques-Silva et al., NeurIPS 2020) on xpxlc's own classifiers.

Run from the repository root::

    PYTHONPATH=. python bench/peers.py             # 3 rounds, 20 instances per data set
    PYTHONPATH=. python bench/peers.py --quick     # 1 round, 5 instances

xpxlc (``../shared/peers/xpxlc``, or ``$BNX_BENCH_PEERS/xpxlc``) is run as an external
Perl program and never imported or copied. Its classifiers are "extended linear
classifiers": class 0 iff ``w0 + sum_i w_i(x_i) > 0``. Each is turned into a naive
Bayes network with the same decision function: ``Pr(X_i = v | C=0) ~ exp(w_i(v))``,
``Pr(X_i = v | C=1)`` uniform, and the prior that puts the log-odds of ``C=0`` at
``w0 + sum_i w_i(x_i)``; the class 0 is positive at threshold 1/2. The script checks by
brute force that the compiled ODD decides every instance as the linear classifier does
(all instances, evaluated on the ODD's arrays), and that bnx finds as many
PI-explanations as xpxlc on every instance (and the same ones where the names allow
parsing xpxlc's output).

Per instance and interleaved (xpxlc process, xpxlc timed, xpxlc ``-h`` timed, bnx in
process, bnx process):

* **in process**: bnx's ``pi_explanations`` + enumerating every explanation, the ODD
  compiled and loaded before (wall ``perf_counter``), against **xpxlc's own computing
  time**: its script timed from inside perl (its modules loaded before the clock starts)
  listing all explanations, minus the same with ``-h`` (compiling the script and printing
  its help), so reading the files, preprocessing and enumerating;
* **whole process**: ``python bench/_oneshot.py`` (load the saved ODD, explain, count)
  against ``xpxlc`` listing all explanations, both wall time of the whole process.

A stricter in-process ratio, on the instances with at least 100 explanations, compares
bnx (all of pi-inst and the enumeration) with xpxlc's *listing alone*: its timed script
listing all explanations minus the same stopping after the first (``-n 1``), so without
reading, set-up or the first explanation.

Ratios are bnx / xpxlc (below 1: bnx is faster), medians over instances of the medians
over rounds.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

import bnx
from bnx.diagram._feature_view import decide_states, feature_view

ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(os.environ.get("BNX_BENCH_PEERS", ROOT.parent / "shared" / "peers"))
XPXLC = PEERS / "xpxlc"
DATASETS = {"votes": "house-votes-84", "spect": "spect", "recidivism": "recidivism"}
#: The one-shot process runs as on a user's machine: with bytecode caching.
ONESHOT_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {
    "PYTHONPATH": str(ROOT)}
MANY = 100  # instances with this many explanations also get the stricter ratio


# ---------------------------------------------------------------------- xpxlc's files
def _numbers(path: Path) -> list[str]:
    return path.read_text().split("\n")


def read_xlc(path: Path) -> tuple[float, list[list[float]]]:
    """``(w0, weights)``: the bias and each categorical feature's weight per value."""
    lines = [ln.strip() for ln in _numbers(path) if ln.strip()]
    w0, nreal = float(lines[1]), int(lines[2])
    if nreal:
        raise SystemExit(f"{path}: real-valued features are not supported")
    ncat = int(lines[3 + nreal])
    weights = []
    for ln in lines[4 + nreal:4 + nreal + ncat]:
        parts = ln.split()
        weights.append([float(v) for v in parts[1:1 + int(parts[0])]])
    return w0, weights


def read_xmap(path: Path) -> tuple[list[str], list[str], list[list[str]]]:
    """``(class names, feature names, value names per feature)``."""
    lines = [ln.rstrip("\n") for ln in _numbers(path)]
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return lines[pos - 1].strip()

    def named():
        idx, _, name = take().partition(" ")
        return int(idx), name

    classes = [named()[1] for _ in range(int(take()))]
    take()  # number of features
    take()  # real-valued ones (0)
    feats, values = [], []
    for _ in range(int(take())):
        feats.append(named()[1])
        values.append([named()[1] for _ in range(int(take()))])
    return classes, feats, values


def read_instance(path: Path) -> list[int]:
    lines = [ln.strip() for ln in _numbers(path) if ln.strip()]
    n = int(lines[0])
    return [int(v) for v in lines[1:1 + n]]


#: Runs xpxlc's script inside a timer: its modules are loaded before the clock starts,
#: and an END block (run on exit too) prints the seconds since then on stderr.
TIMER = ('use Time::HiRes; my $t0 = Time::HiRes::time(); '
         'END { printf STDERR "BNX-TIMER %.9f\\n", Time::HiRes::time() - $t0 } '
         'do "./xpxlc"; die $@ if $@;')


def xpxlc(dataset: str, inst: Path, *extra: str, timer: bool = False) -> tuple[float, str]:
    """Run xpxlc on one instance; returns (seconds, stdout): the wall time of the whole
    process, or with ``timer`` the time of the script itself (after perl's start-up)."""
    d = DATASETS[dataset]
    args = ["-C", "-s", "-t", *extra, "-f", f"../bench/xlc/{d}/{d}.txt", "-i", str(inst),
            "-m", f"../bench/xmap/{d}/{d}.txt"]
    cmd = (["perl", "-I.", "-MParsers", "-MUtils", "-MWriters", "-e", TIMER, "--", *args]
           if timer else ["perl", "./xpxlc", *args])
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=XPXLC / "scripts", capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    if timer:
        wall = float(re.search(r"BNX-TIMER ([0-9.]+)", out.stderr).group(1))
    return wall, out.stdout


# ---------------------------------------------------------------------- the classifier
def naive_bayes(w0: float, weights, feats, values) -> bnx.Classifier:
    """A naive Bayes classifier whose log-odds of class 0 are ``w0 + sum_i w_i(x_i)``."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("class", f) for f in feats])
    cpds, log_odds = [], w0
    for f, ws, names in zip(feats, weights, values):
        top = max(ws)
        z = sum(math.exp(w - top) for w in ws)
        pos = [math.exp(w - top) / z for w in ws]
        neg = [1 / len(ws)] * len(ws)
        log_odds += math.log(z) + top - math.log(len(ws))
        cpds.append(TabularCPD(f, len(ws), [list(r) for r in zip(pos, neg)], evidence=["class"],
                               evidence_card=[2], state_names={f: names, "class": ["0", "1"]}))
    p0 = 1 / (1 + math.exp(-log_odds))
    cpds.append(TabularCPD("class", 2, [[p0], [1 - p0]], state_names={"class": ["0", "1"]}))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "class", "0", threshold=0.5)


def check_decisions(odd: bnx.ODD, w0: float, weights) -> tuple[int, int]:
    """(instances, disagreements) between the ODD and the linear classifier, on all
    instances (the linear sum in float64, in xpxlc's order of summation)."""
    import numpy as np
    enc = odd.encoding
    pos = {f: i for i, f in enumerate(enc.features)}
    feats = list(odd.display_order)
    sizes = [len(w) for w in weights]
    total = math.prod(sizes)
    idx = np.indices(sizes).reshape(len(sizes), -1).T  # every instance, one row each
    margin = np.full(total, w0)
    for i, ws in enumerate(weights):
        margin = margin + np.asarray(ws)[idx[:, i]]
    codes = np.zeros((total, len(feats)), dtype=np.int64)  # state indices, the ODD's order
    for i, f in enumerate(feats):
        codes[:, pos[f]] = idx[:, i]
    got = decide_states(feature_view(odd.arrays, enc), codes)
    return total, int(np.sum(got != (margin > 0)))


_EXPL = re.compile(r"^Expl: (.*)$", re.M)


def xpxlc_sets(out: str) -> set[frozenset]:
    """xpxlc's explanations (``-w`` output) as sets of "name=value" literals."""
    return {frozenset(m.split()) for m in _EXPL.findall(out)}


def number_of(out: str) -> int:
    return int(re.search(r"Number of explanations:\s+(\d+)", out).group(1))


# ---------------------------------------------------------------------- timing
def run(dataset: str, k: int, rounds: int, tmp: Path) -> dict:
    d = DATASETS[dataset]
    w0, weights = read_xlc(XPXLC / "bench" / "xlc" / d / f"{d}.txt")
    classes, feats, values = read_xmap(XPXLC / "bench" / "xmap" / d / f"{d}.txt")
    clf = naive_bayes(w0, weights, feats, values)
    t0 = time.perf_counter()
    odd = bnx.compile(clf)
    compile_s = time.perf_counter() - t0
    total, bad = check_decisions(odd, w0, weights)
    path = odd.save(str(tmp / f"{dataset}.bnx"))
    insts = sorted((XPXLC / "bench" / "cinst" / d).glob(f"{d}.*.txt"),
                   key=lambda p: int(p.name.split(".")[-2]))[:k]
    rows = []
    simple = all(" " not in n and "=" not in n for n in feats + sum(values, []))
    for inst in insts:
        x = {f: values[i][v] for i, (f, v) in enumerate(zip(feats, read_instance(inst)))}
        pis = bnx.pi_explanations(odd, x)
        mine = [frozenset(f"{f}={s}" for f, s in e.items()) for e in pis]
        _, out = xpxlc(dataset, inst, "-w")
        theirs = number_of(out)
        same = (set(mine) == xpxlc_sets(out)) if simple else None
        arg = ",".join(f"{f}={s}" for f, s in x.items())
        times: dict[str, list[float]] = {"x_all": [], "x_run": [], "x_help": [], "x_one": [],
                                         "b_in": [], "b_proc": []}
        for _ in range(rounds):
            times["x_all"].append(xpxlc(dataset, inst)[0])
            times["x_run"].append(xpxlc(dataset, inst, timer=True)[0])
            times["x_help"].append(xpxlc(dataset, inst, "-h", timer=True)[0])
            times["x_one"].append(xpxlc(dataset, inst, "-n", "1", timer=True)[0])
            t0 = time.perf_counter()
            n = sum(1 for _ in bnx.pi_explanations(odd, x))
            times["b_in"].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, str(ROOT / "bench" / "_oneshot.py"), path, arg],
                                 capture_output=True, text=True, check=True, env=ONESHOT_ENV)
            times["b_proc"].append(time.perf_counter() - t0)
            assert int(res.stdout) == n == len(mine)
        med = {key: statistics.median(v) for key, v in times.items()}
        own = max(med["x_run"] - med["x_help"], 1e-6)
        enum = max(med["x_run"] - med["x_one"], 1e-6)  # listing all but the first
        rows.append({"inst": inst.name, "n": len(mine), "theirs": theirs, "same": same,
                     "b_in": med["b_in"], "x_own": own, "x_enum": enum, "b_proc": med["b_proc"],
                     "x_proc": med["x_all"]})
        print(f"  {dataset} {inst.name}: {len(mine)} explanations (xpxlc {theirs}), "
              f"in-process {med['b_in'] * 1e3:.2f} ms vs xpxlc own {own * 1e3:.2f} ms",
              file=sys.stderr, flush=True)
    return {"dataset": dataset, "n": len(feats), "size": odd.size, "compile": compile_s,
            "total": total, "bad": bad, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="1 round, 5 instances")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--instances", type=int, default=20)
    ap.add_argument("--only", nargs="+", choices=list(DATASETS))
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.instances = 1, 5
    if not (XPXLC / "scripts" / "xpxlc").is_file():
        raise SystemExit(f"xpxlc not found under {XPXLC} (set BNX_BENCH_PEERS)")
    print(_util.machine_line())
    print(_util.load_line())
    print(f"settings: {args.rounds} round(s), {args.instances} instances per data set, "
          f"backend {bnx.backends.resolve_backend('auto')}\n")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or DATASETS:
            results.append(run(name, args.instances, args.rounds, Path(tmp)))
    rows = []
    for r in results:
        rr = r["rows"]
        n_expl = sum(x["n"] for x in rr)
        agree = all(x["n"] == x["theirs"] for x in rr)
        same = {x["same"] for x in rr}
        many = [x for x in rr if x["n"] >= MANY]
        rows.append([
            r["dataset"], r["n"], r["size"], f"{r['total']:,}", r["bad"],
            f"{n_expl / len(rr):.0f}", "yes" if agree else "NO",
            "n/a" if same == {None} else ("yes" if same == {True} else "NO"),
            f"{statistics.median(x['b_in'] / x['n'] for x in rr) * 1e6:.2f}",
            f"{statistics.median(x['x_own'] / x['n'] for x in rr) * 1e6:.2f}",
            f"{statistics.median(x['b_in'] / x['x_own'] for x in rr):.2f}",
            f"{len(many)}: " + (f"{statistics.median(x['b_in'] / x['x_enum'] for x in many):.2f}"
                                if many else "-"),
            f"{statistics.median(x['b_proc'] for x in rr) * 1e3:.0f}",
            f"{statistics.median(x['x_proc'] for x in rr) * 1e3:.0f}",
            f"{statistics.median(x['b_proc'] / x['x_proc'] for x in rr):.2f}",
        ])
    print(_util.markdown_table(
        ["data set", "features", "ODD size", "instances checked", "decisions differing",
         "PI-expl. per inst", "same counts", "same sets",
         "bnx µs/expl (in process)", "xpxlc µs/expl (own)", "ratio in process",
         f"instances with >= {MANY} expl.: ratio to xpxlc's listing alone",
         "bnx process ms", "xpxlc process ms", "ratio process"], rows))
    print(f"\n{_util.load_line()}")


if __name__ == "__main__":
    main()
