"""One memoised depth-first pass over the pairs ``(node, feature)`` of a diagram.

With an explicit stack: no Python recursion per feature, so a diagram of any depth leaves
Python's recursion limit alone.

It serves the passes that make a node's output at feature ``i`` from its children's at
feature ``i + 1`` (the projection of a prime-implicant cover onto an instance,
:mod:`.pi`; the minimal members of an upward-closed set, :mod:`._contrastive`).

Examples
--------
The number of paths of a chain of two-way choices, four features deep:

>>> depth_first(1, 4, 0, lambda w, i: (w, w), lambda i, kids, outs: sum(outs))
16
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["depth_first"]


def depth_first(root: Any, n: int, false: Any, kids: Callable, combine: Callable) -> Any:
    """Return the output of ``(root, 0)``, each pair ``(node, feature)`` made once.

    ``kids(w, i)`` is the tuple of ``w``'s children on feature ``i`` (nodes at feature
    ``i + 1``); ``combine(i, kids, outs)`` makes the output of a node at feature ``i``
    from its children and their outputs ``outs``. The output of ``false`` (at any
    feature) and of any node at feature ``n`` is the node itself. A frame ``(w, i, ks)``
    waits for the outputs of its children ``ks`` (``None`` on arrival).
    """
    if root == false or n == 0:
        return root
    done: dict = {}  # (node, feature) -> output
    todo: list = [(root, 0, None)]
    push, pop = todo.append, todo.pop
    while todo:
        w, i, ks = pop()
        i1 = i + 1
        if ks is None:
            if (w, i) in done:
                continue
            ks = kids(w, i)
        if i1 == n:
            outs = ks
        else:
            outs = [c if c == false else done.get((c, i1)) for c in ks]
            wait = [c for c, o in zip(ks, outs) if o is None]
            if wait:
                push((w, i, ks))
                for c in wait:
                    push((c, i1, None))
                continue
        done[(w, i)] = combine(i, ks, outs)
    return done[(root, 0)]
