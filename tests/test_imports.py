"""The house reads one way: no import cycle among bnx's modules.

The data flows network -> classifier -> compiled ODD -> questions -> data and pictures, and
the imports must too. Every import counts, at module level or inside a function (an import
inside a function only hides a cycle); so do the modules named in a ``_LAZY`` table of
:func:`bnx._util.lazy.lazy_attributes`. Imports under ``if TYPE_CHECKING:`` are exempt. The
package ``bnx`` itself (its ``__init__``) is the top: it re-exports everything, and no
module may import it.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "bnx"


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"


def _imports(name: str, path: pathlib.Path, modules) -> set[str]:
    """The bnx modules that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(base: str, level: int) -> str:
        if not level:
            return base
        parts = package.split(".")
        parts = parts[:len(parts) - level + 1]
        return ".".join(parts + ([base] if base else []))

    def add(target: str, names=()) -> None:
        for n in names:
            if f"{target}.{n}" in modules:
                found.add(f"{target}.{n}")
                continue
            found.add(target)
        if not names:
            found.add(target)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for a in node.names:
                add(a.name)
        elif isinstance(node, ast.ImportFrom):
            add(resolve(node.module or "", node.level), [a.name for a in node.names])
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
              and any(getattr(t, "id", "") == "_LAZY" for t in node.targets)):
            for value in node.value.values:  # lazy_attributes tables: (module, name)
                if isinstance(value, ast.Tuple) and isinstance(value.elts[0], ast.Constant):
                    mod = value.elts[0].value
                    level = len(mod) - len(mod.lstrip("."))
                    add(resolve(mod.lstrip("."), level))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out: list = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


#: The floors of the house, from the bottom up. A module imports its own package, or a
#: package on a floor below; packages on one floor do not know each other.
FLOORS = [
    ["bnx.errors", "bnx._version", "bnx._util"],
    ["bnx.network", "bnx.diagram"],
    ["bnx.classifier"],
    ["bnx.odd"],
    ["bnx.compilation"],
    ["bnx.question"],
    ["bnx.probability"],
    ["bnx.explanation"],
    ["bnx.attribution", "bnx.changes"],
    ["bnx.linear", "bnx.local"],
    ["bnx.report"],
    ["bnx.tabular"],
    ["bnx.serve"],
    ["bnx.cli"],
    ["bnx.__main__", "bnx"],
]


def floor_of(module: str) -> tuple[int, str]:
    """The floor of ``module`` and the package that places it there (longest prefix)."""
    best = None
    for i, packages in enumerate(FLOORS):
        for p in packages:
            if (module == p or module.startswith(p + ".")) and (
                    best is None or len(p) > len(best[1])):
                best = (i, p)
    assert best is not None, f"{module} is on no floor: add its package to FLOORS"
    return best


def test_no_module_imports_a_floor_above_or_beside():
    bad = []
    for module, deps in sorted(_graph().items()):
        level, package = floor_of(module)
        for dep in sorted(deps):
            dep_level, dep_package = floor_of(dep)
            if dep_level > level or (dep_level == level and dep_package != package):
                bad.append(f"{module} -> {dep}")
    assert not bad, "imports against the flow: " + "; ".join(bad)


def test_the_floor_check_sees_an_import_upward():
    assert floor_of("bnx.diagram._arrays") < floor_of("bnx.odd._odd")
    assert floor_of("bnx.network.readers")[0] == floor_of("bnx.diagram.encoding")[0]
    assert floor_of("bnx")[0] == len(FLOORS) - 1


@pytest.mark.slow
def test_no_import_cycle():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles among bnx's modules: " + "; ".join(
        " <-> ".join(c) for c in cycles)


def test_nothing_imports_the_package_itself():
    graph = _graph()
    offenders = sorted(m for m, deps in graph.items() if "bnx" in deps and m != "bnx")
    assert not offenders, f"modules that import the top package bnx: {offenders}"


@pytest.mark.parametrize("source,expected", [
    ("from .b import f\n", {"pkg.b"}),
    ("def g():\n    from .b import f\n", {"pkg.b"}),  # inside a function counts
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import f\n", set()),
    ("_LAZY = {'x': ('.b', 'f')}\n", {"pkg.b"}),
])
def test_the_walk_sees_every_kind_of_import(tmp_path, source, expected):
    path = tmp_path / "a.py"
    path.write_text(source)
    modules = {"pkg.a": path, "pkg.b": tmp_path / "b.py"}
    assert _imports("pkg.a", path, modules) == expected


def test_a_cycle_is_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
