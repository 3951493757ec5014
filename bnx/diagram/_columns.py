"""Passes over the bare columns of a diagram in the array form, and the sort they share.

:func:`cofactor` and :func:`dd_nodes` read any diagram given as its three columns
``(level, lo, hi)`` (node ``0`` false, node ``1`` true, children before parents): a
:class:`~bnx.diagram._arrays.DiagramArrays`' columns, a store's or a node table's, as
Python lists or numpy arrays; :func:`unique` is ``numpy.unique`` by one sort, for the keys
that passes over diagrams make. All three are imported from :mod:`bnx.diagram._arrays`.
"""

from __future__ import annotations

import lazy_loader

np = lazy_loader.load("numpy")  # imported on first use


__all__ = ["cofactor", "dd_nodes", "unique"]

_INT = "int64"  # (a dtype name: numpy is imported on first use)


def unique(x: np.ndarray, inverse: bool = False):
    """Return the sorted distinct values of the integer array ``x``.

    With ``inverse``, the position of each entry of ``x`` among them too: ``numpy.unique``
    by one sort, several times faster than numpy 2's hashing ``unique`` on the arrays of
    millions of keys that the passes over diagrams make.

    Examples
    --------
    >>> keys, inv = unique(np.array([7, 2, 7, 5]), inverse=True)
    >>> keys.tolist(), inv.tolist()
    ([2, 5, 7], [2, 0, 2, 1])
    """
    if inverse:
        order = np.argsort(x)
        s = x[order]
    else:
        s = np.sort(x)
    keep = np.empty(len(s), dtype=bool)
    keep[:1] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    if not inverse:
        return s[keep]
    inv = np.empty(len(x), dtype=_INT)
    inv[order] = np.cumsum(keep) - 1
    return s[keep], inv


def dd_nodes(level, lo, hi, nodes) -> int:
    """Compute :func:`~bnx.diagram._arrays.dd_size` of the inner nodes ``nodes``, in Python.

    ``nodes`` are children before parents, closed under children, of any reduced diagram in
    the array form: each node is named by its class ``{f, not f}`` bottom-up, as a manager
    whose high edges are never complemented would.

    Examples
    --------
    >>> dd_nodes([2, 2, 1, 1, 0], [0, 1, 0, 1, 2], [0, 1, 1, 0, 3], range(2, 5))  # x0 xor x1
    3
    """
    rep = {0: (0, False), 1: (0, True)}  # node -> (class, positive?)
    classes: dict = {}
    for w in nodes:
        cl, pl = rep[lo[w]]
        ch, ph = rep[hi[w]]
        key = (level[w], cl, pl if ph else not pl, ch)
        c = classes.get(key)
        if c is None:
            c = classes[key] = len(classes) + 1
        rep[w] = (c, ph)
    return len(classes) + 1


def cofactor(level, lo, hi, u, first: int, nbits: int, j: int):
    """Return the cofactor of node ``u`` on state ``j`` of a log-encoded feature.

    ``u`` is an int, or a numpy array of nodes; the feature's ``nbits`` bits start at level
    ``first`` (state ``j`` coded most significant bit first): ``u`` follows the code's bits
    that it tests, and stays where it skips one. ``level``, ``lo`` and ``hi`` are the
    columns of any diagram in the array form (a :class:`~bnx.diagram._arrays.DiagramArrays`'
    or a store's).
    """
    scalar = isinstance(u, int)
    for bit in range(nbits):
        take = hi if (j >> (nbits - 1 - bit)) & 1 else lo
        if scalar:
            if level[u] == first + bit:
                u = take[u]
        else:
            u = np.where(level[u] == first + bit, take[u], u)
    return u
