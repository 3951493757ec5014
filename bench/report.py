"""The report of issue 26: ``python bench/report.py [--no-large]``.

Three targets, each timed as a user meets it (wall clock, one process per CLI run):

1. ``bnx explain votes.bnx --instance ...`` on a saved ODD: the whole command, Python's
   start included, under 0.5 s, and no pgmpy imported (checked in a separate run that
   reports ``sys.modules``); the same on child's ODD (a general network, pgmpy's child);
2. ``bnx.explain(odd, x)`` on votes instances (naive Bayes learned from the votes data,
   compiled once): the first report on each of 20 complete rows (nothing cached for the
   instance), and the same call again, under 20 ms;
3. ``bnx.explain(odd, x)`` on the 40-feature naive Bayes diagram of ``bench/large.py``
   (``synthetic_nb(40)``, CUDD): the first report on the fresh ODD (it builds the array
   views), then the first report on each of 3 new instances, under 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import _util

import bnx
from bnx.report import explain

CHECK = """
import sys
from bnx.cli import main
code = main(sys.argv[1:])
print(sorted(m for m in ("pgmpy", "pandas", "sklearn", "matplotlib") if m in sys.modules),
      file=sys.stderr)
sys.exit(code)
"""


def _cli(tmp: str, rounds: int) -> None:
    odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    path = odd.save(os.path.join(tmp, "votes.bnx"))
    rows = bnx.datasets.load_votes().dropna()
    x = rows.iloc[3].drop("party").to_dict()
    arg = ",".join(f"{k}={v}" for k, v in x.items())
    times, cpu, heavy = _time_explain(path, arg, rounds)
    print(f"bnx explain votes.bnx --instance ...: best {min(times):.3f} s, median "
          f"{statistics.median(times):.3f} s over {rounds} runs (target < 0.5 s); CPU (user + "
          f"system) best {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s; heavy "
          f"modules imported: {heavy}")


def _time_explain(path: str, arg: str, rounds: int) -> tuple[list, list, str]:
    """Time ``bnx explain PATH --instance ARG`` as whole processes: wall and CPU per run,
    and the heavy modules one such process imports."""
    env = {**os.environ, "PYTHONPATH": str(_util._HERE.parent)}
    cmd = [sys.executable, "-m", "bnx", "explain", path, "--instance", arg]
    times, cpu = [], []
    for _ in range(rounds):
        before = os.times()
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t)
        after = os.times()
        cpu.append(after.children_user + after.children_system
                   - before.children_user - before.children_system)
    got = subprocess.run([sys.executable, "-c", CHECK, "explain", path, "--instance", arg],
                         check=True, capture_output=True, text=True, env=env)
    return times, cpu, got.stderr.strip()


def _cli_child(tmp: str, rounds: int) -> None:
    """``bnx explain child.bnx``: pgmpy's child, class Disease = TGA (threshold), its
    leaves as features: a general network's ODD."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        net = get_example_model("child")
    odd = bnx.compile(bnx.Classifier(net, "Disease", "TGA"), backend="autoref")
    path = odd.save(os.path.join(tmp, "child.bnx"))
    arg = ",".join(f"{f}={odd.states(f)[0]}" for f in odd.features)
    times, cpu, heavy = _time_explain(path, arg, rounds)
    print(f"bnx explain child.bnx --instance ... ({odd.size} nodes): best {min(times):.3f} s, "
          f"median {statistics.median(times):.3f} s over {rounds} runs (target < 0.5 s); CPU "
          f"best {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s; heavy modules "
          f"imported: {heavy}")


def _votes(rounds: int) -> None:
    odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    rows = bnx.datasets.load_votes().dropna().drop(columns="party")
    xs = [rows.iloc[i].to_dict() for i in range(min(rounds, len(rows)))]
    explain(odd, xs[-1])  # the diagram's array views, once per ODD
    first, again, first_cpu, again_cpu = [], [], [], []
    for x in xs:
        for out, cpu in ((first, first_cpu), (again, again_cpu)):
            t, c = time.perf_counter(), time.process_time()
            explain(odd, x)
            out.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
    for name, ts, cs in (("first report on an instance", first, first_cpu),
                         ("the same report again", again, again_cpu)):
        print(f"bnx.explain(odd, x), votes, {name}: median {statistics.median(ts) * 1e3:.1f} ms, "
              f"max {max(ts) * 1e3:.1f} ms over {len(ts)} rows (target < 20 ms); CPU median "
              f"{statistics.median(cs) * 1e3:.1f} ms, max {max(cs) * 1e3:.1f} ms")


def _large(instances: int) -> None:
    import _data
    clf = _data.synthetic_nb(40).clf
    t = time.perf_counter()
    odd = bnx.compile(clf, backend="cudd")
    print(f"nb40: compiled in {time.perf_counter() - t:.2f} s, {odd.size:,} nodes")
    for k in range(instances + 1):
        rng = random.Random(k + 1)
        x = {f: rng.choice(clf.states(f)) for f in clf.features}
        t, c = time.perf_counter(), time.process_time()
        r = explain(odd, x)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        what = "fresh ODD" if k == 0 else "new instance"
        print(f"bnx.explain(odd, x), nb40, {what}: {dt:.3f} s, CPU {dc:.3f} s (target < 2 s); "
              f"{r.reason_count:,} reasons, robustness {r.robustness}, "
              f"{len(r.necessary)} necessary")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7, help="CLI runs (default 7)")
    ap.add_argument("--rows", type=int, default=20, help="votes rows (default 20)")
    ap.add_argument("--no-large", action="store_true", help="skip the 40-feature diagram")
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    with tempfile.TemporaryDirectory() as tmp:
        _cli(tmp, args.rounds)
        _cli_child(tmp, args.rounds)
    _votes(args.rows)
    if not args.no_large:
        _large(3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
