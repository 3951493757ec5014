"""The network's joint over the class and the features as one dense table.

With the decision of every instance beside it: the arithmetic of probable reasons, group
fairness and the violations of a rule, when the features have few enough joint states (the
same-decision probability and what to observe next walk the diagram instead,
:mod:`.probability`).

``Joint.table[c, x]`` is ``Pr(class = c, x)`` for every complete instance ``x`` (axes in the
ODD's feature order), made once per classifier by the network's one contraction code
(:func:`bnx.classifier._inference.contract`), and ``decisions(odd)[x]`` the diagram's
decision on ``x``, made once per diagram by one top-down pass. A question is then sums of
slices of the table.

Floating point, with a proven bound (:mod:`bnx._util.rounding`). Every entry of the
table is a sum of products of the network's CPT entries, and every answer a ratio of
sums of entries. All numbers are
nonnegative, so each computed value is ``v (1 + theta)`` with ``|theta| <= gamma(k) =
k u / (1 - k u)`` (``u = 2**-53``; Higham, *Accuracy and Stability of Numerical Algorithms*,
Lemma 3.1 and 3.3), where ``k`` counts the roundings on the longest chain from the inputs
to the value: one per CPT entry converted to a float, products add their operands' counts
plus one per multiplication, a sum of ``m`` terms adds ``m - 1`` to the largest (whatever
order numpy adds in). :class:`Joint` carries ``depth``, that count for its entries, and the
callers add their own sums and one division. The model assumes no underflow: the
contraction tracks its tables' range (:class:`bnx.classifier._inference.FloatRange` when a
product could underflow), and the table, scaled back by its power of two, is used in
floats only when its least nonzero entry is above ``2**-1000``; otherwise, or when a table
would exceed :data:`LIMIT` entries, callers use exact arithmetic. With exact integer
factors (``exact=True``) the same code gives exact values (integers, each scaled by one
positive constant that cancels in every ratio).
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ..classifier._inference import FloatRange, contract, integer_factor, plan
from ..diagram._arrays import TRUE
from ..diagram._feature_view import feature_view
from ..diagram._memo import register

register("dense_decisions", 1, "the decision on every complete instance, dense")

__all__ = ["LIMIT", "Joint", "decisions", "joint", "probability", "sum_over"]


def probability(value) -> float:
    """Clip a probability computed in floats (within its bound of the exact value) into ``[0, 1]``.

    A ratio of sums that are each rounded may step just outside (the exact value is within
    the bound of the clipped float too).

    Examples
    --------
    >>> probability(1.0000000000000002), probability(-0.0), probability(0.25)
    (1.0, 0.0, 0.25)
    """
    return min(1.0, max(0.0, float(value)))

#: The most entries of any table (joint or intermediate) made for the dense joint.
LIMIT = 1 << 23
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()



class Joint:
    """``Pr(class, x)`` for every complete instance ``x``.

    Attributes
    ----------
    features : tuple
        The axes after the class's, in the order asked for.
    table : numpy.ndarray
        Shape ``(classes, *states per feature)``; float64, or Python integers (scaled by
        one positive constant) when exact.
    depth : int
        The roundings on the longest chain to an entry (0 when exact).
    exact : bool
    """

    __slots__ = ("__weakref__", "depth", "exact", "features", "table")

    def __init__(self, features, table, depth, exact):
        self.features, self.table, self.depth, self.exact = features, table, depth, exact


class TooLarge(Exception):
    """The dense joint would exceed :data:`LIMIT` entries, or risk underflow."""


def joint(clf, features: tuple, *, exact: bool = False) -> Joint:
    """Return the dense joint of ``clf`` with its feature axes in ``features`` order (cached).

    Raises :class:`TooLarge` when it cannot be made within :data:`LIMIT` entries (or, in
    floats, without risk of underflow).
    """
    per = _CACHE.setdefault(clf, {})
    key = (tuple(features), exact)
    got = per.get(key)
    if got is None:
        try:
            got = _make(clf, tuple(features), exact)
        except TooLarge as err:
            got = err
        per[key] = got
    if isinstance(got, TooLarge):
        raise got
    return got


def _make(clf, features: tuple, exact: bool) -> Joint:
    card = {v: len(clf.states(v)) for v in clf._states}
    ncls = len(clf.class_states)
    if ncls * math.prod(card[f] for f in features) > LIMIT:
        raise TooLarge("too many instances")
    raw = [f for group in clf._aside for f in group] + list(clf._main)
    if exact:
        factors = [integer_factor(f)[0] for f in raw]
        tables = [np.asarray(t, dtype=object) for _, t in factors]
    else:  # each entry rounded once (a folded barren factor's sums are not floats)
        factors = raw
        tables = [np.asarray(t, dtype=np.float64) for _, t in raw]
    keep = (clf.class_var, *features)
    p = plan([tuple(s) for s, _ in factors], keep, card, depths=[1] * len(factors))
    if p.largest > LIMIT:
        raise TooLarge("an intermediate table is too large")
    try:
        table, e, _ = contract(p, tables, exact=exact)
    except FloatRange:
        raise TooLarge("risk of underflow") from None
    if not exact and e:
        positive = table[table > 0]
        if positive.size and math.ldexp(float(positive.min()), e) < 2.0 ** -1000:
            raise TooLarge("risk of underflow")
        table = np.ldexp(table, e)
    # C order (the class axis first in memory), so that slices and sums run along it
    return Joint(features, np.ascontiguousarray(table), 0 if exact else p.depth, exact)


def sum_over(table: np.ndarray, axes: tuple) -> np.ndarray:
    """Compute ``table.sum(axis=axes)`` by a product with a vector of ones.

    The summed axes are moved last and merged into one, summed by a product with a vector of
    ones (BLAS for floats, exact for Python integers): numpy's reduction over many small
    axes at once is several times slower. Multiplying by one is exact, and the order of the
    additions does not change the floats' bound.

    Examples
    --------
    >>> t = np.arange(24.0).reshape(2, 3, 4)
    >>> bool((sum_over(t, (0, 2)) == t.sum(axis=(0, 2))).all())
    True
    """
    if not axes:
        return table
    kept = [a for a in range(table.ndim) if a not in axes]
    moved = np.moveaxis(table, list(axes), list(range(len(kept), table.ndim)))
    size = math.prod(table.shape[a] for a in axes)
    flat = moved.reshape(*(table.shape[a] for a in kept), size)
    return flat @ np.ones(size, dtype=table.dtype)


def decisions(odd) -> np.ndarray:
    """Decide every complete instance: a bool array with one axis per feature in the ODD's order.

    Cached with the diagram; on a multi-class ODD, the index of the decided class (the one
    class formula that holds there).
    """
    if odd.multiclass:
        return np.argmax(np.stack([decisions(f) for f in odd.formulas]), axis=0)
    cache = odd.arrays.cache
    got = cache.get("dense_decisions")
    if got is not None:
        return got
    enc = odd.encoding
    fv = feature_view(odd.arrays, enc)
    nodes = np.full((), fv.root, dtype=np.int64)
    for i in range(fv.n):
        k = fv.nstates[i]
        rows = np.broadcast_to(nodes[..., None], (*nodes.shape, k)).copy()
        tests = fv.feature[rows] == i
        kids = fv.kids[i]
        if len(kids):
            at = rows[tests] - fv.first_node[i]
            states = np.broadcast_to(np.arange(k), rows.shape)[tests]
            rows[tests] = kids[at, states]
        nodes = rows
    got = cache.put("dense_decisions", (), nodes == TRUE)
    return got
