"""The repository passes ``ruff check`` under the configuration in pyproject.toml."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    if importlib.util.find_spec("ruff") is not None:
        return [sys.executable, "-m", "ruff"]
    if shutil.which("ruff") is not None:
        return ["ruff"]
    pytest.skip("ruff is not installed (pip install -e '.[test]')")


def test_ruff_check_is_clean():
    run = subprocess.run([*_ruff(), "check", ".", "--no-cache", "--output-format", "concise"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"ruff check found problems:\n{run.stdout}{run.stderr}"
