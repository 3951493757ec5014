"""bnx: exact symbolic explanations of Bayesian network classifiers.

Compile a Bayesian network classifier (any discrete pgmpy network: naive Bayes, latent
trees, TAN, general networks; a threshold on the class posterior or the most probable
class) into its decision function, an ordered decision diagram, and explain its decisions
exactly: MC- and PI-explanations (Shih, Choi and Darwiche, IJCAI 2018), contrastive
reasons, robustness, counterfactuals, bias and the same-decision probability; naive Bayes
of any width without compiling (:mod:`bnx.linear`); whole data sets (:func:`explain_data`).

The data flows one way, and so do the imports (``tests/test_imports.py`` checks that no
module imports one above it). From the bottom up, one line per layer:

- helpers: ``_types`` (type aliases), ``_version``, ``errors``, ``_lazy`` (imports on
  first use: public names, and numpy where a small saved ODD's questions go),
  ``backends`` (the ``dd`` managers), ``diagram`` (walks over ``dd`` nodes),
  ``encoding`` (features as bits), ``instances`` (rows and mappings as instances),
  ``rules`` (threshold, argmax);
- the diagram as arrays: ``array_lists`` (the passes a small loaded diagram needs, on
  Python lists), ``arrays`` (levels and children per node, in numpy) and
  ``dd_arrays`` (from and to ``dd``), ``feature_arrays`` (each node's child per state),
  ``drawing`` (pictures of a diagram);
- networks: ``network`` (files), ``network_json``, ``relevance``, ``tree``, ``inference``,
  ``sklearn``, ``agrum``, ``learning/`` (learning networks from data);
- the classifier: ``decisions`` (exact answers on instances), ``classifier``;
- ``serialization/`` (the ODD file: it returns parts), ``odd`` (the compiled value);
- ``compilation/``: one engine per module, :func:`compile` returns an :class:`ODD`;
- questions: ``explain/`` (explanations and every question on a decision), ``linear/``
  (naive Bayes and TANs too wide to compile), ``attribution/`` (SHAP and Banzhaf values,
  parameter sensitivity);
- data and pictures: ``batch``, ``batch_engine``, ``plot``, ``datasets``, ``case_study``,
  ``cli/`` (the ``bnx`` command); this package's ``__init__`` re-exports the public names.
"""

import warnings as _warnings

from ._lazy import lazy_attributes
from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
from .explain import _LAZY as _EXPLAIN_LAZY
from .explain import __all__ as _explain_all

from ._version import __version__  # noqa: E402,F401

# pgmpy and bnx's progress bars import tqdm.auto, which in a notebook without ipywidgets warns
# (with the path of the machine's tqdm) and then draws a text bar: the warning is noise.
_warnings.filterwarnings("ignore", message="IProgress not found", module="tqdm")

# Every name but the errors is imported with its module on first use: ``import bnx`` stays
# light, and loading a saved ODD and explaining one decision imports no pandas or pgmpy
# (nor numpy, on a small diagram: see bnx._lazy).
_LAZY = {"backends": ("bnx.backends", None), "examples": ("bnx.examples", None),
         "linear": ("bnx.linear", None),
         "Classifier": ("bnx.classifier", "Classifier"),
         "read_network": ("bnx.classifier", "read_network"),
         "ODD": ("bnx.odd", "ODD"),
         "compile": ("bnx.compilation", "compile"),
         "default_order": ("bnx.compilation", "default_order"),
         "estimate_size": ("bnx.compilation", "estimate_size"),
         "latent_tree_order": ("bnx.compilation", "latent_tree_order"),
         "naive_bayes_order": ("bnx.compilation", "naive_bayes_order"),
         "case_study": ("bnx.case_study", None), "datasets": ("bnx.datasets", None),
         "learn_naive_bayes": ("bnx.learning", "learn_naive_bayes"),
         "batch": ("bnx.batch", None), "plot": ("bnx.plot", None),
         "explain_data": ("bnx.batch", "explain_data"),
         "learn_tan": ("bnx.learning", "learn_tan"),
         "general_order": ("bnx.compilation.general", "general_order"),
         "tan_order": ("bnx.compilation.tan_model", "tan_order"),
         "Attributions": ("bnx.attribution", "Attributions"),
         "shap_values": ("bnx.attribution", "shap_values"),
         "banzhaf_values": ("bnx.attribution", "banzhaf_values"),
         "parameter_sensitivity": ("bnx.attribution", "parameter_sensitivity"),
         "plot_sensitivity": ("bnx.attribution", "plot_sensitivity")}


__getattr__ = lazy_attributes(globals(), {**_LAZY, **_EXPLAIN_LAZY})

__all__ = [
    "Attributions",
    "Classifier",
    "banzhaf_values",
    "explain_data",
    "learn_naive_bayes",
    "learn_tan",
    "ODD",
    "compile",
    "default_order",
    "estimate_size",
    "general_order",
    "backends",
    "batch",
    "parameter_sensitivity",
    "plot",
    "plot_sensitivity",
    "case_study",
    "datasets",
    "examples",
    "linear",
    "latent_tree_order",
    "naive_bayes_order",
    "read_network",
    "tan_order",
    "shap_values",
    *_explain_all,
    *_errors_all,
]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
