"""docs/api.md is current, and every README example runs from a clone."""

from __future__ import annotations

import re
import shlex

import pytest

from bnx._apidoc import render
from bnx.cli import main
from tests.conftest import ROOT


def test_api_page_is_current():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == render(), "docs/api.md is stale: run python -m bnx._apidoc > docs/api.md"


def test_api_page_lists_the_new_names():
    page = render()
    for name in ("explain_data", "ODD.decide_many", "ODD.plot", "Classifier.from_sklearn",
                 "Explanations.plot", "plot_feature_share", "as_instance"):
        assert f"`{name}`" in page


def _blocks(kind: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, re.S)


def test_readme_examples_run_from_a_clone(tmp_path, monkeypatch, capsys):
    pytest.importorskip("sklearn")
    import matplotlib
    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    for top in ("bnx", "tests"):  # a clone's layout: bnx/data/admission.net, tests/data/
        (tmp_path / top).symlink_to(ROOT / top)
    scope: dict = {}
    for block in _blocks("python"):
        exec(compile(block, "README.md", "exec"), scope)
    commands = []
    for block in _blocks("sh"):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("bnx ") and not line.startswith(("bnx votes", "bnx --help")):
                commands.append(shlex.split(line)[1:])
    assert len(commands) >= 4
    for argv in commands:
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, (argv, err)
    assert (tmp_path / "answers.csv").read_text().startswith("row,decision,posterior")
