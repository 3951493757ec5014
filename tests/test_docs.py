"""The documentation site's sources: every public name in the API reference, notebooks
normalised, and everything the notebooks import installed by the test extra."""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
import warnings

import pytest

import bnx
from tests.conftest import ROOT

API = ROOT / "docs" / "api" / "index.rst"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _autosummary_names() -> list[str]:
    """The entries of the autosummary blocks of docs/api/index.rst."""
    names, inside = [], False
    for line in API.read_text(encoding="utf-8").splitlines():
        if line.startswith(".. autosummary::"):
            inside = True
        elif inside and line.strip() and not line.startswith(" "):
            inside = False
        elif inside and line.startswith("   ") and not line.strip().startswith(":"):
            names.append(line.strip())
    return names


def test_the_api_reference_lists_every_public_name_once():
    listed = _autosummary_names()
    assert sorted(listed) == sorted(set(listed)), "a name is listed twice"
    missing = sorted(set(bnx.__all__) - set(listed))
    assert not missing, f"add {missing} to their group in docs/api/index.rst"
    assert not set(listed) - set(bnx.__all__), "docs/api/index.rst lists a non-public name"


def test_the_api_reference_is_under_bnx():
    assert ".. currentmodule:: bnx" in API.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_normalised(path):
    nbformat = pytest.importorskip("nbformat")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # MissingIDFieldWarning, or any other
        nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 5)
    ids = [cell["id"] for cell in nb.cells]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_stored_with_their_outputs(path):
    """The site renders the stored outputs (docs/conf.py never runs a notebook): every code
    cell was run, in order, by one kernel; re-run with nbclient after editing one."""
    cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for c in cells]
    assert None not in counts, f"{path.name}: a code cell has no stored output; run it"
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: not run top to bottom"


def _notebook_imports(path) -> set[str]:
    names = set()
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        source = "\n".join(ln for ln in source.splitlines()
                           if not ln.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def _requirement_names(requirements) -> set[str]:
    return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower().replace("_", "-")
            for r in requirements}


def test_the_test_extra_installs_what_the_notebooks_import():
    from importlib.metadata import packages_distributions

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = _requirement_names(project["dependencies"]) | \
        _requirement_names(project["optional-dependencies"]["test"])
    distributions = packages_distributions()
    missing = {}
    for path in NOTEBOOKS:
        for module in _notebook_imports(path):
            if module == "bnx" or module in sys.stdlib_module_names:
                continue
            dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
            if not dists & declared:
                missing[module] = (path.name, sorted(dists))
    assert not missing, f"imported by the notebooks but not in the test extra: {missing}"


def _section(page: str, heading: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_classifiers_section_names_every_structure():
    """docs/index.md once said naive Bayes and latent trees only."""
    section = _section("concepts.md", "Classifiers")
    seen = {bnx.examples.admissions().structure, bnx.examples.asia().structure}
    for structure in seen | {"naive_bayes", "latent_tree", "tan", "general"}:
        assert f'`"{structure}"`' in section, structure
    assert "only" not in section.split("\n\n")[1]


def test_the_docs_say_sdp_works_on_a_saved_odd_as_the_command_does(capsys):
    """docs/explanations.md offered --sdp, then said it needs the network file, while the
    command answers it from a saved ODD (tests/cli/test_cli_reasons.py)."""
    from bnx.cli import main
    with pytest.raises(SystemExit) as done:
        main(["explain", "--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    options = usage[usage.index("\n  --sdp "):]  # the option's help, up to the next option
    sdp = options[:options.index("\n  -", 1)]
    assert "saved" in sdp
    text = (ROOT / "docs" / "explanations.md").read_text(encoding="utf-8")
    mention = text[text.index("`--sdp F1,F2`"):][:300]
    assert "saved by this bnx" in mention and "needs the network file" not in mention


def test_the_quick_loop_leaves_out_named_notebooks_and_keeps_one():
    """``notebooks/conftest.py`` marks ``slow`` only notebooks that exist (a renamed one
    would silently run again in the quick loop), and leaves at least one to run."""
    text = (ROOT / "notebooks" / "conftest.py").read_text(encoding="utf-8")
    slow = next(ast.literal_eval(node.value) for node in ast.parse(text).body
                if isinstance(node, ast.Assign) and node.targets[0].id == "SLOW")
    names = {path.name for path in NOTEBOOKS}
    assert slow and slow < names, (sorted(slow), sorted(names))


def test_the_slow_marker_is_registered():
    """``pytest -m "not slow"`` selects by a marker pyproject.toml registers and says the
    meaning of (``--strict-markers`` makes a misspelt ``@pytest.mark.slow`` an error)."""
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = ini["tool"]["pytest"]["ini_options"]["markers"]
    assert [m for m in markers if m.split(":")[0] == "slow" and m.split(":")[1].strip()]
    assert "--strict-markers" in ini["tool"]["pytest"]["ini_options"]["addopts"]


def test_the_test_extra_installs_what_re_runs_a_notebook():
    """README's Notebooks section re-runs one with ``jupyter nbconvert``: the test extra
    installs it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "jupyter nbconvert --to notebook --execute --inplace notebooks/" in readme
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "nbconvert" in _requirement_names(project["optional-dependencies"]["test"])
