"""A cheap estimate of the size of a classifier's ODD, before compiling it."""

from __future__ import annotations

from collections.abc import Sequence

from .._util.guard import question
from .._util.types import Feature
from ..classifier._classifier import Classifier
from ..diagram.encoding import Encoding
from ..errors import ArgumentError, BnxError, CompilationLimitError
from ._choose import Choice, choose
from .engines import FactorEngine
from .engines._estimates import crude_estimate
from .orders import check_order

__all__ = ["estimate_size", "choices", "refuse_past"]

#: The samples and seed of :func:`estimate_size`'s defaults, which :func:`refuse_past` uses.
SAMPLES, SEED = 4000, 0


@question
def estimate_size(clf: Classifier, order: Sequence[Feature] | None = None, *,
                  samples: int = SAMPLES, seed: int = SEED) -> int:
    """Estimate the number of nodes of ``bnx.compile(clf, order)`` in milliseconds.

    The width of the diagram at feature ``i`` is at most the number of prefixes of
    the order that do not settle the decision yet, and at most the number of
    distinct functions on the features after ``i``. For a binary-class naive
    Bayes classifier both are estimated by sampling ``samples`` random instances
    (uniform over each feature's states): a prefix is unsettled when its log-odds
    lies between the extreme completions, and the functions at level ``i`` are the
    intervals between the log-likelihood ratios of completions that fall in the
    range the prefixes reach. The estimate sums the smaller of the two per level;
    on the benchmark naive Bayes classifiers (16 to 40 features) it is 1.3 to 3
    times the real size (``docs/compilation.md``). Binary-class TANs, k-dependence and
    BAN classifiers (every network the TAN engine compiles) are sampled the same way,
    each level's breakpoints counted once per open context (on k-dependence classifiers
    the estimate is 4 to 10 times too low), and so are the comparisons of the argmax rule
    over more than two classes on them (their conjunction's widths bounded by the
    products of theirs; 3 to 10 times the real size on ``bench/tan.py``'s). For latent
    trees, multi-class classifiers under the threshold rule and networks with hidden
    variables it is the cruder ``sum_i min(prefixes, completions)``. Under the argmax rule
    over two classes, as for the threshold 1/2 it compiles as. The estimate follows the
    engine :func:`compile` chooses. A multi-class classifier's is the sum of its class
    formulas' estimates (their shared nodes counted once per formula).

    Parameters
    ----------
    clf : Classifier
        The classifier to compile.
    order : sequence of features, optional
        The feature order (default: :func:`~bnx.compilation.default_order`).
    samples : int, default 4000
        The random instances sampled per estimate.
    seed : int, default 0
        The seed of the sampling: the same seed gives the same estimate.

    Returns
    -------
    int

    See Also
    --------
    bnx.compile : The diagram itself.
    bnx.compilation.default_order : The order estimated when none is given.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> est = bnx.estimate_size(clf)
    >>> 1 <= est <= 2 ** 5
    True
    """
    if not isinstance(clf, Classifier):
        raise BnxError(f"estimate_size expects a bnx.Classifier, got {type(clf).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be a positive integer, got {samples!r}")
    order = check_order(clf, order)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    return _estimate(choices(clf, enc), enc, samples, seed)


def choices(clf: Classifier, enc: Encoding) -> list[Choice]:
    """Return the engines' choices that compile ``clf`` along ``enc``.

    One, or one per class formula of a multi-class classifier (each an argmax classifier of
    its state).
    """
    if clf.multiclass:
        return [choose(one, enc) for one in map(clf.class_classifier, clf.classes)]
    return [choose(clf, enc)]


def _estimate(chosen: Sequence[Choice], enc: Encoding, samples: int, seed: int) -> int:
    """Sum the estimates of the choices (a multi-class ODD holds every formula)."""
    size = 0
    for choice in chosen:
        got = choice.estimate(enc, samples, seed)
        size += crude_estimate(enc) if got is None else got
    return size


def _ceiling(enc: Encoding) -> int:
    """Bound every engine's estimate: below the budget, no sampling is needed.

    Each level's term is at most its prefixes times its states less one.
    """
    total, prefixes = 2, 1
    for states in enc.states:
        total += max(1, len(states) - 1) * prefixes
        prefixes *= len(states)
        if total > 2 ** 62:
            break
    return total


#: The classifiers' structures in words.
_KINDS = {"naive_bayes": "naive Bayes", "tan": "TAN", "latent_tree": "latent tree"}


def refuse_past(clf: Classifier, chosen: Sequence[Choice], enc: Encoding, limit: int, *,
                default: bool) -> None:
    """Raise :class:`~bnx.CompilationLimitError` when ``clf``'s ODD is estimated past ``limit``.

    Compiled by the ``chosen`` engines along ``enc`` (one choice, or one per class formula
    of a multi-class classifier, their estimates summed), past ``limit`` nodes (``default``:
    the limit is :func:`~bnx.compile`'s default); the error gives the estimate and the ways
    forward.
    """
    if _ceiling(enc) * len(chosen) <= limit:
        return
    size = 0
    for choice in chosen:
        got = choice.estimate(enc, SAMPLES, SEED)
        if got is None and choice.engine is not FactorEngine:
            # latent trees and the tensor engine have no estimate of their own, and the
            # crude bound is far above what they build (a latent chain of 200 features:
            # 2**100 for about 400 nodes): only max_nodes while building stops them
            return
        size += crude_estimate(enc) if got is None else got
    if size <= limit:
        return
    kind = _KINDS.get(clf.structure, clf.structure.replace("_", " "))
    budget = f"max_nodes={limit}" + (" (the default budget)" if default else "")
    if clf.structure in ("naive_bayes", "tan") and len(clf.class_states) == 2 \
            and not clf.multiclass:
        way = (f"To explain one instance without compiling: bnx.explain(clf, x) takes "
               f"this {kind} classifier (bnx.linear, as bnx explain does)")
    else:
        answers = ("clf.predict(x) and clf.class_probabilities(x)" if clf.multiclass
                   else "clf.decide(x) and clf.posterior(x)")
        way = (f"Without compiling, bnx.linear explains naive Bayes and TAN classifiers with "
               f"a two-state class only; on this {kind} network {answers} answer one "
               f"instance exactly without compiling, and fewer features (features=) make a "
               f"smaller ODD")
    raise CompilationLimitError(
        f"the ODD is estimated at {size:,} nodes ({len(enc.features)} features), past "
        f"{budget}: refused before compiling. {way}; to compile anyway, "
        f"raise max_nodes (max_nodes=math.inf, or --max-nodes inf on the command line, "
        f"lifts the budget) or try another order")
