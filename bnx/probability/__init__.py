"""Questions under the network's distribution: they take the classifier, not only its ODD.

- :mod:`.same_decision`: the same-decision probability, exact (a pass along the ODD with
  the network's factors: :mod:`.frontier`) or in floats with a proven bound (the dense
  joint of :mod:`._dense`, the distribution under the evidence in :mod:`.under`);
- :mod:`.observe`: what to observe next; :mod:`.probable`: probable reasons;
  :mod:`.fairness`: group fairness.

The rules an expert states (:mod:`bnx.explanation.rules`) are weighed under the network by
:mod:`.frontier` and :mod:`.under` too. The functions are imported with their module when
first read (``import bnx`` stays light).
"""

from .._util.lazy import lazy_attributes

#: Each public name (``__all__``): the module that defines it, and its name there.
_LAZY = {
    "same_decision_probability": ("bnx.probability.same_decision", "same_decision_probability"),
    "next_observations": ("bnx.probability.observe", "next_observations"),
    "ProbableReasons": ("bnx.probability.probable", "ProbableReasons"),
    "probable_reasons": ("bnx.probability.probable", "probable_reasons"),
    "group_fairness": ("bnx.probability.fairness", "group_fairness"),
}

__getattr__ = lazy_attributes(globals(), _LAZY)

__all__ = list(_LAZY)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
