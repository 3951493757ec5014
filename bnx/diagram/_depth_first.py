"""One memoised depth-first pass over the pairs ``(node, feature)`` of a diagram.

On :func:`~bnx.diagram._traversals.post_order`'s stack: no Python recursion per feature,
so a diagram of any depth leaves Python's recursion limit alone.

It serves the passes that make a node's output at feature ``i`` from its children's at
feature ``i + 1`` (the projection of a prime-implicant cover onto an instance,
:mod:`bnx.explanation.pi`; the minimal members of an upward-closed set,
:mod:`bnx.explanation._contrastive`).

Examples
--------
The number of paths of a chain of two-way choices, four features deep:

>>> depth_first(1, 4, 0, lambda w, i: (w, w), lambda i, kids, outs: sum(outs))
16
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._traversals import post_order

__all__ = ["depth_first"]


def depth_first(root: Any, n: int, false: Any, kids: Callable, combine: Callable) -> Any:
    """Return the output of ``(root, 0)``, each pair ``(node, feature)`` made once.

    ``kids(w, i)`` is the tuple of ``w``'s children on feature ``i`` (nodes at feature
    ``i + 1``); ``combine(i, kids, outs)`` makes the output of a node at feature ``i``
    from its children and their outputs ``outs``. The output of ``false`` (at any
    feature) and of any node at feature ``n`` is the node itself. A post-order over the
    pairs (:func:`~bnx.diagram._traversals.post_order`); a pair's children are read once
    and kept until its output is made.
    """
    if root == false or n == 0:
        return root
    done: dict = {}  # (node, feature) -> output
    read: dict = {}  # (node, feature) -> its children, until its output is made

    def children(key: tuple):
        w, i = key
        ks = read[key] = kids(w, i)
        i1 = i + 1
        return () if i1 == n else [(c, i1) for c in ks if c != false]

    def make(key: tuple, _):
        ks = read.pop(key)
        i = key[1]
        i1 = i + 1
        outs = ks if i1 == n else [c if c == false else done[(c, i1)] for c in ks]
        return combine(i, ks, outs)

    return post_order((root, 0), children, make, done)
