"""The question flags of ``bnx explain`` (issue 8).

``--cxp``, ``--roles``, ``--robustness``/``--immutable``, ``--bias``, ``--check``, ``--sdp``
and ``--profile``.

Kept apart from the parser and commands (:mod:`bnx.cli`), which call the three
functions below.
"""

from __future__ import annotations

import math

from .text import _names, _pairs, _show, _table

__all__ = ["question_args", "questions_asked", "answer_questions"]

_QUESTIONS = ("cxp", "roles", "robustness", "bias", "check", "sdp", "profile", "shap",
              "sensitivity")


def question_args(e) -> None:
    """Return the flags of ``bnx explain`` that ask questions other than MC and PI.

    They ask the questions of :mod:`bnx.explanation.reasons`,
    :mod:`~bnx.changes._robustness`, :mod:`~bnx.changes.bias` and
    :mod:`~bnx.probability.same_decision`; given any of them, MC- and PI-explanations are
    printed only with ``--mc`` or ``--pi``.
    """
    q = e.add_argument_group("questions about the decision")
    q.add_argument("--cxp", action="store_true",
                   help="contrastive explanations: minimal sets of features whose change "
                   "can flip the decision")
    q.add_argument("--roles", action="store_true",
                   help="each feature's role: necessary, relevant or irrelevant")
    q.add_argument("--robustness", action="store_true",
                   help="the fewest features to change for the other decision, and every "
                   "closest counterfactual")
    q.add_argument("--immutable", metavar="F1,F2,...",
                   help="features that --robustness may not change")
    q.add_argument("--bias", metavar="F1,F2,...",
                   help="protected features: is the decision biased on them, and how many "
                   "instances are")
    q.add_argument("--check", metavar='"F1=s1,..."',
                   help="check an explanation produced elsewhere: sufficient? minimal?")
    q.add_argument("--sdp", metavar="F1,F2,...",
                   help="the same-decision probability: how likely the decision on only "
                   "these features of the instance stays when the rest is observed (a "
                   "network file, or an ODD saved by this bnx, which holds its classifier)")
    q.add_argument("--profile", action="store_true",
                   help="the robustness profile of the whole classifier")
    q.add_argument("--shap", action="store_true",
                   help="exact SHAP values of the decision against --background (with "
                   "--data: a column 'shap:<feature>' per feature)")
    q.add_argument("--background", metavar="ROWS.csv",
                   help="the background data set of --shap, or of the report's attributions "
                   "(complete rows, a header line naming the features)")
    q.add_argument("--sensitivity", action="store_true",
                   help="the CPT entries closest to flipping the decision, each with the "
                   "interval it may move in (its column co-varied; with --data: columns "
                   "'sensitivity' and 'sensitivity_entry', the closest entry's room)")


def read_background(args):
    """Read the rows of ``--background`` (``--shap`` needs it)."""
    import pandas as pd

    from ..errors import ArgumentError, DataError
    if args.background is None:
        raise ArgumentError("--shap needs --background ROWS.csv")
    try:
        return pd.read_csv(args.background, dtype=str, na_values=["?", ""],
                           keep_default_na=False, skipinitialspace=True)
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read the CSV file {args.background!r}: {exc}") from None


def questions_asked(args) -> bool:
    """Whether any of the issue-8 question flags was given."""
    return any(getattr(args, k) for k in _QUESTIONS)


