"""The tests are laid out like the package, and no test module imports another.

Helpers shared by several test modules live in ``tests/_support/`` (the oracle, the
strategies, builders, brute forces); shared fixtures live in a ``conftest.py``. A test module
may import from those and nowhere else in ``tests``: ``from tests.<pkg>.test_x import ...``
(or a relative import of a sibling) ties one test file to another's private helpers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(TESTS.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _test_module(target: str) -> str | None:
    """The test module (``tests....test_x``) that importing ``target`` reaches, if any."""
    parts = target.split(".")
    if parts[0] != "tests" or parts[1:2] == ["_support"]:
        return None
    for i, part in enumerate(parts[1:], 1):
        if part.startswith("test"):
            return ".".join(parts[:i + 1])
    return None


def forbidden_imports(source: str, name: str, is_package: bool = False) -> list[str]:
    """The test modules that ``source`` (the text of module ``name``) imports, at module
    level or inside a function; ``tests._support`` and conftest modules are allowed."""
    package = name if is_package else name.rpartition(".")[0]
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            # ``from tests.cli import test_cli`` imports a module by its last name
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        bad += [m for m in map(_test_module, targets) if m is not None]
    return bad


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


@pytest.mark.parametrize("path", _test_files(), ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_module_imports_another(path):
    name = _module_name(path)
    bad = forbidden_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
    assert not bad, (f"{path.relative_to(TESTS.parent)} imports {sorted(set(bad))}: move the "
                     "shared helper into tests/_support/ (or a fixture into a conftest.py)")


@pytest.mark.parametrize("source, name, bad", [
    ("from tests.odd.test_serialization import multivalued_classifier", "tests.cli.test_cli",
     ["tests.odd.test_serialization"]),
    ("def f():\n    from tests.linear.test_linear import Brute\n", "tests.linear.test_x",
     ["tests.linear.test_linear"]),
    ("import tests.cli.test_cli", "tests.cli.test_x", ["tests.cli.test_cli"]),
    ("from .test_cli import run", "tests.cli.test_x", ["tests.cli.test_cli"]),
    ("from . import test_cli", "tests.cli.test_x", ["tests.cli.test_cli"]),
    ("from tests.cli import test_cli", "tests.cli.test_x", ["tests.cli.test_cli"]),
    ("from tests._support.builders import random_tan", "tests.cli.test_x", []),
    ("from tests._support import oracle", "tests.cli.test_x", []),
    ("from tests.conftest import ROOT", "tests.cli.test_x", []),
    ("from .conftest import X", "tests.cli.test_x", []),
    ("import bnx\nfrom bnx.cli import main", "tests.cli.test_x", []),
])
def test_the_check_sees_imports_of_test_modules(source, name, bad):
    assert forbidden_imports(source, name) == bad
