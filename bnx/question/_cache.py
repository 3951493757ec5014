"""What the explanation code keeps per ODD, in the cache of the ODD's array form.

An ODD is immutable, and so is its array form (:class:`bnx.diagram._arrays.DiagramArrays`): what
a question derives from the diagram and may reuse (managers for explanation sets, layouts,
the stores of the ODD's nodes, memos that outlive one call) lives in ``odd.arrays.cache``
under the named kinds of :mod:`bnx.diagram._memo` (bounded, emptied by
:meth:`bnx.ODD.clear_caches`), so it goes when the ODD goes and never sits in an ODD method.

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> aux_manager(odd, ("k0", "k1")) is aux_manager(odd, ["k0", "k1"])
True
>>> layout(odd, "partial").nvars, decide(odd, [1, 1, 1, 1])
(8, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._util.types import Manager
from ..classifier._possible import refuse_impossible
from ..classifier._unate import least_pair
from ..diagram._feature_view import decide as decide_instance
from ..diagram._memo import register
from ..diagram.backends import collect_grown, new_manager
from ..diagram.layout import Layout
from ..diagram.store import Store

register("layout", 4, "the explanation layout per kind: complete or partial")
register("aux_manager", 4, "a dd manager per layout that explanation "
         "sets are written into (no node held here)")
register("aux_live", 16, "a dd.autoref manager's size after its last collection")
register("node_table", 4, "the node table explanation sets are built in, per layout")
register("least_pair", 1, "the unate features' least states from the classifier")
register("state_maps", 1, "per feature, state value -> index (decoding instances)")
register("both", 1, "the function and its negation in one node space")
register("negated", 1, "the arrays of the negated function (PI-explanations, the "
         "robustness profile)")
register("possible", 64, "the instances found possible under the network (questions "
         "refuse the others)")

__all__ = ["aux_manager", "node_table", "layout", "store", "least_states", "indices", "decide",
           "both", "tidy", "GC_SLACK"]

def store(odd, kind: str, make, key=()):
    """Return the entry of ``kind`` under ``key`` in ``odd.arrays.cache``, made on first use.

    ``kind`` is one of :data:`bnx.diagram._memo.KINDS`; ``make()`` makes the entry.
    """
    cache = odd.arrays.cache
    got = cache.get(kind, key)
    if got is None:
        got = cache.put(kind, key, make())
    return got


def least_states(odd, decision: bool) -> tuple | None:
    """Return per feature the state whose cofactor implies all its other cofactors, or ``None``.

    Of the function ``decision`` (:mod:`bnx.classifier._unate`): from the ODD's metadata
    (set by the compiler and kept in its file), else from its classifier (an older file).
    """
    pair = odd.meta.get("least_states", store)  # (store: "not recorded")
    if pair is store:
        pair = store(odd, "least_pair", lambda: (
            least_pair(odd.classifier, odd.encoding.features)
            if odd.classifier is not None else None,))[0]
    return None if pair is None else pair[0 if decision else 1]


#: Dead nodes tolerated in an autoref :func:`aux_manager` before it is collected (a
#: collection also empties dd's operation caches).
GC_SLACK = 50_000


def aux_manager(odd, variables: Sequence[str]) -> Manager:
    """Return a ``dd`` manager of the ODD's backend with ``variables`` declared in order.

    Made once per ODD and layout and shared by the explanation sets written into it (a new
    CUDD manager costs milliseconds).

    dd.autoref frees nodes only when asked: a manager that has grown well past its size
    after the last collection is collected when it is handed out (CUDD collects by
    itself). Nodes of the sets still held stay.
    """
    key = tuple(variables)
    bdd = store(odd, "aux_manager", lambda: new_manager(odd.backend, key), key)
    _collect(odd, bdd, key)
    return bdd


def node_table(odd, variables: Sequence[str], *, limit: int | None = None) -> Store:
    """Return the node table in which the explanation algorithms build their sets.

    A :class:`~bnx.diagram.store.Store` over ``variables``, node by node, kept per ODD and
    layout so that nodes and memos serve later calls; sets are written into
    :func:`aux_manager` only when a ``dd`` node is asked for. Once it holds more than
    ``limit`` nodes and memo entries it is replaced by a new one (sets already returned
    keep the old one).
    """
    key = tuple(variables)
    got = store(odd, "node_table", lambda: Store(len(key)), key)
    if limit is not None and got.entries() > limit:
        got = odd.arrays.cache.put("node_table", key, Store(len(key)))
    return got


def layout(odd, kind: str):
    """Return the instance-independent :class:`~bnx.diagram.layout.Layout` of ``kind``.

    ``"complete"`` or ``"partial"``, over the ODD's features, made once.
    """
    return store(odd, "layout", lambda: Layout(kind, odd.encoding), kind)


def _state_maps(odd) -> list:
    def make():
        maps = []
        for names in odd.encoding.states:
            m: dict | None = {}
            for j, s in enumerate(names):
                if type(s) is bool:  # ODD.encode never matches bool states by value
                    m = None
                    break
                m.setdefault(s, j)
            maps.append(m)
        return maps
    return store(odd, "state_maps", make)


def indices(odd, instance) -> list[int]:
    """Return the state index of each feature of a complete instance, in the ODD's order.

    A dict whose states are the ODD's own state values takes a fast path; anything else
    goes through ``odd.encode`` (matching states by their text, raising its errors). An
    instance the network cannot produce is refused (:func:`_refuse`; checked once per
    instance and ODD).
    """
    feats = odd.encoding.features
    x = None
    if type(instance) is dict and len(instance) == len(feats):
        try:
            x = [m[instance[f]] for f, m in zip(feats, _state_maps(odd))]
        except (KeyError, TypeError):
            pass
    if x is None:
        idx = odd.encode(instance)
        x = [idx[f] for f in feats]
    store(odd, "possible", lambda: _refuse(odd, x), tuple(x))
    return x


def _refuse(odd, x: Sequence[int]) -> bool:
    """Refuse the instance ``x`` when the network cannot produce it; ``True`` otherwise.

    Every question takes its instance through :func:`indices`, so every question refuses
    an instance of probability zero, with the findings that conflict
    (:func:`bnx.classifier._possible.refuse_impossible`); an ODD with no network to tell
    (a file of format version 1, or a diagram a question derived) cannot refuse.
    """
    states = odd.encoding.states
    refuse_impossible(odd, {f: states[i][j] for i, (f, j) in
                            enumerate(zip(odd.encoding.features, x))})
    return True


def decide(odd, x: Sequence[int]) -> bool:
    """Decide a complete instance given as state indices (one walk)."""
    return decide_instance(odd.arrays, odd.encoding, x)


def both(odd) -> tuple:
    """Return ``(diagram, root, negated root)``: the decision function and its negation.

    In one node space (a :class:`~bnx.diagram.store.Store` over the ODD's levels, array
    columns): nodes ``2 ..`` of the ODD's arrays, then their negations, so that memos keyed
    by node serve both decisions.
    """
    def make():
        a = odd.arrays
        n = a.size
        shift = np.arange(n, dtype=np.int64) + (n - 2)
        shift[:2] = (1, 0)  # the terminals swap
        level, lo, hi = (np.concatenate(c) for c in (
            (a.level, a.level[2:]), (a.lo, shift[a.lo[2:]]), (a.hi, shift[a.hi[2:]])))
        return (Store.of(a.nvars, level, lo, hi), a.root, int(shift[a.root]))
    return store(odd, "both", make)


def tidy(odd, bdd: Manager) -> None:
    """Collect the dead nodes of a ``dd.autoref`` manager a question wrote into.

    Once it has grown well past its size after the last collection (CUDD collects by
    itself).
    """
    _collect(odd, bdd, id(bdd))


def _collect(odd, bdd: Manager, key) -> None:
    """Collect ``bdd`` once grown well past its size after its last collection.

    The size is kept in the ODD's cache under ``key``.
    """
    cache = odd.arrays.cache
    size = collect_grown(bdd, cache.get("aux_live", key, 0), GC_SLACK)
    if size is not None:
        cache.put("aux_live", key, size)
