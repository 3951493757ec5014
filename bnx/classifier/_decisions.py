"""A classifier's exact answers on instances: states, joints, posteriors, decisions.

:class:`Decisions` is the part of :class:`bnx.Classifier` that takes instances: it
validates them (:meth:`~Decisions.encode`) and computes ``Pr(c, x)``, through the tree of a
naive Bayes or latent tree, or by the network's one inference path
(:mod:`bnx.classifier._inference`): in floating point with a proven error bound, exactly when
the bound cannot settle a decision or on request, then decides by the classifier's rule
(:mod:`bnx.classifier._rules`). :class:`bnx.Classifier` builds the parts these methods read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any

from .._util.types import Feature, Instance, State
from ..errors import (
    ExplanationError,
    MissingFeatureError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)
from ._inference import FloatRange, Inference, integer_factor
from ._instances import as_instance
from ._instances import resolve_state as _resolve_state
from ._rules import decides

__all__ = ["Decisions"]


class Decisions:
    """The instance-taking methods of :class:`bnx.Classifier` (a base class: it reads the
    classifier's states, features, factors and rule)."""

    def state_index(self, feature: Feature, state: State) -> int:
        """Index of ``state`` among the states of ``feature`` (matching by text too).

        Returns
        -------
        int
        """
        try:
            known = feature in self._states and feature in set(self._features)
        except TypeError:
            known = False
        if not known:
            raise UnknownFeatureError(f"{feature!r} is not a feature of this classifier "
                                      f"(features, closest first: "
                                      f"{closest_first(feature, self._features)})")
        j = _resolve_state(self._states[feature], state)
        if j is None:
            raise UnknownStateError(
                f"{state!r} is not a state of feature {feature!r} "
                f"(states, closest first: {closest_first(state, self._states[feature])})")
        return j

    def encode(self, instance: Instance, features: Sequence[Feature] | None = None,
               *, partial: bool = False) -> dict:
        """Validate ``instance`` and return ``{feature: state index}``.

        Raises :class:`~bnx.UnknownFeatureError`, :class:`~bnx.MissingFeatureError`
        or :class:`~bnx.UnknownStateError` naming the offending feature or state.

        Returns
        -------
        dict
        """
        instance = as_instance(instance, class_var=self._class_var)
        feats = self._features if features is None else features
        fset = set(feats)
        for f in instance:
            if f not in fset:
                raise UnknownFeatureError(f"{f!r} is not a feature of this classifier "
                                          f"(features, closest first: "
                                          f"{closest_first(f, feats)})")
        out = {}
        for f in feats:
            if f not in instance:
                if partial:
                    continue
                raise MissingFeatureError(f"the instance has no state for feature {f!r}")
            out[f] = self.state_index(f, instance[f])
        return out

    @cached_property
    def _int_main(self) -> list:
        """The main factors in exact integers (each scaled by a positive constant)."""
        return [integer_factor(f)[0] for f in self._main]

    @cached_property
    def _inference(self) -> Inference:
        """The network's inference (plans cached per pattern of observed features)."""
        return Inference(self._card, self._parents, self._cpds)

    def _plans_clear(self) -> None:
        """Forget the cached inference plans (benchmarks time the first call)."""
        self._inference.plans.clear()

    def _decision_joint(self, idx: Mapping[Feature, int]) -> list:
        """``Pr(c, x)`` exactly, up to one positive factor that does not depend on ``c``:
        enough to decide (0 for every class when ``Pr(x) = 0``)."""
        if self._tree is not None:
            return self._tree.scaled_joint(idx)[0]
        got = self._inference.joint((self._class_var,), idx, exact=True, whole=False)
        return got.table.reshape(-1).tolist()

    def _float_joint(self, idx: Mapping[Feature, int]):
        """:class:`~bnx.classifier._inference.Answer`: ``Pr(c, x)`` in floats up to one
        positive factor, each within its ``err``; ``None`` for a tree classifier or when
        floats cannot prove a bound."""
        if self._tree is not None:
            return None
        try:
            return self._inference.joint((self._class_var,), idx, whole=False)
        except FloatRange:
            return None

    def _class_joint(self, idx: Mapping[Feature, int]) -> list[Fraction]:
        """``[Pr(class = c, x) for c]`` exactly (features absent from ``idx`` summed out)."""
        if self._tree is not None:
            return self._tree.class_joint(idx)
        got = self._inference.joint((self._class_var,), idx, exact=True)
        return [Fraction(v) for v in got.table.reshape(-1).tolist()]

    def _scaled_joint(self, idx: Mapping[Feature, int]) -> tuple[list[int], int]:
        """``(joint, den)``: ``Pr(class = c, x) = joint[c] / den`` exactly, in integers
        (features absent from ``idx`` summed out); ``den`` is the same for every ``x``
        of a tree classifier."""
        if self._tree is not None:
            return self._tree.scaled_joint(idx)
        joint = self._class_joint(idx)
        den = math.lcm(*(v.denominator for v in joint))
        return [v.numerator * (den // v.denominator) for v in joint], den

    def _scaled_probability(self, idx: Mapping[Feature, int]) -> tuple[int, int]:
        """``(num, den)`` with ``Pr(x) = num / den`` exactly (see :meth:`_scaled_joint`)."""
        joint, den = self._scaled_joint(idx)
        return sum(joint), den

    def class_joint(self, instance: Instance, *, partial: bool = False) -> list[Fraction]:
        """``[Pr(class = c, instance) for c in class_states]``, exact fractions.

        With ``partial=True`` the instance may leave features out: they are summed out.

        Returns
        -------
        list of fractions.Fraction
            One joint per class state, in the class's state order.

        Examples
        --------
        >>> import bnx
        >>> clf = bnx.examples.admissions()
        >>> joint = clf.class_joint({"GPA": "+"}, partial=True)
        >>> len(joint), round(float(sum(joint)), 3)  # Pr(GPA = +)
        (2, 0.368)
        """
        return self._class_joint(self.encode(instance, partial=partial))

    def posterior_exact(self, instance: Instance, *, partial: bool = False) -> Fraction:
        """``Pr(class = positive | instance)`` as an exact fraction.

        With ``partial=True`` the instance may leave features out: they are
        unobserved and summed out (e.g. missing votes).

        Returns
        -------
        Fraction

        Raises
        ------
        ExplanationError
            ``Pr(instance) = 0``: the posterior is undefined (``0/0``), and no fraction
            stands for it (:meth:`posterior` raises the same error).

        Examples
        --------
        >>> import bnx
        >>> clf = bnx.examples.admissions()
        >>> clf.posterior_exact({"GPA": "+"}, partial=True) > 0.5
        True
        """
        self._one_state("posterior_exact")
        joint = self._decision_joint(self.encode(instance, partial=partial))
        total = sum(joint, 0)
        if total == 0:
            raise ExplanationError("the instance has probability zero under the network: "
                                   "its posterior Pr(class | instance) is undefined")
        return Fraction(joint[self._positive_index]) / total

    def posterior(self, instance: Instance, *, partial: bool = False,
                  exact: bool = False) -> float:
        """``Pr(class = positive | instance)``, a float in ``[0, 1]``.

        On a general network it is computed in floating point, within a proven relative
        error bound of the exact value (:mod:`bnx.classifier._inference`; below ``1e-12``
        on every bundled network), and exactly when the bound cannot be proven;
        ``exact=True`` (and naive Bayes and latent trees always) rounds once from the exact
        value, so that equal posteriors are equal floats. ``partial`` as in
        :meth:`posterior_exact`.

        Returns
        -------
        float

        Raises
        ------
        ExplanationError
            ``Pr(instance) = 0``: the posterior is undefined, as in
            :meth:`posterior_exact`.
        """
        self._one_state("posterior")
        if not exact:
            got = self._float_probabilities(self.encode(instance, partial=partial))
            if got is not None:
                return got[0][self._positive_index]
        return float(self.posterior_exact(instance, partial=partial))

    def _float_probabilities(self, idx: Mapping[Feature, int]) -> tuple | None:
        """``(probabilities, err)`` in floats (``None``: only exactly)."""
        got = self._float_joint(idx)
        if got is None:
            return None
        try:
            return got.probabilities()
        except ZeroDivisionError:
            raise ExplanationError("the instance has probability zero under the network: "
                                   "its posterior Pr(class | instance) is undefined") from None

    def decide(self, instance: Instance, *, partial: bool = False):
        """The exact decision under :attr:`rule`.

        ``threshold``: ``(1 - T) Pr(c, x) >= T Pr(not c, x)``; ``argmax``: the positive
        state beats every earlier state strictly and every later one weakly; a
        multi-class classifier: the most probable class state (:meth:`predict`).
        ``partial`` as in :meth:`posterior_exact` (the ODD decides complete instances only).

        Returns
        -------
        bool or state
            True for a positive decision; the decided class state of a multi-class
            classifier.
        """
        idx = self.encode(instance, partial=partial)
        got = self._float_joint(idx)
        if got is not None:
            settled = _settled(got.table.reshape(-1).tolist(), got.err, self._rule,
                               self._positive_index, self._threshold)
            if settled is not None:
                return self.classes[settled] if self._positive_index is None else settled
        joint = self._decision_joint(idx)
        if self._positive_index is None:
            return self.classes[_argmax(joint)]
        return decides(joint, self._rule, self._positive_index, self._threshold)

    def predict(self, instance: Instance, *, partial: bool = False):
        """The decided class state, by name: the most probable class state of a multi-class
        classifier (the first state in the class's order winning a tie); for a binary
        classifier the state its decision stands for (``"not <positive>"`` for a negative
        decision about one of several states).

        Parameters
        ----------
        instance : mapping, pandas.Series or one-row DataFrame
            ``{feature: state}``.
        partial : bool
            Allow features to be left out (summed out).

        Returns
        -------
        state
            A state of the class (or ``"not <positive>"``).

        See Also
        --------
        class_probabilities : every class state's posterior.

        Examples
        --------
        >>> import bnx
        >>> asia = bnx.examples.asia()
        >>> clf = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
        >>> clf.predict({"xray": "no"}, partial=True)
        'no'
        """
        decision = self.decide(instance, partial=partial)
        if self._positive_index is None:
            return decision
        from .._util.wording import decision_state
        return decision_state(self.classes, self._positive, bool(decision))

    def class_probabilities(self, instance: Instance, *, partial: bool = False,
                            exact: bool = False) -> dict:
        """``{state: Pr(class = state | instance)}`` for every class state, in order: on a
        general network in floating point within a proven relative error bound of the
        exact values (as :meth:`posterior`), each rounded once from its exact value with
        ``exact=True`` (and on naive Bayes and latent trees).

        Parameters
        ----------
        instance : mapping, pandas.Series or one-row DataFrame
            ``{feature: state}``.
        partial : bool
            Allow features to be left out (summed out).
        exact : bool
            Round each probability once from its exact value.

        Returns
        -------
        dict
            Floats in [0, 1], one per class state in the class's order.

        Raises
        ------
        ExplanationError
            The instance has probability zero: no posterior is defined.

        Examples
        --------
        >>> import bnx
        >>> clf = bnx.examples.admissions()
        >>> {s: round(p, 3) for s, p in clf.class_probabilities({"GPA": "+"},
        ...                                                   partial=True).items()}
        {'-': 0.209, '+': 0.791}
        """
        idx = self.encode(instance, partial=partial)
        if not exact:
            got = self._float_joint(idx)
            if got is not None:
                try:
                    probs, _ = got.probabilities()
                except ZeroDivisionError:
                    probs = None
                if probs is not None:
                    return dict(zip(self.classes, probs))
        joint = self._decision_joint(idx)
        total = sum(joint, 0)
        if total == 0:
            raise ExplanationError("the instance has probability zero under the network: "
                                   "its class probabilities are undefined")
        return {s: float(Fraction(v) / total) for s, v in zip(self.classes, joint)}

    def _one_state(self, what: str) -> None:
        if self._positive_index is None:
            from ..errors import ArgumentError
            raise ArgumentError(f"{what} is the probability of the positive state; this "
                                f"classifier picks one of {len(self.classes)} class states: "
                                f"use class_probabilities(x)")


def _argmax(joint) -> int:
    """The index of the largest entry, the first on ties (``numpy.argmax``)."""
    best = 0
    for i in range(1, len(joint)):
        if joint[i] > joint[best]:
            best = i
    return best


def _settled(values: list, err: float, rule: str, positive: int | None, threshold) -> Any:
    """The decision on float values each within a relative ``err`` of the exact ones
    (``Pr(c, x)`` up to one positive factor) when no exact values in those intervals
    decide otherwise, else ``None``: the decided class's index for ``argmax`` without a
    positive state, else True or False."""
    vals = [Fraction(v) for v in values]
    lo, hi = 1 - Fraction(err), 1 + Fraction(err)  # exact = value / (1 + theta)
    if rule == "threshold" and positive is not None:
        t = Fraction(threshold)
        left = (1 - t) * vals[positive]
        right = t * (sum(vals, Fraction(0)) - vals[positive])
        if left / hi >= right / lo:
            return True
        if left / lo < right / hi:
            return False
        return None
    best = _argmax(vals)
    if any(vals[best] / hi <= vals[c] / lo for c in range(len(vals)) if c != best):
        return None
    return best if positive is None else best == positive
