"""The options that name a classifier, shared by ``bnx explain`` and ``bnx serve``."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["add_model_options", "max_nodes", "positive_int", "shows_progress"]


def shows_progress(args: argparse.Namespace) -> bool:
    """Tell whether to draw progress bars.

    Not ``--no-progress``, and stderr is a terminal (a bar's carriage-return frames would
    litter a file or a pipe).
    """
    import sys
    return not args.no_progress and sys.stderr.isatty()


def positive_int(text: str) -> int:
    """Read a whole number of at least 1 (an argparse type)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid positive integer: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


#: The help of ``--max-nodes``.
MAX_NODES_HELP = ("the node budget (default 20,000,000; inf: none): refuse at once when the "
                  "ODD is estimated past it, and stop compiling past it")


def max_nodes(text: str) -> int | float:
    """Read ``--max-nodes``: a whole number of at least 1 or ``inf`` (an argparse type).

    ``inf``: no budget.
    """
    if text.strip().lower() in ("inf", "infinity"):
        return math.inf
    return positive_int(text)


def add_model_options(p: argparse.ArgumentParser, *, backend_help: str,
                      seconds: Callable, metavar: str = "NETWORK",
                      max_nodes_help: str = MAX_NODES_HELP,
                      progress_help: str = "no progress bar (shown when the ODD is "
                      "estimated to be large)", rule_flag: str = "--rule") -> None:
    """Add the positional ``metavar`` and the options that make and compile a classifier.

    The positional is a network file or a saved ODD; the options make a classifier of a
    network file (``--class``, ``--positive``, ``--threshold``, ``--rule``, ``--features``,
    ``--order``) and compile it (``--backend``, ``--max-nodes``, ``--timeout``,
    ``--no-progress``); ``seconds`` parses ``--timeout``; ``rule_flag`` names the decision
    rule's option (``args.rule`` whatever its name).
    """
    p.add_argument("network", metavar=metavar, help="a network file or a saved ODD (.bnx)")
    p.add_argument("--class", dest="class_var", metavar="C",
                   help="the class variable (not needed for a saved ODD)")
    p.add_argument("--positive", metavar="S",
                   help="its positive state (not needed for a saved ODD)")
    p.add_argument("--threshold", type=float, metavar="T",
                   help="decide positive iff Pr(C=S | x) >= T (default 0.5)")
    p.add_argument(rule_flag, dest="rule", choices=["threshold", "argmax"], default=None,
                   help="threshold (default) or argmax (S is the most probable state of C)")
    p.add_argument("--features", metavar="F1,F2,...",
                   help="the observed features, any nodes but the class (default: the "
                   "network's leaves)")
    p.add_argument("--order", metavar="F1,F2,...",
                   help="the ODD's variable order (default: chosen by bnx)")
    p.add_argument("--backend", default="auto", choices=["auto", "autoref", "cudd"],
                   help=backend_help)
    p.add_argument("--max-nodes", type=max_nodes, metavar="N", help=max_nodes_help)
    p.add_argument("--timeout", type=seconds, metavar="S",
                   help="stop compiling after S seconds")
    p.add_argument("--no-progress", action="store_true", help=progress_help)
