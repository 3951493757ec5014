"""The single-thread cost of the per-model lock (bnx._util.guard).

Run from the repository root (and from a checkout without the lock, to compare)::

    PYTHONPATH=. python bench/guard.py

On the votes classifier (autoref): 20,000 ``odd.decide`` calls (the cheapest guarded
call: one lock check and one walk), 20,000 ``clf.posterior`` calls, and
``bnx.pi_explanations`` and ``bnx.mc_explanations`` of 100 distinct rows (warm caches); best
of 3, seconds.
"""

import time

import bnx
from bnx.tabular.case_study import votes_classifier
from bnx.tabular.datasets import load_votes


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    clf = votes_classifier()
    odd = bnx.compile(clf, backend="autoref")
    data = load_votes().dropna()
    rows = [{f: r[f] for f in clf.features} for _, r in data.head(100).iterrows()]
    x = rows[0]
    print("odd.decide x20000     ", round(best(lambda: [odd.decide(x) for _ in range(20000)]), 3))
    post = best(lambda: [clf.posterior(x) for _ in range(20000)])
    print("clf.posterior x20000  ", round(post, 3))
    print("pi_explanations x100  ", round(best(lambda: [bnx.pi_explanations(odd, r).count
                                                         for r in rows]), 3))
    print("mc_explanations x100  ", round(best(lambda: [bnx.mc_explanations(odd, r).count
                                                         for r in rows]), 3))


if __name__ == "__main__":
    main()
