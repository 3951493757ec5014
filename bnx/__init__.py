"""bnx: exact symbolic explanations of Bayesian network classifiers.

Compile a Bayesian network classifier (any discrete pgmpy network: naive Bayes, latent
trees, TAN, general networks; a threshold on the class posterior or the most probable
class) into its decision function, an ordered decision diagram, and explain its decisions
exactly: MC- and PI-explanations (Shih, Choi and Darwiche, IJCAI 2018), contrastive
reasons, robustness, counterfactuals, bias and the same-decision probability; naive Bayes
of any width without compiling (:mod:`bnx.linear`); one decision of any network without
compiling (:mod:`bnx.local`); whole data sets (:func:`explain_data`).

The data flows one way, and so do the imports (``tests/test_imports.py`` checks that no
module imports one above it). The packages, from the bottom up:

- helpers: ``errors``, ``_version`` and ``_util/`` (type aliases, imports on first use,
  the wording of answers);
- ``network/`` (files, pyAgrum, scikit-learn, learning from data) and ``diagram/`` (the
  decision diagram's array form, its ``dd`` view, the passes over it, and the store and
  walks of the sets built on it), side by side;
- ``classifier/``: a network with its class and decision rule, decided exactly;
- ``odd/``: the compiled value and its file;
- ``compilation/``: :func:`compile` and its engines;
- ``question/``: what every question on an ODD shares (caches, instance indices, the
  passes over the diagram seen per feature);
- the questions: ``probability/`` (under the network's distribution: the same-decision
  probability, what to observe next), ``explanation/`` (reasons on the ODD: MC-, PI- and
  contrastive explanations, general reasons, rules and monotonicity), ``changes/``
  (robustness, counterfactuals and their costs, bias), ``attribution/`` (SHAP and Banzhaf
  values, parameter sensitivity), ``linear/`` (naive Bayes and TANs too wide to compile),
  ``local/`` (one decision of any network explained without compiling);
- data and pictures: ``tabular/`` (whole data sets, plots, shipped data and examples);
- ``report/`` (one decision in the class's own words: text, HTML, JSON, pictures);
- ``serve/`` (the explorer, a web page for people who do not write Python);
- ``cli/`` (the ``bnx`` command). This package's ``__init__`` re-exports the public names.
"""

import warnings as _warnings

from ._util.lazy import lazy_attributes
from ._version import __version__  # noqa: F401
from .changes import _LAZY as _CHANGES_LAZY
from .errors import *  # noqa: F403
from .errors import __all__ as _errors_all
from .explanation import _LAZY as _EXPLAIN_LAZY
from .probability import _LAZY as _PROBABILITY_LAZY

# pgmpy and bnx's progress bars import tqdm.auto, which in a notebook without ipywidgets warns
# (with the path of the machine's tqdm) and then draws a text bar: the warning is noise.
_warnings.filterwarnings("ignore", message="IProgress not found", module="tqdm")

# Every name but the errors is imported with its module on first use: ``import bnx`` stays
# light, and loading a saved ODD and explaining one decision imports no pandas or pgmpy
# (see bnx._util.lazy). ``__all__`` is these names.
_LAZY = {"backends": ("bnx.diagram.backends", None), "examples": ("bnx.tabular.examples", None),
         "linear": ("bnx.linear", None), "serve": ("bnx.serve", None),
         "local": ("bnx.local", None),
         "Classifier": ("bnx.classifier._classifier", "Classifier"),
         "read_network": ("bnx.network.readers", "read_network"),
         "ODD": ("bnx.odd._odd", "ODD"),
         "MulticlassODD": ("bnx.odd._odd", "MulticlassODD"),
         "compile": ("bnx.compilation", "compile"),
         "estimate_size": ("bnx.compilation", "estimate_size"),
         # the variable orders and the engines: bnx.compilation.default_order, ...
         "compilation": ("bnx.compilation", None),
         "case_study": ("bnx.tabular.case_study", None), "datasets": ("bnx.tabular.datasets", None),
         "learn_naive_bayes": ("bnx.network.learning", "learn_naive_bayes"),
         "batch": ("bnx.tabular.batch", None), "plot": ("bnx.tabular.plot", None),
         "explain_data": ("bnx.tabular.batch", "explain_data"),
         "learn_tan": ("bnx.network.learning", "learn_tan"),
         "Attributions": ("bnx.attribution", "Attributions"),
         "shap_values": ("bnx.attribution", "shap_values"),
         "banzhaf_values": ("bnx.attribution", "banzhaf_values"),
         "parameter_sensitivity": ("bnx.attribution", "parameter_sensitivity"),
         "plot_sensitivity": ("bnx.attribution", "plot_sensitivity"),
         "Report": ("bnx.report", "Report"),
         "plot_network": ("bnx.report", "plot_network"),
         # the function; while the package bnx/explanation/ keeps its name, it shadows this
         "explain": ("bnx.report", "explain")}


__getattr__ = lazy_attributes(
    globals(), {**_LAZY, **_EXPLAIN_LAZY, **_PROBABILITY_LAZY, **_CHANGES_LAZY})

#: every public name, each listed once: in the tables above and the errors' ``__all__``
__all__ = [*_LAZY, *_EXPLAIN_LAZY, *_PROBABILITY_LAZY, *_CHANGES_LAZY, *_errors_all]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
