"""Every ``pip install`` line of the README and the docs works as written in a clone of the
repository: bnx is not on PyPI, so each one installs the clone (``pip install -e .`` or
``pip install -e ".[extra,...]"``), names only extras that pyproject.toml defines, and pip
accepts it. pip runs with ``--dry-run --no-index --no-deps`` (no network, nothing
installed) and ``--ignore-installed``, so the bnx installed in the test environment does not
satisfy a line that names it instead of the clone. The home page lists every extra."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import ROOT

#: Where people read install lines.
SOURCES = [ROOT / "README.md", ROOT / "CHANGES.md", *sorted((ROOT / "docs").glob("*.md")),
           ROOT / "docs" / "conf.py"]

#: A pip install command, up to the end of its code span, a comment or the next command.
_LINE = re.compile(r"pip install[^`\n#&;|]*")

EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
             ["optional-dependencies"])


def install_lines(text: str) -> list[str]:
    """The pip install commands written in ``text``."""
    return [m.group(0).strip() for m in _LINE.finditer(text)]


def _lines() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for path in SOURCES:
        for line in install_lines(path.read_text(encoding="utf-8")):
            seen.setdefault(line, path.relative_to(ROOT).as_posix())
    return sorted(seen.items(), key=lambda item: item[1])


LINES = _lines()


def line_problems(line: str) -> list[str]:
    """What keeps ``line`` from installing the clone with extras that exist (empty: none)."""
    words = shlex.split(line)[2:]
    targets, editable = [], False
    for word in words:
        if word in ("-e", "--editable"):
            editable = True
        elif not word.startswith("-"):
            targets.append(word)
    problems = []
    if not targets:
        problems.append("installs nothing")
    for target in targets:
        found = re.fullmatch(r"\.(?:\[([\w,-]*)\])?", target)
        if found is None:
            problems.append(f"{target!r} is not the clone ('.' or '.[extra]'): bnx is not "
                            f"on PyPI")
            continue
        unknown = set(filter(None, (found.group(1) or "").split(","))) - EXTRAS
        if unknown:
            problems.append(f"extras {sorted(unknown)} are not in pyproject.toml")
        if not editable:
            problems.append("not editable (-e): the docs install the clone for development")
    return problems


def test_the_docs_have_install_lines():
    assert len(LINES) >= 5, LINES
    assert {'pip install -e ".[serve]"', 'pip install -e ".[test]"'} <= dict(LINES).keys()


@pytest.mark.parametrize("line, where", LINES, ids=[f"{w}: {ln}" for ln, w in LINES])
def test_each_install_line_installs_the_clone(line, where):
    problems = line_problems(line)
    assert not problems, f"{where}: {line}: " + "; ".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("line, where", LINES, ids=[f"{w}: {ln}" for ln, w in LINES])
def test_pip_accepts_each_install_line_in_the_clone(line, where):
    pytest.importorskip("setuptools")  # --no-build-isolation builds with this environment's
    words = shlex.split(line)
    assert words[:2] == ["pip", "install"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}  # no local index
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    run = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
                          "--no-deps", "--no-build-isolation", "--ignore-installed",
                          *words[2:]], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, f"{where}: {line}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    assert "Would install bnx-" in run.stdout


def test_the_check_finds_what_fails():
    assert line_problems('pip install "bnx[serve]"') == [
        "'bnx[serve]' is not the clone ('.' or '.[extra]'): bnx is not on PyPI"]
    assert line_problems('pip install -e ".[plots]"') == [
        "extras ['plots'] are not in pyproject.toml"]
    assert line_problems('pip install ".[plot]"') == [
        "not editable (-e): the docs install the clone for development"]
    assert line_problems('pip install -e ".[plot,serve]"') == []
    assert install_lines('A (`pip install -e ".[pyagrum]"` in the clone)\n'
                         "pip install -e . && bnx votes  # then\n") == [
        'pip install -e ".[pyagrum]"', "pip install -e ."]


def test_no_code_or_page_names_bnx_as_a_requirement():
    """``bnx[extra]`` is never installable (bnx is not on PyPI): error messages and
    docstrings name the clone's extras instead."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in [*SOURCES, *(ROOT / "bnx").rglob("*.py")]
             for n, text in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "bnx[" in text]
    assert not found, found


def test_the_home_page_lists_every_extra():
    text = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    install = text[text.index("## Install"):text.index("\n## ", text.index("## Install") + 1)]
    listed = set(re.findall(r"`\[(\w+)\]`", install))
    assert listed == EXTRAS, f"docs/index.md lists {sorted(listed)}, pyproject {sorted(EXTRAS)}"
