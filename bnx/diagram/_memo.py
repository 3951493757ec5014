"""What bnx keeps per diagram between questions: one bounded, clearable cache per owner.

A compiled ODD and its array form (:class:`~bnx.diagram._arrays.DiagramArrays`) never
change, so what a question derives from them (per-feature views, layouts, the stores and
node tables that explanation sets are built in, memos of earlier questions) is kept for
the next question. All of it lives here, in one :class:`Caches` per owner, under named
*kinds*: each module that keeps something registers its kind (:func:`register`: how many
entries it keeps, the least recently used going first, and what it holds) when it is
imported, so this module names no module of the floors above it. :data:`KINDS` is what is
registered. :meth:`bnx.ODD.clear_caches` empties everything an ODD holds; nothing else is
kept anywhere per ODD.

Two places hold a :class:`Caches`:

* **attached**: ``arrays.cache``, an attribute of the arrays. Its entries may refer back
  to the arrays (a per-feature view does), so the cache may sit on a reference cycle,
  which Python's cyclic collector frees.
* **detached**: :func:`detached` ``(owner)``, kept in this module's one
  :class:`weakref.WeakKeyDictionary` keyed by the owner (the arrays or the ODD). Kinds
  that hold ``dd`` nodes live here: when the owner goes, its entries are freed by
  reference counting at once, never by the cyclic collector, which may finalise a
  ``dd.cudd`` manager before the nodes on a cycle with it. Detached entries must not
  refer to their owner (it would then never go).

Other per-object memos in bnx are not per ODD and stay with the modules that make them:
what is derived from a classifier alone (its dense joint, its ODD for the same-decision
probability, its support, its linear views) is kept per *classifier*, in weak
dictionaries that drop it with its classifier.

Examples
--------
>>> from bnx.diagram import _feature_view  # registers the kind "feature_view"
>>> c = Caches()
>>> c.make("feature_view", "partial", lambda: "made once")
'made once'
>>> c.make("feature_view", "partial", lambda: "not made again")
'made once'
>>> for k in range(KINDS["feature_view"].bound + 1):
...     _ = c.put("feature_view", k, k)
>>> len(c) == KINDS["feature_view"].bound, c.get("feature_view", "partial")  # the oldest went
(True, None)
>>> c.clear(); len(c)
0
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = ["KINDS", "Caches", "Kind", "clear", "detached", "register"]


class Kind(NamedTuple):
    """One kind of cached entry: how many entries it keeps, where, and what they are."""

    bound: int
    detached: bool
    what: str


#: Every kind of entry kept per diagram, as its module registered it (:func:`register`):
#: its bound, whether it is :func:`detached`, and what it holds. An unknown kind is an error.
KINDS: dict[str, Kind] = {}

_KINDS_LOCK = threading.Lock()


def register(name: str, bound: int, what: str, *, detached: bool = False) -> None:
    """Register the kind ``name``: at most ``bound`` entries, holding ``what``.

    ``detached=True`` keeps them in :func:`detached` caches (kinds that hold ``dd``
    nodes). The module that makes the entries calls this once, when it is imported;
    registering one name twice with another spec is an error (two owners of one kind).
    """
    spec = Kind(bound, detached, what)
    with _KINDS_LOCK:
        got = KINDS.setdefault(name, spec)
    if got != spec:
        raise ValueError(f"cache kind {name!r} is registered already as {got}, "
                         f"not {spec}: one kind has one owner")


_MISSING = object()


class Caches:
    """The cached entries of one owner, by kind and key; thread-safe.

    Each kind keeps at most ``KINDS[kind].bound`` entries, dropping the least recently
    used. ``make`` functions run outside the lock: two threads may make one entry
    twice, and the last one stays (entries are equal by construction).
    """

    __slots__ = ("_lock", "_tables")

    def __init__(self) -> None:
        self._tables: dict[str, OrderedDict] = {}
        self._lock = threading.Lock()

    def get(self, kind: str, key: Any = (), default: Any = None) -> Any:
        """Return the entry of ``kind`` under ``key``, or ``default``."""
        table = self._tables.get(kind)
        if table is None:
            return default
        got = table.get(key, _MISSING)
        if got is _MISSING:
            return default
        if len(table) > 1:
            with self._lock:
                if key in table:
                    table.move_to_end(key)
        return got

    def put(self, kind: str, key: Any, value: Any) -> Any:
        """Keep ``value`` as the entry of ``kind`` under ``key``; returns ``value``."""
        spec = KINDS.get(kind)
        if spec is None:
            raise KeyError(f"unknown cache kind {kind!r}: register it "
                           "(bnx.diagram._memo.register) in the module that makes it")
        with self._lock:
            table = self._tables.get(kind)
            if table is None:
                table = self._tables[kind] = OrderedDict()
            table[key] = value
            table.move_to_end(key)
            while len(table) > spec.bound:
                table.popitem(last=False)
        return value

    def make(self, kind: str, key: Any, make: Callable[[], Any]) -> Any:
        """Return the entry of ``kind`` under ``key``, made by ``make()`` when absent."""
        got = self.get(kind, key, _MISSING)
        return self.put(kind, key, make()) if got is _MISSING else got

    def pop(self, kind: str, key: Any = ()) -> Any:
        """Drop the entry of ``kind`` under ``key`` (if any) and return it."""
        with self._lock:
            table = self._tables.get(kind)
            return None if table is None else table.pop(key, None)

    def clear(self, kind: str | None = None) -> None:
        """Drop every entry (of ``kind`` only, when given)."""
        with self._lock:
            if kind is None:
                dropped = list(self._tables.values())
                self._tables.clear()
            else:
                dropped = [self._tables.pop(kind, {})]
        del dropped  # (freed here, outside the lock)

    def entries(self, kind: str) -> list[tuple[Any, Any]]:
        """Return the ``(key, entry)`` pairs of ``kind`` held now, least recently used first."""
        with self._lock:
            return list(self._tables.get(kind, {}).items())

    def sizes(self) -> dict[str, int]:
        """Count the entries per kind held now."""
        with self._lock:
            return {k: len(t) for k, t in self._tables.items() if t}

    def __len__(self) -> int:
        return sum(self.sizes().values())

    def __repr__(self) -> str:
        return f"Caches({self.sizes()})"


_DETACHED: weakref.WeakKeyDictionary[Any, Caches] = weakref.WeakKeyDictionary()
_DETACHED_LOCK = threading.Lock()


def detached(owner: Any) -> Caches:
    """Return the detached :class:`Caches` of ``owner`` (an ODD or its arrays), made on first use.

    Its entries go when ``owner`` goes, by reference counting (see the module docstring).
    """
    got = _DETACHED.get(owner)
    if got is None:
        with _DETACHED_LOCK:
            got = _DETACHED.get(owner)
            if got is None:
                got = _DETACHED[owner] = Caches()
    return got


def clear(owner: Any) -> None:
    """Drop everything cached for ``owner``.

    Its attached cache (if it has one) and its detached one.
    """
    attached = getattr(owner, "cache", None)
    if isinstance(attached, Caches):
        attached.clear()
    with _DETACHED_LOCK:
        got = _DETACHED.pop(owner, None)
    if got is not None:
        got.clear()
