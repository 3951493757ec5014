"""Every figure README.md and docs/*.md show of what bnx prints is what bnx prints.

Two ways, both failing on the first figure that drifts from the code:

- the pages' code blocks run as a reader runs them (``tests/_support/markdown.py``): the
  ``>>>`` blocks are doctests, a script followed by a ```` ```text ```` block prints that
  block, the ``bnx ...`` command lines succeed;
- the figures quoted in prose (an estimate, a count, a size) are each computed here and
  looked for in the page's text, in the words around them.

README.md's Python blocks run as a user who installed bnx but has no clone runs them: in a
fresh process (``python -I``) in an empty directory, bnx importable and nothing else of
the clone; its commands then run in a clone's layout, on the files those blocks wrote.

Timings (docs/benchmarks.md's seconds and megabytes) are measurements, not figures of the
code; the counts and sizes beside them are checked where they are cheap to compute.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import bnx
from tests._support import markdown
from tests._support.bundled import bundled_bif
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Blocks that are not run, each with why: (page, a line of the block) -> reason.
NOT_RUN = {
    ("serve.md", "bnx.serve.run(odd, port=8765)"): "serves the page until Ctrl-C",
    ("data.md", '"SPECT.train"'): "reads a file the reader downloads (the page says where)",
}
#: Command lines that are not run: their first words -> reason.
NOT_RUN_COMMANDS = {
    "bnx serve": "serves the page until Ctrl-C",
    "bnx votes": "the case study, run by tests/cli/test_cli.py",
}
#: Pages whose blocks take seconds (pgmpy's hepar2 and child, the votes data explained row
#: by row, shap's import).
SLOW = {"README.md", "report.md", "attributions.md"}


def _not_run(page, block) -> str | None:
    return next((why for (name, line), why in NOT_RUN.items()
                 if name == page.name and line in block), None)


@pytest.fixture
def reader(tmp_path, monkeypatch):
    """A reader's directory: the clone's ``bnx/data`` reachable as the pages write it
    (``bnx/data/admission.net``), pgmpy's child network as ``child.bif``, matplotlib
    drawing off screen."""
    (tmp_path / "bnx").symlink_to(ROOT / "bnx", target_is_directory=True)
    bundled_bif("child", tmp_path)
    monkeypatch.chdir(tmp_path)
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    yield tmp_path
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.mark.parametrize("page", [pytest.param(p, id=p.name, marks=[pytest.mark.slow]
                                               if p.name in SLOW else [])
                                  for p in PAGES])
def test_the_page_s_code_runs_and_prints_what_it_shows(page, reader):
    if page.name == "README.md":
        return _readme_outside_the_clone(page, reader)
    namespace = {"__name__": "__docs__"}
    ran = 0
    for block in markdown.blocks(page):
        if _not_run(page, block):
            continue
        if block.lang == "python":
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "`get_example_model` is deprecated")
                markdown.run_python(block, page, namespace)
            ran += 1
        elif block.lang == "sh":
            for line in markdown.commands(block):
                if not any(line.startswith(words) for words in NOT_RUN_COMMANDS):
                    markdown.run_command(line)
                    ran += 1
    if page.name in {"README.md", "index.md", "report.md", "explanations.md"}:
        assert ran, f"{page.name}: no block ran"


#: Runs a page's Python blocks with the runner loaded from its file (``tests`` is not
#: importable there): ``python -I -c RUNNER site runner page``.
RUNNER = """
import importlib.util, pathlib, sys
sys.path.insert(0, sys.argv[1])  # a directory holding only a link to the bnx package
spec = importlib.util.spec_from_file_location("markdown_runner", sys.argv[2])
runner = sys.modules["markdown_runner"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)
page, namespace = pathlib.Path(sys.argv[3]), {"__name__": "__docs__"}
for block in runner.blocks(page):
    if block.lang == "python":
        runner.run_python(block, page, namespace)
