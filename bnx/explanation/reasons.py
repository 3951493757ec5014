"""Contrastive explanations, feature roles, and checking an explanation.

* A *sufficient reason* (Darwiche and Hirth, ECAI 2020) is what bnx calls a
  PI-explanation (:func:`bnx.pi_explanations`): a minimal part of the instance under
  which every completion gets the same decision.
* A *contrastive explanation* (a necessary reason; Ignatiev et al. 2020) is a minimal
  set of the instance's features whose change (to any states) can flip the decision.
  They are the minimal hitting sets of the sufficient reasons, and the prime
  implicates of the complete reason (Darwiche and Ji, AAAI 2022).

Contrastive explanations are computed on the diagram, without hitting sets: one
bottom-up pass over the ODD builds the sets of features whose change can flip the
decision, and the minimal ones are kept (:mod:`._contrastive`). Feature roles are read off
the result (by the same duality, a feature is in some sufficient reason exactly when it is
in some contrastive explanation). Checking an explanation produced elsewhere is in
:mod:`.checking` (:func:`check_explanation`, importable from here too).
"""

from __future__ import annotations

from .._util.guard import question
from .._util.types import Feature, Instance
from ..odd._odd import ODD, check_odd
from ..question._classes import ask
from ..question._indices import instance_indices
from ._contrastive import contrastive, roles
from ._within import within_odd
from .checking import ExplanationCheck, check_explanation
from .explanations import Explanations

__all__ = ["contrastive_explanations", "feature_roles", "check_explanation",
           "ExplanationCheck"]


@question
def contrastive_explanations(odd: ODD, instance: Instance, *, rival=None,
                             within="support") -> Explanations:
    """Every contrastive explanation of the decision on ``instance``.

    A contrastive explanation is a minimal set of the instance's features whose
    change (each to any of its states) can give the other decision; each is
    returned as the partial instance ``{feature: the instance's state}``. Empty when
    no change flips the decision.

    On a :class:`~bnx.MulticlassODD`, with the instance decided ``a``: minimal sets of
    features whose change can make it decided any class but ``a``; with ``rival=b``,
    whose change can make it decided ``b``. They are the minimal hitting sets of the
    PI-explanations with the same ``rival``.

    Within a set ``κ`` of instances (``within=``, see :func:`bnx.pi_explanations`):
    a minimal set ``C`` of features such that some instance of ``κ`` that agrees with
    the instance outside ``C`` gets the other decision. These are the minimal hitting
    sets of the PI-explanations within ``κ``, as without it.

    Parameters
    ----------
    odd : ODD or MulticlassODD
    instance : mapping
        A complete instance.
    rival : class state, optional
        On a multi-class ODD, a class other than the one decided on ``instance``; on a
        binary ODD, its other decision (the same question as without it).
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The instances asked among: see :func:`bnx.pi_explanations`.

    Returns
    -------
    Explanations
        Partial instances ``{feature: the instance's state}``.

    Raises
    ------
    ArgumentError
        ``rival`` is the decided class (or not the other decision of a binary ODD).
    UnknownStateError
        ``rival`` is not a class state.

    See Also
    --------
    pi_explanations : the sufficient reasons, whose minimal hitting sets these are.
    counterfactuals : the closest instances with another decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> ces = bnx.contrastive_explanations(odd, x)
    >>> sorted(sorted(e) for e in ces)  # doctest: +NORMALIZE_WHITESPACE
    [['EntranceExam', 'GPA'], ['EntranceExam', 'WorkExperience'], ['FirstTimeApplicant', 'GPA'],
    ['FirstTimeApplicant', 'WorkExperience'], ['GPA', 'WorkExperience']]

    A multi-class classifier decides an allergy: one feature changed can give another
    class; it takes two to give the flu:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}
    >>> print(bnx.contrastive_explanations(odd, x))  # doctest: +NORMALIZE_WHITESPACE
    3 contrastive explanations of Illness = allergy (minimal sets of features whose change
    can give Illness other than allergy), shortest first:
      Aches = no
      Fever = no
      Season = spring
    >>> print(bnx.contrastive_explanations(odd, x, rival="flu"))  # doctest: +NORMALIZE_WHITESPACE
    3 contrastive explanations of Illness = allergy and not flu (minimal sets of features
    whose change can give Illness = flu), shortest first:
      Fever = no, Aches = no
      Fever = no, Sneezing = yes
      Season = spring, Sneezing = yes, Aches = no
    """
    check_odd(odd)
    q = ask(odd, instance, rival)
    odd = q.formula
    odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    out, root, layout, decision = contrastive(odd, x)
    enc = odd.encoding
    named_x = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return Explanations(out, root, layout, kind="contrastive explanation", decision=decision,
                        instance=named_x, feature_order=odd.display_order,
                        wording=q.wording, decided=q.decided, rival=q.rival)



@question
def feature_roles(odd: ODD, instance: Instance, *, rival=None,
                  within="support") -> dict[Feature, str]:
    """``{feature: role}`` for the decision on ``instance``.

    A feature is ``"necessary"`` when it is in every sufficient reason,
    ``"relevant"`` when it is in some but not all, ``"irrelevant"`` when in none.
    With ``within=`` (a set ``κ`` of instances, see :func:`bnx.pi_explanations`), the
    sufficient reasons are those within ``κ``; with ``rival=`` (a multi-class ODD),
    those of "why the decided class and not ``rival``".
    Keys follow the classifier's order. Read off the contrastive explanations (the
    minimal hitting sets of the sufficient reasons): a feature is in some sufficient
    reason exactly when it is in some contrastive explanation, and in all of them
    exactly when it is a contrastive explanation on its own.

    Parameters
    ----------
    odd : ODD or MulticlassODD
    instance : mapping
        A complete instance.
    rival : class state, optional
        On a multi-class ODD, a class other than the one decided on ``instance``; on a
        binary ODD, its other decision (the same question as without it).
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The instances asked among: see :func:`bnx.pi_explanations`.

    Returns
    -------
    dict
        ``{feature: "necessary", "relevant" or "irrelevant"}``.

    See Also
    --------
    pi_explanations, contrastive_explanations

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> bnx.feature_roles(odd, x)  # doctest: +NORMALIZE_WHITESPACE
    {'WorkExperience': 'necessary', 'FirstTimeApplicant': 'necessary', 'EntranceExam': 'necessary',
    'GPA': 'irrelevant'}

    A multi-class classifier decides an allergy: sneezing does not matter to the allergy,
    but it is one reason among others why it is not the flu:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}
    >>> bnx.feature_roles(odd, x)["Sneezing"], bnx.feature_roles(odd, x, rival="flu")["Sneezing"]
    ('irrelevant', 'relevant')
    """
    check_odd(odd)
    odd = ask(odd, instance, rival).formula
    odd = within_odd(odd, instance, within)
    x = instance_indices(odd, instance)
    _, root, layout, _ = contrastive(odd, x)
    found = dict(zip(odd.encoding.features, roles(root, layout)))
    return {f: found[f] for f in odd.display_order}
