"""The text that ``bnx explain`` prints for a classifier explained by :mod:`bnx.linear`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from . import (counterfactual, decide, mc_explanation, pi_explanations, robustness,
               shortest_pi_explanation)

__all__ = ["explainable", "explain_text"]


def explainable(clf) -> bool:
    """Can :mod:`bnx.linear` explain ``clf`` (naive Bayes or TAN, two class states)?"""
    return clf.structure in ("naive_bayes", "tan") and len(clf.class_states) == 2


def _pairs(e: Mapping) -> str:
    return ", ".join(f"{f}={s}" for f, s in e.items())


def explain_text(clf, instance: Mapping, *, on=None, mc: bool = True, pi: bool = True,
                 shortest: bool = False, limit: int = 20) -> str:
    """The decision on ``instance`` and its explanations, as ``bnx explain`` prints them.

    Examples
    --------
    >>> import bnx
    >>> from bnx.linear.report import explain_text
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> print(explain_text(bnx.examples.admissions(), x, mc=False, shortest=True))
    decision:  positive (Admit=+)
    posterior: Pr(Admit=+ | x) = 0.997056 (threshold 0.5)
    <BLANKLINE>
    a shortest PI-explanation (2 features):
      WorkExperience=+, GPA=+
    <BLANKLINE>
    robustness: changing 2 features flips the decision: WorkExperience=-, GPA=-
    """
    d = decide(clf, instance)
    side = "positive" if d else "negative"
    cls, label = clf.class_var, clf.positive
    lines = [f"decision:  {side} ({cls}{'=' if d else '!='}{label})"]
    if getattr(clf, "rule", "threshold") == "threshold":
        lines.append(f"posterior: Pr({cls}={label} | x) = {clf.posterior(instance):.6f} "
                     f"(threshold {float(clf.threshold):g})")
    if mc:
        e = mc_explanation(clf, instance, on=on)
        changed = {f: s for f, s in e.items() if s != instance[f]}
        lines += ["", f"an MC-explanation of a {side} decision (one of possibly many; "
                  f"{len(changed)} features changed):", "  " + _pairs(e)]
    if pi and shortest:
        e = shortest_pi_explanation(clf, instance)
        lines += ["", f"a shortest PI-explanation ({len(e)} features):", "  " + _pairs(e)]
    elif pi:
        got = list(itertools.islice(pi_explanations(clf, instance), limit + 1))
        more = len(got) > limit
        lines += ["", f"PI-explanations of a {side} decision "
                  f"({'the first ' + str(limit) + '; not counted' if more else len(got)}):"]
        lines += [f"  ({len(e)}) {_pairs(e)}" for e in got[:limit]]
        if more:
            lines.append("  ... and more (counting them needs the compiled ODD)")
    r = robustness(clf, instance)
    if r == math.inf:
        lines += ["", "robustness: no change of features flips the decision"]
    else:
        lines += ["", f"robustness: changing {r} feature{'s' if r != 1 else ''} flips the "
                  f"decision: {_pairs(counterfactual(clf, instance))}"]
    return "\n".join(lines)
