"""Rules and monotonicity checks (``bnx.check_rule``, ``bnx.check_monotone``) on alarm and
win95pts, the networks and classes of bn-sat-verification (Stepka et al., 2024).

Run from the repository root::

    PYTHONPATH=. python bench/rules.py
    PYTHONPATH=. python bench/rules.py --only alarm --rounds 50

The networks are the ones pgmpy bundles (``pgmpy.example_models``), their leaves the
features (bnx's default); every feature is declared ordinal (alarm: ZERO < LOW < NORMAL <
HIGH, FALSE < TRUE; win95pts: each feature's first state, the one of a working printer,
below its second). Per network, in one fresh process each:

* read: loading the network from pgmpy (not counted in the total);
* compile: ``bnx.Classifier(...)`` plus ``bnx.compile``;
* first rule and first monotonicity check: the first ``check_rule`` (it builds the
  network's dense joint, once per classifier) and the first ``check_monotone`` on all the
  features;
* total: compile plus the two first checks (the target: under 2 s);
* a check alone: the median over ``--rounds`` calls of each, warm (the target: under 10 ms);
* every time as wall and CPU time (``time.process_time``, steadier on a loaded machine);
* verified: every rule's counts and counterexample against the ODD's decisions on all
  instances (``odd.decide_many``), and the first rule's probability against the exact one
  (``exact=True``: along the diagram in exact integers, seconds on alarm).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

#: (name, pgmpy model, class, positive state, threshold, rules)
CONFIGS = {
    "alarm": ("alarm", "DISCONNECT", "TRUE", 0.1, [
        "EXPCO2=ZERO, MINVOL=ZERO => DISCONNECT=TRUE",
        "PRESS<=LOW, EXPCO2<=LOW => DISCONNECT=TRUE",
        "EXPCO2>=NORMAL => DISCONNECT=FALSE"]),
    "win95pts": ("win95pts", "PTROFFLINE", "Offline", 0.5, [
        "PrtStatOff=OFFLINE__OFF => PTROFFLINE=Offline",
        "Problem1=No_Output, PrtStatOff=OFFLINE__OFF => PTROFFLINE=Offline",
        "Problem1=Normal_Output => PTROFFLINE=Online"]),
}

_LEVELS = ("ZERO", "LOW", "NORMAL", "HIGH")


def _ordinal(net, features) -> dict:
    out = {}
    for f in features:
        states = list(net.get_cpds(f).state_names[f])
        if set(states) <= set(_LEVELS):
            out[f] = [s for s in _LEVELS if s in states]
        elif set(states) == {"FALSE", "TRUE"}:
            out[f] = ["FALSE", "TRUE"]
        else:
            out[f] = states
    return out


def _verify(odd, text, exact: bool) -> str:
    """The check's counts and counterexample against every instance, and (``exact``) its
    probability against the exact one."""
    import numpy as np

    import bnx
    condition, decision = bnx.explanation.rules.parse_rule(text, odd)
    got = bnx.check_rule(odd, condition, decision)
    if exact:
        exact = bnx.check_rule(odd, condition, decision, exact=True).violation_probability
    feats = list(odd.features)
    rows = [dict(zip(feats, combo)) for combo in itertools.product(*map(odd.states, feats))]
    decided = odd.decide_many(rows)
    want = decision == odd.decision_state(True)
    inside = np.array([all(r[f] in got.condition[f] for f in got.condition) for r in rows])
    bad = inside & (decided != want)
    ok = int(inside.sum()) == got.instances and int(bad.sum()) == got.violations
    if exact is not False:
        ok = ok and abs(got.violation_probability - float(exact)) <= 1e-9
    if got.counterexample is not None:
        ok = ok and odd.decide(got.counterexample) != want
    return "ok" if ok else "WRONG"


def run_one(name: str, rounds: int) -> dict:
    warnings.filterwarnings("ignore")
    model, class_var, positive, threshold, rules = CONFIGS[name]
    from pgmpy.utils import get_example_model

    import bnx
    t = time.perf_counter()
    net = get_example_model(model)
    row = {"name": name, "read s": time.perf_counter() - t}
    t, c = time.perf_counter(), time.process_time()
    plain = bnx.Classifier(net, class_var, positive, threshold=threshold)
    clf = bnx.Classifier(net, class_var, positive, threshold=threshold,
                         ordinal=_ordinal(net, plain.features))
    odd = bnx.compile(clf)
    row["compile s"] = time.perf_counter() - t
    row["compile cpu s"] = time.process_time() - c
    row["features"], row["size"] = len(odd.features), odd.size
    parsed = [bnx.explanation.rules.parse_rule(text, odd) for text in rules]
    t, c = time.perf_counter(), time.process_time()
    first = bnx.check_rule(odd, *parsed[0])
    row["first rule s"] = time.perf_counter() - t
    row["first rule cpu s"] = time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    mono = bnx.check_monotone(odd)
    row["first monotone s"] = time.perf_counter() - t
    row["first monotone cpu s"] = time.process_time() - c
    row["total s"] = row["compile s"] + row["first rule s"] + row["first monotone s"]
    row["total cpu s"] = (row["compile cpu s"] + row["first rule cpu s"]
                          + row["first monotone cpu s"])
    times = {"rule": [], "monotone": [], "rule cpu": [], "monotone cpu": []}
    for _ in range(rounds):
        for condition, decision in parsed:
            t, c = time.perf_counter(), time.process_time()
            bnx.check_rule(odd, condition, decision)
            times["rule"].append(time.perf_counter() - t)
            times["rule cpu"].append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        bnx.check_monotone(odd)
        times["monotone"].append(time.perf_counter() - t)
        times["monotone cpu"].append(time.process_time() - c)
    for what, got in times.items():
        row[f"{what} ms"] = 1000 * statistics.median(got)
    row["answers"] = [str(first), *(str(bnx.check_rule(odd, *p)) for p in parsed[1:]),
                      str(mono)]
    row["verified"] = ", ".join(_verify(odd, text, exact=k == 0) for k, text in enumerate(rules))
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*", choices=sorted(CONFIGS))
    p.add_argument("--rounds", type=int, default=20, help="calls per check timed warm")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(run_one(args.child, args.rounds)))
        return 0
    print(_util.machine_line())
    print(_util.load_line())
    rows = []
    for name in args.only or sorted(CONFIGS):
        out = subprocess.run([sys.executable, __file__, "--child", name, "--rounds",
                              str(args.rounds)], capture_output=True, text=True, check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        for answer in row.pop("answers"):
            print(f"{name}: {answer}", file=sys.stderr)
    header = ["name", "features", "size", "read s", "compile s", "compile cpu s",
              "first rule s", "first rule cpu s", "first monotone s", "first monotone cpu s",
              "total s", "total cpu s", "rule ms", "rule cpu ms", "monotone ms",
              "monotone cpu ms", "verified"]
    print(_util.markdown_table(header, [[_fmt(r[h]) for h in header] for r in rows]))
    return 0 if all("WRONG" not in r["verified"] for r in rows) else 1


def _fmt(v):
    return f"{v:.3g}" if isinstance(v, float) else v


if __name__ == "__main__":
    sys.exit(main())