"""


def _readme_outside_the_clone(page, reader) -> None:
    """README.md's Python blocks in a fresh process in an empty directory, bnx importable
    and nothing else of the clone (``-I`` drops the working directory and ``PYTHON*``
    variables from the path); then its ``bnx`` commands in a clone's layout, on the
    files the blocks wrote."""
    pytest.importorskip("sklearn")
    site = reader / "site"
    site.mkdir()
    (site / "bnx").symlink_to(ROOT / "bnx")
    work = reader / "empty"
    work.mkdir()
    run = subprocess.run([sys.executable, "-I", "-W", "error::FutureWarning", "-c", RUNNER,
                          str(site), str(markdown.__file__), str(page)],
                         cwd=work, env={**os.environ, "MPLBACKEND": "Agg"},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert sorted(p.name for p in work.iterdir()) == ["rows.csv", "votes.bnx"]
    (work / "bnx").symlink_to(ROOT / "bnx")  # the commands name bnx/data/... of a clone
    os.chdir(work)  # (the reader fixture's monkeypatch restores the directory)
    lines = [line for block in markdown.blocks(page) if block.lang == "sh"
             for line in markdown.commands(block)
             if not any(line.startswith(words) for words in NOT_RUN_COMMANDS)]
    assert len(lines) >= 4
    for line in lines:
        markdown.run_command(line)
    assert (work / "answers.csv").read_text().startswith("row,decision,posterior")


def test_the_runner_fails_on_a_figure_that_drifted(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\n>>> 1 + 1\n3\n```\n\n```python\nprint(2)\n```\n\nprints\n\n"
                    "```text\n2\n```\n\n```sh\n"
                    "bnx explain no-such.bnx --instance a=b  # a comment\n```\n", encoding="utf-8")
    doctest, script, shown, command = markdown.blocks(page)
    assert script.shown == "2\n" and shown.lang == "text"
    with pytest.raises(AssertionError, match="prints otherwise"):
        markdown.run_python(doctest, page, {})
    markdown.run_python(script, page, {})
    script.shown = "3\n"
    with pytest.raises(AssertionError, match="where the page shows"):
        markdown.run_python(script, page, {})
    assert markdown.commands(command) == ["bnx explain no-such.bnx --instance a=b"]
    with pytest.raises(AssertionError, match="exits 1:\nbnx: error: no such ODD file"):
        markdown.run_command(*markdown.commands(command))


# ---- figures quoted in prose ---------------------------------------------------------


@functools.cache
def _network(name):
    from tests._support.bundled import bundled_network
    return bundled_network(name)


def _votes_counts():
    votes = bnx.datasets.load_votes()
    parties = votes["party"].value_counts()
    return (len(votes), parties["democrat"], parties["republican"],
            int(votes.drop(columns="party").isna().sum().sum()))


def _promoters():
    clf = bnx.linear.read_xlc(bnx.examples.network_path("promoters.xlc"))
    return len(clf.features), max(len(clf.states(f)) for f in clf.features)


@functools.cache
def _hepar2_estimates():
    multi = bnx.estimate_size(bnx.Classifier(_network("hepar2"), "Cirrhosis"))
    binary = bnx.estimate_size(bnx.Classifier(_network("hepar2"), "Cirrhosis", "decompensate"))
    return multi, binary


def _hepar2_first_20():
    full = bnx.Classifier(_network("hepar2"), "Cirrhosis")
    return bnx.compile(bnx.Classifier(_network("hepar2"), "Cirrhosis",
                                      features=full.features[:20])).size


@functools.cache
def _pathfinder_estimate():
    return bnx.estimate_size(bnx.Classifier(_network("pathfinder"), "Fault"))


def _budgets():
    from bnx.cli._options import COMPILE_UP_TO
    from bnx.compilation._compile import DEFAULT_MAX_NODES  # the budget, no public name
    return DEFAULT_MAX_NODES, COMPILE_UP_TO


@dataclass(frozen=True)
class Claim:
    """A page's sentence with figures: ``words`` with ``{}`` fields that ``figures``
    (a function of bnx's answers) fills."""

    page: str
    words: str
    figures: Callable[[], tuple]
    slow: bool = False

    def text(self) -> str:
        return self.words.format(*self.figures())


def _e(n: int) -> str:
    """An estimate past a billion as the pages write it: ``2.9e20``."""
    return f"{n:.1e}".replace("e+", "e")


CLAIMS = [
    Claim("data.md", "435 rows: {:,} democrats, {:,} republicans; {:,} votes `?`",
          lambda: _votes_counts()[1:]),
    Claim("data.md", "naive Bayes classifier with {} features (one with {} values)", _promoters),
    Claim("compilation.md", "On the votes classifier it gives {} nodes against {} in the data's",
          lambda: (bnx.compile(clf := bnx.case_study.votes_classifier()).size,
                   bnx.compile(clf, order=list(clf.features)).size)),
    Claim("README.md", "a classifier whose ODD is estimated past {:,} million nodes",
          lambda: (_budgets()[0] // 10**6,)),
    Claim("README.md", "(estimated at most {:,} nodes)", lambda: (_budgets()[1],)),
    Claim("README.md", "hepar2's `Cirrhosis` with its 41 findings (estimated at {:,} nodes)",
          lambda: (_hepar2_estimates()[0],), slow=True),
    Claim("benchmarks.md", "its diagram is estimated at {:,} nodes",
          lambda: (_hepar2_estimates()[0],), slow=True),
    Claim("compilation.md", "(positive state `decompensate`) is estimated at {:,} nodes",
          lambda: (_hepar2_estimates()[1],), slow=True),
    Claim("explanations.md", "({:,} nodes with its first 20, an estimated {:,} with all 41)",
          lambda: (_hepar2_first_20(), _hepar2_estimates()[0]), slow=True),
    Claim("README.md", "pathfinder's `Fault` with 77 (estimated at {})",
          lambda: (_e(_pathfinder_estimate()),), slow=True),
    Claim("explanations.md", "pathfinder's `Fault` over 77 findings is estimated at {} nodes",
          lambda: (_e(_pathfinder_estimate()),), slow=True),
    Claim("benchmarks.md", "all 77 findings; estimated at {} nodes",
          lambda: (_e(_pathfinder_estimate()),), slow=True),
]


def _page_text(name: str) -> str:
    path = ROOT / name if name == "README.md" else ROOT / "docs" / name
    return " ".join(path.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("claim", [
    pytest.param(c, id=f"{c.page}:{c.words[:40]}", marks=[pytest.mark.slow] if c.slow else [])
    for c in CLAIMS])
def test_the_figures_in_prose_are_bnx_s(claim):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "`get_example_model` is deprecated")
        text = claim.text()
    page = _page_text(claim.page)
    assert " ".join(text.split()) in page, f"{claim.page} should say: {text}"
