"""The parts a :class:`~bnx.report.Report` holds: read-only mappings and next observations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Counterfactual", "FrozenMap", "NextObservation"]


class FrozenMap(Mapping):
    """A read-only, hashable mapping (the dicts a :class:`Report` holds).

    Examples
    --------
    >>> m = FrozenMap({"GPA": "+"})
    >>> m == {"GPA": "+"}, dict(m), hash(m) == hash(FrozenMap({"GPA": "+"}))
    (True, {'GPA': '+'}, True)
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping | None = None) -> None:
        self._data = dict(data or {})

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # the dict's own views and lookups (faster than Mapping's, same results)
    def __contains__(self, key: Any) -> bool:
        return key in self._data

    def get(self, key: Any, default: Any = None) -> Any:
        return self._data.get(key, default)

    def keys(self):
        return self._data.keys()

    def items(self):
        return self._data.items()

    def values(self):
        return self._data.values()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, dict):
            return self._data == other
        return self._data == dict(other.items()) if isinstance(other, Mapping) else NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._data.items()))

    def __repr__(self) -> str:
        return repr(self._data)

    def __reduce__(self):
        return (FrozenMap, (self._data,))


class Counterfactual(FrozenMap):
    """One closest change of a report.

    ``{feature: (old state, new state)}`` for the features that change, and
    :attr:`decision`, the class state the changed instance is decided (a multi-class
    classifier: the class it leads to; a binary one: the other decision).

    Examples
    --------
    >>> c = Counterfactual({"XrayReport": ("Normal", "Plethoric")}, "TGA")
    >>> c["XrayReport"], c.decision, c == {"XrayReport": ("Normal", "Plethoric")}
    (('Normal', 'Plethoric'), 'TGA', True)
    """

    __slots__ = ("decision",)

    def __init__(self, changes: Mapping | None = None, decision: Any = None) -> None:
        super().__init__(changes)
        self.decision = decision

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Counterfactual):
            return self._data == other._data and self.decision == other.decision
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash((tuple(self._data.items()), self.decision))

    def __repr__(self) -> str:
        return f"{self._data!r} -> {self.decision!r}"

    def __reduce__(self):
        return (Counterfactual, (self._data, self.decision))


@dataclass(frozen=True)
class NextObservation:
    """How much observing one more feature would tell, for a partial instance.

    Attributes
    ----------
    feature : feature name
    expected_sdp : float or None
        The same-decision probability to expect once the feature is known (averaged
        over its states, weighted by their probabilities given the evidence); ``None``
        when only its bounds were proven in time (``expected_sdp_bounds``).
    flip_probability : float
        The probability that knowing the feature changes the decision made so far.
    expected_sdp_bounds : pair of floats or None
        When ``expected_sdp`` was not computed exactly in time (a classifier explained
        without compiling, :mod:`bnx.local`): a proven interval ``(low, high)`` that holds
        it. ``None`` when ``expected_sdp`` is exact.
    """

    feature: Any
    expected_sdp: float | None
    flip_probability: float
    expected_sdp_bounds: tuple | None = None
