"""The answer of :func:`bnx.check_monotone`: :class:`MonotoneCheck`, monotone or not.

With how many pairs of instances break it and one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._util.wording import terms

__all__ = ["MonotoneCheck"]


@dataclass(frozen=True)
class MonotoneCheck:
    """Whether raising an ordinal feature ever lowers the decision.

    Attributes
    ----------
    holds : bool
        No pair of complete instances that differ in one checked feature, raised, has its
        decision lowered (the decision function is monotone in those features).
    features : tuple
        The features checked, each with its order of states (``{feature: states}``,
        lowest first).
    class_order : tuple
        The decisions from lowest to highest, in the class's words.
    violations : int
        The number of such pairs ``(low, high)``: ``high`` is ``low`` with one checked
        feature raised (by any number of steps), and its decision is lower (exact).
    by_feature : dict
        The violations per checked feature.
    feature : feature or None
        The feature raised in the counterexample (``None`` when monotone).
    low, high : dict or None
        The counterexample: two complete instances that differ only in ``feature``,
        raised in ``high``, whose decisions ``low_decision`` and ``high_decision`` go
        down (``None`` when monotone).
    low_decision, high_decision : str or None
        Their decisions in the class's words.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> check = bnx.check_monotone(odd)
    >>> check.holds, check.violations, check.counterexample
    (True, 0, None)
    >>> print(check)  # doctest: +NORMALIZE_WHITESPACE
    Monotone: raising WorkExperience, FirstTimeApplicant, EntranceExam or GPA never lowers
    the decision (Admit = - below Admit = +).
    """

    holds: bool
    features: dict
    class_order: tuple
    violations: int = 0
    by_feature: dict = field(default_factory=dict)
    feature: Any = None
    low: dict | None = None
    high: dict | None = None
    low_decision: str | None = None
    high_decision: str | None = None

    @property
    def counterexample(self) -> tuple[dict, dict] | None:
        """``(low, high)``, or ``None`` when monotone."""
        return None if self.holds else (self.low, self.high)

    def __str__(self) -> str:
        """Say whether monotonicity holds, and where not, in sentences."""
        order = " below ".join(self.class_order)
        if self.holds:
            names = list(map(str, self.features))
            said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
            return f"Monotone: raising {said} never lowers the decision ({order})."
        f = self.feature
        return (f"Not monotone ({self.violations:,} pairs of instances; {order}): "
                f"{terms(self.low)} is decided {self.low_decision}, but raising {f} from "
                f"{self.low[f]} to {self.high[f]} gives {self.high_decision}.")
