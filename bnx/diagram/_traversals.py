"""Small traversals over ``dd`` nodes that ``dd`` itself does not offer.

All of them handle complemented edges (through :func:`~bnx.backends.branches`),
variables that a reduced diagram skips, and both backends. Counts are exact
Python integers on both backends (``dd.cudd`` counts in floating point).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Mapping, Sequence
from typing import Any

from .._util.types import Node
from .backends import branches, level

__all__ = ["count", "restrict", "evaluate", "post_order", "unwind"]


def post_order(root: Hashable, children: Callable, make: Callable, memo: dict) -> Any:
    """Return ``memo[root]``, each node's value made after its children's.

    This is the one post-order walk of a diagram, on a stack of its own (any depth,
    Python's recursion limit never touched).

    ``children(u)`` gives the nodes ``u``'s value is made from; ``make(u, kids)`` makes it
    (``kids`` as ``children`` gave them, each in ``memo`` by then). A node already in
    ``memo`` (the terminals, seeded by the caller, or a node of an earlier walk) is not
    visited again. The children are made last to first (give them reversed to have them
    made in the order a recursion would), each before ``make`` is called on its parent.

    Examples
    --------
    >>> lo, hi = {2: 0, 3: 2}, {2: 1, 3: 1}          # node 3 = x or y, node 2 = y
    >>> post_order(3, lambda u: (lo[u], hi[u]), lambda u, k: memo[k[0]] + memo[k[1]],
    ...            memo := {0: 0, 1: 1})              # paths to true
    2
    >>> deep = post_order(0, lambda u: (u + 1, u + 2), lambda u, k: memo[k[0]] + memo[k[1]],
    ...                   memo := {10_000: 1, 10_001: 0})  # 10,000 levels, no recursion
    >>> a, b = 1, 0
    >>> for _ in range(10_000):
    ...     a, b = a + b, a
    >>> deep == a
    True
    """
    if root in memo:
        return memo[root]
    stack = [(root, None)]
    push, pop = stack.append, stack.pop
    while stack:
        u, kids = stack[-1]
        if kids is None:  # first visit: its children first
            if u in memo:
                pop()
                continue
            kids = children(u)
            top = len(stack)
            for c in kids:
                if c not in memo:
                    push((c, None))
            if len(stack) > top:
                stack[top - 1] = (u, kids)
                continue
        pop()  # (its children made)
        memo[u] = make(u, kids)
    return memo[root]


def unwind(call: Generator) -> Any:
    """Run a recursion written as generators on a stack of its own, not Python's.

    A step of the recursion is a generator: where it would call itself, it yields the
    generator of the call and is sent back its result (``child = yield self.visit(...)``);
    it returns its own result. The steps run in the order the recursion would run
    them, so memos fill the same way, but however deep the calls nest, this function's
    frame is the only one on Python's stack: no pass needs Python's recursion limit
    raised, whatever the depth of the diagram.

    Examples
    --------
    >>> def depth(n):
    ...     return (1 + (yield depth(n - 1))) if n else 0
    ...     yield  # (a generator even when n == 0)
    >>> unwind(depth(5000))
    5000
    """
    stack: list = []
    value = None
    while True:
        try:
            sub = call.send(value)
        except StopIteration as stop:
            if not stack:
                return stop.value
            call, value = stack.pop(), stop.value
            continue
        stack.append(call)
        call, value = sub, None


# Traversals are module-level functions with an explicit memo: a recursive closure
# would form a reference cycle holding dd nodes, which the garbage collector may
# finalise after the manager (dd.autoref then complains about live references). They
# are loops over a stack of their own, so that no diagram is too deep for them.

def count(u: Node, nvars: int) -> int:
    """Count the assignments to all ``nvars`` variables that satisfy ``u`` (exact)."""
    return _count(u, nvars, {}) << level(u, nvars)


def _count(w: Node, nvars: int, memo: dict) -> int:
    """Count the models of ``w`` over the variables from ``level(w)`` on.

    Every node below it is counted once, children first, into ``memo``.
    """
    if w.var is None:
        return 1 if w == w.bdd.true else 0
    true = w.bdd.true
    memo.setdefault(true, None)  # (the terminals: counted by their parents)
    memo.setdefault(w.bdd.false, None)

    def make(u: Node, kids) -> int:
        lu, c = u.level, 0
        for kid in kids:
            if kid.var is None:
                c += (1 << (nvars - lu - 1)) if kid == true else 0
            else:
                c += memo[kid] << (kid.level - lu - 1)
        return c

    return post_order(w, branches, make, memo)


def restrict(u: Node, bits: Sequence[tuple[int, bool]], nvars: int) -> Node:
    """Follow ``u`` along ``(level, value)`` pairs given in increasing level order.

    A variable that ``u`` skips is stepped over. This is the cofactor of ``u`` by
    those literals when they are the first variables ``u`` can test.
    """
    for lvl, value in bits:
        if u.var is None:
            return u
        if u.level == lvl:
            u = branches(u)[1 if value else 0]
    return u


def evaluate(u: Node, values: Mapping[int, bool]) -> bool:
    """Evaluate ``u`` under a complete assignment ``{level: value}``."""
    while u.var is not None:
        u = branches(u)[1 if values[u.level] else 0]
    return u == u.bdd.true
