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

The functions are imported with their module when first read (``import bnx`` stays light).
"""

from .._lazy import lazy_attributes

#: Each public name: the module that defines it, and its name there.
_LAZY = {
    "Explanations": ("bnx.explain.explanations", "Explanations"),
    "positives": ("bnx.explain.explanations", "positives"),
    "mc_explanations": ("bnx.explain.mc", "mc_explanations"),
    "on_states": ("bnx.explain.mc", "on_states"),
    "is_monotone": ("bnx.explain.monotone", "is_monotone"),
    "monotone_counterexample": ("bnx.explain.monotone", "monotone_counterexample"),
    "theorem3_holds": ("bnx.explain.monotone", "theorem3_holds"),
    "pi_explanations": ("bnx.explain.pi", "pi_explanations"),
    "prime_implicants": ("bnx.explain.pi", "prime_implicants"),
    "Bias": ("bnx.explain.bias_result", "Bias"),
    "count_biased": ("bnx.explain.bias", "count_biased"),
    "decision_bias": ("bnx.explain.bias", "decision_bias"),
    "same_decision_probability": ("bnx.explain.probability", "same_decision_probability"),
    "ExplanationCheck": ("bnx.explain.reasons", "ExplanationCheck"),
    "check_explanation": ("bnx.explain.reasons", "check_explanation"),
    "contrastive_explanations": ("bnx.explain.reasons", "contrastive_explanations"),
    "feature_roles": ("bnx.explain.reasons", "feature_roles"),
    "necessary_reasons": ("bnx.explain.reasons", "necessary_reasons"),
    "sufficient_reasons": ("bnx.explain.reasons", "sufficient_reasons"),
    "counterfactuals": ("bnx.explain.robustness", "counterfactuals"),
    "robustness": ("bnx.explain.robustness", "robustness"),
    "robustness_profile": ("bnx.explain.robustness", "robustness_profile"),
}

__getattr__ = lazy_attributes(globals(), _LAZY)

# The module ``robustness`` shares its name with its function: bound here, the function
# stays the package's attribute whoever imports the module first.
from .robustness import robustness  # noqa: E402

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
    "Bias",
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


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
