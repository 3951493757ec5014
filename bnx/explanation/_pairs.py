"""Counting the instances, or pairs of instances, that one or two diagrams accept.

They are counted on the diagrams: no instance is enumerated.

A *walk* goes down one or two diagrams (their feature views, over the same features in the
same order) together, feature by feature. At feature ``k`` it takes one of ``choices[k]``:
a pair of states ``(a, b)``, state ``a`` followed in the first diagram and ``b`` in the
second (a node that skips the feature stays where it is). The two diagrams thus read two
instances that agree wherever each choice is ``(s, s)``: with one diagram read twice and
``choices[k] = [(s, s) for s in allowed]`` the walks are the instances of a box; with
``choices[x] = [(i, j) for i < j]`` at one feature ``x`` they are the pairs of instances that
differ in ``x`` only, raised from ``i`` to ``j``. A walk counts when the pair of terminals it
ends at is accepted.

The pass is level by level: top-down, the distinct pairs of nodes each level reaches
(numpy, one gather per choice); bottom-up, the number of accepted walks below each pair.
Its cost is the number of distinct pairs times the choices, per level: at most the product
of the two diagrams' widths, and the width of one diagram when it is read twice with
choices ``(s, s)``. A witness (one accepted walk) is read off the counts top-down.
"""

from __future__ import annotations

import math

import numpy as np

from ..diagram._arrays import TRUE
from ..diagram._feature_view import FeatureView

__all__ = ["Walks", "accepts", "walks"]


class Walks:
    """The accepted walks of :func:`walks`: their number and one of them.

    Attributes
    ----------
    count : int
        The number of accepted walks (exact).
    """

    def __init__(self, count: int, steps: list, counts: list, choices: list) -> None:
        self.count = count
        self._steps, self._counts, self._choices = steps, counts, choices

    def witness(self) -> list | None:
        """Return one accepted walk: per feature the choice ``(a, b)`` it takes.

        The first choice, in ``choices`` order, with accepted walks below, at every feature;
        ``None`` when there is none.
        """
        if not self.count:
            return None
        out, p = [], 0
        for k, nxt in enumerate(self._steps):
            below, m = self._counts[k + 1], len(self._counts[k])
            for c in range(len(self._choices[k])):
                q = int(nxt[c * m + p])
                if below[q]:
                    out.append(self._choices[k][c])
                    p = q
                    break
        return out


def walks(views: tuple[FeatureView, FeatureView], roots: tuple[int, int], choices: list,
          accept) -> Walks:
    """Count the walks down ``views`` from ``roots`` taking ``choices[k]`` at feature ``k``.

    Those accepted by ``accept(a, b)`` (numpy arrays of the terminals reached, ``0`` or
    ``1``, to a bool array).

    Examples
    --------
    >>> import bnx
    >>> from bnx.diagram._feature_view import feature_view
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> fv = feature_view(odd.arrays, odd.encoding)
    >>> every = [[(s, s) for s in range(2)] for _ in odd.features]
    >>> walks((fv, fv), (fv.root, fv.root), every, lambda a, b: a == 1).count == odd.count()
    True
    """
    fa, fb = views
    n = fa.n
    size_b = np.int64(max(fb.arrays.size, 2))
    exact = math.prod(max(len(c), 1) for c in choices) >= 1 << 62
    level_a = np.array([roots[0]], dtype=np.int64)
    level_b = np.array([roots[1]], dtype=np.int64)
    steps, sizes = [], [1]
    for k in range(n):
        m, c = len(level_a), len(choices[k])
        if c and not ((fa.feature[level_a] == k).any() or (fb.feature[level_b] == k).any()):
            steps.append(np.tile(np.arange(m), c))  # no node tests feature k: pairs stay
            sizes.append(m)
            continue
        if c:
            sa, sb = (np.array(side, dtype=np.int64) for side in zip(*choices[k]))
            # one row per choice, one column per pair: the keys of the pairs reached
            keys = (_follow(fa, k, level_a, sa) * size_b + _follow(fb, k, level_b, sb)).ravel()
            uniq, inv = np.unique(keys, return_inverse=True)
        else:
            uniq, inv = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        steps.append(inv)  # choice j of pair p reaches pair inv[j * m + p] below
        level_a, level_b = uniq // size_b, uniq % size_b
        sizes.append(len(uniq))
    last = np.asarray(accept(level_a, level_b), dtype=bool)
    counts = [None] * (n + 1)
    counts[n] = last.astype(object if exact else np.int64)
    for k in range(n - 1, -1, -1):
        below, c = counts[k + 1], len(choices[k])
        counts[k] = (below[steps[k]].reshape(c, sizes[k]).sum(axis=0) if c else
                     np.zeros(sizes[k], dtype=below.dtype))
    return Walks(int(counts[0][0]), steps, counts, choices)


def _follow(fv: FeatureView, k: int, nodes: np.ndarray, states: np.ndarray) -> np.ndarray:
    """Return ``out[j, i]``: node ``i``'s child on ``states[j]`` of feature ``k``.

    A node below ``k`` stays.
    """
    tests = fv.feature[nodes] == k
    if not tests.any():
        return np.broadcast_to(nodes, (len(states), len(nodes)))
    kids = fv.kids[k][np.where(tests, nodes - fv.first_node[k], 0)][:, states].T
    return np.where(tests, kids, nodes)


def accepts(a_value: bool, b_value: bool | None = None):
    """Make an ``accept`` for :func:`walks`: the first diagram ends at ``a_value``.

    And the second at ``b_value``, unless ``b_value`` is ``None``.
    """
    ta = TRUE if a_value else 0

    if b_value is None:
        return lambda a, b: a == ta
    tb = TRUE if b_value else 0
    return lambda a, b: (a == ta) & (b == tb)
