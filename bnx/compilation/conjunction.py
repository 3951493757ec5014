"""The conjunction of decision functions in array form, without ``dd``.

The argmax rule over more than two classes is a conjunction of pairwise comparisons
(``Pr(pos, x) >= Pr(c, x)`` for the later classes ``c``, ``>`` for the earlier ones); on a
TAN each comparison compiles to :class:`~bnx.diagram._arrays.DiagramArrays` (:mod:`.tan`), and
:func:`conjoin` conjoins them as arrays, so that the ODD, like every level engine's, gets
no ``dd`` node at compile time.

:func:`conjoin` is the product construction of two ordered diagrams over the same
levels: the one conjunction of the array form
(:func:`bnx.diagram._conjunction.conjoin_pairs`, which the explanation code's store uses
too) on the two roots, in one node space that holds both diagrams, then one reduction
(:func:`bnx.diagram._arrays.canonical`). The work is linear in the reachable pairs (times
a sort per level), at most the product of the two sizes.

Examples
--------
>>> from bnx.diagram._arrays import Builder, FALSE, TRUE, count, negate
>>> b = Builder(2)
>>> x0 = b.finish(b.nodes(0, [FALSE], [TRUE])[0])
>>> b = Builder(2)
>>> x1 = b.finish(b.nodes(1, [FALSE], [TRUE])[0])
>>> count(conjoin(x0, x1)), count(conjoin(x0, negate(x0)))
(1, 0)
"""

from __future__ import annotations

import numpy as np

from ..diagram._arrays import FALSE, TRUE, Builder, DiagramArrays, canonical
from ..diagram._conjunction import conjoin_pairs

__all__ = ["conjoin", "domain", "valid_chain"]


def valid_chain(b: Builder, enc) -> list[int]:
    """Make ``valid[i]``: the node of builder ``b`` true on the valid codes of features ``i..``.

    The valid codes are those that name states; ``valid[n]`` is true.
    """
    valid = [TRUE] * (len(enc.features) + 1)
    for i in reversed(range(len(enc.features))):
        valid[i] = int(b.select(enc.first_level[i], len(enc.bits[i]),
                                [[valid[i + 1]] * len(enc.states[i])])[0])
    return valid


def domain(enc) -> DiagramArrays:
    """Make the arrays of the constraint that every feature's code names one of its states.

    As :meth:`bnx.Encoding.domain`.
    """
    b = Builder(enc.nvars)
    return b.finish(valid_chain(b, enc)[0])


class _Pair:
    """The node space of one conjunction of two diagrams.

    ``a``'s nodes, then ``b``'s inner nodes renumbered after them, then the nodes the
    conjunction makes (appended, reduced once at the end by
    :func:`bnx.diagram._arrays.canonical`).
    """

    def __init__(self, a: DiagramArrays, b: DiagramArrays) -> None:
        shift = np.arange(b.size, dtype=np.int64) + (a.size - 2)
        shift[:2] = (FALSE, TRUE)
        self.offset = a.size - 2
        self.nvars = a.nvars
        self.cols = {"var": np.concatenate([a.level, b.level[2:]]),
                     "lo": np.concatenate([a.lo, shift[b.lo[2:]]]),
                     "hi": np.concatenate([a.hi, shift[b.hi[2:]]])}
        self.made: list = []  # (level, lo, hi) of the nodes made, in order
        self.n = len(self.cols["var"])

    def view(self, name: str) -> np.ndarray:
        return self.cols[name]

    def nodes(self, lvl: int, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        ids = np.arange(self.n, self.n + len(lo), dtype=np.int64)
        self.made.append((np.full(len(lo), lvl, dtype=np.int64), lo, hi))
        self.n += len(lo)
        return ids

    def finish(self, root: int) -> DiagramArrays:
        cols = [np.concatenate([self.cols[name], *(m[k] for m in self.made)])
                for k, name in enumerate(("var", "lo", "hi"))]
        return canonical(self.nvars, *cols, [root])[0]


def conjoin(a: DiagramArrays, b: DiagramArrays, *, budget=None) -> DiagramArrays:
    """Conjoin two functions over the same levels, as canonical arrays.

    The one conjunction (:func:`bnx.diagram._conjunction.conjoin_pairs`) runs on the pair
    of roots in one node space, then the result is reduced. ``budget`` (a compiler's
    :class:`~.budget.Budget`, optional) is checked for each level's pairs before they are
    expanded and charged one unit per pair made.
    """
    if a.nvars != b.nvars:
        raise ValueError("conjoin needs two diagrams over the same levels")
    if a.root == FALSE or b.root == FALSE:
        return Builder(a.nvars).finish(FALSE)
    if a.root == TRUE or b.root == TRUE:  # (arrays are reduced: the other one as it is)
        return b if a.root == TRUE else a
    space = _Pair(a, b)
    broot = b.root + space.offset
    root = int(conjoin_pairs(space, [a.root], [broot], budget=budget)[0])
    if root <= TRUE:
        return Builder(a.nvars).finish(root)
    return space.finish(root)
