"""``import bnx`` from the directory that holds a clone named ``bnx``.

From there Python finds the clone's folder before anything installed; the folder has no
``__init__.py`` (the package is ``bnx/bnx/``), so on its own it is taken for an empty
namespace package (``AttributeError: module 'bnx' has no attribute 'compile'``). An
editable install of the clone (README's ``pip install -e .``) puts the clone itself on
``sys.path`` (pyproject.toml's ``package-dir``), and the package is found there first.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import ROOT

IMPORT = "import bnx; print(bnx.__file__); print(bnx.compile.__name__)"


def _env() -> dict[str, str]:
    """The environment without PYTHONPATH (a developer's points at a checkout)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_the_packages_root_is_the_clone_s_root():
    """setuptools' editable install writes a path line (not an import hook that runs after
    the path) only when ``package-dir`` names the root outright."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert setup["setuptools"]["package-dir"] == {"": "."}


@pytest.mark.slow
def test_an_editable_clone_imports_from_its_parent_directory(tmp_path):
    """A copy of the clone named ``bnx``, installed editable (offline, by this environment's
    pip and setuptools) into a new environment: from the copy's parent, ``import bnx`` is
    the package."""
    parent = tmp_path / "parent"
    clone = parent / "bnx"
    shutil.copytree(ROOT, clone, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "_build", "*.egg-info", ".hypothesis", "build", "dist"))
    # with nothing installed (-S: no site-packages), the folder is an empty namespace package
    bare = subprocess.run([sys.executable, "-S", "-c", IMPORT], cwd=parent,
                          capture_output=True, text=True, env=_env())
    assert "has no attribute 'compile'" in bare.stderr and bare.stdout.startswith("None")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True, env=_env())
    python = venv / "bin" / "python"
    # the new environment's own packages are none: it sees this one's through a path line
    lib = next((venv / "lib").glob("python3*")) / "site-packages"
    (lib / "seen.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-build-isolation", "--no-index", "-e", str(clone)],
        capture_output=True, text=True, env=_env())
    if install.returncode:
        pytest.skip(f"no editable install here: {install.stderr[-300:]}")
    done = subprocess.run([str(python), "-c", IMPORT], cwd=parent, capture_output=True,
                          text=True, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(clone / "bnx" / "__init__.py"), "compile"]
