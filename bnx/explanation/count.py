"""Counting the instances of a decision, in the world a question ranges over.

``odd.count()`` counts the models of the decision function, every complete instance
possible or not (the diagram's count, the one its file records). :func:`count` asks the
question of a world (``within=``): by default the instances the network allows, so that
"how many patients are decided positive" counts patients who can exist. The count is the
diagram's of ``f ∧ κ`` (or of ``¬f ∧ κ``), :func:`bnx.explanation._within.keep_within`.
"""

from __future__ import annotations

from .._util.guard import question
from ..diagram._arrays import count as count_models
from ..diagram._setops import intersect
from ..diagram._traversals import count as count_nodes
from ..errors import ArgumentError
from ..odd._odd import ODD, check_odd
from ._within import keep_within, within_root

__all__ = ["count"]


@question
def count(odd: ODD, decision=True, *, within="support") -> int:
    """Count the instances of the world that get ``decision``, exactly.

    Parameters
    ----------
    odd : ODD
        The decision function.
    decision : bool or class state, default True
        On a binary ODD ``True`` (the positive decision), ``False``, or a state of a
        two-state class; on a multi-class ODD a class state (required).
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances counted: those the network allows (its support, :func:`bnx.support`),
        every complete instance (the total decision function: ``odd.count()`` for the
        positive decision), or a set (:func:`bnx.forbid`, an ``&`` of sets).

    Returns
    -------
    int
        The exact number of instances of the world decided ``decision``: a count of the
        diagram's models, linear in its size.

    Raises
    ------
    ArgumentError
        ``decision`` is not one of the classifier's decisions, or a multi-class ODD and
        no class named.

    See Also
    --------
    bnx.support : The instances the network allows.
    bnx.robustness_profile : The instances counted by how many changes flip them.
    bnx.count_biased : The instances whose decision depends on protected features.

    Examples
    --------
    In asia, ``either`` is ``tub`` or ``lung``: of the 8 instances of ``tub``, ``either``
    and ``smoke``, 2 cannot occur (``tub = yes`` with ``either = no``), and the total
    decision function decides both of them ``lung = yes``.

    >>> import bnx
    >>> clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
    ...                      features=["tub", "either", "smoke"])
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> bnx.count(odd), bnx.count(odd, within="all"), odd.count()
    (2, 4, 4)
    >>> bnx.count(odd, "no"), bnx.count(odd, "no", within="all")
    (4, 4)
    """
    from .rules import _decided
    check_odd(odd)
    if getattr(odd, "multiclass", False) and isinstance(decision, bool):
        raise ArgumentError(f"this ODD picks one of {len(odd.classes)} class states: name "
                            f"the class to count, decision= one of "
                            f"{', '.join(map(str, odd.classes))}")
    target, value, _ = _decided(odd, decision)
    kappa = within_root(target, within)
    positive = count_models(keep_within(target, True, within).arrays)  # f ∧ κ
    if value:
        return positive
    size = (target.total() if kappa is None
            else count_nodes(intersect(kappa, target.domain), target.encoding.nvars))
    return size - positive
