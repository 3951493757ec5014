"""The text that ``bnx explain`` prints for a classifier explained by :mod:`bnx.linear`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from .._util.wording import decided, decision_state, plural, terms
from ..errors import StructureError
from ._changes import one_counterfactual, robustness
from ._decision import decide
from ._mc import _within, one_mc_explanation
from ._pi import pi_explanations, shortest_pi_explanation

__all__ = ["explain_text", "explainable"]


def explainable(clf) -> bool:
    """Tell whether :mod:`bnx.linear` can explain ``clf`` (naive Bayes or TAN, two class states)."""
    return clf.structure in ("naive_bayes", "tan") and len(clf.class_states) == 2


def _terms(e: Mapping) -> str:
    return terms(e) if e else "(nothing: the decision is the same for every instance)"


def explain_text(clf, instance: Mapping, *, on=None, mc: bool = True, pi: bool = True,
                 shortest: bool = False, limit: int = 20) -> str:
    """Write the decision on ``instance`` and its explanations, as ``bnx explain`` prints them.

    The report's first sentence (the decision in the class's words, the posterior beside the
    threshold), then explanations as ``feature = state`` terms.

    Examples
    --------
    >>> import bnx
    >>> from bnx.linear.report import explain_text
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> print(explain_text(bnx.examples.admissions(), x, mc=False, shortest=True))
    Decided: Admit = + (Pr(Admit = +) = 0.997, threshold 0.5).
    <BLANKLINE>
    a shortest sufficient reason for Admit = + (a PI-explanation; 2 features):
      WorkExperience = +, GPA = +
    <BLANKLINE>
    robustness: 2 changes give Admit = -: WorkExperience = - (was +), GPA = - (was +)
    """
    d = decide(clf, instance)
    states, positive = clf.class_states, clf.positive
    decided_as, other = (f"{clf.class_var} = {decision_state(states, positive, v)}"
                         for v in (d, not d))
    joint = clf.class_joint(instance)
    total = sum(joint)
    posterior = None if total == 0 else float(joint[states.index(positive)] / total)
    probs = None if total == 0 else {s: float(v / total) for s, v in zip(states, joint)}
    lines = [decided(clf.class_var, decision_state(states, positive, d), positive, posterior,
                     rule=getattr(clf, "rule", "threshold"), threshold=clf.threshold,
                     positive=d, class_probabilities=probs)]
    if mc:
        try:  # a TAN (or the threshold 0) whose network may rule instances out: no race
            _within(clf, "support")
        except StructureError:
            e = None
        else:
            e = one_mc_explanation(clf, instance, on=on)
    if mc and e is None:
        lines += ["", (f"an MC-explanation of {decided_as}: not found without compiling, as "
                       f"the network may rule instances out (compile it to ask)")]
    elif mc:
        changed = {f: s for f, s in e.items() if s != instance[f]}
        lines += ["", (f"an MC-explanation of {decided_as} (one of possibly many; "
                       f"{plural(len(changed), 'feature')} changed):"), "  " + _terms(e)]
    if pi and shortest:
        e = shortest_pi_explanation(clf, instance)
        lines += ["", (f"a shortest sufficient reason for {decided_as} (a PI-explanation; "
                       f"{plural(len(e), 'feature')}):"), "  " + _terms(e)]
    elif pi:
        got = list(itertools.islice(pi_explanations(clf, instance), limit + 1))
        more = len(got) > limit
        counted = f"the first {limit}, not counted" if more else f"{len(got)} in all"
        lines += ["", f"sufficient reasons for {decided_as} (PI-explanations; {counted}):"]
        lines += [f"  ({len(e)}) {_terms(e)}" for e in got[:limit]]
        if more:
            lines.append("  … and more (counting them needs the compiled ODD)")
    r = robustness(clf, instance)
    if r == math.inf:
        lines += ["", (f"robustness: infinite (no change of the features gives another "
                       f"decision than {decided_as})")]
    else:
        lines += ["", (f"robustness: {plural(r, 'change')} give{'s' * (r == 1)} {other}: "
                       f"{terms(one_counterfactual(clf, instance), was=instance)}")]
    return "\n".join(lines)
