"""The operations on ``dd`` functions that the questions need, as plain functions.

A question module holds ``dd`` nodes as handles: it passes them around, compares them
and keeps them in dicts, but never calls a method of a node or of its manager itself.
Every operation it needs on them is one of the functions below, so that the whole of
bnx's contact with ``dd`` is in :mod:`bnx.diagram` (this module, :mod:`._dd`,
:mod:`._passes` and, for ``dd``'s internals, :mod:`.backends`). Each function is one
``dd`` call (or a short loop of them) and works on both backends.

* constants and sets of assignments: :func:`true`, :func:`false`, :func:`cube`,
  :func:`select`;
* Boolean combinations (sets of assignments): :func:`intersect`, :func:`intersect_all`,
  :func:`union`, :func:`difference`, :func:`complement`;
* quantification and evaluation: :func:`exist`, :func:`holds`;
* the manager's order: :func:`level_of`; a function's node count: :func:`dag_size`.

Examples
--------
>>> from bnx.diagram.backends import new_manager
>>> bdd = new_manager("autoref", ["a", "b"])
>>> a, b = cube(bdd, {"a": True}), cube(bdd, {"b": True})
>>> union(a, b) == complement(intersect(complement(a), complement(b)))
True
>>> exist(["b"], intersect(a, b)) == a, holds(difference(a, b), {"a": True, "b": False})
(True, True)
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable, Mapping, Sequence

from .._util.types import Manager, Node
from ..errors import BackendError
from .encoding import _select

__all__ = ["true", "false", "cube", "select", "intersect", "intersect_all", "union",
           "difference", "complement", "exist", "holds", "level_of", "dag_size"]


def _recursive(fn):
    """Mark ``fn`` as one of ``dd``'s operations that recurse in Python.

    ``dd.autoref``'s take about one frame per level of the diagram; CUDD's run in C. bnx
    leaves Python's recursion limit alone (it is one number for the whole process), so on a
    diagram too deep for it the operation raises :class:`~bnx.BackendError`, saying what to
    do, instead of a ``RecursionError`` from inside ``dd``.
    """
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except RecursionError:
            raise BackendError(
                f"the diagram is too deep for dd.autoref's operations, which recurse in "
                f"Python, under Python's recursion limit ({sys.getrecursionlimit():,}): use "
                f"backend='cudd' (CUDD's operations do not recurse in Python)") from None
    return guarded


def true(bdd: Manager) -> Node:
    """Return the constant true of ``bdd`` (every assignment)."""
    return bdd.true


def false(bdd: Manager) -> Node:
    """Return the constant false of ``bdd`` (no assignment)."""
    return bdd.false


def cube(bdd: Manager, assignment: Mapping[str, bool]) -> Node:
    """Conjoin the literals ``{variable name: value}`` (true when empty)."""
    return bdd.cube(assignment)


def select(bdd: Manager, bits: Sequence[str], children: Sequence[Node], fill: Node) -> Node:
    """Make the node that reads the code ``j`` on the bits ``bits`` and leads to ``children[j]``.

    The bits are most significant first; codes past the children lead to ``fill``. The
    children must lie below the bits.
    """
    return _select(bdd, bits, 0, 0, children, fill)


@_recursive
def intersect(u: Node, v: Node) -> Node:
    """``u ∧ v`` (same manager)."""
    return u & v


@_recursive
def intersect_all(bdd: Manager, nodes: Iterable[Node]) -> Node:
    """Conjoin ``nodes`` in the order given (true when there are none)."""
    out = bdd.true
    for v in nodes:
        out = out & v
    return out


@_recursive
def union(u: Node, v: Node) -> Node:
    """``u ∨ v`` (same manager)."""
    return u | v


@_recursive
def difference(u: Node, v: Node) -> Node:
    """``u ∧ ¬v`` (same manager)."""
    return u & ~v


def complement(u: Node) -> Node:
    """``¬u``: every assignment of the manager's variables that ``u`` rejects."""
    return ~u


@_recursive
def exist(names: Iterable[str], u: Node) -> Node:
    """``u`` with the variables ``names`` existentially quantified."""
    return u.bdd.exist(names, u)


@_recursive
def holds(u: Node, assignment: Mapping[str, bool]) -> bool:
    """Tell whether ``u`` is true under ``assignment``.

    ``assignment`` is ``{variable name: value}``, covering every variable ``u`` depends on.
    """
    bdd = u.bdd
    return bdd.let(assignment, u) == bdd.true


def level_of(bdd: Manager, name: str) -> int:
    """Return the level of the variable ``name`` in ``bdd``'s (fixed) order."""
    return bdd.level_of_var(name)


@_recursive
def dag_size(u: Node) -> int:
    """Count the nodes of ``u`` in its manager, terminals included (``dd``'s count)."""
    return u.dag_size
