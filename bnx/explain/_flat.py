"""The ODD as a multi-valued diagram over features, made once per ODD.

The questions of :mod:`.reasons`, :mod:`.robustness`, :mod:`.bias` and
:mod:`.probability` are dynamic programmes over the decision diagram, one value per
node, that branch on a feature's *states* rather than on its log-encoded bits. They
run on this flat copy of the ODD: node ``u`` tests feature ``feature[u]`` and goes
to ``kids[u][j]`` on its state ``j`` (codes that name no state are never followed).
Nodes are numbered children first, so a loop over ``range(len(kids))`` is a
bottom-up pass; every node lies below the root (the copy is made from it). Node 0 is false and node 1 is true (both at feature ``n``); a child
may skip features, which then do not matter below it.

The copy holds plain integers only (no ``dd`` nodes), is built by one iterative
pass over the ODD and is cached per ODD (ODDs are immutable).
"""

from __future__ import annotations

import bisect
import weakref

from ..odd import ODD

__all__ = ["Flat", "decide_flat", "flat", "instance_indices", "layout_for"]

FALSE, TRUE = 0, 1


class Flat:
    """A feature-level copy of an ODD's decision function.

    Attributes
    ----------
    n : int
        Number of features.
    feature : list of int
        The feature each node tests (``n`` for the terminals).
    kids : list of tuple of int
        The child of each node per state of its feature (``()`` for the terminals).
    root : int
        The node of the decision function.
    """

    __slots__ = ("n", "feature", "kids", "root", "items", "binary", "states", "layouts",
                 "__weakref__")

    def __init__(self, n: int, feature: list[int], kids: list[tuple[int, ...]],
                 root: int) -> None:
        self.n, self.feature, self.kids, self.root = n, feature, kids, root
        #: ``(feature, kids)`` of the inner nodes 2, 3, ... (for bottom-up loops)
        self.items = [(feature[u], kids[u]) for u in range(2, len(kids))]
        #: ``(feature, low, high)`` of the inner nodes when every one has two children
        self.binary = ([(i, *c) for i, c in self.items] if all(len(c) == 2 for _, c in self.items)
                       else None)
        self.states: list | None = None  # per feature {state: index}, made by instance_indices
        self.layouts: dict = {}  # instance-independent explanation layouts, by kind

    def __len__(self) -> int:
        return len(self.kids)


_CACHE: "weakref.WeakKeyDictionary[ODD, Flat]" = weakref.WeakKeyDictionary()


def flat(odd: ODD) -> Flat:
    """The :class:`Flat` copy of ``odd`` (built on first use, then cached).

    Examples
    --------
    >>> import bnx
    >>> from bnx.explain._flat import flat
    >>> f = flat(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    >>> f.n, len(f) > 2, f.kids[0], f.feature[1]
    (4, True, (), 4)
    """
    got = _CACHE.get(odd)
    if got is None:
        got = _CACHE[odd] = _build(odd)
    return got


def _build(odd: ODD) -> Flat:
    enc = odd.encoding
    n = len(enc.features)
    first = enc.first_level
    nbits = [len(b) for b in enc.bits]
    nstates = [len(s) for s in enc.states]
    bdd = odd.bdd
    ids: dict = {bdd.false: FALSE, bdd.true: TRUE}
    feature = [n, n]
    kids: list[tuple[int, ...]] = [(), ()]
    from ..backends import branches

    def cofactors(u):
        i = bisect.bisect_right(first, u.level) - 1
        lvl, m = first[i], nbits[i]
        out = []
        for j in range(nstates[i]):
            w = u
            for b in range(m):
                if w.var is None:
                    break
                if w.level == lvl + b:
                    w = branches(w)[(j >> (m - 1 - b)) & 1]
            out.append(w)
        return i, out

    stack = [(odd.root, None)]
    while stack:  # iterative post-order: no recursion limit, no closure holding nodes
        u, pending = stack.pop()
        if u in ids:
            continue
        if pending is None:
            i, cof = cofactors(u)
            stack.append((u, (i, cof)))
            stack.extend((w, None) for w in cof if w not in ids)
            continue
        i, cof = pending
        ids[u] = len(kids)
        feature.append(i)
        kids.append(tuple(ids[w] for w in cof))
    root = ids[odd.root]
    ids.clear()
    return Flat(n, feature, kids, root)


def instance_indices(odd: ODD, instance) -> list[int]:
    """The state index of each feature of a complete instance, in the ODD's order.

    A dict whose states are given as the ODD's own state values takes a fast path;
    anything else goes through :meth:`ODD.encode` (matching states by their text,
    raising its instance errors).
    """
    fl = flat(odd)
    maps = fl.states
    if maps is None:
        maps = []
        for f, names in zip(odd.encoding.features, odd.encoding.states):
            m: dict | None = {}
            for j, s in enumerate(names):
                if type(s) is bool:  # ODD.encode never matches bool states by value
                    m = None
                    break
                m.setdefault(s, j)
            maps.append((f, m))
        fl.states = maps
    if type(instance) is dict and len(instance) == fl.n:
        try:
            return [m[instance[f]] for f, m in maps]
        except (KeyError, TypeError):
            pass
    idx = odd.encode(instance)
    return [idx[f] for f in odd.encoding.features]


def layout_for(odd: ODD, kind: str):
    """The :class:`~bnx.explain.explanations.Layout` of ``kind`` (``"partial"`` or
    ``"complete"``) over ``odd``'s features, made once per ODD."""
    fl = flat(odd)
    got = fl.layouts.get(kind)
    if got is None:
        from .explanations import Layout
        got = fl.layouts[kind] = Layout(kind, odd.encoding)
    return got


def decide_flat(fl: Flat, x: list[int]) -> bool:
    """The decision on a complete instance, by one walk down ``fl``."""
    u = fl.root
    while u > TRUE:
        u = fl.kids[u][x[fl.feature[u]]]
    return u == TRUE
