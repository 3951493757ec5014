"""The code blocks of a Markdown page (README.md, docs/*.md), run as a reader would run them.

A page's ```` ```python ```` blocks run top to bottom in one namespace, like a notebook's
cells: a block of ``>>>`` lines is a doctest (each output as shown, ``...`` standing for
the rest of a line or lines); any other block is a script, and when the next fenced block
of the page is ```` ```text ```` with nothing but prose between them, that block is what
the script prints. ```` ```sh ```` blocks hold the commands: each ``bnx ...`` line (a
trailing ``\\`` continues it) runs through ``bnx.cli.main`` and must succeed, and each
``python -c CODE`` line runs its code.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```([\w{}-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass
class Block:
    """One fenced block: its language, its text, the line it starts on, and for a script
    the ```` ```text ```` block that shows what it prints (``None`` if none does)."""

    lang: str
    text: str
    line: int
    shown: str | None = None

    def __contains__(self, part: str) -> bool:
        return part in self.text

    def where(self, page: Path) -> str:
        return f"{page.name}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The page's fenced blocks in order, each script paired with its printed output."""
    text = page.read_text(encoding="utf-8")
    found = [Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
             for m in FENCE.finditer(text)]
    for block, after in zip(found, found[1:]):
        if block.lang == "python" and ">>>" not in block and after.lang == "text":
            block.shown = after.text
    return found


def run_python(block: Block, page: Path, namespace: dict) -> None:
    """Run one ```` ```python ```` block in ``namespace``; fail as a test does when its
    output differs from what the page shows."""
    if ">>>" in block:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.text, namespace, block.where(page), str(page),
                                  block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS
                                       | doctest.NORMALIZE_WHITESPACE)
        out = io.StringIO()
        result = runner.run(test, out=out.write, clear_globs=False)
        namespace.update(test.globs)
        assert not result.failed, f"{block.where(page)} prints otherwise:\n{out.getvalue()}"
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.text, block.where(page), "exec"), namespace)
    if block.shown is not None:
        assert printed.getvalue() == block.shown, (
            f"{block.where(page)} prints\n{printed.getvalue()}\nwhere the page shows\n"
            f"{block.shown}")


def commands(block: Block) -> list[str]:
    """The ``bnx ...`` and ``python -c ...`` command lines of a ```` ```sh ```` block
    (continuations joined, comments dropped)."""
    joined = re.sub(r"\\\n\s*", " ", block.text)
    lines = [shlex.split(line, comments=True) for line in joined.splitlines()]
    return [" ".join(shlex.quote(w) for w in words) for words in lines
            if words and (words[0] == "bnx" or words[:2] == ["python", "-c"])]


def run_command(line: str) -> str:
    """Run one ``bnx ...`` or ``python -c ...`` line in this process; return what it
    printed. A non-zero exit fails with the command's own message."""
    from bnx.cli import main

    words = shlex.split(line)
    run = (lambda: exec(words[2], {"__name__": "__main__"})) if words[0] == "python" else \
        (lambda: main(words[1:]))
    printed, errors = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(errors):
        try:
            code = run() or 0
        except SystemExit as done:  # --help
            code = done.code or 0
    assert code == 0, f"`{line}` exits {code}:\n{errors.getvalue()}"
    return printed.getvalue()
