"""The stars of a small function unate in every feature, in Python lists.

pi-inst and pi-cover (:mod:`.pi`) follow, below a node that tests feature ``i``, its
"star": the conjunction of its cofactors over all states of ``i``. Where the function is
unate in every feature (``least``, from :mod:`bnx.classifier._unate`: every binary-class naive
Bayes), the star is the cofactor on the feature's least state, a node the diagram holds;
:class:`UnateStore` reads them all from the lists of a small diagram, so no conjunction
is made and numpy is not imported. Other functions get a :class:`~._conj.Store`.

Examples
--------
>>> from bnx.diagram._arrays import DiagramArrays
>>> from bnx.diagram.encoding import Encoding
>>> enc = Encoding(("a", "b"), (("0", "1"), ("0", "1")))
>>> a = DiagramArrays(2, [2, 2, 1, 0], [0, 1, 0, 2], [0, 1, 1, 1], 3)  # a or b
>>> UnateStore(a, enc, (0, 0)).star_of(3)  # (a or b) with a dropped: b
2
"""

from __future__ import annotations

from ..diagram._arrays import DiagramArrays, cofactor
from ..diagram.encoding import Encoding

__all__ = ["UnateStore"]


class UnateStore:
    """The :class:`~._conj.Store` of a small function known to be unate in every feature, in
    Python lists only: each node's star is its cofactor on its feature's least state, a
    node the diagram holds, so the stars are read by one walk from each node and no node
    is made (nor numpy imported).

    It has what pi-inst and pi-cover read of a closed :class:`~._conj.Store`: :attr:`py`,
    :attr:`root`, :attr:`nstates` and :attr:`closed`.
    """

    closed = True

    def __init__(self, arrays: DiagramArrays, enc: Encoding, least: tuple) -> None:
        level, lo, hi = arrays.lists()
        first = enc.first_level
        n = len(enc.features)
        feature_of = [i for i in range(n) for _ in range(first[i + 1] - first[i])] + [n]
        star = [0, 1]
        for u in range(2, len(level)):
            i = feature_of[level[u]]
            a, m = first[i], first[i + 1] - first[i]
            if m == 1:  # a binary feature: the child on the least state
                star.append(hi[u] if least[i] else lo[u])
            else:
                star.append(cofactor(level, lo, hi, u, a, m, least[i]))
        self.py = (level, lo, hi, star)
        self.root = arrays.root
        self.n = len(level)
        self.nstates = [len(s) for s in enc.states]

    def star_of(self, u: int) -> int:
        """The star of node ``u``."""
        return self.py[3][u]
