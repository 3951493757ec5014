"""pyproject.toml lists every package of bnx, so a built wheel holds all of them."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_found_by_pyproject():
    from setuptools import find_packages

    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]["include"]
    found = set(find_packages(str(ROOT), include=include))
    holding_code = {".".join(p.parent.relative_to(ROOT).parts)
                    for p in (ROOT / "bnx").rglob("*.py") if "__pycache__" not in p.parts}
    assert found == holding_code


def test_gitignore_covers_virtual_environments_builds_and_caches():
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git clone")
    paths = [".venv/bin/python", "build/lib/bnx/x.py", "dist/bnx-0.1.0.whl",
             "bnx.egg-info/PKG-INFO", "docs/_build/html/index.html",
             "docs/api/generated/bnx.compile.rst", "bnx/__pycache__/odd.cpython-311.pyc",
             ".pytest_cache/v", ".hypothesis/examples/x", "notebooks/.ipynb_checkpoints/x"]
    run = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT,
                         capture_output=True, text=True)
    assert sorted(run.stdout.split()) == sorted(paths)
