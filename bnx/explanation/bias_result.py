"""The answer of :func:`bnx.decision_bias`: :class:`Bias`, biased or not, with its witness."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._util.wording import terms

__all__ = ["Bias"]


@dataclass(frozen=True)
class Bias:
    """Whether a decision depends on protected features, and how.

    Attributes
    ----------
    biased : bool
        Some instance that differs from the instance only on the protected features
        gets the other decision. ``bool(bias)`` is this.
    protected : tuple
        The protected features, in the classifier's order.
    decision : str
        The decision on the instance in the class's words (``"Admit = +"``).
    witness : dict or None
        When biased: such an instance, one that changes the fewest protected features
        (``None`` when the decision is unbiased: no such instance exists).
    changes : dict
        When biased: the protected features the witness changes, with their new states
        (empty when unbiased).
    other : str
        The other decision in the class's words.
    """

    biased: bool
    protected: tuple
    decision: str
    witness: dict | None = field(default=None)
    changes: dict = field(default_factory=dict)
    other: str = ""

    def __bool__(self) -> bool:
        """Tell whether the decision is biased."""
        return self.biased

    def __str__(self) -> str:
        """Say whether the decision is biased, and by which change, in a sentence."""
        on = ", ".join(map(str, self.protected)) or "no feature"
        if not self.biased:
            return (f"Unbiased: no change of {on} alone changes the decision "
                    f"{self.decision}.")
        return (f"Biased: the decision {self.decision} depends on {on}; changing "
                f"{terms(self.changes)} gives {self.other}.")
