"""The robustness profile on the diagram's arrays: erosion of a function, counted per node.

With ``P`` the positive instances, let ``F_0 = P`` and ``F_{k+1} = E(F_k)``, where the
*erosion* of a function is ``E(f) = f AND AND_i FORALL_i f`` over the mutable features
``i`` (``FORALL_i f`` holds at ``x`` when ``f`` holds whatever state ``i`` takes). Then
``x`` is in ``F_k`` exactly when every instance within ``k`` changes of mutable features of
``x`` is positive (by induction: an instance within ``k + 1`` changes of ``x`` is within
``k`` changes of an instance within one change of ``x``, and that instance is ``x`` itself
or some ``x[i := s]``). So a positive instance has robustness exactly ``k`` when it lies
in ``F_{k-1}`` but not in ``F_k``, and ``|F_{k-1}| - |F_k|`` counts them. ``F_k`` only
shrinks; once it stops, it stays, and what is left can never be flipped. The negative
instances are counted the same way on the negation.

The erosion is one bottom-up pass over the nodes of ``f``, feature by feature. At a node
``u`` whose feature is ``i``, with cofactors ``f_s`` over ``i``'s states: for a later
feature ``j``, ``FORALL_j`` commutes with the cofactor; ``FORALL_i f`` is the *star* of
``u``, the conjunction of its cofactors (:meth:`~bnx.diagram.store.Store.star_of`), which does not
test ``i``; an earlier feature is not tested at all. So ``E(u)`` is the node of feature
``i`` whose child on ``s`` is ``E(f_s) AND star(u)`` (``E(f_s)`` alone when ``i`` is
immutable). ``E`` is memoised per node, and so is the number of instances (over the node's
features, valid state codes only) that a node accepts (the store's
:meth:`~bnx.diagram.store.Store.count`): each round only visits the nodes it has not met.

Where the decision is unate (every binary-class naive Bayes, :mod:`bnx.classifier._unate`) the star
of ``u`` is its cofactor on the least state ``l`` of ``i``, one gather, and the child on
``l`` is ``E(f_l)`` (which implies ``f_l``): no conjunction for it. The erosions stay unate
in the same state orders, so the shortcut holds in every round. Proof: order the
instances componentwise by the states' keys, so the positive set ``P`` is upward closed
(``x <= y`` and ``x`` positive give ``y`` positive). Let ``x <= y`` with every instance
within ``k`` changes of ``x`` positive, and ``z`` within ``k`` changes of ``y``, on the
features ``S``. The instance ``z'`` equal to ``z`` on ``S`` and to ``x`` elsewhere is
within ``k`` changes of ``x`` (the same features, so immutable ones keep their states),
hence positive, and ``z' <= z``; so ``z`` is positive: ``F_k`` is upward closed too. The
negatives are upward closed in the reversed orders, and so are their erosions.

Multi-valued features are log-encoded: a node may sit inside its feature's bits (a parent
skipped the first ones); its cofactors follow each state's code from there
(:meth:`~bnx.diagram.store.Store.cofactor`). Only valid codes are ever followed or counted, so what
a node
says about the codes that name no state does not matter.

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> counts, stuck = eroded_counts(odd.arrays, odd.encoding, [True] * 4)
>>> counts, stuck                    # positives of robustness 1 and 2; none stuck
({1: 5, 2: 1}, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..diagram._arrays import DiagramArrays
from ..diagram.encoding import Encoding
from ..diagram.store import Store

__all__ = ["Erosion", "eroded_counts"]

_INT = np.int64


def _mutable(enc: Encoding, mutable: Sequence[bool]) -> list[bool]:
    """Per feature, whether it may change (a one-state feature never can)."""
    return [bool(m) and len(s) > 1 for m, s in zip(mutable, enc.states)]


class Erosion:
    """Erosions of the functions of a :class:`~.store.Store`, memoised per node.

    They are made a feature's nodes at a time (each step a few numpy calls over all of them);
    counts are the store's.

    Parameters
    ----------
    store : Store
        The nodes (its ``least`` states, if any, must hold for every function eroded).
    enc : Encoding
    mutable : sequence of bool
        Per feature, whether it may change.
    """

    def __init__(self, store: Store, enc: Encoding, mutable: Sequence[bool]) -> None:
        self.st = store
        self.mutable = _mutable(enc, mutable)
        self.eroded = np.array([0, 1], dtype=_INT)  # per node: its erosion (-1: not yet)

    def _fit(self) -> None:
        """Grow the per-node memo to the store's size."""
        n, have = self.st.n, len(self.eroded)
        if n > have:
            self.eroded = np.concatenate([self.eroded,
                                          np.full(max(n, 2 * have) - have, -1, dtype=_INT)])

    def count(self, root: int) -> int:
        """Count the complete instances (valid codes) on which ``root`` is true."""
        return self.st.count(root)

    def erode(self, root: int) -> int:
        """Return the node of ``E(root)``."""
        self._fit()
        st = self.st
        least = st.least
        found = st.features.reached(st.view("var"), st.view("lo"), st.view("hi"), root,
                                    self.eroded >= 0)
        for i, us, kids in reversed(found):
            rows = self.eroded[kids]
            if self.mutable[i]:
                todo = np.flatnonzero(st.stars(us) < 0)
                if len(todo):
                    st.make_stars(us[todo], i)
                star = st.stars(us)
                cols = [s for s in range(st.nstates[i]) if least is None or s != least[i]]
                got = st.conj_many(rows[:, cols].ravel(), np.repeat(star, len(cols)))
                rows[:, cols] = got.reshape(len(us), len(cols))
            made = self._select(i, rows)
            self._fit()
            self.eroded[us] = made
        return int(self.eroded[root])

    def _select(self, i: int, rows: np.ndarray) -> np.ndarray:
        """Make the nodes of feature ``i`` going to ``rows[:, s]`` on state ``s``.

        Codes that name no state lead to false.
        """
        m, a = self.st.nbits[i], self.st.first[i]
        cur = np.zeros((len(rows), 1 << m), dtype=_INT)
        cur[:, :rows.shape[1]] = rows
        for b in range(m - 1, -1, -1):
            cur = self.st.nodes(a + b, cur[:, 0::2].ravel(), cur[:, 1::2].ravel()
                                ).reshape(len(rows), 1 << b)
        return cur[:, 0]


