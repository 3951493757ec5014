"""The answer of :func:`bnx.monotone_counterexample`: :class:`MonotoneCounterexample`,
found or not (the function is then monotone)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._util.wording import terms

__all__ = ["MonotoneCounterexample"]


@dataclass(frozen=True)
class MonotoneCounterexample:
    """A pair of instances that breaks monotonicity, or the word that none does.

    Attributes
    ----------
    found : bool
        Whether a counterexample exists: ``False`` exactly when the decision function
        is monotone. ``bool(result)`` is this.
    feature : feature or None
        When found: the feature that ``high`` turns on (``None``, not applicable, when
        monotone).
    low, high : dict or None
        When found: two complete instances that differ only on ``feature``, off in
        ``low`` and on in ``high``, yet ``low`` is decided positive and ``high``
        negative (``None``, not applicable, when monotone).
    positive, negative : str
        The two decisions in the class's words (``"Admit = +"``).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> ce = bnx.monotone_counterexample(odd)
    >>> ce.found, ce.monotone, bool(ce)
    (False, True, False)
    >>> print(ce)
    Monotone: turning a feature on never changes Admit = + into Admit = -.
    """

    found: bool
    positive: str = "positive"
    negative: str = "negative"
    feature: Any = field(default=None)
    low: dict | None = field(default=None)
    high: dict | None = field(default=None)

    @property
    def monotone(self) -> bool:
        """Whether the decision function is monotone (no counterexample exists)."""
        return not self.found

    def __bool__(self) -> bool:
        return self.found

    def __str__(self) -> str:
        if not self.found:
            return (f"Monotone: turning a feature on never changes {self.positive} into "
                    f"{self.negative}.")
        f = self.feature
        return (f"Not monotone: {terms(self.low)} is decided {self.positive}, but turning "
                f"{f} on ({f} = {self.high[f]}) gives {self.negative}.")
