"""Explanations of decisions and queries on decision functions, one family per module.

- :mod:`.explanations`: :class:`Explanations`, a set of (partial) instances held as a
  decision diagram, counted and minimised on the diagram, and its layouts;
- :mod:`.mc`: MC-explanations (Algorithm 3 and Section 5's generalisation);
- :mod:`.pi`: PI-explanations and prime implicants (Algorithms 4 and 5);
- :mod:`.monotone`: monotonicity and Theorem 3;
- :mod:`.reasons`: sufficient and contrastive reasons, feature roles, checking an
  explanation;
- :mod:`.robustness`: robustness, counterfactuals, the robustness profile;
- :mod:`.bias`: decision bias on protected features;
- :mod:`.probability`: the same-decision probability (takes the classifier).

Every function takes a compiled :class:`~bnx.ODD`.
"""

from .explanations import Explanations, positives
from .mc import mc_explanations, on_states
from .monotone import is_monotone, monotone_counterexample, theorem3_holds
from .pi import pi_explanations, prime_implicants
from .bias import count_biased, decision_bias
from .probability import same_decision_probability
from .reasons import (ExplanationCheck, check_explanation, contrastive_explanations,
                      feature_roles, necessary_reasons, sufficient_reasons)
from .robustness import counterfactuals, robustness, robustness_profile

__all__ = [
    "Explanations",
    "is_monotone",
    "mc_explanations",
    "monotone_counterexample",
    "on_states",
    "pi_explanations",
    "positives",
    "prime_implicants",
    "theorem3_holds",
    # reasons, robustness, bias, probability
    "ExplanationCheck",
    "check_explanation",
    "contrastive_explanations",
    "count_biased",
    "counterfactuals",
    "decision_bias",
    "feature_roles",
    "necessary_reasons",
    "robustness",
    "robustness_profile",
    "same_decision_probability",
    "sufficient_reasons",
]
