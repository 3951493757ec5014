"""General-network benchmark: the classic networks and TANs, checked against pgmpy.

Run from the repository root::

    PYTHONPATH=. python bench/networks.py                  # every configuration
    PYTHONPATH=. python bench/networks.py --only child-asphyxia win95pts
    PYTHONPATH=. python bench/networks.py --backend autoref --samples 500

Every configuration runs in a fresh Python process (``--timeout`` seconds at most), which
reports separately:

* read: reading the network file with ``bnx.read_network`` (for a TAN: learning it with
  ``bnx.learn_tan`` from the data);
* compile: ``bnx.Classifier(...)`` (pruning included) plus ``bnx.compile`` (default order),
  wall and CPU time of the process (the CPU time is less sensitive to other load);
* ODD size (nodes, terminals included) and its positive instances (``ODD.count()``);
* peak RSS: the process's ``ru_maxrss`` after reading and after compiling (this sees
  CUDD's C heap too, unlike ``tracemalloc``);
* check: the ODD's decision against pgmpy's exact inference
  (``pgmpy.inference.VariableElimination``) on every instance when there are at most
  2^16 (one joint query over the class and the features), otherwise on ``--samples``
  instances, half forward-sampled from the network and half uniform. An instance whose
  pgmpy posterior is within 1e-9 of the threshold (or of a tie, under argmax) is
  compared with the exact posterior of ``Classifier.posterior_exact`` instead and
  counted as "near". A mismatch fails the configuration.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

#: Instances checked exhaustively up to this many.
EXHAUSTIVE = 2 ** 16
#: Seed of the sampled instances.
SEED = 20190127


@dataclass(frozen=True)
class Config:
    """One classifier: a network file (or a data set for a TAN) and its decision."""

    name: str
    source: str  # a file under networks/, or "tan:<data set>"
    class_var: str
    positive: object
    threshold: float | None = 0.5  # None: rule="argmax"
    features: tuple | None = None  # None: the leaves
    note: str = ""

    @property
    def rule(self) -> str:
        return "argmax" if self.threshold is None else "threshold"


CONFIGS = [
    # the authors' configurations (BNC_SDD all_configs.json); positive states are ours
    Config("win95pts", "win95pts.net", "PTROFFLINE", "Offline", 0.5, note="authors"),
    Config("andes", "andes.net", "TRY12", "true", 0.5, note="authors"),
    Config("cpcs54", "cpcs54.uai", "var_0", 1, 0.48, note="authors"),
    Config("child-asphyxia", "child.net", "BirthAsphyxia", "yes", 0.9, note="authors"),
    Config("nb", "nb.uai", "var_0", 1, 0.55, note="authors"),
    Config("admission", "admission.net", "Admit", "state1", 0.5, note="authors"),
    # ours: three or more classes on each of alarm, insurance, child and hailfinder
    Config("alarm-hypovolemia", "alarm.net", "HYPOVOLEMIA", "TRUE", 0.5),
    Config("alarm-lvfailure", "alarm.net", "LVFAILURE", "TRUE", 0.5),
    Config("alarm-pulmembolus", "alarm.net", "PULMEMBOLUS", "TRUE", 0.1),
    Config("alarm-intubation", "alarm.net", "INTUBATION", "ESOPHAGEAL", None),
    Config("insurance-theft", "insurance.net", "Theft", "True", 0.001),
    Config("insurance-accident", "insurance.net", "Accident", "Severe", None),
    Config("insurance-thiscardam", "insurance.net", "ThisCarDam", "None", 0.5),
    Config("insurance-age", "insurance.net", "Age", "Adolescent", None),
    Config("child-disease", "child.net", "Disease", "TGA", None),
    Config("child-sick", "child.net", "Sick", "yes", 0.5),
    Config("child-lvh", "child.net", "LVH", "yes", 0.5),
    Config("hailfinder-scenario", "hailfinder.net", "Scenario", "A", None),
    Config("hailfinder-combvermo", "hailfinder.net", "CombVerMo", "StrongUp", 0.12),
    Config("hailfinder-aminstabmt", "hailfinder.net", "AMInstabMt", "Strong", 0.3),
    # TANs learned with bnx.learn_tan (K2 prior), every other column a feature
    Config("votes-tan", "tan:votes", "party", "republican", 0.5),
    Config("spect-tan", "tan:spect", "OVERALL_DIAGNOSIS", "1", 0.5),
    Config("nltcs-tan", "tan:nltcs", "C", "1", 0.5),
]
BY_NAME = {c.name: c for c in CONFIGS}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _read(config: Config):
    """(network, features) of a configuration."""
    import _data

    import bnx
    if config.source.startswith("tan:"):
        load, class_var, _ = _data.FRAMES[config.source[4:]]
        frame = load()
        net = bnx.learn_tan(frame, class_var)
        return net, [c for c in frame.columns if c != class_var]
    path = _data.DATA / "networks" / config.source
    if not path.is_file():
        raise _data.BenchDataError(f"{path} is missing (see /work/shared/data/SOURCES.md)")
    return bnx.read_network(path), list(config.features) if config.features else None


def _decide(posteriors, states, positive, threshold):
    """(decision, near) from pgmpy's posterior vector over the class states."""
    if any(math.isnan(p) for p in posteriors) or sum(posteriors) == 0:
        return (True if threshold is not None else states[0] == positive), False
    if threshold is not None:
        p = posteriors[states.index(positive)]
        return p >= threshold, abs(p - threshold) < 1e-9
    best = max(posteriors)
    first = next(i for i, p in enumerate(posteriors) if p == best)
    near = sum(1 for p in posteriors if best - p < 1e-9) > 1
    return states[first] == positive, near


