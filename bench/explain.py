"""Explanation benchmark: the table of Section 4.1 of Shih, Choi and Darwiche (IJCAI 2018).

Run from the repository root::

    PYTHONPATH=. python bench/explain.py            # 3 passes, both backends
    PYTHONPATH=. python bench/explain.py --quick    # 1 pass
    PYTHONPATH=. python bench/explain.py --backend autoref --only votes
    PYTHONPATH=. python bench/explain.py --questions --only votes   # issue 8's questions

For the K2 naive Bayes classifiers of votes, spect, msnbc and nltcs (``bench/_data.py``),
compiled with the default order, and 50 distinct instances of each data set (seeded
sample; votes: rows with no missing vote only), the script measures per instance:

* pi-inst: ``bnx.pi_explanations(odd, x, method="inst")`` (Algorithm 5); size is the
  ``.size`` of the returned diagram;
* pi-cover: ``bnx.pi_explanations(odd, x, method="cover")`` (Algorithm 4, then the
  prime implicants compatible with ``x``). bnx keeps the prime implicants of each
  decision per ODD, so in the main ("warm") table they are computed once per decision
  (that one-off time is reported separately) and each call restricts them to the
  instance; the "cold" table drops them before every call, so each call recomputes
  them, as the paper's per-instance figures do. Its size is the paper's "cover" size,
  the size of the prime-implicant diagram ``bnx.prime_implicants(odd, decision=f(x)).size``
  (computed outside the timing);
* MC: ``bnx.mc_explanations(odd, x)`` (Algorithm 3).

bnx builds explanation diagrams in one auxiliary ``dd`` manager per layout, shared by
all the calls on the same ODD (``bnx.question._cache.aux_manager``). The main table is measured
that way ("warm": nodes made by earlier calls stay in the manager's unique table and, with
CUDD, its computed table). A second table ("cold") drops those managers before every
call (the managers and memos kept in the ODD's arrays cache, ``bnx.question._cache``:
every entry but the ODD's own derived forms), so every call starts from a new
manager, as a one-off explanation would.

Times are wall-clock (``time.perf_counter``; a third table gives the CPU time of the
process, ``time.process_time``) means over the 50 instances; with
``--repeats R`` each instance set is run R times and the median of the R means is
reported. "impr" is the ratio of the averages, cover / inst, as in the paper
(2,144 / 139 = 15.42 for votes). Untimed warm-up calls of each method (on one
positive and one negative instance) precede each pass.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _data
import _util

import bnx

#: Section 4.1 of the paper: n, time (s) cover / inst / impr, ODD size cover / inst / impr.
PAPER = {
    "votes": (16, 0.04, 0.02, 1.99, 2144, 139, 15.42),
    "spect": (22, 0.06, 0.02, 2.27, 3130, 437, 7.14),
    "msnbc": (16, 0.07, 0.02, 2.56, 5086, 446, 11.39),
    "nltcs": (15, 0.03, 0.02, 1.39, 432, 111, 3.89),
}

#: Targets for votes on a 2-core machine (seconds per instance).
TARGETS = {"inst": 0.010, "cover": 0.020, "mc": 0.002}


_CPU = [0.0]  # CPU time of the last _timed call

#: Entries of ``odd.arrays.cache`` that a cold call starts without: the explanation
#: managers and the memos kept in them (the stars and layouts stay: they are the ODD's).
_COLD = ("aux_manager", "aux_live", "node_table", "pi_state", "mc")


def _drop_managers(odd) -> None:
    cache = odd.arrays.cache
    for kind in _COLD:
        cache.clear(kind)


def _timed(fn, *args, **kw):
    c0 = time.process_time()
    t0 = time.perf_counter()
    res = fn(*args, **kw)
    dt = time.perf_counter() - t0
    _CPU[0] = time.process_time() - c0
    return dt, res


def run_dataset(bench: _data.Bench, backend: str, instances: list[dict], repeats: int) -> dict:
    t0 = time.perf_counter()
    odd = bnx.compile(bench.clf, backend=backend)
    compile_time = time.perf_counter() - t0
    decisions = [odd.decide(x) for x in instances]
    # the paper's "cover" size: the prime-implicant diagram of the instance's decision
    t0 = time.perf_counter()
    covers = {True: bnx.prime_implicants(odd, decision=True),
              False: bnx.prime_implicants(odd, decision=False)}
    cover_once = time.perf_counter() - t0

    def warm_up():  # one untimed call of each method (and of each polarity of cover)
        for d in (True, False):
            if d in decisions:
                x0 = instances[decisions.index(d)]
                bnx.pi_explanations(odd, x0, method="inst")
                bnx.pi_explanations(odd, x0, method="cover")
                bnx.mc_explanations(odd, x0)

    means: dict[str, list[float]] = {"inst": [], "cover": [], "mc": [],
                                     "cold_inst": [], "cold_cover": []}
    cpu_means: dict[str, list[float]] = {k: [] for k in means}
    sizes: dict[str, list[int]] = {"inst": [], "cover": [], "restricted": [], "mc": []}
    counts: list[int] = []
    mismatches = 0
    for rep in range(repeats):
        warm_up()
        acc = {k: 0.0 for k in means}
        cacc = {k: 0.0 for k in means}
        for x, d in zip(instances, decisions):
            t_inst, e_inst = _timed(bnx.pi_explanations, odd, x, method="inst")
            cacc["inst"] += _CPU[0]
            t_cover, e_cover = _timed(bnx.pi_explanations, odd, x, method="cover")
            cacc["cover"] += _CPU[0]
            t_mc, e_mc = _timed(bnx.mc_explanations, odd, x)
            cacc["mc"] += _CPU[0]
            acc["inst"] += t_inst
            acc["cover"] += t_cover
            acc["mc"] += t_mc
            if rep == 0:
                sizes["inst"].append(e_inst.size)
                sizes["cover"].append(covers[d].size)
                sizes["restricted"].append(e_cover.size)
                sizes["mc"].append(e_mc.size)
                counts.append(e_inst.count)
                if e_cover.count != e_inst.count or e_cover.size != e_inst.size:
                    mismatches += 1
        # cold pass: drop the managers and memos the explanations keep per ODD
        if hasattr(odd, "arrays"):
            for x in instances:
                for method in ("inst", "cover"):
                    _drop_managers(odd)
                    t, _e = _timed(bnx.pi_explanations, odd, x, method=method)
                    acc["cold_" + method] += t
                    cacc["cold_" + method] += _CPU[0]
                    del _e
            _drop_managers(odd)
        for k in means:
            means[k].append(acc[k] / len(instances))
            cpu_means[k].append(cacc[k] / len(instances))
    out = {k: statistics.median(v) for k, v in means.items()}
    cpu = {k: statistics.median(v) for k, v in cpu_means.items()}
    if not hasattr(odd, "arrays"):
        out["cold_inst"] = cpu["cold_inst"] = out["cold_cover"] = cpu["cold_cover"] = None
    avg = {k: sum(v) / len(v) for k, v in sizes.items()}
    return {
        "name": bench.name, "n": bench.n, "backend": backend, "odd_size": odd.size,
        "compile": compile_time, "time": out, "cpu": cpu, "size": avg,
        "cover_once": cover_once, "cover_sizes": (covers[True].size, covers[False].size),
        "positive": sum(decisions), "explanations": sum(counts) / len(counts),
        "mismatches": mismatches,
    }


def _ms(t: float | None) -> str:
    return "n/a" if t is None else f"{t * 1e3:.2f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one pass over the instances")
    ap.add_argument("--backend", default="all", help="autoref, cudd or all (default)")
    ap.add_argument("--repeats", type=int, default=None, help="passes (default 3, quick 1)")
    ap.add_argument("--instances", type=int, default=50)
    ap.add_argument("--only", nargs="*", default=None, help="data sets, e.g. votes spect")
    ap.add_argument("--questions", action="store_true",
                    help="time the questions of issue 8 instead (robustness, counterfactuals, "
                    "contrastive explanations, SDP, ...; bench/_questions.py)")
    args = ap.parse_args(argv)

    backends = _util.pick_backends(ap, args.backend)
    repeats = args.repeats or (1 if args.quick else 3)
    names = args.only or list(PAPER)
    unknown = [k for k in names if k not in PAPER]
    if unknown:
        ap.error(f"unknown data set(s) {unknown}; known: {', '.join(PAPER)}")
    if args.questions:
        import _questions
        return _questions.main(args, names, backends)

    print(_util.machine_line())
    print(_util.load_line())
    print(f"settings: {args.instances} instances per data set, {repeats} pass(es), "
          f"backends={', '.join(backends)}")
    print()
    t_all = time.perf_counter()
    results = []
    for bench, instances in _data.explain_cases(names, args.instances):
        for backend in backends:
            res = run_dataset(bench, backend, instances, repeats)
            results.append(res)
            print(f"  done {bench.name} {backend}", file=sys.stderr, flush=True)

    # table 1: the paper's layout, ours beside the paper's
    rows = []
    for name in names:
        if name in PAPER:
            n, tc, ti, timp, sc, si, simp = PAPER[name]
            rows.append([name, n, "paper", f"{tc * 1e3:.0f}", f"{ti * 1e3:.0f}", f"{timp:.2f}",
                         f"{sc:,}", f"{si:,}", f"{simp:.2f}", ""])
        for r in results:
            if r["name"] != name:
                continue
            t, s = r["time"], r["size"]
            rows.append([name, r["n"], f"bnx {r['backend']}", _ms(t["cover"]), _ms(t["inst"]),
                         f"{t['cover'] / t['inst']:.2f}", f"{s['cover']:,.0f}", f"{s['inst']:,.0f}",
                         f"{s['cover'] / s['inst']:.2f}", _ms(t["mc"])])
    print("Per instance, averages over the instances (times in ms; paper: 0.02 s = 20 ms):")
    print()
    print(_util.markdown_table(
        ["dataset", "n", "source", "cover ms", "inst ms", "time impr", "cover size",
         "inst size", "size impr", "MC ms"], rows, align="lrlrrrrrrr"))
    print()

    # table 2: other facts
    rows = []
    for r in results:
        t, s = r["time"], r["size"]
        rows.append([r["name"], r["backend"], f"{r['compile'] * 1e3:.1f}", f"{r['odd_size']:,}",
                     f"{r['cover_once'] * 1e3:.1f}",
                     f"{r['cover_sizes'][0]:,} / {r['cover_sizes'][1]:,}",
                     f"{s['restricted']:,.1f}", f"{s['mc']:,.1f}",
                     f"{r['explanations']:.1f}", f"{r['positive']}/{len(instances)}",
                     r["mismatches"]])
    print("The prime implicants (computed once per ODD and decision), sizes and checks:")
    print()
    print(_util.markdown_table(
        ["dataset", "backend", "compile ms", "ODD size", "PI cover once ms (both)",
         "PI cover size (pos / neg)", "cover∘restrict size",
         "MC size", "PI-expl. per inst", "positive", "mismatches"], rows,
        align="llrrrrrrrrr"))
    print()

    # table 2b: cold managers
    rows = []
    for r in results:
        t, c = r["time"], r["cpu"]
        if t["cold_inst"] is None:
            continue
        rows.append([r["name"], r["backend"], _ms(t["cold_cover"]), _ms(t["cold_inst"]),
                     f"{t['cold_cover'] / t['cold_inst']:.2f}", _ms(c["cold_cover"]),
                     _ms(c["cold_inst"])])
    if rows:
        print("Cold: the ODD's shared auxiliary managers dropped before every call "
              "(a fresh output manager per call; ms per instance):")
        print()
        print(_util.markdown_table(["dataset", "backend", "cover", "inst", "time impr",
                                    "cover CPU", "inst CPU"], rows, align="llrrrrr"))
        print()

    # table 3: CPU time of this process (less sensitive to other load on the machine)
    rows = []
    for r in results:
        c = r["cpu"]
        rows.append([r["name"], r["backend"], _ms(c["cover"]), _ms(c["inst"]),
                     f"{c['cover'] / c['inst']:.2f}", _ms(c["mc"])])
    print("CPU time per instance (time.process_time, ms):")
    print()
    print(_util.markdown_table(["dataset", "backend", "cover", "inst", "time impr", "MC"],
                               rows, align="llrrrr"))
    print()

    # targets (votes only)
    for r in results:
        if r["name"] != "votes":
            continue
        for label in ("time", "cpu"):
            t = r[label]
            verdict = ", ".join(
                f"{k} {t[k] * 1e3:.2f} ms {'<' if t[k] < lim else '>='} {lim * 1e3:g} ms "
                f"({'met' if t[k] < lim else 'NOT met'})" for k, lim in TARGETS.items())
            print(f"votes targets, {r['backend']}, {'wall' if label == 'time' else 'CPU'}: "
                  f"{verdict}")
            if t.get("cold_inst") is not None:
                verdict = ", ".join(
                    f"{k} {t['cold_' + k] * 1e3:.2f} ms "
                    f"{'<' if t['cold_' + k] < TARGETS[k] else '>='} {TARGETS[k] * 1e3:g} ms "
                    f"({'met' if t['cold_' + k] < TARGETS[k] else 'NOT met'})"
                    for k in ("inst", "cover"))
                print(f"votes targets, {r['backend']}, {'wall' if label == 'time' else 'CPU'}, "
                      f"cold managers: {verdict}")
    print()
    print(f"total wall time: {time.perf_counter() - t_all:.1f} s; {_util.load_line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