def answer_questions(args, clf, odd, x, feats, rival=None) -> None:
    """Print the answers to the question flags given (``--cxp``, ``--roles``, ...).

    On a multi-class ODD each is asked about the decided class, or against ``rival``.
    """
    from .. import changes, probability
    from .. import explanation as explain
    from ..errors import BnxError
    if args.immutable is not None and not args.robustness:
        raise BnxError("--immutable needs --robustness")
    if args.shap:
        from ..attribution import shap_values
        a = shap_values(odd, x, read_background(args))
        if a.multiclass:  # the game of the decided class
            print(f"\nSHAP values toward {odd.decision_text(a.decided)} (the game "
                  f"[decision = {a.decided}]):")
            a = a.for_class(a.decided)
        rows = sorted(zip(a.feature_names, a.data, a.values), key=lambda r: -abs(r[2]))
        print(f"\nSHAP values (base value {float(a.base_values):.6f}, decision "
              f"{int(a.decisions)}):")
        print(_table([[str(f), str(v), f"{w:+.6f}"] for f, v, w in rows],
                     ["feature", "state", "SHAP"]))
    if args.sensitivity:
        if clf is None:
            raise BnxError("--sensitivity needs the classifier (a network file, or an ODD "
                           "saved with its classifier)")
        from ..attribution import parameter_sensitivity
        from ..attribution.entries import entry_label, flip_room
        sens = parameter_sensitivity(clf, x)
        sens["room"] = flip_room(sens)
        top = sens.sort_values("room", kind="stable").head(args.limit)
        print("\nCPT entries closest to flipping the decision (the entry may move "
              "strictly between low and high):")
        print(_table([[entry_label(r.variable, r.state, r.parents),
                       f"{r.value:.6g}", f"{r.low:.6g}", f"{r.high:.6g}"]
                      for r in top.itertuples()], ["entry", "value", "low", "high"]))
    if args.cxp:
        cxp = explain.contrastive_explanations(odd, x, rival=rival)
        print("\n" + _show(cxp.shortest() if args.shortest else cxp, args.limit, feats))
    if args.roles:
        roles = explain.feature_roles(odd, x, rival=rival)
        print("\nfeature roles (in every / some / no sufficient reason)")
        print("\n".join("  " + ln for ln in _table(
            [[str(f), r] for f, r in roles.items()], ["feature", "role"]).splitlines()))
    if args.robustness:
        immutable = _names(args.immutable) or []
        r = changes.robustness(odd, x, immutable=immutable, target=rival)
        fixed = f" keeping {', '.join(immutable)}" if immutable else ""
        other = ("the other decision" if not odd.multiclass else
                 f"{odd.class_var} = {rival}" if rival is not None else
                 f"another class than {odd.decide(x)}")
        if r == math.inf:
            print(f"\nrobustness: infinite (no change{fixed} "
                  + (f"gives {other})" if odd.multiclass else "flips the decision)"))
        else:
            print(f"\nrobustness: {r} (the fewest features to change{fixed} for {other})")
            cfs = changes.counterfactuals(odd, x, immutable=immutable, target=rival)
            print(_show(cfs, args.limit, feats, title=f"{cfs.count:,} closest "
                        f"counterfactual{'s' if cfs.count != 1 else ''} (the changes; * "
                        f"keeps the instance's state)"))
            if odd.multiclass:
                shown = list(cfs.decisions)[:args.limit]
                print(f"  each makes it, in order: {', '.join(map(str, shown))}")
    if args.bias:
        protected = _names(args.bias)
        print(f"\nbias: {changes.decision_bias(odd, x, protected)}")
        n = changes.count_biased(odd, protected)
        print(f"biased instances: {n:,} of {_world(odd)}")
    if args.check:
        c = explain.check_explanation(odd, x, _pairs(args.check, "--check"), rival=rival)
        print(f"\ncheck: {'sufficient' if c.sufficient else 'NOT sufficient'}, "
              f"{'minimal' if c.minimal else 'not minimal'}")
        if c.redundant:
            print(f"  redundant: {', '.join(map(str, c.redundant))}")
        if c.reason is not None and not c.minimal:
            print(f"  a sufficient reason inside it: "
                  f"{', '.join(f'{f}={s}' for f, s in c.reason.items()) or '(empty)'}")
        if c.counterexample is not None:
            print(f"  counterexample: "
                  f"{', '.join(f'{f}={s}' for f, s in c.counterexample.items())}")
    if args.sdp:
        if clf is None:
            raise BnxError("--sdp needs the network file (this saved ODD, from an older bnx, "
                           "holds no probabilities)")
        seen = _names(args.sdp)
        evidence = {f: x[f] for f in seen if f in x}
        unknown = [f for f in seen if f not in x]
        if unknown:
            raise BnxError(f"--sdp: {', '.join(unknown)} not in the instance")
        d = clf.decide(evidence, partial=True)
        p = probability.same_decision_probability(clf, evidence, odd=odd)
        print(f"\nsame-decision probability (that the decision on "
              f"{', '.join(seen) or 'nothing'} alone, {odd.decision_text(d)}, "
              f"stays when the rest is observed): {p:.6f}")
    if args.profile:
        prof = changes.robustness_profile(odd)
        print(f"\nrobustness profile of the classifier: {_world(odd)}, by robustness")
        print("\n".join("  " + ln for ln in _table(
            [["infinite (never flips)" if k == math.inf else str(k), f"{v:,}"]
             for k, v in prof.items()],
            ["robustness", "instances"]).splitlines()))


def world_counts(odd) -> tuple[dict, int]:
    """Return ``({decision: instances the network allows}, every instance)`` of ``odd``."""
    from ..explanation.count import count
    decisions = odd.classes if odd.multiclass else (True, False)
    return {d: count(odd, d) for d in decisions}, odd.total()


def _world(odd) -> str:
    """Say how many instances the default world holds: ``"6 instances the network allows"``."""
    counts, total = world_counts(odd)
    n = sum(counts.values())
    return (f"{total:,} instances" if n == total
            else f"{n:,} instances the network allows ({total:,} in all)")
