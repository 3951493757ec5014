"""The answer of :func:`bnx.check_rule`: :class:`RuleCheck`, holding or broken.

With how often and how likely it is broken, and its most probable counterexample.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._util.wording import decimal, terms

__all__ = ["RuleCheck"]


@dataclass(frozen=True)
class RuleCheck:
    """Whether every instance that meets a condition gets one decision.

    Attributes
    ----------
    rule : str
        The rule in words (``"bilirubin ≥ a19_7 => Cirrhosis = decompensate"``).
    condition : dict
        Per feature the condition constrains, the tuple of its states it allows (in the
        feature's order of states).
    decision : str
        The decision the rule asks for, in the class's words (``"Cirrhosis = decompensate"``).
    holds : bool
        No complete instance that meets the condition gets another decision.
    violations : int
        The number of complete instances that meet the condition and get another decision
        (exact).
    instances : int
        The number of complete instances that meet the condition.
    violation_probability : float, Fraction or None
        The probability, under the network, that an instance meets the condition and gets
        another decision (a float within ``1e-9`` of the exact value, or the exact
        :class:`~fractions.Fraction` with ``exact=True``); ``None`` when the ODD holds no
        classifier (a file of format version 1).
    counterexample : dict or None
        A complete instance that meets the condition and gets another decision (``None``
        when the rule holds): the most probable one under the network when the ODD holds
        its classifier, otherwise the first one in the diagram's order.
    counterexample_decision : str or None
        The decision on the counterexample, in the class's words.
    """

    rule: str
    condition: dict
    decision: str
    holds: bool
    violations: int
    instances: int
    violation_probability: float | None = None
    counterexample: dict | None = field(default=None)
    counterexample_decision: str | None = None

    def __str__(self) -> str:
        """Say whether the rule holds, and what breaks it, in sentences."""
        if self.holds:
            return (f"Holds: all {self.instances:,} instances with {self._condition_words()} "
                    f"are decided {self.decision}.")
        head = (f"Broken: {self.violations:,} of the {self.instances:,} instances with "
                f"{self._condition_words()} are not decided {self.decision}")
        x = terms(self.counterexample)
        if self.violation_probability is None:  # no distribution: any of them
            return f"{head}; for example {x} is decided {self.counterexample_decision}."
        return (f"{head} (probability {decimal(self.violation_probability)} in all); the "
                f"most probable of them, {x}, is decided {self.counterexample_decision}.")

    def _condition_words(self) -> str:
        return self.rule.split(" => ")[0]
