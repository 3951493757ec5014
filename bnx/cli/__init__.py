"""The ``bnx`` command.

The votes case study, compiling and explaining classifiers, and the explorer page.

The package: :mod:`._main` (the parser, and the ``compile``, ``explain`` and ``serve``
commands), :mod:`.votes` (``bnx votes``), :mod:`.questions` (the question flags of
``explain``), :mod:`.observe` (a partial instance), :mod:`.serve` (the options of
``serve``) and :mod:`.text` (tables and explanation rows).

Run ``bnx --help``. Every error ends in one line on stderr and a non-zero exit
code (1 for bad input, 2 for bad usage).
"""

from ._main import main

__all__ = ["main"]
