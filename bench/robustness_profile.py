"""The robustness profile on the arrays against the old ``dd`` balls, side by side.

``python bench/robustness_profile.py [--only votes nb30 nb40] [--backend cudd]
[--repeats 3] [--limit 600]``

Per classifier (votes; the random naive Bayes ``synthetic_nb(30)`` and ``synthetic_nb(40)``
of ``bench/_data.py``), one compiled ODD per method (so neither finds the other's caches):

* **arrays**: ``bnx.robustness_profile`` (erosions counted on the arrays,
  ``bnx/changes/_erosion.py``);
* **dd balls**: the implementation it replaced (kept below, verbatim but for the names): Hamming
  balls grown on the ``dd`` diagram by existential quantification, ``|P AND B_k|`` counted.

Each is timed on a fresh ODD (first call, wall and CPU seconds), the arrays ``--repeats`` times
more on fresh ODDs (best), and the two answers are compared. ``--limit`` stops a method after
that many wall seconds.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import _data
import _util

import bnx
from bnx.diagram._traversals import count as _count_models


def dd_balls(odd, immutable=()) -> dict:
    """The robustness profile by Hamming balls on the ``dd`` diagram (bnx before issue 17)."""
    enc = odd.encoding
    bdd = odd.bdd
    dom = odd.domain
    pos = odd.root & dom
    neg = ~odd.root & dom
    groups = [list(enc.bits[i]) for i, f in enumerate(enc.features)
              if f not in immutable and enc.bits[i]]
    counts: dict = {}
    flippable = 0
    for inside, other in ((pos, neg), (neg, pos)):
        ball, before, k = other, 0, 0
        while True:
            got = _count_models(inside & ball, enc.nvars)
            if got > before:
                counts[k] = counts.get(k, 0) + got - before
                before = got
            grown = ball
            for bits in groups:
                grown = grown | (bdd.exist(bits, ball) & dom)
            if grown == ball:
                break
            ball = grown
            k += 1
        flippable += before
    out = {k: counts[k] for k in sorted(counts)}
    rest = odd.total() - flippable
    if rest:
        out[math.inf] = rest  # never flipped, as bnx.robustness_profile counts them
    return out


def _bench(name: str) -> _data.Bench:
    return _data.votes() if name == "votes" else _data.synthetic_nb(int(name[2:]))


def _run(fn, limit):
    """``(answer or None if stopped, wall, CPU)``; the limit's closing collection untimed."""
    w, c = time.perf_counter(), time.process_time()
    try:
        with _util.time_limit(limit):
            w, c = time.perf_counter(), time.process_time()
            out = fn()
            w, c = time.perf_counter() - w, time.process_time() - c
    except _util.Timeout:
        out = None
        w, c = time.perf_counter() - w, time.process_time() - c
    return out, w, c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=["votes", "nb30", "nb40"])
    ap.add_argument("--backend", default="cudd")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=float, default=600)
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line(), flush=True)
    rows = []
    for name in args.only:
        clf = _bench(name).clf
        odd = bnx.compile(clf, backend=args.backend)
        odd.arrays  # noqa: B018  (made by the compiler; not part of either method's time)
        size = odd.arrays.size
        new, w, c = _run(lambda: bnx.robustness_profile(odd), args.limit)
        best = w
        for _ in range(args.repeats):
            again = bnx.compile(clf, backend=args.backend)
            again.arrays  # noqa: B018
            best = min(best, _run(lambda: bnx.robustness_profile(again), args.limit)[1])
        print(f"{name}: {size:,} array nodes; arrays {w:.3f} s wall ({c:.3f} CPU), "
              f"best of {args.repeats + 1} {best:.3f} s: {new}", flush=True)
        fresh = bnx.compile(clf, backend=args.backend)
        old, ow, oc = _run(lambda: dd_balls(fresh), args.limit)
        print(f"{name}: dd balls {ow:.3f} s wall ({oc:.3f} CPU)"
              f"{'' if old is not None else ' (stopped)'}: {old}", flush=True)
        same = "stopped" if old is None else ("yes" if old == new else "NO")
        rows.append([name, f"{size:,}", _util.fmt_seconds(w), _util.fmt_seconds(best),
                     _util.fmt_seconds(ow) + ("" if old is not None else " (stopped)"),
                     f"{ow / best:.1f}" if best else "", same])
    print()
    print(_util.markdown_table(["ODD", "array nodes", "arrays (first)", "arrays (best)",
                                "dd balls", "dd / arrays", "same answer"], rows))
    print(_util.load_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
