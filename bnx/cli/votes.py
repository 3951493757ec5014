"""``bnx votes``: the case study of Shih, Choi and Darwiche (IJCAI 2018) on the command line.

:mod:`bnx.case_study` computes it.
"""

from __future__ import annotations

import time

from ._options import shows_progress
from .text import _legend, _show, _table

__all__: list[str] = []


def cmd_votes(args) -> None:
    from ..tabular.case_study import CONGRESSMAN_ROW, paper_comparison, votes_study

    t0 = time.perf_counter()
    study = votes_study(backend=args.backend, all_positives=False)
    odd = study.odd

    def out(*parts) -> None:
        print(*parts, flush=True)  # the first figures appear while the rest is computed

    out("bnx votes: the case study of Shih, Choi and Darwiche (IJCAI 2018), Sections 3.2 and 4.2")
    out("Naive Bayes learned from the UCI Congressional Voting Records (435 rows, K2 prior);")
    out("class 'party', positive 'republican', threshold 0.5; missing votes unobserved.\n")
    out(f"Compiled ODD: {odd.size} nodes on the {odd.backend} backend; "
        f"{study.positives:,} of {study.total:,} instances are positive.\n")
    x = study.congressman
    votes = " ".join(x[f] for f in study.classifier.features)
    # rows are numbered as the data frame's index (bnx.datasets.load_votes()), from 0
    out(f"The Congressman of row {CONGRESSMAN_ROW} (line {CONGRESSMAN_ROW + 1} of "
        f"house-votes-84.data): {votes}")
    out(f"Pr(republican | votes) = {study.congressman_posterior:.6f}: "
        f"{'republican' if study.congressman_decision else 'democrat'}\n")
    feats = study.classifier.features
    out(_legend(feats) + "\n")
    out(_show(study.mc, 10, feats))
    for e in study.mc:
        flipped = [f for f in study.classifier.features if x[f] == "y" and e[f] == "n"]
        out(f"  yes votes kept: {', '.join(study.yes_votes(e))}; "
            f"could be reversed: {', '.join(flipped) or '(none)'}")
    out("")
    out(_show(study.pi, 10, feats))
    out("")
    shortest = study.pi.shortest()
    out(_show(shortest, 10, feats, title=f"Shortest: {shortest.title()}"))
    for z in list(shortest)[:10]:
        yes = [f for f in z if z[f] == "y"]
        no = [f for f in z if z[f] == "n"]
        out(f"  yes on: {', '.join(yes) or '-'}; no on: {', '.join(no) or '-'}")
    out("")
    if not args.quick:
        from ..tabular.case_study import mc_frequency
        study.mc_frequency = mc_frequency(odd, progress=shows_progress(args))
    top = study.most_frequent_mc
    if top is not None:
        e, n = top
        out(f"Most frequent MC-explanation over all {study.positives:,} positive instances "
            f"(an MC-explanation of {n:,} of them): yes on {', '.join(study.yes_votes(e))}\n")
    hist = study.all_pi_histogram
    out(f"PI-explanations of all decisions: {study.all_pi_count:,} "
        f"({study.pi_positive.count:,} of positive, {study.pi_negative.count:,} of negative "
        "decisions)")
    out(_table([[str(k), f"{v:,}"] for k, v in hist.items()] +
               [["total", f"{study.all_pi_count:,}"]], ["length", "explanations"]))
    out("")
    out("The paper's figures beside ours. The paper does not say how its classifier was")
    out("trained, so they need not match; every figure in the 'bnx' column was computed here.")
    out(_table(paper_comparison(study), ["figure", "paper", "bnx"]))
    out(f"\n({time.perf_counter() - t0:.1f} s)")
