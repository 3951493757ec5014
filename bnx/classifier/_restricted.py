"""A classifier restricted by evidence: some features fixed, the decision over the rest.

:func:`restrict` returns the :class:`~bnx.Classifier` whose features are the given
classifier's features left free, whose exact factors are the network's reduced by the
evidence (each fixed feature's state contracted into every factor that holds it, by
:func:`bnx.classifier._inference.observe`), and whose decision on a completion ``y`` of
the free features is the given classifier's decision on ``evidence ∪ y``. Its class
joint on ``y`` is the given classifier's on ``evidence ∪ y``, up to nothing: the same
exact numbers. It is what compiling "only the restricted function" compiles
(:mod:`bnx.local`): a decision that is constant over the completions of the free
features is a decision the evidence alone makes.

Examples
--------
>>> import bnx
>>> from bnx.classifier._restricted import restrict
>>> clf = bnx.examples.admissions()
>>> part = restrict(clf, {"WorkExperience": "+", "GPA": "+"})
>>> part.features
('FirstTimeApplicant', 'EntranceExam')
>>> y = {"FirstTimeApplicant": "-", "EntranceExam": "-"}
>>> part.decide(y) == clf.decide({**y, "WorkExperience": "+", "GPA": "+"})
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ._inference import indicator, observe

__all__ = ["restrict"]


def restrict(clf: Any, evidence: Mapping) -> Any:
    """The classifier ``clf`` with the features of ``evidence`` fixed to their states.

    Parameters
    ----------
    clf : Classifier
        Any classifier (its tree form, if any, is left for the general factors: the
        restricted one is a general network).
    evidence : mapping
        ``{feature: state}`` for some of ``clf``'s features (states by name or index as
        :meth:`~bnx.Classifier.encode` reads them).

    Returns
    -------
    Classifier
        Features: ``clf``'s others, in order. Rule, threshold and positive state:
        ``clf``'s, except that a two-state ``argmax`` classifier becomes the threshold
        ``1/2`` on its first state when ``clf`` is one already expressed so (the
        compilation makes that change itself from the network, which the restricted
        classifier must not rebuild: see :func:`threshold_form`).

    Raises
    ------
    InstanceError
        The evidence names an unknown feature or state.
    """
    idx = clf.encode(evidence, partial=True)
    card = clf._card
    out = copy.copy(clf)
    for name in ("fingerprint", "structure", "_int_main"):
        out.__dict__.pop(name, None)
    out._features = tuple(f for f in clf.features if f not in idx)
    out._main = [_observed(f, idx, card) for f in clf._main]
    out._aside = [[_observed(f, idx, card) for f in group] for group in clf._aside]
    out._tree = None
    out._orders = {}
    out._on_states = {f: s for f, s in clf._on_states.items() if f not in idx}
    out._ordinal = {f: s for f, s in clf._ordinal.items() if f not in idx}
    out.__dict__["structure"] = "general"  # its factors are no CPTs: never a tree or TAN
    out._evidence = {**clf._evidence, **idx}
    return out


def threshold_form(clf: Any) -> tuple[Any, bool]:
    """``(equivalent, negated)``: a two-state ``argmax`` classifier (binary or
    multi-class) as the threshold ``1/2`` on its first class state (its decision is the
    negation of that one's when its positive state is the second; a multi-class one
    decides the first state exactly where that one is positive), which is how the
    compilation takes it; any other classifier as itself. Built from the network, so call
    it before :func:`restrict`.
    """
    if clf.rule != "argmax" or len(clf.class_states) != 2:
        return clf, False
    from ._classifier import Classifier
    first = clf.class_states[0]
    same = Classifier(clf.network, clf.class_var, first, threshold=Fraction(1, 2),
                      features=clf.features)
    return same, clf.positive is not None and clf.class_states.index(clf.positive) != 0


def _observed(factor: tuple, idx: Mapping, card: Mapping) -> tuple:
    for v in factor[0]:
        if v in idx:
            factor = observe(factor, v, indicator(card[v], idx[v]))
    return factor
