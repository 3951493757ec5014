"""Reasons on the compiled ODD: explanations of decisions and queries on decision functions.

- :mod:`.explanations`: :class:`Explanations`, a set of (partial) instances held as a
  decision diagram, counted and minimised on the diagram, and its layouts;
- :mod:`.mc`: MC-explanations (Algorithm 3 and Section 5's generalisation);
- :mod:`.pi`: PI-explanations and prime implicants (Algorithms 4 and 5);
- :mod:`.general`: general reasons, the largest boxes of states that keep a decision
  (their passes in :mod:`._boxes`);
- :mod:`.monotone`: monotonicity in ordinal features and Theorem 3, and the answer
  :class:`MonotoneCheck`;
- :mod:`.rules`: rules an expert states, checked, and the answer :class:`RuleCheck` (the
  counting pass in :mod:`bnx.diagram._pairs`);
- :mod:`.reasons`: contrastive explanations, feature roles (the passes in
  :mod:`._contrastive`); :mod:`.checking`: checking an explanation;
- :mod:`.count`: the instances of a decision counted in a world;
- :mod:`.support`: the instances a network or a user allows (``within=``), as an
  :mod:`.instance_set` (questions asked within one in :mod:`._within`).

Every function takes a compiled :class:`~bnx.ODD`; the reasons take a
:class:`~bnx.MulticlassODD` too, each asked of one class formula
(:mod:`bnx.question._classes`: the decided class's, or a rival's with ``rival=``). The
sets they return are built on the diagram (:mod:`bnx.diagram.store`); what would change a
decision is in :mod:`bnx.changes`, the questions under the network's distribution in
:mod:`bnx.probability`.

The functions are imported with their module when first read (``import bnx`` stays light).
Tools for experts stay in their modules, not in ``bnx``: :func:`.mc.on_states` (the on states
an MC-explanation counts), :func:`.explanations.positives` (the instances of one decision),
:func:`.monotone.theorem3_holds` (the paper's Theorem 3 on one decision).
"""

from .._util.lazy import lazy_attributes

#: Each public name (``__all__``): the module that defines it, and its name there.
_LAZY = {
    "Explanations": ("bnx.explanation.explanations", "Explanations"),
    "InstanceSet": ("bnx.explanation.instance_set", "InstanceSet"),
    "mc_explanations": ("bnx.explanation.mc", "mc_explanations"),
    "check_monotone": ("bnx.explanation.monotone", "check_monotone"),
    "MonotoneCheck": ("bnx.explanation.monotone", "MonotoneCheck"),
    "check_rule": ("bnx.explanation.rules", "check_rule"),
    "check_rules": ("bnx.explanation.rules", "check_rules"),
    "RuleCheck": ("bnx.explanation.rules", "RuleCheck"),
    "pi_explanations": ("bnx.explanation.pi", "pi_explanations"),
    "prime_implicants": ("bnx.explanation.pi", "prime_implicants"),
    "general_reasons": ("bnx.explanation.general", "general_reasons"),
    "GeneralReasons": ("bnx.explanation.general", "GeneralReasons"),
    "ExplanationCheck": ("bnx.explanation.checking", "ExplanationCheck"),
    "check_explanation": ("bnx.explanation.checking", "check_explanation"),
    "contrastive_explanations": ("bnx.explanation.reasons", "contrastive_explanations"),
    "feature_roles": ("bnx.explanation.reasons", "feature_roles"),
    "count": ("bnx.explanation.count", "count"),
    "support": ("bnx.explanation.support", "support"),
    "forbid": ("bnx.explanation.support", "forbid"),
}

__getattr__ = lazy_attributes(globals(), _LAZY)

__all__ = list(_LAZY)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
