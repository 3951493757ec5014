"""Linear passes over a diagram seen per feature (:class:`bnx.diagram._feature_view.FeatureView`).

Every pass is a loop over the features with one vectorised numpy step each: the nodes
of feature ``i`` are one contiguous block whose children (one column per state) lie
in the blocks of later features, so a bottom-up pass visits the features last first
and a top-down pass first first. Nothing is done per node in Python.

* :func:`distances`: every node's fewest changes of an instance to reach a terminal
  (the robustness of the decision, Shih, Choi and Darwiche, PGM 2018);
* :func:`closest_flip`: one closest instance with the other decision;
* :func:`reaches`: the nodes from which some completion of a partial instance reaches
  a terminal; :func:`reached`: the nodes that a partial instance reaches from the root.

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> fv = view(odd)
>>> x = [1, 1, 1, 1]                                  # every feature "+"
>>> decide(fv, x), int(distances(fv, x, FALSE, [True] * 4)[fv.root])
(True, 2)
>>> closest_flip(fv, x, [True] * 4)      # WorkExperience and EntranceExam "-"
[1, 0, 1, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

import lazy_loader

from ..diagram._feature_view import FeatureView, feature_view
from ..diagram._feature_view import decide as decide_instance
from ._instances import memo

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["FALSE", "TRUE", "INF", "view", "decide", "distances", "closest_flip",
           "instance_distances",
           "reaches", "reached", "any_child", "distinct_rows"]

FALSE, TRUE = 0, 1
#: The distance of a node from which the terminal cannot be reached.
INF = 1 << 62


def view(odd) -> FeatureView:
    """Return the :class:`~bnx.diagram._feature_view.FeatureView` of ``odd`` (made once)."""
    return feature_view(odd.arrays, odd.encoding)


def _rows(fv: FeatureView, i: int) -> slice:
    return slice(int(fv.first_node[i]), int(fv.last_node[i]))


def decide(fv: FeatureView, x: Sequence[int]) -> bool:
    """Decide a complete instance (state indices), by one walk."""
    return decide_instance(fv.arrays, fv.enc, x, fv.root)


def distances(fv: FeatureView, x: Sequence[int], target: int,
              mutable: Sequence[bool]) -> np.ndarray:
    """Compute per node the fewest features of ``x`` to change to reach the terminal ``target``.

    ``INF``: none. Following ``x``'s state costs 0, another state of a mutable feature costs
    1, a feature the diagram skips costs nothing.
    """
    d = np.full(fv.arrays.size, INF, dtype=np.int64)
    d[target] = 0
    for i in range(fv.n - 1, -1, -1):
        s = _rows(fv, i)
        if s.start == s.stop:
            continue
        kids = fv.kids[i]
        best = d[kids[:, x[i]]]
        if mutable[i] and kids.shape[1] > 1:
            other = None
            for v in range(kids.shape[1]):  # column by column: numpy is slow along rows
                if v != x[i]:
                    dv = d[kids[:, v]]
                    other = dv if other is None else np.minimum(other, dv, out=other)
            best = np.minimum(best, other + 1, out=best)
        d[s] = best
    return d


def instance_distances(odd, fv: FeatureView, x: Sequence[int], target: int,
                       mutable: Sequence[bool]) -> np.ndarray:
    """Compute :func:`distances`, kept in the instance's memo for the next question on ``x``.

    The memo is :func:`~._instances.memo`.
    """
    m = memo(odd, x)
    key = ("distances", target, tuple(mutable))
    d = m.get(key)
    if d is None:
        d = m[key] = distances(fv, x, target, mutable)
    return d


def closest_flip(fv: FeatureView, x: Sequence[int],
                 mutable: Sequence[bool]) -> list[int] | None:
    """Find one closest instance (state indices) with the other decision than ``x``'s, or ``None``.

    Along a shortest path, the instance's state is kept whenever that is as short, else the
    first other state that is.
    """
    target = FALSE if decide(fv, x) else TRUE
    d = distances(fv, x, target, mutable)
    u = fv.root
    if d[u] >= INF:
        return None
    y = list(x)
    while u > TRUE:
        i = int(fv.feature[u])
        row = fv.kids[i][u - fv.first_node[i]]
        if d[row[x[i]]] == d[u]:
            u = int(row[x[i]])
            continue
        v = int(np.flatnonzero(d[row] + 1 == d[u])[0])
        y[i], u = v, int(row[v])
    return y


def reaches(fv: FeatureView, fixed: Sequence[int | None], target: int) -> np.ndarray:
    """Tell per node whether some completion of ``fixed`` leads from it to the terminal ``target``.

    ``fixed`` holds a state index per feature, ``None``: free.
    """
    r = np.zeros(fv.arrays.size, dtype=bool)
    r[target] = True
    for i in range(fv.n - 1, -1, -1):
        s = _rows(fv, i)
        if s.start == s.stop:
            continue
        r[s] = r[fv.kids[i][:, fixed[i]]] if fixed[i] is not None else any_child(fv, i, r)
    return r


def any_child(fv: FeatureView, i: int, r: np.ndarray) -> np.ndarray:
    """Per node of feature ``i``, whether ``r`` holds for one of its children."""
    kids = fv.kids[i]
    out = r[kids[:, 0]]
    for v in range(1, kids.shape[1]):
        out |= r[kids[:, v]]
    return out


def reached(fv: FeatureView, fixed: Sequence[int | None]) -> np.ndarray:
    """Per node, whether some completion of ``fixed`` passes through it from the root."""
    r = np.zeros(fv.arrays.size, dtype=bool)
    r[fv.root] = True
    for i in range(fv.n):
        s = _rows(fv, i)
        if s.start == s.stop:
            continue
        k = fv.kids[i][r[s]]
        r[k[:, fixed[i]] if fixed[i] is not None else k.ravel()] = True
    return r


def distinct_rows(a: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct rows of ``a`` and, per row of ``a``, the number of its distinct row.

    The entries of ``a`` are in ``0 .. bound - 1``.

    Each row is turned into one integer key, column by column (``key * bound + next``);
    before the key could overflow, it is replaced by its rank among the keys so far.
    """
    key = a[:, 0].astype(np.int64)
    size = bound
    for j in range(1, a.shape[1]):
        if size * bound >= 1 << 62:
            _, key = np.unique(key, return_inverse=True)
            key = key.ravel()
            size = int(key.max()) + 1 if len(key) else 1
        key = key * bound + a[:, j]
        size *= bound
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return a[first], inverse.ravel()
