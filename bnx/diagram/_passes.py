"""Small traversals over ``dd`` nodes that ``dd`` itself does not offer.

All of them handle complemented edges (through :func:`~bnx.backends.branches`),
variables that a reduced diagram skips, and both backends. Counts are exact
Python integers on both backends (``dd.cudd`` counts in floating point).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from .._types import Node
from .backends import branches, level

__all__ = ["count", "restrict", "evaluate", "unwind", "deep", "recursion_for",
           "ensure_recursion", "FRAMES_PER_LEVEL"]


#: Python frames a traversal may stack per level (bnx's passes and dd.autoref's
#: operations recurse once or a few times per variable).
FRAMES_PER_LEVEL = 6
_RAISE = threading.Lock()


def _depth() -> int:
    """The number of Python frames on the calling thread's stack."""
    f, n = sys._getframe(1), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


def ensure_recursion(levels: int) -> None:
    """Make sure the calling thread may recurse through a diagram ``levels`` deep.

    Python's recursion limit (1,000 by default) is one number for the whole process, so
    it is never lowered here (another thread may be deep in a traversal) and raised only
    when the frames on this thread's stack plus :data:`FRAMES_PER_LEVEL` per level would
    exceed it: diagrams of up to about 120 levels never change it; a deeper one raises
    it once, for the process, to what the deepest diagram asked needs. Cheap when
    nothing is needed (a comparison, or one walk over the stack's frames).
    """
    need = FRAMES_PER_LEVEL * levels
    limit = sys.getrecursionlimit()
    if need + 1000 <= limit:
        return
    need += _depth() + 250
    if need <= limit:
        return
    with _RAISE:
        if need > sys.getrecursionlimit():
            sys.setrecursionlimit(-(-need // 1000) * 1000)


class recursion_for:
    """A context for a traversal ``levels`` variables deep: :func:`ensure_recursion`
    on entry, nothing on exit (the limit is never lowered, see there)."""

    __slots__ = ("_levels",)

    def __init__(self, levels: int) -> None:
        self._levels = levels

    def __enter__(self) -> None:
        ensure_recursion(self._levels)

    def __exit__(self, *exc) -> None:
        return None


def _levels_of(obj) -> int:
    enc = getattr(obj, "encoding", None)
    if enc is not None:
        return enc.nvars
    layout = getattr(obj, "layout", None)
    if layout is not None:
        return layout.nvars
    feats = getattr(obj, "features", ())
    return 8 * len(feats)


def deep(fn):
    """Run ``fn(obj, ...)`` where it may recurse through ``obj``'s diagram
    (:func:`ensure_recursion`). Touches nothing else of the process: the garbage
    collector is left alone."""
    @functools.wraps(fn)
    def wrapper(obj, *args, **kwargs):
        ensure_recursion(_levels_of(obj))
        return fn(obj, *args, **kwargs)
    return wrapper


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
    """Number of assignments to all ``nvars`` variables that satisfy ``u`` (exact)."""
    return _count(u, nvars, {}) << level(u, nvars)


def _count(w: Node, nvars: int, memo: dict) -> int:
    """Models of ``w`` over the variables from ``level(w)`` on (every node below it
    counted once, children first, into ``memo``)."""
    if w.var is None:
        return 1 if w == w.bdd.true else 0
    stack = [(w, None)]
    while stack:
        u, kids = stack[-1]
        if kids is None:  # first visit: its children first
            if u in memo:
                stack.pop()
                continue
            kids = branches(u)
            stack[-1] = (u, kids)
            stack.extend((c, None) for c in kids if c.var is not None and c not in memo)
            continue
        stack.pop()
        lu, c = u.level, 0
        for kid in kids:
            if kid.var is None:
                c += (1 << (nvars - lu - 1)) if kid == kid.bdd.true else 0
            else:
                c += memo[kid] << (kid.level - lu - 1)
        memo[u] = c
    return memo[w]


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
    """The value of ``u`` under a complete assignment ``{level: value}``."""
    while u.var is not None:
        u = branches(u)[1 if values[u.level] else 0]
    return u == u.bdd.true
