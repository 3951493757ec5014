"""bnx: exact symbolic explanations of Bayesian network classifiers.

Compile a naive Bayes or latent-tree classifier into its decision function, an
ordered decision diagram, and explain its decisions with MC- and PI-explanations
(Shih, Choi and Darwiche, IJCAI 2018).

The data flows one way: network -> :class:`Classifier` -> :func:`compile` ->
:class:`ODD` -> explanations.
"""

from . import backends, case_study, datasets, examples
from .classifier import Classifier, read_network
from .compilation import (compile, default_order, general_order, latent_tree_order,
                          naive_bayes_order)
from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors_all
from .explain import (Explanations, is_monotone, mc_explanations, monotone_counterexample,
                      on_states, pi_explanations, prime_implicants, theorem3_holds)
from .learning import learn_naive_bayes, learn_tan
from .odd import ODD

__version__ = "0.1.0"

__all__ = [
    "Classifier",
    "Explanations",
    "is_monotone",
    "learn_naive_bayes",
    "learn_tan",
    "mc_explanations",
    "monotone_counterexample",
    "theorem3_holds",
    "on_states",
    "pi_explanations",
    "prime_implicants",
    "ODD",
    "compile",
    "default_order",
    "general_order",
    "backends",
    "case_study",
    "datasets",
    "examples",
    "latent_tree_order",
    "naive_bayes_order",
    "read_network",
    *_errors_all,
]
