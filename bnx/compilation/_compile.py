"""``compile``: a classifier into its ODD, by the engine :func:`._choose.choose` picks."""

from __future__ import annotations

from collections.abc import Sequence

from .._util.types import Feature
from ..classifier._classifier import Classifier
from ..diagram.backends import resolve_backend
from ..diagram.encoding import Encoding
from ..errors import BnxError
from ..odd._odd import ODD, MulticlassODD
from ._choose import choose
from .budget import Budget
from .orders import check_order

__all__ = ["compile"]


def compile(clf: Classifier, order: Sequence[Feature] | None = None, *,
            backend: str = "auto", max_nodes: int | None = None,
            timeout: float | None = None, progress: bool = False) -> ODD:
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
    ODD
        The classifier's decision function as a decision diagram; for a classifier
        without a positive state (it picks one of the class states), a
        :class:`~bnx.MulticlassODD` holding one class formula per state, compiled
        in one go: the argmax rule's pairwise comparisons, ``k (k - 1) / 2`` of them for
        ``k`` states, are each compiled once and shared by the formulas (compiling the
        formulas one by one compiles each comparison twice).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> odd.count(), odd.size
    (6, 6)
    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]))
    >>> many.classes, many.count()
    (('yes', 'no'), {'yes': 1, 'no': 3})
    """
    if not isinstance(clf, Classifier):
        raise BnxError(f"compile expects a bnx.Classifier, got {type(clf).__name__}")
    order = check_order(clf, order)
    name = resolve_backend(backend)
    budget = Budget(max_nodes, timeout=timeout, progress=progress)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    try:
        if clf.multiclass:
            memo: dict = {}  # the comparisons compiled so far, shared by the formulas
            arrays = [choose(one, enc).run(enc, budget, name, memo)
                      for one in map(clf.class_classifier, clf.classes)]
            return MulticlassODD(clf, enc, backend=name, arrays=arrays)
        arrays = choose(clf, enc).run(enc, budget, name)
    finally:
        budget.close()
    return ODD(clf, enc, backend=name, arrays=arrays)
