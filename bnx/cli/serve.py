"""``bnx serve PATH``: the explorer page of a saved ODD or of a network file.

The model options are those of ``bnx explain`` (the same names, read by the same loader);
``--host`` and ``--port`` say where to listen.
"""

from __future__ import annotations

import argparse

from ._options import COMPILE_HELP, add_model_options, positive_int

__all__ = ["add_serve_parser", "port_number"]


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
    s.add_argument("--workers", type=positive_int, default=1, metavar="N",
                   help="processes answering requests, sharing the port (default 1; more "
                   "serve many clients at once on as many cores; POSIX only)")
    return s
