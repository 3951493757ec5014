"""``compile``: a classifier into its ODD, by the engine :func:`._choose.choose` picks."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from .._util.guard import question
from .._util.types import Feature
from ..classifier._classifier import Classifier
from ..diagram.backends import resolve_backend
from ..diagram.encoding import Encoding
from ..errors import BnxError, CompilationLimitError
from ..odd._odd import ODD, MulticlassODD
from .budget import DEFAULT_MAX_MEMORY, Budget
from .estimate import choices, refuse_past
from .orders import check_order

__all__ = ["compile", "DEFAULT_MAX_NODES"]

#: The node budget of :func:`compile` when ``max_nodes`` is not given (20 million: an ODD
#: of this size takes minutes and gigabytes to build).
DEFAULT_MAX_NODES = 20_000_000


@question
def compile(clf: Classifier, order: Sequence[Feature] | None = None, *,
            backend: str = "auto", max_nodes: int | float | None = None,
            timeout: float | None = None, max_memory: int | float | None = None,
            progress: bool = False) -> ODD:
    """Compile a classifier into its decision function, an :class:`~bnx.ODD`.

    Parameters
    ----------
    clf : Classifier
    order : list of features, optional
        The ODD's variable order. Default: :func:`default_order`.
    backend : {"auto", "autoref", "cudd"}
        The ``dd`` backend; ``"auto"`` takes CUDD when it imports.
    max_nodes : int or math.inf, optional
        The node budget (default ``None``: 20 million, :data:`DEFAULT_MAX_NODES`;
        ``math.inf``: none). When :func:`estimate_size` puts the ODD past it, compile
        refuses at once, before building anything, with
        :class:`~bnx.CompilationLimitError` (its message gives the estimate and what
        explains one instance without compiling); otherwise it stops with the same error
        once more than this many nodes have been expanded (for naive Bayes: once it holds
        more than this many states, about 1.3 times the ODD's nodes), and it never returns
        an ODD of more nodes (:attr:`ODD.size`) than this.
    timeout : float, optional
        Stop with :class:`~bnx.CompilationLimitError` once this many seconds
        have passed since the call (choosing the order and the engine count; checked
        between batches of work, a fraction of a second
        apart on large compiles; the naive Bayes and TAN level engines size each
        vectorised step before it starts, and stop at once where it would end past the
        deadline).
    max_memory : int or math.inf, optional
        The bytes the compile may add to the process (default ``None``: 3 GiB,
        :data:`~bnx.compilation.budget.DEFAULT_MAX_MEMORY`, which a 2-core laptop with
        8 GB survives; ``math.inf``: none). Measured, not estimated: the process's
        resident memory is read between batches of work (at most twenty times a second)
        and the compile stops with :class:`~bnx.CompilationLimitError` once it has grown
        by more; the naive Bayes and TAN level engines also refuse a vectorised step
        that, at the bytes per state their last large step took, would end past it.
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

    See Also
    --------
    bnx.estimate_size : The number of nodes to expect, without compiling.
    bnx.compilation.default_order : The feature order compile uses unless given one.
    bnx.explain : One decision of the compiled classifier in the class's own words.

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
    started = time.monotonic()  # the timeout bounds the whole call: the order too
    memory = DEFAULT_MAX_MEMORY if max_memory is None else max_memory
    Budget(max_nodes, timeout=timeout, max_memory=memory)  # checked before anything is done
    order = check_order(clf, order, timeout=timeout)
    name = resolve_backend(backend)
    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    chosen = choices(clf, enc)  # one per class formula of a multi-class classifier
    if limit != math.inf:
        refuse_past(clf, chosen, enc, limit, default=max_nodes is None)
    if timeout is not None:  # what choosing the order, the engine and the estimate took
        spent = time.monotonic() - started
        if spent >= timeout:
            raise CompilationLimitError(
                f"compilation ran out of time (timeout={timeout:g} s) before building: "
                f"choosing the variable order and the engine took {spent:.1f} s; raise the "
                f"timeout or give an order")
    budget = Budget(limit, timeout=timeout, progress=progress, start=started,
                    max_memory=memory)
    try:
        if clf.multiclass:
            memo: dict = {}  # the comparisons compiled so far, shared by the formulas
            arrays = [choice.run(enc, budget, name, memo) for choice in chosen]
            odd = MulticlassODD(clf, enc, backend=name, arrays=arrays)
        else:
            odd = ODD(clf, enc, backend=name, arrays=chosen[0].run(enc, budget, name))
        if limit != math.inf and _at_most(odd) > limit:  # counting them pairs negations
            budget.reserve(PAIRING_BYTES * _at_most(odd), "counting the ODD's nodes")
    finally:
        budget.close()
    if limit != math.inf and _at_most(odd) > limit and odd.size > limit:  # a hard cap
        raise CompilationLimitError(
            f"the ODD has {odd.size:,} nodes, more than max_nodes={limit:,} (it was built "
            f"in full: {budget.used:,} states expanded); raise the budget or try another "
            f"variable order")
    return odd


#: The bytes per node that counting an ODD's nodes as ``dd`` does holds at its peak (the
#: nodes sorted by their children to pair each with its negation: 1.4 GB for 30 million).
PAIRING_BYTES = 48


def _at_most(odd: ODD) -> int:
    """Bound :attr:`ODD.size` from above by the arrays' nodes, without pairing negations.

    (Pairing them sorts every node: 1.4 GB for 15 million, so only past the budget.)
    """
    if isinstance(odd, MulticlassODD):  # (the formulas' nodes: their union has no more)
        return max(1, sum(odd.class_formula(s).arrays.size - 1 for s in odd.classes))
    return max(1, odd.arrays.size - 1)
