"""Questions under the network's distribution: the same-decision probability in floats,
next_observations, probable_reasons and group_fairness (issue 27).

Run from the repository root::

    PYTHONPATH=. BNX_BENCH_DATA=/work/shared/data python bench/observe.py
    PYTHONPATH=. python bench/observe.py --exact    # also one exact SDP per case (slow)
    PYTHONPATH=. python bench/observe.py --nb 40 --seen 0 8 20   # nb40 only

With ``--nb N``, only the random naive Bayes of ``N`` binary features
(``bench/_data.synthetic_nb``, compiled beforehand with CUDD): the same-decision
probability and ``next_observations`` with the first ``k`` features of a seeded random
instance seen, for each ``k`` of ``--seen``, each timed twice (wall and CPU); target:
``next_observations`` on nb40 < 2 s.

Cases: alarm with the classes HYPOVOLEMIA and LVFAILURE (``networks/alarm.net``, 11 leaf
features, 25 hidden nodes; as in ``bench/networks.py``) and the votes naive Bayes
(``bench/_data.votes``). ODDs are compiled beforehand (CUDD when installed). The first
question on a classifier builds its dense joint (timed apart: "joint"); the others reuse
it. Evidence: for each k, ``--rounds`` random sets of k features with states drawn from
the network (forward sampling), seeded. Times are wall and CPU (``time.process_time``)
per call; targets: SDP on alarm < 0.5 s, next_observations on alarm < 5 s and on votes
< 50 ms, probable_reasons on votes < 1 s per instance.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _util

import bnx

SEED = 20270127


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def _alarm(cls: str):
    import _data
    path = _data.DATA / "networks" / "alarm.net"
    net = bnx.read_network(path)
    return bnx.Classifier(net, cls, "TRUE", 0.5)


def _votes():
    import _data
    return _data.votes().clf


def _samples(clf, n: int, rng: random.Random) -> list[dict]:
    from pgmpy.sampling import BayesianModelSampling
    frame = BayesianModelSampling(clf.network).forward_sample(
        size=n, seed=rng.randrange(1 << 30), show_progress=False)
    return [{f: row[f] for f in clf.features} for row in frame.to_dict("records")]


def _backend() -> str:
    try:
        import dd.cudd  # noqa: F401
        return "cudd"
    except ImportError:
        return "autoref"


def run(rounds: int, exact: bool) -> list[list[str]]:
    rows = []
    rng = random.Random(SEED)
    for name, make in [("alarm-HYPOVOLEMIA", lambda: _alarm("HYPOVOLEMIA")),
                       ("alarm-LVFAILURE", lambda: _alarm("LVFAILURE")), ("votes", _votes)]:
        clf = make()
        odd = bnx.compile(clf, backend=_backend())
        xs = _samples(clf, rounds * 13, rng)
        n = len(clf.features)
        _, w, c = _timed(lambda: bnx.same_decision_probability(clf, {}, odd=odd))
        rows.append([name, "joint (first question)", "", f"{w * 1e3:.1f}", f"{c * 1e3:.1f}"])
        ks = [k for k in (0, 2, 4, 6, 8, 10, 12) if k <= n]
        sdp_w, sdp_c, cases = [], [], []
        for j, k in enumerate(ks):
            for r in range(rounds):
                x = xs[j * rounds + r]
                e = {f: x[f] for f in rng.sample(clf.features, k)}
                cases.append(e)
                _, w, c = _timed(lambda: bnx.same_decision_probability(clf, e, odd=odd))
                sdp_w.append(w)
                sdp_c.append(c)
        rows.append([name, f"SDP, {ks[0]}-{ks[-1]} observed", str(len(sdp_w)),
                     f"{max(sdp_w) * 1e3:.2f}", f"{max(sdp_c) * 1e3:.2f}"])
        if exact:
            e = cases[len(cases) // 2]
            _, w, c = _timed(lambda: bnx.same_decision_probability(clf, e, odd=odd,
                                                                   exact=True))
            rows.append([name, f"SDP exact=True ({len(e)} observed)", "1",
                         f"{w * 1e3:.0f}", f"{c * 1e3:.0f}"])
        nw, nc = [], []
        for e in cases[::max(1, len(cases) // rounds)][:rounds]:
            _, w, c = _timed(lambda: bnx.next_observations(clf, e, odd=odd))
            nw.append(w)
            nc.append(c)
        rows.append([name, "next_observations", str(len(nw)), f"{max(nw) * 1e3:.2f}",
                     f"{max(nc) * 1e3:.2f}"])
        pw, pc = [], []
        for x in xs[-rounds:]:
            if sum(clf.class_joint(x)) == 0:
                continue
            _, w, c = _timed(lambda: bnx.probable_reasons(clf, x, delta=0.95, odd=odd))
            pw.append(w)
            pc.append(c)
        rows.append([name, "probable_reasons (delta 0.95)", str(len(pw)),
                     f"{max(pw) * 1e3:.1f}", f"{max(pc) * 1e3:.1f}"])
        prot = list(clf.features[:2])
        _, w, c = _timed(lambda: bnx.group_fairness(clf, prot, odd=odd))
        rows.append([name, f"group_fairness ({', '.join(prot)})", "1", f"{w * 1e3:.2f}",
                     f"{c * 1e3:.2f}"])
    return rows


def run_nb(n: int, seen: list[int]) -> list[list[str]]:
    """The SDP and next_observations on the random naive Bayes of ``n`` features."""
    import _data
    import numpy as np
    clf = _data.synthetic_nb(n).clf
    odd = bnx.compile(clf, backend=_backend())
    feats = list(clf.features)
    rng = np.random.default_rng(1)
    x = {f: clf.states(f)[int(rng.integers(2))] for f in feats}
    rows = []
    for k in seen:
        e = {f: x[f] for f in feats[:k]}
        for label, fn in (("SDP", bnx.same_decision_probability),
                          ("next_observations", bnx.next_observations)):
            for r in range(2):
                _, w, c = _timed(lambda: fn(clf, e, odd=odd))
                rows.append([f"nb{n} ({odd.size:,} nodes)", f"{label}, {k} seen, run {r + 1}",
                             "1", f"{w * 1e3:.0f}", f"{c * 1e3:.0f}"])
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="evidence sets per k (default 3)")
    ap.add_argument("--exact", action="store_true", help="also one exact SDP per case")
    ap.add_argument("--nb", type=int, default=0, help="only the random naive Bayes of N "
                    "features")
    ap.add_argument("--seen", type=int, nargs="+", default=[0, 8, 20],
                    help="with --nb: the numbers of features seen (default 0 8 20)")
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    rows = run_nb(args.nb, args.seen) if args.nb else run(args.rounds, args.exact)
    print(_util.markdown_table(["case", "question", "calls", "max wall ms", "max CPU ms"],
                               rows))
    print(_util.load_line())


if __name__ == "__main__":
    main()
