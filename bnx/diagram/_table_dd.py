"""A node table's functions read from and written to ``dd``.

Children first, one step per node (a loop over an explicit stack, however deep the diagram).

A node table is any object with the columns ``var``, ``lo``, ``hi`` (node ``0`` false,
``1`` true) and a method ``node(level, lo, hi) -> int`` that makes or finds a node: the
explanation code's :class:`~bnx.explanation.store.Store` is one. What ``dd`` keeps private
is reached through :mod:`.backends` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._util.types import Manager, Node
from ._setops import false, true
from .backends import autoref_table, branches, is_cudd, write_nodes

__all__ = ["below", "read", "read_dd", "to_dd"]


def below(st, u: int) -> set:
    """Return the inner nodes of the function ``u`` of store ``st``."""
    lo, hi = st.lo, st.hi
    seen = set()
    stack = [u]
    while stack:
        w = stack.pop()
        if w > 1 and w not in seen:
            seen.add(w)
            stack.append(lo[w])
            stack.append(hi[w])
    return seen


def read(st, root, false, true, node) -> int:
    """Add to ``st`` the function ``root`` of another diagram, and return its node.

    It is read depth first, children before parents (``node(u)`` is ``(level, low, high)``
    with negations resolved; ``false`` and ``true`` its terminals).
    """
    ids = {false: 0, true: 1}
    make = st.node
    stack = [root]
    while stack:
        u = stack[-1]
        if u in ids:
            stack.pop()
            continue
        lvl, a, b = node(u)
        ia, ib = ids.get(a), ids.get(b)
        if ia is None:
            stack.append(a)
        elif ib is None:
            stack.append(b)
        else:
            stack.pop()
            ids[u] = make(lvl, ia, ib)
    return ids[root]


def read_dd(st, root: Node) -> int:
    """Add to ``st`` the function ``root`` of a ``dd`` manager, and return its node.

    A ``dd.autoref`` or ``dd.cudd`` manager whose level ``l`` is the store's level ``l``.
    """
    bdd = root.bdd
    if is_cudd(bdd):
        return read(st, root, false(bdd), true(bdd), lambda u: (u.level, *branches(u)))
    ref, succ = autoref_table(root)

    def node(r):  # signed references: a negative one is the negation
        lvl, a, b = succ[r if r > 0 else -r]
        return (lvl, -a, -b) if r < 0 else (lvl, a, b)

    return read(st, ref, -1, 1, node)


def to_dd(st, bdd: Manager, names: Sequence[str], root: int) -> Node:
    """Write the function ``root`` of ``st`` into ``bdd``.

    The variable of ``bdd`` at level ``l`` is ``names[l]``: the nodes are renumbered ``2
    ..`` children first, one ``dd`` node each (:func:`bnx.diagram.backends.write_nodes`).
    """
    if root <= 1:
        return true(bdd) if root else false(bdd)
    nodes = sorted(below(st, root))
    number = {0: 0, 1: 1}
    for u in nodes:
        number[u] = len(number)
    var, lo, hi = st.var, st.lo, st.hi
    return write_nodes(bdd, names, [0, 0] + [var[u] for u in nodes],
                       [0, 0] + [number[lo[u]] for u in nodes],
                       [0, 0] + [number[hi[u]] for u in nodes], number[root])
