"""Every README example runs: the Python blocks outside the clone, the commands from it."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys

import pytest

from bnx.cli import main
from tests.conftest import ROOT


def _blocks(kind: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.findall(rf"```{kind}\n(.*?)```", text, re.S)
    # a block of >>> examples (a doctest, which tests/test_docs_figures.py checks) runs as
    # the script of its examples
    return [doctest.script_from_examples(b) if b.lstrip().startswith(">>>") else b
            for b in found]


@pytest.mark.slow
def test_readme_python_runs_outside_the_clone_and_commands_from_it(tmp_path, monkeypatch,
                                                                   capsys):
    """The ```python blocks run in order in a fresh process in an empty directory (what a
    user who installed bnx but has no clone sees), then the ```sh commands in a clone's
    layout, on the files the Python blocks wrote."""
    pytest.importorskip("sklearn")
    pytest.importorskip("matplotlib")
    script = tmp_path / "readme.py"
    script.write_text("\n".join(_blocks("python")), encoding="utf-8")
    # bnx is importable (a directory holding only a link to the package, in case it is not
    # installed), nothing else of the clone is: -I drops the working directory and PYTHON*
    # variables from the path, and the working directory is empty.
    site = tmp_path / "site"
    site.mkdir()
    (site / "bnx").symlink_to(ROOT / "bnx")
    work = tmp_path / "empty"
    work.mkdir()
    run = subprocess.run([sys.executable, "-I", "-W", "error::FutureWarning", "-c",
                          "import sys, runpy; sys.path.insert(0, sys.argv[1]); "
                          "runpy.run_path(sys.argv[2], run_name='__main__')",
                          str(site), str(script)],
                         cwd=work, env={**os.environ, "MPLBACKEND": "Agg"},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert sorted(p.name for p in work.iterdir()) == ["rows.csv", "votes.bnx"]

    monkeypatch.chdir(work)
    (work / "bnx").symlink_to(ROOT / "bnx")  # the commands name bnx/data/... of a clone
    commands = []
    for block in _blocks("sh"):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            # bnx serve runs until stopped: tests/serve/test_serve.py runs that command
            if line.startswith("bnx ") and not line.startswith(("bnx votes", "bnx --help",
                                                                "bnx serve")):
                commands.append(shlex.split(line)[1:])
    assert len(commands) >= 4
    for argv in commands:
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, (argv, err)
    assert (work / "answers.csv").read_text().startswith("row,decision,posterior")

