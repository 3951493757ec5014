"""Small traversals over ``dd`` nodes that ``dd`` itself does not offer.

All of them handle complemented edges (through :func:`~bnx.backends.branches`),
variables that a reduced diagram skips, and both backends. Counts are exact
Python integers on both backends (``dd.cudd`` counts in floating point).
"""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Mapping, Sequence

from .._types import Node
from .backends import branches, level

__all__ = ["count", "restrict", "evaluate", "deep", "recursion_for", "gc_paused"]


class gc_paused:
    """Pause Python's cyclic garbage collector for the duration of a traversal.

    Compilation and traversals make and drop millions of small objects (dd
    references, tuples) without cycles; every few thousand of them the cyclic
    collector would walk all live objects, which costs more than the work itself.
    Reference counting still frees everything at once; the collector resumes
    afterwards (it is left alone when it was already off). A context manager.
    """

    __slots__ = ("_was",)

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        if self._was:
            gc.disable()

    def __exit__(self, *exc) -> None:
        if self._was:
            gc.enable()


class recursion_for:
    """Raise Python's recursion limit for a traversal ``levels`` variables deep.

    bnx's traversals (and dd.autoref's operations) recurse once or a few times per
    variable; the default limit of 1000 stops diagrams of a few hundred features.
    A context manager (a class, not a generator: questions on small diagrams enter it
    once per call, and a generator costs microseconds).
    """

    __slots__ = ("_need", "_old")

    def __init__(self, levels: int) -> None:
        self._need = 6 * levels + 1000

    def __enter__(self) -> None:
        self._old = sys.getrecursionlimit()
        if self._need > self._old:
            sys.setrecursionlimit(self._need)

    def __exit__(self, *exc) -> None:
        if self._need > self._old:
            sys.setrecursionlimit(self._old)


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
    """Run ``fn(obj, ...)`` with a recursion limit sized for ``obj``'s diagram and the
    cyclic garbage collector paused (:class:`recursion_for`, :class:`gc_paused`)."""
    @functools.wraps(fn)
    def wrapper(obj, *args, **kwargs):
        with recursion_for(_levels_of(obj)), gc_paused():
            return fn(obj, *args, **kwargs)
    return wrapper


# Traversals are module-level functions with an explicit memo: a recursive closure
# would form a reference cycle holding dd nodes, which the garbage collector may
# finalise after the manager (dd.autoref then complains about live references).

def count(u: Node, nvars: int) -> int:
    """Number of assignments to all ``nvars`` variables that satisfy ``u`` (exact)."""
    return _count(u, nvars, {}) << level(u, nvars)


def _count(w: Node, nvars: int, memo: dict) -> int:
    """Models of ``w`` over the variables from ``level(w)`` on."""
    if w.var is None:
        return 1 if w == w.bdd.true else 0
    got = memo.get(w)
    if got is not None:
        return got
    lw = w.level
    lo, hi = branches(w)
    c = ((_count(lo, nvars, memo) << (level(lo, nvars) - lw - 1))
         + (_count(hi, nvars, memo) << (level(hi, nvars) - lw - 1)))
    memo[w] = c
    return c


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