def _compare(config: Config, clf, odd, x: dict, posteriors: list, states: list) -> bool:
    """Assert the ODD decides ``x`` as pgmpy's ``posteriors`` say; True for a near tie
    (then bnx's exact decision stands in for pgmpy's)."""
    want, near = _decide(posteriors, states, config.positive, config.threshold)
    if near:
        want = clf.decide(x)
    got = odd.decide(x)
    if got != want:
        raise AssertionError(f"{config.name}: ODD decides {got} on {x}, pgmpy {want}")
    return near


def check(config: Config, net, clf, odd, samples: int) -> dict:
    """Compare the ODD with VariableElimination; returns counts of checked and near instances."""
    import numpy as np
    from pgmpy.inference import VariableElimination

    features = list(clf.features)
    cards = [len(clf.states(f)) for f in features]
    states = list(net.get_cpds(config.class_var).state_names[config.class_var])
    ve = VariableElimination(net)
    total = math.prod(cards)
    checked = near = 0
    if total <= EXHAUSTIVE:
        factor = ve.query([config.class_var, *features], joint=True, show_progress=False)
        values = np.moveaxis(factor.values, [factor.variables.index(v) for v in
                                             [config.class_var, *features]],
                             range(len(features) + 1))
        names = [list(factor.state_names[v]) for v in [config.class_var, *features]]
        for idx in itertools.product(*(range(len(n)) for n in names[1:])):
            column = values[(slice(None), *idx)]
            s = column.sum()
            col = [float(v / s) if s > 0 else math.nan for v in column]
            col = [col[names[0].index(c)] for c in states]
            x = {f: names[i + 1][j] for i, (f, j) in enumerate(zip(features, idx))}
            near += _compare(config, clf, odd, x, col, states)
            checked += 1
        return {"checked": checked, "near": near, "exhaustive": True}
    from pgmpy.sampling import BayesianModelSampling
    rng = np.random.default_rng(SEED)
    forward = BayesianModelSampling(net).forward_sample(size=samples // 2, seed=SEED,
                                                        show_progress=False)
    xs = [{f: row[f] for f in features} for row in forward.to_dict("records")]
    for _ in range(samples - len(xs)):
        xs.append({f: clf.states(f)[int(rng.integers(len(clf.states(f))))] for f in features})
    for x in xs:
        q = ve.query([config.class_var], evidence=x, show_progress=False)
        qs = list(q.state_names[config.class_var])
        col = [float(q.values[qs.index(c)]) for c in states]
        near += _compare(config, clf, odd, x, col, states)
        checked += 1
    return {"checked": checked, "near": near, "exhaustive": False}


def run_one(config: Config, backend: str, samples: int) -> dict:
    """Read, compile and check one configuration in this process."""
    import pgmpy.estimators
    import pgmpy.inference
    import pgmpy.readwrite  # noqa: F401

    import bnx
    out = {"name": config.name, "backend": backend, "status": "ok"}
    t0 = time.perf_counter()
    net, features = _read(config)
    out["read"] = time.perf_counter() - t0
    out["rss_read"] = _rss_mb()
    out["status"] = "compile timeout"
    print(json.dumps(out), flush=True)
    out["status"] = "ok"
    t0, c0 = time.perf_counter(), time.process_time()
    if config.threshold is None:
        clf = bnx.Classifier(net, config.class_var, config.positive, features=features,
                             rule="argmax")
    else:
        clf = bnx.Classifier(net, config.class_var, config.positive,
                             threshold=config.threshold, features=features)
    odd = bnx.compile(clf, backend=backend)
    out["compile"] = time.perf_counter() - t0
    out["compile_cpu"] = time.process_time() - c0
    out["rss_compile"] = _rss_mb()
    out["features"] = len(clf.features)
    out["instances"] = math.prod(len(clf.states(f)) for f in clf.features)
    out["size"] = odd.size
    out["count"] = int(odd.count())
    out["status"] = "check timeout"
    print(json.dumps(out), flush=True)  # the parent keeps this if the check runs out of time
    out["status"] = "ok"
    t0 = time.perf_counter()
    out.update(check(config, net, clf, odd, samples))
    out["check"] = time.perf_counter() - t0
    return out


