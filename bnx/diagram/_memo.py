"""What bnx keeps per diagram between questions: one bounded, clearable cache per owner.

A compiled ODD and its array form (:class:`~bnx.diagram._arrays.DiagramArrays`) never
change, so what a question derives from them (per-feature views, layouts, the stores and
node tables that explanation sets are built in, memos of earlier questions) is kept for
the next question. All of it lives here, in one :class:`Caches` per owner, under the
named *kinds* of :data:`KINDS`: each kind says what it holds, who makes it, and how many
entries it keeps (the least recently used goes first). :meth:`bnx.ODD.clear_caches`
empties everything an ODD holds; nothing else is kept anywhere per ODD.

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

Other per-object memos in bnx are not per ODD and stay where they are: the dense joint
(``bnx.explanation._dense``), a classifier's ODD for the same-decision probability
(``bnx.explanation.probability``), a classifier's support (``bnx.explanation.support``)
and the linear views (``bnx.linear._core``) are kept per *classifier*, on the floor
below this one's users, in weak dictionaries that drop them with their classifier.

Examples
--------
>>> c = Caches()
>>> c.make("layout", "partial", lambda: "made once")
'made once'
>>> c.make("layout", "partial", lambda: "not made again")
'made once'
>>> for k in range(KINDS["layout"].bound + 1):
...     _ = c.put("layout", k, k)
>>> len(c) == KINDS["layout"].bound, c.get("layout", "partial")  # the oldest went
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

__all__ = ["KINDS", "Caches", "Kind", "clear", "detached"]


class Kind(NamedTuple):
    """One kind of cached entry: how many entries it keeps, where, and what they are."""

    bound: int
    detached: bool
    what: str


#: Every kind of entry kept per diagram: its bound, whether it is :func:`detached`, and
#: what it holds (made by which module). An unknown kind is an error.
KINDS: dict[str, Kind] = {
    # attached to the arrays (``arrays.cache``)
    "feature_view": Kind(4, False, "each node's child per feature state, per encoding "
                                   "(bnx.diagram._feature_view)"),
    "negated": Kind(1, False, "the arrays of the negated function (explanation)"),
    "layout": Kind(4, False, "the explanation layout per kind: complete or partial"),
    "aux_manager": Kind(4, False, "a dd manager per layout that explanation sets are "
                                  "written into (no node held here)"),
    "aux_live": Kind(16, False, "a dd.autoref manager's size after its last collection"),
    "node_table": Kind(4, False, "the node table explanation sets are built in, per layout"),
    "least_pair": Kind(1, False, "the unate features' least states from the classifier"),
    "state_maps": Kind(1, False, "per feature, state value -> index (decoding instances)"),
    "level_bits": Kind(1, False, "per level, its feature and bit (deciding instances)"),
    "both": Kind(1, False, "the function and its negation in one node space"),
    "mc": Kind(1, False, "the MC-explanation memos (bnx.explanation.mc)"),
    "pi_state": Kind(4, False, "the PI-explanation memos per layout and decision"),
    "general_boxes": Kind(4, False, "the general reasons' boxes per decision and ordinal "
                                    "features: their store and memos "
                                    "(bnx.explanation._boxes)"),
    "conj_store": Kind(4, False, "the store of conjunction sets per encoding and unate "
                                 "states (bnx.explanation.store)"),
    "dense_decisions": Kind(1, False, "the decision on every complete instance, dense"),
    "feature_graph": Kind(1, False, "the diagram layer by feature (bnx.attribution)"),
    "rule_total": Kind(1, False, "the masses of both decisions under the network, no "
                                 "evidence (bnx.explanation.rules)"),
    "dense_marginal": Kind(1, False, "Pr(x) of every complete instance, dense, and its sum "
                                     "(bnx.explanation.under)"),
    # detached (keyed by the arrays or the ODD in this module's weak dictionary)
    "instance_memo": Kind(1, True, "what the questions computed for the last instance"),
    "support": Kind(1, True, "the classifier's support as an instance set of the ODD"),
    "within": Kind(8, True, "the ODDs of questions asked within an instance set"),
    "marginal_odd": Kind(16, True, "the ODDs of the classifier restricted to observed "
                                   "features (rows with missing values)"),
    "document_network": Kind(1, True, "a loaded ODD's network, read from its file once"),
}

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
            raise KeyError(f"unknown cache kind {kind!r}: add it to bnx.diagram._memo.KINDS")
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
