"""Log encoding of multi-valued features into BDD bits.

A feature with ``k`` states becomes ``ceil(log2 k)`` Boolean variables (none for
a feature with one state). State number ``j`` (its position in pgmpy's
``state_names``) is written in binary, most significant bit first. Codes
``k .. 2**bits - 1`` name no state; :meth:`Encoding.domain` is the constraint that
rules them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .._util.types import Feature, Manager, Node, State
from .backends import make_node

__all__ = ["Encoding", "bits_for"]


def bits_for(k: int) -> int:
    """Return the number of bits of a feature with ``k`` states.

    Examples
    --------
    >>> [bits_for(k) for k in (1, 2, 3, 4, 5)]
    [0, 1, 2, 2, 3]
    """
    return (k - 1).bit_length()


def _select(bdd: Manager, bs: Sequence[str], b: int, lo_code: int,
            children: Sequence[Node], fill: Node) -> Node:
    if lo_code >= len(children):
        return fill
    if b == len(bs):
        return children[lo_code]
    step = 1 << (len(bs) - 1 - b)
    return make_node(bdd, bs[b], _select(bdd, bs, b + 1, lo_code, children, fill),
                     _select(bdd, bs, b + 1, lo_code + step, children, fill))


@dataclass(frozen=True)
class Encoding:
    """How the features of an ODD are laid out as BDD variables.

    Parameters
    ----------
    features : sequence of features, in the ODD's order.
    states : for each feature (same order), its state names.

    Attributes
    ----------
    variables : tuple of str
        All BDD variable names, in order: ``x{i}_{b}`` is bit ``b`` of feature ``i``.
    bits : tuple of tuple of str
        The variable names of each feature.
    """

    features: tuple[Feature, ...]
    states: tuple[tuple[State, ...], ...]

    def __post_init__(self) -> None:
        """Name the bits of each feature, ``x<feature index>_<bit>``."""
        bits = tuple(tuple(f"x{i}_{b}" for b in range(bits_for(len(s))))
                     for i, s in enumerate(self.states))
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "variables", tuple(v for bs in bits for v in bs))
        object.__setattr__(self, "_index", {f: i for i, f in enumerate(self.features)})
        first = []
        lvl = 0
        for bs in bits:
            first.append(lvl)
            lvl += len(bs)
        first.append(lvl)
        object.__setattr__(self, "first_level", tuple(first))

    @property
    def nvars(self) -> int:
        """Number of BDD variables."""
        return len(self.variables)

    def position(self, feature: Feature) -> int:
        """Position of ``feature`` in the order."""
        return self._index[feature]

    def positions(self, order: Sequence[Feature]) -> tuple[int, ...]:
        """Return the position of each feature of ``order``.

        Kept per order: explanation sets ask for it on every call.
        """
        order = tuple(order)
        known = self.__dict__.setdefault("_positions", {})
        got = known.get(order)
        if got is None:
            got = known[order] = tuple(self._index[f] for f in order)
        return got

    def code(self, i: int, j: int) -> dict[str, bool]:
        """Return the assignment of feature ``i``'s bits that encodes its state number ``j``."""
        bs = self.bits[i]
        m = len(bs)
        return {v: bool((j >> (m - 1 - b)) & 1) for b, v in enumerate(bs)}

    def select(self, bdd: Manager, i: int, children: Sequence[Node], fill: Node) -> Node:
        """Make the node that branches on feature ``i``: state ``j`` leads to ``children[j]``.

        Unused codes lead to ``fill``. Children must lie below feature ``i``.
        """
        return _select(bdd, self.bits[i], 0, 0, children, fill)

    def domain(self, bdd: Manager) -> Node:
        """Return the constraint that every feature's code names one of its states."""
        u = bdd.true
        for i in reversed(range(len(self.features))):
            k = len(self.states[i])
            if k < (1 << len(self.bits[i])):
                valid = self.select(bdd, i, [bdd.true] * k, bdd.false)
                u = valid & u
        return u
