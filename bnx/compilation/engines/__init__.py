"""The compilation engines, one module each, all keeping one contract (:mod:`._base`).

Each engine says what it accepts (:meth:`Engine.accepts`, a :class:`Verdict` with the
reason) and returns the decision function as
:class:`~bnx.diagram._arrays.DiagramArrays` (:meth:`Engine.run`). In the order in which
:func:`bnx.compilation._choose.choose` asks them:

* :mod:`.naive_bayes_levels`: binary-class naive Bayes, a level at a time in floating point with
  exact ties (probabilities that doubles hold);
* :mod:`.naive_bayes`: binary-class naive Bayes, exact odds ratios merged by intervals;
* :mod:`.latent_tree`: binary-class latent trees, ``(rho, K)`` with exact intervals;
* :mod:`.tan`: TANs, k-dependence and BAN classifiers with small open contexts, on two
  class states or the argmax rule's comparisons conjoined as arrays;
* :mod:`.tensor`: naive Bayes and latent trees with any class, exact separator tensors;
* :mod:`.general`: every network and rule, by variable elimination along the order.

The modules whose names start with ``_`` support them: exact intervals of the odds
(:mod:`._intervals`), the naive Bayes log-weights (:mod:`._weights`), the TAN models
and orders (:mod:`._tan_model`, :mod:`._context_order`), the elimination plan and its
execution (:mod:`._plan`, :mod:`._execution`,
:mod:`._bounds`), the bounded tail of truth tables (:mod:`._tail`, :mod:`._truth`,
:mod:`._contraction`) and the size estimates (:mod:`._estimates`).
"""

from ._base import DdEngine, Engine, Verdict
from ._tan_model import tan_order
from .general import FactorEngine, general_order
from .latent_tree import SplitEngine
from .naive_bayes import RatioEngine
from .naive_bayes_levels import LevelEngine
from .tan import TanEngine
from .tensor import TensorEngine

__all__ = ["DdEngine", "Engine", "FactorEngine", "LevelEngine", "RatioEngine", "SplitEngine",
           "TanEngine", "TensorEngine", "Verdict", "general_order", "tan_order"]