def eroded_counts(arrays: DiagramArrays, enc: Encoding, mutable: Sequence[bool],
                  least: tuple | None = None, care=None) -> tuple[dict, int]:
    """Count the instances of ``arrays``' function by robustness.

    Return ``({k: instances of the function at robustness k}, instances never flipped)``:
    the instances on which ``arrays``' function is true (valid codes only), by the
    fewest changes of ``mutable`` features that make it false; ``least``: per feature,
    the state whose cofactor implies the others, where the function is unate.

    ``care``: a ``dd`` node over the same levels (of the manager ``arrays`` was read from):
    only the instances in it are counted (each still at its distance to the function's
    nearest false instance; a world ``κ`` makes that the nearest instance of ``κ`` with
    the other decision when the function is ``f ∨ ¬κ``).
    """
    st = Store.from_arrays(arrays, enc, least=least)
    return _rounds(Erosion(st, enc, mutable), arrays.root,
                   None if care is None else st.read_dd(care))


def _rounds(er, root: int, care: int | None = None) -> tuple[dict, int]:
    """Erode until nothing changes, counting what each round takes away (within ``care``).

    The rounds stop when the function stops shrinking (its count over every instance:
    ``F_k`` only shrinks), not when its count within ``care`` does, since a round that
    takes away only instances outside ``care`` may be followed by one that takes some
    inside.
    """
    def within(u: int) -> int:
        return er.count(u) if care is None else er.count(er.st.conj(u, care))

    size, kept = er.count(root), within(root)
    out: dict = {}
    k = 0
    while kept and any(er.mutable):
        nxt = er.erode(root)
        got = er.count(nxt)
        if got == size:
            break
        k += 1
        now = within(nxt)
        if now < kept:
            out[k] = kept - now
        root, size, kept = nxt, got, now
    return out, kept
