"""What would change a decision: distances to the other decision, and their prices.

- :mod:`._robustness`: robustness (the fewest changes that flip a decision),
  counterfactuals, the robustness profile of a classifier (its erosions counted in
  :mod:`._erosion`);
- :mod:`.costs`: counterfactuals with costs and immutable features
  (:class:`~bnx.changes.costs.Counterfactuals`);
- :mod:`.bias`: decision bias on protected features, and its answer :class:`Bias`.

Every function takes a compiled :class:`~bnx.ODD`; the passes are those of
:mod:`bnx.question._reach` over the diagram seen per feature, and the sets they return are
:class:`~bnx.explanation.explanations.Explanations`. The functions are imported with their
module when first read (``import bnx`` stays light).
"""

from .._util.lazy import lazy_attributes

#: Each public name (``__all__``): the module that defines it, and its name there.
_LAZY = {
    "Bias": ("bnx.changes.bias", "Bias"),
    "Counterfactuals": ("bnx.changes.costs", "Counterfactuals"),
    "count_biased": ("bnx.changes.bias", "count_biased"),
    "decision_bias": ("bnx.changes.bias", "decision_bias"),
    "counterfactuals": ("bnx.changes._robustness", "counterfactuals"),
    "robustness": ("bnx.changes._robustness", "robustness"),
    "robustness_profile": ("bnx.changes._robustness", "robustness_profile"),
}

__getattr__ = lazy_attributes(globals(), _LAZY)

__all__ = list(_LAZY)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
