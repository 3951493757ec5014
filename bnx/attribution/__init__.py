"""Attributions and parameter sensitivity of a classifier's decisions.

- :mod:`.shapley`: the exact SHAP and Banzhaf passes over an ODD's diagram;
- :mod:`.values`: :func:`shap_values` and :func:`banzhaf_values` (instances and
  backgrounds in, :class:`Attributions` out);
- :mod:`.network_background`, :mod:`.chain`: a classifier's network as the background
  (a mixture of products on naive Bayes and latent trees; drawn along the ODD's order
  with a context on networks without hidden nodes);
- :mod:`.result`: :class:`Attributions`;
- :mod:`.sensitivity`: :func:`parameter_sensitivity`, how far each CPT entry may move
  (its column co-varied proportionally) before a decision changes; without an instance
  :mod:`.sensitivity_all` (naive Bayes and TAN), with the Pareto frontiers of
  :mod:`.sensitivity_paths` over the diagram's paths;
- :mod:`._draw`: their matplotlib pictures (matplotlib imported on use).

This is the questions layer: it reads the ODD and the classifier, nothing above them.
"""

from .result import Attributions
from .sensitivity import parameter_sensitivity, plot_sensitivity
from .values import banzhaf_values, shap_values

__all__ = ["Attributions", "shap_values", "banzhaf_values", "parameter_sensitivity",
           "plot_sensitivity"]

