"""A :class:`~.store.Store` held in Python, seen feature by feature.

Its features (each level a two-state feature, or an encoding's log-encoded ones), values
computed bottom-up over whole features (counts over valid codes, erosions: :mod:`._erosion`)
and stars, each a loop over an explicit stack, however deep the diagram.
"""

from __future__ import annotations

from ..diagram.encoding import Encoding

__all__ = ["setup", "upward", "count", "star"]


def setup(st, enc: Encoding | None, least: tuple | None) -> None:
    """Give ``st`` per feature its first level, bits and states, and per level its feature.

    Each level is its own two-state feature without ``enc``; per level its feature
    (``feature_of``), and ``skip[i]``, the number of joint states of the features from ``i``
    on.
    """
    nvars = st.nvars
    if enc is None:
        st.first, st.nbits, st.nstates = tuple(range(nvars + 1)), [1] * nvars, [2] * nvars
    else:
        st.first = enc.first_level
        st.nbits = [len(b) for b in enc.bits]
        st.nstates = [len(s) for s in enc.states]
    st.least = least  # per feature, the state whose cofactor is the star (or None)
    n = len(st.nbits)
    st.feature_of = [i for i in range(n) for _ in range(st.first[i + 1] - st.first[i])]
    st.feature_of.append(n)
    st.plain = all(k == 2 for k in st.nstates) and all(b == 1 for b in st.nbits)
    skip = [1] * (n + 1)
    for i in range(n - 1, -1, -1):
        skip[i] = skip[i + 1] * st.nstates[i]
    st.skip = skip


def upward(st, root: int, memo: dict, make) -> int:
    """Compute ``memo[root]`` for a value computed bottom-up over whole features.

    For each node ``w`` reached from ``root`` (at feature boundaries) and not in ``memo``,
    ``memo[w] = make(w, i, kids, memo)`` once its cofactors ``kids`` over the states of its
    feature ``i`` are in ``memo``.
    """
    var, feat, nstates, cof = st.var, st.feature_of, st.nstates, st.cofactor
    stack = [root]
    while stack:
        w = stack[-1]
        if w in memo:
            stack.pop()
            continue
        i = feat[var[w]]
        kids = [cof(w, i, j) for j in range(nstates[i])]
        open_ = [k for k in kids if k not in memo]
        if open_:
            stack.extend(open_)
            continue
        stack.pop()
        memo[w] = make(w, i, kids, memo)
    return memo[root]


def count(st, u: int) -> int:
    """Count the complete instances (valid codes only) on which ``u`` is true.

    A node's memo (``st._counts``) counts the joint states of the features from its own on.
    """
    var, feat, skip = st.var, st.feature_of, st.skip

    def make(w: int, i: int, kids: list, memo: dict) -> int:
        return sum(memo[k] * (skip[i + 1] // skip[feat[var[k]]]) for k in kids)

    return upward(st, u, st._counts, make) * (skip[0] // skip[feat[var[u]]])


def star(st, u: int) -> int:
    """Make the star of node ``u`` of ``st``: the conjunction of its cofactors over its states.

    Its cofactors over the states of its feature; where the function is unate (``least``),
    the cofactor on that feature's least state.
    """
    i = st.feature_of[st.var[u]]
    if st.least is not None:
        s = st.cofactor(u, i, st.least[i])
    else:
        s = st.cofactor(u, i, 0)
        for j in range(1, st.nstates[i]):
            s = st.conj(s, st.cofactor(u, i, j))
    stars = st.star
    if len(stars) < len(st.var):
        stars.extend([-1] * (len(st.var) - len(stars)))
    stars[u] = s
    return s
