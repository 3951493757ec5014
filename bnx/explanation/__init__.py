"""Explanations of decisions and queries on decision functions, one family per module.

- :mod:`.explanations`: :class:`Explanations`, a set of (partial) instances held as a
  decision diagram, counted and minimised on the diagram, and its layouts;
- :mod:`.mc`: MC-explanations (Algorithm 3 and Section 5's generalisation);
- :mod:`.pi`: PI-explanations and prime implicants (Algorithms 4 and 5);
- :mod:`.general`: general reasons, the largest boxes of states that keep a decision
  (their passes in :mod:`._boxes`);
- :mod:`.monotone`: monotonicity in ordinal features and Theorem 3
  (:mod:`.monotone_result`: its answer);
- :mod:`.rules`: rules an expert states, checked (:mod:`.rule_result`: the answer; the
  counting pass in :mod:`._pairs`);
- :mod:`.reasons`: contrastive explanations, feature roles (the passes in
  :mod:`._contrastive`); :mod:`.checking`: checking an explanation;
- :mod:`._robustness`: robustness, counterfactuals, the robustness profile;
- :mod:`.bias`: decision bias on protected features;
- :mod:`.probability`: the same-decision probability (takes the classifier);
- :mod:`.support`: the instances a network or a user allows (``within=``);
- :mod:`.observe`, :mod:`.probable`, :mod:`.fairness`: what to observe next, probable
  reasons, group fairness, under the network's distribution (take the classifier).

Every function takes a compiled :class:`~bnx.ODD`; the reasons take a
:class:`~bnx.MulticlassODD` too, each asked of one class formula (:mod:`._classes`: the
decided class's, or a rival's with ``rival=``).

The functions are imported with their module when first read (``import bnx`` stays light).
Tools for experts stay in their modules, not in ``bnx``: :func:`.mc.on_states` (the on states
an MC-explanation counts), :func:`.explanations.positives` (the instances of one decision),
:func:`.monotone.theorem3_holds` (the paper's Theorem 3 on one decision).
"""

from .._util.lazy import lazy_attributes

#: Each public name (``__all__``): the module that defines it, and its name there.
_LAZY = {
    "Explanations": ("bnx.explanation.explanations", "Explanations"),
    "Counterfactuals": ("bnx.explanation.costs", "Counterfactuals"),
    "InstanceSet": ("bnx.explanation.instance_set", "InstanceSet"),
    "mc_explanations": ("bnx.explanation.mc", "mc_explanations"),
    "check_monotone": ("bnx.explanation.monotone", "check_monotone"),
    "MonotoneCheck": ("bnx.explanation.monotone_result", "MonotoneCheck"),
    "check_rule": ("bnx.explanation.rules", "check_rule"),
    "check_rules": ("bnx.explanation.rules", "check_rules"),
    "RuleCheck": ("bnx.explanation.rule_result", "RuleCheck"),
    "pi_explanations": ("bnx.explanation.pi", "pi_explanations"),
    "prime_implicants": ("bnx.explanation.pi", "prime_implicants"),
    "general_reasons": ("bnx.explanation.general", "general_reasons"),
    "GeneralReasons": ("bnx.explanation.general", "GeneralReasons"),
    "Bias": ("bnx.explanation.bias_result", "Bias"),
    "count_biased": ("bnx.explanation.bias", "count_biased"),
    "decision_bias": ("bnx.explanation.bias", "decision_bias"),
    "same_decision_probability": ("bnx.explanation.probability", "same_decision_probability"),
    "next_observations": ("bnx.explanation.observe", "next_observations"),
    "ProbableReasons": ("bnx.explanation.probable", "ProbableReasons"),
    "probable_reasons": ("bnx.explanation.probable", "probable_reasons"),
    "group_fairness": ("bnx.explanation.fairness", "group_fairness"),
    "ExplanationCheck": ("bnx.explanation.checking", "ExplanationCheck"),
    "check_explanation": ("bnx.explanation.checking", "check_explanation"),
    "contrastive_explanations": ("bnx.explanation.reasons", "contrastive_explanations"),
    "feature_roles": ("bnx.explanation.reasons", "feature_roles"),
    "counterfactuals": ("bnx.explanation._robustness", "counterfactuals"),
    "robustness": ("bnx.explanation._robustness", "robustness"),
    "robustness_profile": ("bnx.explanation._robustness", "robustness_profile"),
    "support": ("bnx.explanation.support", "support"),
    "forbid": ("bnx.explanation.support", "forbid"),
}

__getattr__ = lazy_attributes(globals(), _LAZY)

__all__ = list(_LAZY)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
