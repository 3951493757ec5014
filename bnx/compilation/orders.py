"""Variable orders for compilation: which feature the ODD tests first.

The order decides the diagram's size. Naive Bayes classifiers take the most
influential features first (:func:`naive_bayes_order`); latent trees take
Algorithm 2's order (:func:`latent_tree_order`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from .._util.types import Feature
from ..classifier._classifier import Classifier
from ..errors import OrderError

__all__ = ["naive_bayes_order", "latent_tree_order", "default_order", "check_order"]


def naive_bayes_order(clf: Classifier) -> list:
    """Features by decreasing spread of their log-likelihood ratios (ties: network order).

    The spread of a feature is ``max_v log(p_v / q_v) - min_v log(p_v / q_v)`` with
    ``p_v = Pr(v | positive)`` and ``q_v = Pr(v | not positive)``; a zero makes it
    infinite. Influential features come first, so that many prefixes settle the
    decision early and the diagram stays small. A multi-class classifier's class formulas
    share one order: a feature's spread is the sum of its spreads between every two class
    states (on a 5-class naive Bayes of 30 features, ``bench/multiclass.py``'s nb5x30, the
    class formulas take 4.0 M nodes together in this order against 5.0 M in the first
    class's).

    Parameters
    ----------
    clf : Classifier
        A naive Bayes classifier.

    Returns
    -------
    list
        The features, in the order to compile them.

    See Also
    --------
    bnx.compilation.default_order : The order compile uses, this one for naive Bayes.
    bnx.estimate_size : How large the diagram in an order will be.

    Examples
    --------
    >>> import bnx
    >>> bnx.compilation.naive_bayes_order(bnx.examples.admissions())
    ['GPA', 'WorkExperience', 'FirstTimeApplicant', 'EntranceExam']
    """
    prior = clf.table(clf.class_var)[0]

    def ratio_spread(f, p_of, q_of):
        t = clf.table(f)
        ratios = []
        for v in range(len(clf.states(f))):
            p, q = p_of(t, v), q_of(t, v)
            if p == 0 or q == 0:
                return math.inf if p != q else 0.0
            ratios.append(math.log(p) - math.log(q))
        return max(ratios) - min(ratios)

    if clf.multiclass:
        pairs = list(itertools.combinations(range(len(clf.classes)), 2))

        def spread(f):
            return sum(ratio_spread(f, lambda t, v, a=a: t[a][v], lambda t, v, b=b: t[b][v])
                       for a, b in pairs)
    else:
        pos = clf.class_states.index(clf.positive)
        negw = [(c, prior[c]) for c in range(len(prior)) if c != pos]
        total = sum((w for _, w in negw), Fraction(0))

        def spread(f):
            return ratio_spread(
                f, lambda t, v: t[pos][v],
                lambda t, v: ((sum((w * t[c][v] for c, w in negw), Fraction(0)) / total)
                              if total else Fraction(0)))

    feats = list(clf.features)
    return sorted(feats, key=lambda f: -spread(f))


def latent_tree_order(clf: Classifier) -> list:
    """Order the features by Algorithm 2.

    Descend into a lone unprocessed inner child, else take the child subtree with the fewest
    features and emit its leaves (recursively in the same order).

    Parameters
    ----------
    clf : Classifier
        A latent-tree classifier: the class at the root of a tree whose leaves are the
        features and whose inner nodes are hidden.

    Returns
    -------
    list
        The features, in the order to compile them.

    See Also
    --------
    bnx.compilation.default_order : The order compile uses, this one for latent trees.

    Examples
    --------
    The class ``C`` has a hidden child ``H`` above ``a`` and ``b``, and ``c`` below itself:
    the subtree with the fewest features (``c``) comes first.

    >>> import bnx
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy.factors.discrete import TabularCPD
    >>> edges = [("C", "H"), ("H", "a"), ("H", "b"), ("C", "c")]
    >>> net = DiscreteBayesianNetwork(edges)
    >>> net.add_cpds(TabularCPD("C", 2, [[0.4], [0.6]]), *(
    ...     TabularCPD(v, 2, [[0.3, 0.8], [0.7, 0.2]], evidence=[u], evidence_card=[2])
    ...     for u, v in edges))
    >>> bnx.compilation.latent_tree_order(bnx.Classifier(net, "C", 1, features=["a", "b", "c"]))
    ['c', 'a', 'b']
    """
    feats = set(clf.features)
    size: dict = {}
    below, stack = [], [clf.class_var]  # the tree's nodes, parents before children
    while stack:
        n = stack.pop()
        below.append(n)
        if n not in feats:
            stack.extend(clf.children(n))
    for n in reversed(below):
        size[n] = 1 if n in feats else sum(size[ch] for ch in clf.children(n))
    return _emit(clf, clf.class_var, feats, size)


def _emit(clf: Classifier, root, feats: set, size: dict) -> list:
    """Emit the leaves below ``root`` in Algorithm 2's order.

    Down a lone unprocessed inner child, else the smallest child subtree first, each
    subtree's leaves in the same order (a loop over a stack of the subtrees being emitted,
    however deep the tree).
    """
    out: list = []
    stack = [(root, set())]  # (the node reached in a subtree, its children processed)
    while stack:
        r, processed = stack[-1]
        if r in feats:
            out.append(r)
            stack.pop()
            continue
        unprocessed = [ch for ch in clf.children(r) if ch not in processed]
        if not unprocessed:
            stack.pop()
            continue
        if len(unprocessed) == 1 and unprocessed[0] not in feats:
            stack[-1] = (unprocessed[0], set())
            continue
        c = min(unprocessed, key=lambda ch: size[ch])
        processed.add(c)
        stack.append((c, set()))
    return out


def default_order(clf: Classifier, *, timeout: float | None = None) -> list:
    """Return the order :func:`~bnx.compile` uses by default.

    :func:`naive_bayes_order` for naive Bayes, Algorithm 2 for latent trees,
    :func:`~bnx.compilation.tan_order` for TANs and for other classifiers without hidden
    variables (k-dependence, BAN: its greedy order when the open contexts fit the TAN
    engine), :func:`~bnx.compilation.general_order` otherwise. A multi-class classifier's
    class formulas share one order: for naive Bayes, :func:`naive_bayes_order`'s spread
    summed over every two class states; otherwise the order of its first class formula.

    Parameters
    ----------
    clf : Classifier
        Any classifier.
    timeout : float, optional
        Seconds the greedy orders may take (munin's takes about ten); past them a
        :class:`~bnx.CompilationLimitError`. ``None``: no bound.

    Returns
    -------
    list
        The features, in the order to compile them.

    Raises
    ------
    CompilationLimitError
        The order was not chosen within ``timeout``.

    See Also
    --------
    bnx.compilation.naive_bayes_order : The order for naive Bayes.
    bnx.compilation.latent_tree_order : The order for latent trees (Algorithm 2).
    bnx.compilation.tan_order : The order for TANs and other classifiers without hidden variables.
    bnx.compilation.general_order : The order for every other network.
    bnx.compile : Compiles in this order unless given another.

    Examples
    --------
    >>> import bnx
    >>> bnx.compilation.default_order(bnx.examples.admissions())
    ['GPA', 'WorkExperience', 'FirstTimeApplicant', 'EntranceExam']
    >>> bnx.compilation.default_order(bnx.examples.asia())
    ['asia', 'xray', 'smoke', 'dysp']
    """
    if clf.multiclass and clf.structure != "naive_bayes":
        clf = clf.class_classifier(clf.classes[0])
    if clf.structure == "naive_bayes":
        return naive_bayes_order(clf)
    if clf.structure == "latent_tree":
        return latent_tree_order(clf)
    if clf.structure in ("tan", "general"):  # tan_order falls back to general_order
        from .engines._tan_model import tan_order
        return tan_order(clf, timeout=timeout)
    from .engines.general import general_order
    return general_order(clf, timeout=timeout)


def check_order(clf: Classifier, order: Sequence[Feature] | None, *,
                timeout: float | None = None) -> list:
    """Return the order to compile with: ``order`` checked, or the default.

    ``order`` must be a permutation of the features; the default is chosen within
    ``timeout`` (:func:`default_order`).
    """
    if order is None:
        return default_order(clf, timeout=timeout)
    if isinstance(order, (str, bytes)) or not isinstance(order, Iterable):
        raise OrderError(f"order must be a list of features, got {order!r}")
    order = list(order)
    feats = set(clf.features)
    for f in order:
        try:
            hash(f)
        except TypeError:
            raise OrderError(f"order names {f!r}, which is not a feature") from None
    unknown = [f for f in order if f not in feats]
    if unknown:
        raise OrderError(f"order names {unknown[0]!r}, which is not a feature")
    if len(set(order)) != len(order):
        dup = next(f for f in order if order.count(f) > 1)
        raise OrderError(f"order lists feature {dup!r} twice")
    missing = [f for f in clf.features if f not in set(order)]
    if missing:
        raise OrderError(f"order leaves out feature {missing[0]!r}")
    return order

