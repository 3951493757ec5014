"""Expand-then-merge compilation of a classifier into its decision function (a package).

The engines live in :mod:`.engines`, one module each, all keeping one contract
(:class:`~.engines.Engine`: what it accepts, with the reason when it does not, and the
decision function as arrays): :mod:`.engines.naive_bayes_levels` and :mod:`.engines.naive_bayes`
(binary-class naive Bayes), :mod:`.engines.latent_tree` (binary-class latent trees),
:mod:`.engines.tan` (TANs, k-dependence and BAN classifiers with small open contexts, on
two class states or the argmax rule's comparisons, conjoined by :mod:`.conjunction`),
:mod:`.engines.tensor` (naive Bayes and latent trees with any class) and
:mod:`.engines.general` (every network and rule: variable elimination along the order).
:mod:`._choose` picks the engine (the first of one ordered list that accepts), for
:func:`compile` (:mod:`._compile`) and :func:`estimate_size` (:mod:`.estimate`) alike;
:mod:`.orders` holds the variable orders, :mod:`.budget` the node budget.

Features are observed one at a time in the ODD's order (Algorithm 1 of Shih, Choi
and Darwiche for naive Bayes, Algorithm 2 for latent trees). The classifier that
remains after observing a prefix of the order is summarised by a *state*, and the
compiler keeps one diagram node per class of states with the same decision
function on the features still to come (the merge step). It never enumerates
instances: each node is expanded once per state of its feature.

The engines, all exact (``docs/compilation.md`` gives the arguments):

* Binary class, naive Bayes: the state is the odds ratio
  ``rho = (1 - T) Pr(c, y) / (T Pr(not c, y))`` of the observed prefix ``y``, a rational
  number (or infinity). The states with the same remaining decision function form
  an interval of ``rho``; the compiler computes that interval exactly while it builds
  the node (it is the intersection of the children's intervals pulled back through
  each feature's likelihood ratio) and finds later states in it by binary search.
  Equivalence is necessary and sufficient: one node per distinct function.
* Binary class, latent tree: the state is ``(rho, K)`` where ``K >= 0`` is the exact
  integer tensor over the class and the latent nodes that separate observed from
  unobserved features. For a fixed ``K`` (up to a positive factor) the remaining
  decision is monotone in ``rho``, so its classes are again exact intervals of
  ``rho``; when a subtree of the class is complete, ``K`` folds into ``rho``. Merging is
  complete among states with proportional ``K`` and at every subtree boundary.
* A class with more than two states: the state is the exact tensor
  ``Pr(c, y, s) * w(c)`` over the class and the separator (``w(positive) = 1 - T``,
  ``w(other) = -T``). States equal up to a positive factor are merged, and a state
  whose decision is settled by exact bounds on the rest becomes a terminal. This
  test is sufficient, not necessary.

* Binary class, TAN (any network whose pruned factors are pairwise over a forest of
  features): the state is ``(s, k)``, the log-odds and the states of the open features
  (observed, with a tree neighbour still to come); per context ``k`` the classes are
  intervals of ``s`` between exact breakpoints, as for naive Bayes. Under
  ``rule="argmax"`` with more than two classes, each comparison
  ``Pr(a, x) >= Pr(b, x)`` is such a pairwise log-odds, compiled the same way and
  conjoined as arrays.
* Any other network, and ``rule="argmax"`` over more than two classes (the conjunction
  of pairwise comparisons of the positive state with the others; two classes are the
  threshold 1/2 of the first state, for every engine): states ``(rho, K)`` with ``K`` the normalised
  factors that depend on the prefix, exact intervals of ``rho`` per ``K``, and a bounded
  tail of complete truth tables (see ``docs/compilation.md``).

In every case ``dd``'s unique table makes the resulting diagram reduced and canonical.
"""

from ._compile import compile
from .engines import general_order, tan_order
from .estimate import estimate_size
from .orders import default_order, latent_tree_order, naive_bayes_order

__all__ = ["compile", "default_order", "estimate_size", "general_order", "latent_tree_order",
           "naive_bayes_order", "tan_order"]
