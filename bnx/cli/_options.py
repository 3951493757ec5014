"""The options that name a classifier, shared by ``bnx explain`` and ``bnx serve``."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["COMPILE_HELP", "COMPILE_UP_TO", "add_model_options", "max_nodes", "positive_int",
           "shows_progress"]


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


#: The help of ``--max-bytes``.
MAX_BYTES_HELP = ("the most bytes a network file may hold, a gzipped one once inflated "
                  "(default 67,108,864: 64 MiB)")


def max_bytes(text: str) -> int:
    """Read ``--max-bytes``: a whole number of at least 1 (an argparse type)."""
    return positive_int(text)


#: The help of ``--max-memory``.
MAX_MEMORY_HELP = ("the most memory a compile may add to the process, in bytes or with a "
                   "unit (512M, 3G: binary units), or inf for no bound (default 3G, which a "
                   "2-core laptop with 8 GB survives); measured as it runs")


def max_memory(text: str) -> int | float:
    """Read ``--max-memory``: bytes, with an optional K, M or G (binary), or ``inf``."""
    word = text.strip().lower().removesuffix("ib").removesuffix("b")
    if word in ("inf", "infinity"):
        return math.inf
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(word[-1:], 1)
    number = word[:-1] if scale != 1 else word
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if not value >= 1 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a number of bytes (512M, 3G) or inf, "
                                         f"got {text!r}")
    return int(value * scale)


#: ``--compile auto`` compiles a network whose decision function is estimated at most this
#: many nodes (:func:`bnx.estimate_size`, which overestimates: hepar2's first 20 findings
#: are estimated 14,925 nodes, compile to 2,557 in about 3 s); a larger one is explained
#: without compiling.
COMPILE_UP_TO = 100_000

#: The help of ``--compile``.
COMPILE_HELP = (
    "a network file: auto (default) compiles its decision function when it is small "
    f"(estimated at most {COMPILE_UP_TO:,} nodes), or when an option needs the whole of it "
    "(--mc, --pi, --shortest, --on, the question flags, --order, --max-nodes), and else "
    "explains without compiling (bnx.explain on the classifier: one decision at a time); "
    "yes: always compile; no: never (options that need the whole decision function are "
    "then refused: compile once with 'bnx compile NETWORK ... --output MODEL.bnx')")


def add_model_options(p: argparse.ArgumentParser, *, backend_help: str,
                      seconds: Callable, metavar: str = "NETWORK",
                      max_nodes_help: str = MAX_NODES_HELP,
                      progress_help: str = "no progress bar (shown when the ODD is "
                      "estimated to be large)", rule_flag: str = "--rule",
                      compile_help: str | None = None,
                      timeout_help: str = "stop compiling after S seconds") -> None:
    """Add the positional ``metavar`` and the options that make and compile a classifier.

    The positional is a network file or a saved ODD; the options make a classifier of a
    network file (``--class``, ``--positive``, ``--threshold``, ``--rule``, ``--features``,
    ``--order``) and compile it (``--backend``, ``--max-nodes``, ``--timeout``,
    ``--no-progress``); ``seconds`` parses ``--timeout``; ``rule_flag`` names the decision
    rule's option (``args.rule`` whatever its name); with ``compile_help``, ``--compile
    auto|yes|no`` too (whether a network is compiled or explained without compiling:
    :data:`COMPILE_HELP`).
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
    p.add_argument("--max-bytes", type=max_bytes, metavar="B",
                   help=MAX_BYTES_HELP)
    p.add_argument("--max-memory", type=max_memory, metavar="B", help=MAX_MEMORY_HELP)
    p.add_argument("--timeout", type=seconds, metavar="S", help=timeout_help)
    p.add_argument("--no-progress", action="store_true", help=progress_help)
    if compile_help is not None:
        p.add_argument("--compile", choices=["auto", "yes", "no"], default="auto",
                       help=compile_help)
