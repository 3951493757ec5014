"""Expand-then-merge compilation of a classifier into its decision function (a package).

One engine per module: :mod:`.naive_bayes` (binary-class naive Bayes, exact
intervals), :mod:`.latent_tree` (binary-class latent trees), :mod:`.tensor` (naive
Bayes and latent trees with any class), :mod:`.tan` (binary-class TANs, k-dependence and
BAN classifiers with small open contexts, a level at a time, :mod:`.tan_model`, ordered by
:mod:`.context_order` when not a forest; also each
comparison of the argmax rule over more than two classes on them, conjoined by
:mod:`.conjunction`),
:mod:`.general` (every other network and the argmax rule over more than two classes:
variable elimination along the order, planned by :mod:`.plan`);
:mod:`.orders` holds the variable orders, :mod:`.intervals` the interval machinery the
binary engines share, :mod:`.budget` the node budget.

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

from __future__ import annotations

import sys
from collections.abc import Sequence
from fractions import Fraction

from .._lazy import lazy_attributes
from .._types import Feature
from ..diagram._arrays import DiagramArrays, negate
from ..diagram.backends import new_manager, resolve_backend
from ..classifier._classifier import Classifier
from ..diagram._passes import recursion_for
from ..diagram.encoding import Encoding
from ..errors import BnxError
from ..classifier._rules import argmax_pairs
from .budget import Budget
from .conjunction import conjoin, domain
from .estimate import estimate_size
from .levels import LevelEngine as _LevelEngine  # noqa: F401 (looked up by name)
from .levels import log_weights
from .naive_bayes import RatioEngine as _RatioEngine  # noqa: F401 (looked up by name)
from .orders import check_order, default_order, latent_tree_order, naive_bayes_order

from ..odd._odd import ODD

#: Engines that import numpy, loaded when first compiled with (loading a saved ODD and
#: explaining never needs them).
_LAZY = {"_SplitEngine": (".latent_tree", "SplitEngine"),
         "_TensorEngine": (".tensor", "TensorEngine"),
         "_FactorEngine": (".general", "FactorEngine"),
         "_TanEngine": (".tan", "TanEngine"),
         "_tan_model": (".tan_model", "tan_model"),
         "general_order": (".general", "general_order"),
         "tan_order": (".tan_model", "tan_order")}


__getattr__ = lazy_attributes(globals(), _LAZY)


__all__ = ["compile", "default_order", "estimate_size", "general_order", "latent_tree_order",
           "naive_bayes_order", "tan_order"]


def compile(clf: Classifier, order: Sequence[Feature] | None = None, *,
            backend: str = "auto", max_nodes: int | None = None,
            timeout: float | None = None, progress: bool = False) -> "ODD":
    """Compile a classifier into its decision function, an :class:`~bnx.ODD`.

    Parameters
    ----------
    clf : Classifier
    order : list of features, optional
        The ODD's variable order. Default: :func:`default_order`.
    backend : {"auto", "autoref", "cudd"}
        The ``dd`` backend; ``"auto"`` takes CUDD when it imports.
    max_nodes : int, optional
        Stop with :class:`~bnx.CompilationLimitError` once more than this many
        nodes have been expanded (for naive Bayes: once it holds more than
        this many states, about 1.3 times the ODD's nodes).
    timeout : float, optional
        Stop with :class:`~bnx.CompilationLimitError` once this many seconds
        have passed (checked between batches of work, a fraction of a second
        apart on large compiles).
    progress : bool
        Show a ``tqdm`` progress bar of the nodes made (on stderr).

    Returns
    -------
    'ODD'
        The classifier's decision function as a decision diagram.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> odd.count(), odd.size
    (6, 6)
    """
    if not isinstance(clf, Classifier):
        raise BnxError(f"compile expects a bnx.Classifier, got {type(clf).__name__}")
    order = check_order(clf, order)
    name = resolve_backend(backend)
    budget = Budget(max_nodes, timeout=timeout, progress=progress)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(name, enc.variables)
    with recursion_for(enc.nvars):
        try:
            root = _engines(clf, enc, bdd, budget)
        finally:
            budget.close()
        if isinstance(root, DiagramArrays):  # level and TAN engines: false on unused codes
            return ODD(clf, enc, backend=name, arrays=root)
        domain = enc.domain(bdd)
        if domain != bdd.true:  # the dd engines may be true on codes that name no state
            root = root & domain
    return ODD(clf, enc, backend=name, bdd=bdd, root=root)


def _conjoin_pairs(enc: Encoding, bdd, budget: Budget, pos: int, pairs, models):
    """The argmax rule's decision as arrays: the TAN engine's comparisons (``>=`` as is,
    ``>`` the negation of the reversed one), conjoined without dd; the domain joins the
    conjunction when every comparison is negated (a negation is true on unused codes)."""
    engines = sys.modules[__name__]
    ge = [engines._TanEngine(enc, bdd, budget, m).run() for m in models]
    keep = [g for g, (a, _) in zip(ge, pairs) if a == pos]
    flip = [negate(g) for g, (a, _) in zip(ge, pairs) if a != pos]
    out = keep[0] if keep else domain(enc)
    for g in keep[1:] + flip:
        out = conjoin(out, g, budget=budget)
    return out


def _engines(clf: Classifier, enc: Encoding, bdd, budget: Budget):
    """The decision function's root from the engine that fits the classifier (looked up
    by name in this module: the numpy engines load on first use): arrays, false on every
    code that names no state, or a ``dd`` node that ``compile`` conjoins with the domain."""
    engines = sys.modules[__name__]
    tree = clf.structure in ("naive_bayes", "latent_tree")
    pos = clf.class_states.index(clf.positive)
    if clf.rule == "argmax":
        if len(clf.class_states) == 2:
            # two classes: the first wins iff Pr(first) >= Pr(second), the threshold rule at
            # 1/2 with the first state positive, which the fast engines compile
            first = Classifier(clf.network, clf.class_var, clf.class_states[0],
                               threshold=Fraction(1, 2), features=clf.features)
            root = _engines(first, enc, bdd, budget)
            if pos == 0:
                return root
            if isinstance(root, DiagramArrays):  # negated within the domain, as arrays
                return conjoin(domain(enc), negate(root), budget=budget)
            return ~root
        # positive iff Pr(pos) > Pr(c) for every earlier c and >= for every later c
        pairs = argmax_pairs(len(clf.class_states), pos)  # each: Pr(a) >= Pr(b)
        models = []
        for p in pairs:  # all or none: the contexts are the network's, not the pair's
            models.append(engines._tan_model(clf, enc.features, pair=p, weights=(1, 1)))
            if models[-1] is None:
                break
        if models[-1] is not None:  # pairwise forests: arrays, conjoined
            return _conjoin_pairs(enc, bdd, budget, pos, pairs, models)
        root = bdd.true
        for (a, b) in pairs:
            ge = engines._FactorEngine(clf, enc, bdd, budget, pair=(a, b), weights=(1, 1)).run()
            root = root & (ge if a == pos else ~ge)
        return root
    t = clf.threshold
    if len(clf.class_states) != 2:
        if tree:
            return engines._TensorEngine(clf, enc, bdd, budget).run()
        weights = tuple(1 - t if c == pos else -t for c in range(len(clf.class_states)))
        return engines._FactorEngine(clf, enc, bdd, budget, pair=None,
                                     weights=weights).run()
    if clf.structure == "latent_tree":
        return engines._SplitEngine(clf, enc, bdd, budget).run()
    if clf.structure == "naive_bayes":
        weights = log_weights(clf, enc.features)
        if weights is None:  # a probability a double cannot hold: the exact engine
            return engines._RatioEngine(clf, enc, bdd, budget).run()
        # (arrays, false on unused codes: compile() sees that from their type)
        return engines._LevelEngine(clf, enc, bdd, budget, weights).run()
    model = engines._tan_model(clf, enc.features)  # no hidden variable, small contexts
    if model is not None:
        return engines._TanEngine(enc, bdd, budget, model).run()  # arrays, as above
    return engines._FactorEngine(clf, enc, bdd, budget, pair=(pos, 1 - pos),
                                 weights=(1 - t, t)).run()
