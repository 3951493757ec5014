"""A :class:`~.store.Store` seen feature by feature.

Its features (each level a two-state feature, or an encoding's log-encoded ones:
:class:`bnx.diagram._feature_view.Features`) and the stars of its nodes, made a whole
feature at a time by breadth-first conjunctions (:meth:`~.store.Store.conj_many`).
"""

from __future__ import annotations

import numpy as np

from ._feature_view import Counts, Features
from .encoding import Encoding

__all__ = ["setup", "stars", "close"]


def setup(st, enc: Encoding | None, least: tuple | None) -> None:
    """Give ``st`` its features, ``least`` and the memo of its counts.

    The features are a :class:`~bnx.diagram._feature_view.Features` (``features``; each
    level a two-state feature without ``enc``) with their parts at hand (``first``,
    ``nbits``, ``nstates``, ``skip``, per level ``feature_of``).
    """
    f = st.features = Features(st.nvars, enc)
    st.first, st.nbits, st.nstates, st.skip = f.first, f.nbits, f.nstates, f.skip
    st.feature_of = f.level_feature
    st.least = least  # per feature, the state whose cofactor is the star (or None)
    st._counts = Counts(f)


def stars(st, us: np.ndarray, i: int) -> np.ndarray:
    """Return the stars of nodes ``us`` of feature ``i``.

    A star is the conjunction of the node's cofactors over the states of ``i``
    (conjunctions made as needed), or where the function is unate (``least``) its
    cofactor on that feature's least state.
    """
    if st.least is not None:
        return st.cofactor(us, i, st.least[i])
    cof = st.features.cofactors(st.view("var"), st.view("lo"), st.view("hi"), us, i)
    s = cof[:, 0]
    for j in range(1, cof.shape[1]):
        s = st.conj_many(s, cof[:, j])
    return s


def close(st) -> None:
    """Make the star of every node of ``st``.

    The stars of all the nodes without one are made in one breadth-first conjunction (one per
    further state), then those of the nodes that made, until none is left.
    """
    f = st.features
    while True:
        us = np.array([u for u, s in enumerate(st.star) if s < 0], dtype=np.int64)
        if not len(us):
            return
        feats = st.feature_of[st.view("var")[us]]
        if st.least is not None:  # cofactor gathers, one feature at a time
            for i in np.unique(feats).tolist():
                st.make_stars(us[feats == i], i)
            continue
        width = max(st.nstates[i] for i in np.unique(feats).tolist())
        cof = np.full((len(us), width), -1, dtype=np.int64)
        level, lo, hi = st.view("var"), st.view("lo"), st.view("hi")
        for i in np.unique(feats).tolist():
            sel = feats == i
            cof[sel, :st.nstates[i]] = f.cofactors(level, lo, hi, us[sel], i)
        s = cof[:, 0].copy()
        for j in range(1, width):
            more = cof[:, j] >= 0
            if more.any():
                s[more] = st.conj_many(s[more], cof[more, j])
        star = st.star
        for u, t in zip(us.tolist(), s.tolist()):
            star[u] = t
