"""Disjoint sets (union-find): which things end up connected.

Inference splits a network's factors into the parts that share variables, so that each
part is contracted alone; this is the one place that bookkeeping is written.
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["DisjointSets"]


class DisjointSets:
    """Sets of hashable things, joined on demand; each set named by one of its members.

    Examples
    --------
    >>> parts = DisjointSets()
    >>> parts.join("a", "b", "c")
    >>> parts.join("d", "e")
    >>> parts.find("c") == parts.find("a"), parts.find("d") == parts.find("a")
    (True, False)
    >>> parts.find("z")  # a thing never joined is a set of its own
    'z'
    """

    __slots__ = ("_root",)

    def __init__(self) -> None:
        self._root: dict = {}

    def find(self, x: Hashable) -> Hashable:
        """Return the name of the set that holds ``x`` (path halving on the way).

        Returns
        -------
        object
            One member of ``x``'s set, the same for every member.
        """
        root = self._root
        while root.setdefault(x, x) != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    def join(self, first: Hashable, *others: Hashable) -> None:
        """Put ``first`` and every one of ``others`` in one set."""
        a = self.find(first)
        for x in others:
            b = self.find(x)
            if b != a:
                self._root[b] = a
