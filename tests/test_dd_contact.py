"""All of bnx's contact with ``dd`` is in ``bnx/diagram/``.

Outside that package no module imports ``dd``, calls a method that only a ``dd`` manager
or node has (``exist``, ``ite``, ``let``, ``cube``, ...), reads a manager's constants
(``bdd.true``, ``bdd.false``), a node's ``dag_size``, or ``dd.autoref``'s private
attributes: the questions hold ``dd`` nodes as handles and operate on them through
``bnx/diagram/_setops.py`` and its neighbours.

The check reads the source (``ast``): it sees calls by name, so it cannot tell a ``&``
between two ``dd`` nodes from one between two sets; those are the diagram layer's too
(``intersect`` in ``bnx/diagram/_setops.py``, and its siblings).
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "bnx"

#: Methods of ``dd`` managers and nodes that no bnx object has.
DD_METHODS = frozenset({
    "exist", "forall", "quantify", "ite", "let", "pick", "pick_iter", "add_expr", "to_expr",
    "cube", "level_of_var", "var_at_level", "find_or_add", "declare", "configure", "apply",
    "reorder", "dump", "succ_of", "rename", "compose", "collect_garbage",
})  # and ``.var(...)`` (a call: bnx's node tables have a ``var`` column)
#: Attributes of ``dd`` managers and nodes that no bnx object has.
DD_ATTRIBUTES = frozenset({"true", "false", "dag_size"})
#: ``dd.autoref``'s private attributes (read on another object than ``self``).
DD_PRIVATE = frozenset({"_bdd", "_wrap", "_succ"})

def _diagram_aliases(tree: ast.AST) -> set[str]:
    """The names a module binds to modules of ``bnx.diagram`` (``from ..diagram import
    _setops as sets``): calls on them are the diagram layer's, not ``dd``'s."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "diagram":
            out.update(a.asname or a.name for a in node.names)
    return out


def _dd_names(tree: ast.AST) -> dict[str, list[int]]:
    """The ``dd`` names a module uses, each with the lines where it does."""
    found: dict[str, list[int]] = {}
    ours = _diagram_aliases(tree)

    def add(name: str, node: ast.AST) -> None:
        found.setdefault(name, []).append(node.lineno)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "dd" or a.name.startswith("dd."):
                    add("import dd", node)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and (
                node.module == "dd" or node.module.startswith("dd.")):
            add("import dd", node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # ``.var(name)`` is a manager's; a bare ``.var`` is also bnx's node tables'
            if node.func.attr == "var" and getattr(node.func.value, "id", None) not in ours:
                add("var", node)
        elif isinstance(node, ast.Attribute) and getattr(node.value, "id", None) not in ours:
            if node.attr in DD_METHODS or node.attr in DD_ATTRIBUTES:
                add(node.attr, node)  # called, or bound to call later (``ite = bdd.ite``)
            elif node.attr in DD_PRIVATE and getattr(node.value, "id", None) != "self":
                add(node.attr, node)
    return found


def _outside_diagram() -> dict[str, dict[str, list[int]]]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("diagram/"):
            continue
        names = _dd_names(ast.parse(path.read_text(encoding="utf-8")))
        if names:
            out[rel] = names
    return out


def test_no_module_outside_the_diagram_package_touches_dd():
    found = _outside_diagram()
    bad = [f"bnx/{rel}:{line}: {name}" for rel, names in found.items()
           for name, lines in sorted(names.items())
           for line in lines]
    assert not bad, ("dd used outside bnx/diagram/ (route it through a function there, "
                     "e.g. bnx/diagram/_setops.py):\n" + "\n".join(bad))


def test_the_check_sees_each_kind_of_contact():
    src = ("import dd.autoref\nfrom dd import cudd\n"
           "from ..diagram import _setops as sets\n"
           "def f(bdd, u, self, t):\n"
           "    ite = bdd.ite\n"
           "    sets.exist(['a'], u), sets.true(bdd), t.var\n"
           "    return (bdd.exist(['a'], u), bdd.true, u.dag_size, bdd._bdd, self._bdd,\n"
           "            bdd.var('a'))\n")
    assert _dd_names(ast.parse(src)) == {
        "import dd": [1, 2], "ite": [5], "exist": [7], "true": [7], "dag_size": [7],
        "_bdd": [7], "var": [8]}
