"""What the questions keep per diagram: auxiliary ``dd`` managers and layouts.

An ODD never changes, so whatever a question derives from it once (a manager for the
explanation sets of a layout, the layout itself) is kept with its array form, in
:attr:`bnx.arrays.DiagramArrays.cache`, under tuple keys.

Examples
--------
>>> import bnx
>>> from bnx.explain import _cache
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> _cache.layout(odd, "partial") is _cache.layout(odd, "partial")
True
>>> m = _cache.aux_manager(odd, ("k0", "k1"))
>>> m is _cache.aux_manager(odd, ["k0", "k1"]), m.vars == {"k0": 0, "k1": 1}
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from .._types import Manager
from ..backends import new_manager
from .explanations import Layout

__all__ = ["aux_manager", "layout", "tidy"]

#: Dead nodes tolerated in an autoref manager before :func:`tidy` collects them.
GC_SLACK = 50_000


def aux_manager(odd, variables: Sequence[str]) -> Manager:
    """A manager of ``odd``'s backend with ``variables`` declared in this order, made
    once per diagram and shared by the explanation sets in that layout."""
    key = ("aux_manager", tuple(variables))
    cache = odd.arrays.cache
    bdd = cache.get(key)
    if bdd is None:
        bdd = cache[key] = new_manager(odd.backend, key[1])
    return bdd


def layout(odd, kind: str) -> Layout:
    """The :class:`~bnx.explain.explanations.Layout` of ``kind`` (``"partial"`` or
    ``"complete"``) over ``odd``'s features, made once per diagram."""
    key = ("layout", kind)
    cache = odd.arrays.cache
    got = cache.get(key)
    if got is None:
        got = cache[key] = Layout(kind, odd.encoding)
    return got


def tidy(odd, bdd: Manager) -> None:
    """Collect the dead nodes of an auxiliary ``dd.autoref`` manager once it has grown
    well past its size after the last collection (CUDD collects by itself)."""
    if type(bdd).__module__ == "dd.cudd":
        return
    key = ("aux_live", id(bdd))
    cache = odd.arrays.cache
    if len(bdd) > 2 * cache.get(key, 0) + GC_SLACK:
        bdd.collect_garbage()
        cache[key] = len(bdd)
