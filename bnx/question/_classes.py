"""A question about one decision, asked of the binary ODD that answers it.

On a binary :class:`~bnx.ODD` every question is asked of the ODD itself. On a
:class:`~bnx.MulticlassODD` (a classifier that picks one of several class states), a
question about the decision on ``x``, decided ``a``, is asked of one class formula
(:func:`bnx.odd._odd.formula_for`): ``a``'s, on which ``x`` is decided True (the answers
keep ``x`` decided ``a``), or, with ``rival=b``, ``b``'s, on which ``x`` is decided False
(the answers keep ``x`` not decided ``b``: "why ``a`` and not ``b``"). The passes are the
binary ones; this module only picks the formula and names the question in the class's
words.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..odd._odd import ODD, formula_for

__all__ = ["Question", "ask", "class_words", "of_class"]


class Question(NamedTuple):
    """What :func:`ask` found.

    The binary ODD to ask, the class state decided and the rival (both ``None`` on a binary
    ODD), and both decisions of the formula in the class's words, positive first (a function
    giving them, as ``Explanations`` takes it).
    """

    formula: ODD
    decided: Any
    rival: Any
    wording: Any


def class_words(class_var: Any, decided: Any, rival: Any = None) -> tuple[str, str]:
    """Name both decisions of the class formula a multi-class question is asked of.

    Positive first: without a rival, ``decided``'s formula (``"C = a"``, and ``"C other than
    a"``); with one, the rival's (``"C = b"``, and ``"C = a and not b"``: the decision
    explained).

    >>> class_words("Disease", "PAIVS")
    ('Disease = PAIVS', 'Disease other than PAIVS')
    >>> class_words("Disease", "PAIVS", "TGA")
    ('Disease = TGA', 'Disease = PAIVS and not TGA')
    """
    if rival is None:
        return f"{class_var} = {decided}", f"{class_var} other than {decided}"
    return f"{class_var} = {rival}", f"{class_var} = {decided} and not {rival}"


def ask(odd: ODD, instance, rival=None) -> Question:
    """Set the question about the decision on ``instance`` (``rival=``: and not that class).

    Raises :class:`~bnx.ArgumentError` for a rival that is the decided class (or, on a
    binary ODD, not its other decision) and :class:`~bnx.UnknownStateError` for one that
    is no class state (see :func:`~bnx.odd._odd.formula_for`).
    """
    formula = formula_for(odd, instance, rival=rival)
    if not odd.multiclass:  # as explanations.wording_of (which imports this module)
        return Question(odd, None, None,
                        lambda: (odd.decision_text(True), odd.decision_text(False)))
    if rival is None:  # the decided class's formula: its place names the class
        decided = odd.classes[odd.formulas.index(formula)]
    else:
        decided = odd.decide(instance, within="all")  # (the question checks x)
        rival = odd.classes[odd.class_index(rival)]
    words = class_words(odd.class_var, decided, rival)
    return Question(formula, decided, rival, lambda: words)


def of_class(odd: ODD, state) -> Question:
    """Return the class formula of ``state`` on a multi-class ODD, named in the class's words.

    ``decided`` is the state: e.g. the class whose prime implicants are asked.
    """
    state = odd.classes[odd.class_index(state)]
    words = class_words(odd.class_var, state)
    return Question(odd.class_formula(state), state, None, lambda: words)
