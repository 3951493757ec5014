r"""Between ``dd`` and the array form.

Reading a ``dd`` function into :class:`~bnx.diagram._arrays.DiagramArrays` and writing the
arrays back into a ``dd`` manager; and copying a ``dd`` function into another manager, its
variables renamed (:func:`copy_to`).

``dd.autoref`` diagrams are read from the manager's own integer table, ``dd.cudd``
diagrams through CUDD's DDDMP text dump parsed by numpy (a walk over ``dd``'s wrapper
objects costs microseconds a node). Complemented edges are resolved on the way in;
writing back makes one node per array node, bottom-up.

Examples
--------
>>> from bnx.diagram.backends import new_manager
>>> bdd = new_manager("autoref", ["a", "b"])
>>> f = bdd.add_expr("a | ~b")
>>> arr, (r,) = from_dd([f], 2)
>>> to_dd(arr, bdd, ["a", "b"], r) == f
True
>>> other = new_manager("autoref", ["y", "x"])
>>> copy_to(f, other, {"a": "x", "b": "y"}) == other.add_expr("x | ~y")
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np

from .._util.types import Manager, Node
from ._arrays import TRUE, DiagramArrays, canonical
from ._traversals import post_order
from .backends import autoref_table, branches, is_cudd, make_node, write_nodes

__all__ = ["from_dd", "to_dd", "copy_to"]

_INT = np.int64

# The readers below return tables of the nodes below some roots: index 0 is dd's one
# terminal (true), and a reference to node ``i`` is the *slot* ``2 i`` (as is) or
# ``2 i + 1`` (negated), the form in which complemented edges are then resolved.

def from_dd(roots: Sequence[Node], nvars: int) -> tuple[DiagramArrays, list[int]]:
    """Read the functions ``roots`` (dd nodes of one manager) into canonical arrays.

    ``dd.autoref`` diagrams are read from the manager's own integer table;
    ``dd.cudd`` diagrams through CUDD's DDDMP text dump, parsed by numpy. Returns the
    arrays (rooted at the first root) and the node number of every root.
    """
    roots = list(roots)
    bdd = roots[0].bdd
    if is_cudd(bdd):
        level, lo, hi, refs = _cudd_tables(bdd, roots, nvars)
    else:
        level, lo, hi, refs = _autoref_tables(roots, nvars)
    # node i as is sits at 2 i, negated at 2 i + 1; a negated node negates its children
    k = len(level)
    lv2 = np.repeat(level, 2)
    lo2 = np.repeat(lo, 2) ^ np.tile([0, 1], k)
    hi2 = np.repeat(hi, 2) ^ np.tile([0, 1], k)
    # slots 0 and 1 are true and false: swap them into bnx's numbering (0 false, 1 true)
    swap = np.arange(2 * k, dtype=_INT)
    swap[0], swap[1] = 1, 0
    lv2, lo2, hi2 = lv2[swap], swap[lo2[swap]], swap[hi2[swap]]
    lo2[:2] = hi2[:2] = (0, 1)
    return canonical(nvars, lv2, lo2, hi2, [int(swap[r]) for r in refs])


def _autoref_tables(roots: list, nvars: int):
    """Read the table of the nodes below ``roots`` of a ``dd.autoref`` manager (see above)."""
    refs = [autoref_table(r)[0] for r in roots]
    succ = autoref_table(roots[0])[1]
    ids = {1: 0}
    lv, lo, hi = [nvars], [0], [0]

    def make(u: int, kids) -> int:
        i, v, w = succ[u]
        lv.append(i)
        lo.append(2 * ids[kids[0]] + (v < 0))
        hi.append(2 * ids[kids[1]] + (w < 0))
        return len(lv) - 1

    for r in refs:
        post_order(abs(r), lambda u: (abs(succ[u][1]), abs(succ[u][2])), make, ids)
    out = [2 * ids[abs(r)] + (r < 0) for r in refs]
    return (np.array(lv, dtype=_INT), np.array(lo, dtype=_INT), np.array(hi, dtype=_INT), out)


def _cudd_tables(bdd: Manager, roots: list, nvars: int):
    """Read the same table from CUDD, through its DDDMP text dump (one dump per root)."""
    import os
    import tempfile
    lv, lo, hi = [np.array([nvars], dtype=_INT)], [np.zeros(1, _INT)], [np.zeros(1, _INT)]
    refs = []
    n = 1  # table rows so far
    fd, path = tempfile.mkstemp(suffix=".dddmp")
    os.close(fd)
    try:
        for root in roots:
            if root.var is None:  # a constant
                refs.append(0 if root == bdd.true else 1)
                continue
            bdd.dump(path, [root])
            with open(path, "rb") as fh:
                text = fh.read()
            head, _, body = text.partition(b".nodes\n")
            body = body[:body.rindex(b".end")]
            names = _header(head, b".suppvarnames")
            rootid = int(_header(head, b".rootids")[0])
            # rows: id, variable name, support index, then child, else child (signed)
            rows = np.loadtxt(io.StringIO(body.decode()), dtype=_INT, usecols=(0, 2, 3, 4),
                              ndmin=2)
            ids, sup, t, e = rows.T
            supp_level = np.array([bdd.level_of_var(s) for s in names], dtype=_INT)
            index = np.empty(int(ids.max()) + 1, dtype=_INT)  # dddmp id -> table row
            inner = ids != 1
            index[ids[inner]] = n + np.arange(int(inner.sum()))
            index[1] = 0

            def slot(r, index=index):
                return 2 * index[np.abs(r)] + (r < 0)

            lv.append(supp_level[sup[inner]])
            lo.append(slot(e[inner]))
            hi.append(slot(t[inner]))
            refs.append(int(slot(np.array([rootid]))[0]))
            n += int(inner.sum())
    finally:
        os.unlink(path)
    return np.concatenate(lv), np.concatenate(lo), np.concatenate(hi), refs


def _header(head: bytes, key: bytes) -> list[str]:
    for line in head.splitlines():
        if line.startswith(key + b" "):
            return line.decode().split()[1:]
    raise ValueError(f"DDDMP header without {key.decode()}")


def to_dd(arrays: DiagramArrays, bdd: Manager, names: Sequence[str],
          root: int | None = None) -> Node:
    """Write the function below ``root`` (default: the arrays' root) into ``bdd``.

    The variable of ``bdd`` at level ``l`` is ``names[l]``: one node made per node,
    bottom-up.
    """
    root = arrays.root if root is None else int(root)
    if root <= TRUE:
        return bdd.true if root == TRUE else bdd.false
    top = root + 1  # nodes 0 .. root hold everything below the root
    return write_nodes(bdd, names, arrays.level[:top].tolist(), arrays.lo[:top].tolist(),
                       arrays.hi[:top].tolist(), root)


def copy_to(root: Node, bdd: Manager, rename: dict, same_order: bool = False) -> Node:
    """Write the function ``root`` into ``bdd``, its variable ``v`` renamed ``rename[v]``.

    One node made per node of ``root``, children first, by a loop over an explicit stack (no
    recursion: any depth).

    ``same_order``: ``rename`` keeps the order of the variables (each node is then made
    directly, :func:`~bnx.diagram.backends.make_node`); else each node is an ``ite``.
    """
    src = root.bdd
    memo = {src.true: bdd.true, src.false: bdd.false}

    def make(u: Node, kids) -> Node:
        var, a, b = rename[u.var], memo[kids[0]], memo[kids[1]]
        return make_node(bdd, var, a, b) if same_order else bdd.ite(bdd.var(var), b, a)

    return post_order(root, branches, make, memo)
