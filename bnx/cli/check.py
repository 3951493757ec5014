"""``bnx check``: rules an expert states and monotonicity.

Both are checked on a classifier's decision function (:func:`bnx.check_rule`,
:func:`bnx.check_monotone`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ._options import add_model_options
from .text import _names

__all__ = ["add_check_parser", "cmd_check"]


def add_check_parser(sub, *, backend_help: str, seconds: Callable) -> None:
    """Add the ``check`` command's parser under ``sub``."""
    c = sub.add_parser(
        "check", help="check rules and monotonicity on a classifier",
        description="Check rules an expert states ('every instance that meets this condition "
        "gets this decision') and whether raising an ordinal feature ever lowers the decision. "
        "Each answer says whether it holds, how many instances break it, how likely that is "
        "under the network, and the most probable counterexample. NETWORK may also be an ODD "
        "saved by 'bnx compile --output'.")
    add_model_options(c, backend_help=backend_help, seconds=seconds,
                      rule_flag="--decision-rule")  # --rule names the rules checked
    c.add_argument("--ordinal", action="append", default=[], metavar='"F=s1<s2<..."',
                   help="a feature's order of states, lowest first (repeatable); 'all' orders "
                   "every feature whose state names carry a number by it (network files)")
    c.add_argument("--rule", dest="rules", action="append", default=[],
                   metavar='"CONDITION => DECISION"',
                   help="a rule, e.g. \"bilirubin>=a19_7, age=age31_50|age51_65 => "
                   "Cirrhosis=decompensate\" (repeatable; terms F=s, F!=s, F>=s, F>s, F<=s, "
                   "F<s, F=a|b, F in {a, b}, separated by commas)")
    c.add_argument("--monotone", nargs="?", const="", default=None, metavar="F1,F2,...",
                   help="check monotonicity in these features (default: every ordinal "
                   "feature, and every two-state one with a known on state)")
    c.add_argument("--class-order", metavar="S1,S2,...",
                   help="with --monotone: the decisions from lowest to highest (default: "
                   "the class's states in order; binary: the negative one first)")


def _ordinal(args):
    """``Classifier(..., ordinal=)`` from the ``--ordinal`` options (``None``: none)."""
    from ..errors import ArgumentError
    if not args.ordinal:
        return None
    if args.ordinal == ["all"]:
        return True
    out = {}
    for text in args.ordinal:
        f, eq, states = text.partition("=")
        order = [s.strip() for s in states.split("<")]
        if not eq or not f.strip() or len(order) < 2 or not all(order):
            raise ArgumentError(f"--ordinal reads 'feature=lowest<...<highest' or 'all', "
                                f"got {text!r}")
        out[f.strip()] = order
    return out


def _odd(args, model):
    """Return the ODD the command checks: a saved one, or the network file compiled."""
    from ..errors import BnxError
    ordinal = _ordinal(args)
    if ordinal is None or model.saved(args):
        if ordinal is not None:
            raise BnxError("--ordinal cannot change a saved ODD; compile the network again "
                           "with it")
        return model.load(args)[1]
    args.classifier = model.classifier(args, ordinal=ordinal)
    return model.compile(args.classifier, args)


def cmd_check(args: argparse.Namespace, model) -> None:
    """Run ``bnx check NETWORK --rule ... --monotone ...``: one paragraph per answer.

    ``model`` reads the model as the other commands do (``saved(args)``, ``load(args)``,
    ``classifier(args, **more)``, ``compile(clf, args)``: the parser's module passes them).
    """
    from ..errors import ArgumentError
    from ..explanation.monotone import check_monotone
    from ..explanation.rules import check_rule, parse_rule
    if args.class_order is not None and args.monotone is None:
        raise ArgumentError("--class-order goes with --monotone")
    if not args.rules and args.monotone is None:
        raise ArgumentError("nothing to check: give --rule \"CONDITION => DECISION\" "
                            "(repeatable) and/or --monotone")
    odd = _odd(args, model)
    rules = [parse_rule(text, odd) for text in args.rules]  # every rule read before any check
    answers = [str(check_rule(odd, condition, decision)) for condition, decision in rules]
    if args.monotone is not None:
        features = _names(args.monotone) or None
        answers.append(str(check_monotone(odd, features,
                                          class_order=_names(args.class_order))))
    print("\n\n".join(answers))