def _child(name: str, backend: str, samples: int, timeout: float) -> dict:
    cmd = [sys.executable, __file__, "--child", name, "--backend", backend,
           "--samples", str(samples)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        lines = [ln for ln in partial.splitlines() if ln.startswith("{")]
        res = json.loads(lines[-1]) if lines else {"name": name, "backend": backend,
                                                   "status": "read timeout"}
        res["status"] += f" (> {timeout:g} s in all)"
        return res
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode or not lines:
        err = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"name": name, "backend": backend, "status": f"failed: {err[:160]}"}
    return json.loads(lines[-1])


HEADER = ["configuration", "class (positive)", "rule", "features", "instances", "backend",
          "read", "compile (wall, CPU)", "ODD size", "positive", "peak RSS MB", "checked vs pgmpy"]


def row(config: Config, res: dict) -> list:
    decision = "argmax" if config.threshold is None else f"≥ {config.threshold:g}"
    head = [config.name, f"{config.class_var} ({config.positive})", decision]
    if res["status"].startswith("compile timeout"):
        return head + ["", "", res["backend"], _util.fmt_seconds(res["read"]), res["status"],
                       "", "", f"{res['rss_read']:.0f}", ""]
    if res["status"].startswith("check timeout"):
        return head + [res["features"], f"{res['instances']:,}", res["backend"],
                       _util.fmt_seconds(res["read"]), _compile_time(res),
                       f"{res['size']:,}", f"{res['count']:,}",
                       f"{res['rss_read']:.0f} → {res['rss_compile']:.0f}", res["status"]]
    if res["status"] != "ok":
        return head + ["", "", res["backend"], res["status"], "", "", "", "", ""]
    checked = (f"all {res['checked']:,}" if res["exhaustive"] else f"{res['checked']:,} sampled")
    if res["near"]:
        checked += f" ({res['near']} near ties)"
    return head + [res["features"], f"{res['instances']:,}", res["backend"],
                   _util.fmt_seconds(res["read"]), _compile_time(res),
                   f"{res['size']:,}", f"{res['count']:,}",
                   f"{res['rss_read']:.0f} → {res['rss_compile']:.0f}", checked]


def _compile_time(res: dict) -> str:
    return (f"{_util.fmt_seconds(res['compile'])} "
            f"({_util.fmt_seconds(res.get('compile_cpu', math.nan))} CPU)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cudd", help="autoref, cudd or all (default cudd)")
    ap.add_argument("--samples", type=int, default=2000,
                    help="instances checked when there are more than 2^16 (default 2000)")
    ap.add_argument("--timeout", type=float, default=240.0,
                    help="seconds per configuration, reading and checking included "
                    "(default 240)")
    ap.add_argument("--only", nargs="*", default=None, help="configuration names")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(run_one(BY_NAME[args.child], args.backend, args.samples)))
        return 0
    backends = _util.pick_backends(ap, args.backend)
    configs = CONFIGS
    if args.only:
        unknown = [n for n in args.only if n not in BY_NAME]
        if unknown:
            ap.error(f"unknown configuration(s) {unknown}; known: {', '.join(BY_NAME)}")
        configs = [BY_NAME[n] for n in args.only]
    print(_util.machine_line())
    print(_util.load_line())
    print(f"settings: samples={args.samples}, timeout={args.timeout:g} s, "
          f"backends={', '.join(backends)}")
    print()
    rows = []
    t_all = time.perf_counter()
    for config in configs:
        for backend in backends:
            res = _child(config.name, backend, args.samples, args.timeout)
            rows.append(row(config, res))
            print("  " + " | ".join(map(str, rows[-1])), file=sys.stderr, flush=True)
    print(_util.markdown_table(HEADER, rows, align="lllrrlrrrrrl"))
    print()
    print(f"total wall time: {time.perf_counter() - t_all:.1f} s; {_util.load_line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
