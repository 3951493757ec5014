"""A cheap estimate of the size of a classifier's ODD, before compiling it."""

from __future__ import annotations

from collections.abc import Sequence

from .._util.types import Feature
from ..classifier._classifier import Classifier
from ..diagram.encoding import Encoding
from ..errors import ArgumentError, BnxError
from ._choose import choose
from .engines._estimates import crude_estimate
from .orders import check_order

__all__ = ["estimate_size"]


def estimate_size(clf: Classifier, order: Sequence[Feature] | None = None, *,
                  samples: int = 4000, seed: int = 0) -> int:
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

    Returns
    -------
    int

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
    total = 0
    for one in (map(clf.class_classifier, clf.classes) if clf.multiclass else [clf]):
        got = choose(one, enc).estimate(enc, samples, seed)
        total += crude_estimate(enc) if got is None else got
    return total
