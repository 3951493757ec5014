"""A partial instance of a network too large to compile: ``python bench/partial.py``.

pgmpy's bundled hepar2 (class ``Cirrhosis``, 3 states, its 41 findings), explained
without compiling on three partial instances: ``alcohol = present`` alone, and the first
20 and 30 findings (in the classifier's feature order) of an instance drawn from the
network (pgmpy's forward sampling, ``--seed``). Printed per case: ``bnx.explain(clf, e,
timeout=T)``'s wall time, its same-decision probability (exact, or the proven interval and
its width) and how it was obtained; then ``bnx.local.sdp_interval(clf, e, timeout=0.9 T)``
alone (the interval as when the restricted compile gives up at once), its interval, width
and wall time; with ``--exact S``, the SDP by the restricted compile within ``S`` seconds,
checked to lie in the interval.
"""

from __future__ import annotations

import argparse
import time
import warnings

import _util

import bnx


def _network():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        return get_example_model("hepar2")


def _cases(net, clf, seed: int) -> dict:
    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        row = BayesianModelSampling(net).forward_sample(size=1, seed=seed,
                                                        show_progress=False).iloc[0]
    x = {f: row[f] for f in clf.features}
    cases = {"alcohol = present": {"alcohol": "present"}}
    for k in (20, 30):
        cases[f"first {k} findings"] = {f: x[f] for f in clf.features[:k]}
    return cases


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--exact", type=float, default=None, metavar="S",
                    help="also the exact SDP by the restricted compile, within S seconds")
    args = ap.parse_args(argv)
    print(_util.machine_line())
    print(_util.load_line())
    net = _network()
    clf = bnx.Classifier(net, "Cirrhosis")
    table = []
    for name, e in _cases(net, clf, args.seed).items():
        t = time.perf_counter()
        r = bnx.explain(clf, e, timeout=args.timeout)
        dt = time.perf_counter() - t
        if r.sdp is not None:
            said = f"{r.sdp:.4f} (exact)"
        else:
            lo, hi = r.sdp_bounds
            said = f"[{lo:.4f}, {hi:.4f}] width {hi - lo:.4f}"
        bounded = sum(n.expected_sdp is None for n in (r.next or ()))
        flips = sum(n.flip_probability > 0 for n in (r.next or ()))
        t = time.perf_counter()
        lo, hi = bnx.local.sdp_interval(clf, e, timeout=0.9 * args.timeout)
        di = time.perf_counter() - t
        exact = "-"
        if args.exact is not None:
            from bnx.classifier._restricted import restrict, threshold_form
            base, _ = threshold_form(clf)
            part = restrict(base, e)
            try:
                odd = bnx.compile(part, timeout=args.exact)
            except bnx.CompilationLimitError:
                exact = f"not compiled ({args.exact:g} s)"
            else:
                sdp = bnx.same_decision_probability(part, {}, odd=odd, exact=True)
                assert lo <= sdp <= hi, (name, lo, sdp, hi)
                exact = f"{float(sdp):.4f}"
        table.append((name, f"{dt:.2f}", said, r.methods["sdp"].split(" (")[0],
                      f"{len(r.next or ())} ({flips} can flip, {bounded} bounded)",
                      f"[{float(lo):.4f}, {float(hi):.4f}]", f"{float(hi - lo):.4f}",
                      f"{di:.2f}", exact))
        print(f"  {name}: {table[-1]}", flush=True)
    print(_util.markdown_table(
        ["evidence", "explain s", "SDP in the report", "by", "next observations",
         "sdp_interval alone", "width", "s", "exact SDP"], table))
    print(_util.load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
