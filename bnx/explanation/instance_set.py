"""A set of complete instances held as a decision diagram over an ODD's feature encoding.

:func:`bnx.support` (the instances a network gives positive probability) and
:func:`bnx.forbid` (the instances that violate none of a user's forbidden combinations)
return an :class:`InstanceSet`: an :class:`~bnx.explanation.explanations.Explanations` set
of kind ``"instances"`` in the ``complete`` layout, whose diagram is over the same
log-encoded bits and variable order as an ODD's decision function, so that it can be
conjoined with it. Sets over the same features combine with ``&``, ``|``, ``-`` and
``~`` (the complement among the complete instances); ``within=`` of the explanation
functions takes one (:mod:`._within`).

Examples
--------
>>> import bnx
>>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
>>> a = bnx.forbid(odd, [{"GPA": "+", "EntranceExam": "-"}])
>>> b = bnx.forbid(odd, [{"WorkExperience": "-"}])
>>> a.count, b.count, (a & b).count, (a | b).count, (~a).count, (a - b).count
(12, 8, 6, 14, 4, 6)
"""

from __future__ import annotations

from collections.abc import Sequence

from .._util.guard import guarded
from .._util.types import Manager, Node
from ..diagram._dd import copy_to
from ..diagram._setops import complement, difference, intersect, union
from ..diagram.encoding import Encoding
from ..diagram.layout import Layout
from ..errors import ArgumentError
from .explanations import Explanations

__all__ = ["InstanceSet", "transfer"]


@guarded
class InstanceSet(Explanations):
    """A set of complete instances, held as a decision diagram (see the module docstring).

    ``count`` (and ``len``) counts them on the diagram; iterating lists them as dicts;
    ``x in s`` tests one complete instance; :attr:`root` is the set's ``dd`` node in
    :attr:`bdd`, over :attr:`encoding`'s variables (false on codes that name no state).

    Attributes
    ----------
    encoding : Encoding
        The features in order, their states and their bits.
    what : str
        What the set is, in words (shown by ``print``).
    """

    def __init__(self, bdd: Manager, root: Node, encoding: Encoding, *,
                 feature_order: Sequence | None = None, what: str = "instances") -> None:
        super().__init__(bdd, root, Layout("complete", encoding), kind="instances",
                         feature_order=feature_order)
        self.encoding = encoding
        self.what = what

    def title(self) -> str:
        """One line: how many instances, and what they are.

        Returns
        -------
        str
            The line.
        """
        n = self.count
        return f"{n} instance{'' if n == 1 else 's'} ({self.what})"

    # ------------------------------------------------------------------ set algebra
    def _other(self, other) -> Node:
        if not isinstance(other, InstanceSet):
            raise ArgumentError(f"an instance set combines with another instance set, got "
                                f"{type(other).__name__}")
        return other.root_in(self.bdd, self.encoding)

    def _made(self, root: Node, what: str) -> InstanceSet:
        return InstanceSet(self.bdd, root, self.encoding, feature_order=self.features,
                           what=what)

    def __and__(self, other) -> InstanceSet:
        """Intersect two sets of instances."""
        return self._made(intersect(self.root, self._other(other)),
                          f"{self.what} and {other.what}")

    def __or__(self, other) -> InstanceSet:
        """Unite two sets of instances."""
        return self._made(union(self.root, self._other(other)), f"{self.what} or {other.what}")

    def __sub__(self, other) -> InstanceSet:
        """Return the instances of this set that are not in ``other``."""
        return self._made(difference(self.root, self._other(other)),
                          f"{self.what} but not {other.what}")

    def __invert__(self) -> InstanceSet:
        """Return the instances not in this set."""
        return self._made(intersect(complement(self.root), self.encoding.domain(self.bdd)),
                          f"not {self.what}")

    def __eq__(self, other) -> bool:
        """Tell whether two sets hold the same instances."""
        if not isinstance(other, InstanceSet):
            return NotImplemented
        try:
            return self.root == other.root_in(self.bdd, self.encoding)
        except ArgumentError:
            return False

    __hash__ = Explanations.__hash__

    def root_in(self, bdd: Manager, encoding: Encoding) -> Node:
        """Return the set's ``dd`` node in ``bdd``, whose variables are ``encoding``'s.

        The same node when ``bdd`` is the set's own manager, else copied (once per manager).

        ``encoding`` must have the set's features and states (its order may differ).

        Returns
        -------
        node
            The set's node in ``bdd``.
        """
        if bdd is self.bdd and encoding == self.encoding:
            return self.root
        copies = self.__dict__.setdefault("_copies", [])
        for b, e, r in copies:
            if b is bdd and e == encoding:
                return r
        r = transfer(self.root, self.encoding, bdd, encoding)
        copies.append((bdd, encoding, r))
        return r


def transfer(root: Node, src: Encoding, bdd: Manager, dst: Encoding) -> Node:
    """Write the function ``root`` (over ``src``'s variables) into ``bdd`` over ``dst``'s.

    One node per node of ``root``, children first.

    ``dst`` must have the same features with the same states as ``src`` (in any
    order); else :class:`~bnx.ArgumentError`.
    """
    if set(src.features) != set(dst.features) or any(
            src.states[i] != dst.states[dst.position(f)] for i, f in enumerate(src.features)):
        raise ArgumentError("the instance set is over other features or states than this "
                            "ODD: make it from this ODD (odd=...)")
    names = {}
    for i, f in enumerate(src.features):
        for a, b in zip(src.bits[i], dst.bits[dst.position(f)]):
            names[a] = b
    same_order = [dst.position(f) for f in src.features] == list(range(len(src.features)))
    return copy_to(root, bdd, names, same_order)
