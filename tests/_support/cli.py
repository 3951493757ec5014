"""The bnx command run in-process, as the CLI tests drive it."""

from __future__ import annotations

from bnx.cli import main

__all__ = ["run"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err

