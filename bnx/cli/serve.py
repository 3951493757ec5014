"""``bnx serve PATH``: the explorer page of a saved ODD or of a network file.

The model options are those of ``bnx explain`` (the same names, read by the same loader);
``--host`` and ``--port`` say where to listen; ``--workers``, ``--deadline`` and
``--queue`` how the questions are answered.
"""

from __future__ import annotations

import argparse

from ..serve import DEADLINE, QUEUE
from ._options import COMPILE_HELP, add_model_options

__all__ = ["add_serve_parser", "count", "port_number"]


def count(text: str) -> int:
    """Read a whole number of at least 0 (an argparse type)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid count: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {n}")
    return n


def port_number(text: str) -> int:
    """Read a TCP port from the command line: 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, got {port}")
    return port


def add_serve_parser(sub, *, backend_help: str, seconds) -> argparse.ArgumentParser:
    """Add the ``serve`` command to the subparsers ``sub``; ``seconds`` parses --timeout."""
    s = sub.add_parser(
        "serve", help="explore a classifier's decisions in a web page",
        description="Serve one page where anyone can set a classifier's features and see "
        "its decision, the report on it and what to observe next, with a JSON API under "
        "it (docs/serve.md). PATH is an ODD saved by 'bnx compile --output' or a network "
        "file with the options of 'bnx explain' (one too large to compile is served "
        "without compiling: each answer the report on one decision; see --compile). "
        "Listens on 127.0.0.1 (this machine only) unless --host says otherwise; Ctrl-C "
        "stops it.")
    add_model_options(s, backend_help=backend_help, seconds=seconds, metavar="PATH",
                      compile_help=COMPILE_HELP.replace(
                          "(--mc, --pi, --shortest, --on, the question flags, --order, "
                          "--max-nodes)", "(--order, --max-nodes)"),
                      timeout_help="bound the work to S seconds: compiling the network, or, "
                      "served without compiling, each answer's report")
    s.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                   "any other prints a warning)")
    s.add_argument("--port", type=port_number, default=8765, metavar="N",
                   help="the port (default 8765; 0: any free port)")
    s.add_argument("--workers", type=count, default=None, metavar="N",
                   help="processes answering the questions, one at a time each (default 2, "
                   "POSIX; 0: one thread of the server, which is then slow to answer "
                   "anything else meanwhile)")
    s.add_argument("--deadline", type=seconds, default=DEADLINE, metavar="S",
                   help=f"the seconds each answer may take (default {DEADLINE:g}): a report "
                   "explained without compiling stops there and shows what it proved; a "
                   "worker still busy 2 s later is stopped and the request answered 504")
    s.add_argument("--queue", type=count, default=QUEUE, metavar="N",
                   help=f"how many questions may wait for a worker (default {QUEUE}), each for "
                   "at most the deadline; past that a request is answered 503, to ask "
                   "again later")
    return s
