"""Bayesian network classifiers over any discrete pgmpy network, with exact decisions.

A :class:`Classifier` wraps a pgmpy ``DiscreteBayesianNetwork`` whose CPDs are set,
names the class variable and the observed features, and decides an instance ``x``:

* with no positive state (a *multi-class* classifier): the decision is the most probable
  class state, ``numpy.argmax`` of the exact class posterior in the class's state order
  (the first state wins a tie), which is what ``predict`` of pgmpy and scikit-learn
  returns;
* with a positive state, yes or no about it, by one of two rules:
  ``rule="threshold"`` (default): positive iff ``Pr(class = positive | x) >= T``;
  ``rule="argmax"``: positive iff the positive state is the most probable class state.

Every other node is unobserved and summed out exactly, after pruning what cannot
affect the decision (:mod:`bnx.classifier._relevance`).

Exactness. Every CPT entry is taken as the exact rational number its float is
(:class:`fractions.Fraction`), and so is the threshold ``T``. An instance is decided
by the exact comparison ``(1 - T) * Pr(c, x) >= T * Pr(not c, x)``, which is the
definition for every instance of positive probability, ties included. An
instance of probability zero has no posterior; the same comparison (``0 >= 0``)
decides it positive; under ``argmax`` every class ties at 0 and the first state wins.
Compiled ODDs and explanations follow these rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any

from .._util.guard import guarded
from .._util.rounding import compare
from .._util.types import Feature, Instance, State
from ..errors import (
    ArgumentError,
    InstanceError,
    MissingFeatureError,
    NetworkError,
    StructureError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)
from ._checks import check_features, check_on_states, check_ordinal
from ._inference import FloatRange, Inference, integer_factor
from ._instances import as_instance
from ._instances import resolve_state as _resolve_state
from ._interop import Interop
from ._possible import impossible_error
from ._rules import _HALF, RULES, check_threshold, decides
from ._tree import as_tree
from ._world import within_support

__all__ = ["Classifier"]


@guarded(own=True)
class Classifier(Interop):
    """A Bayesian network classifier with an exact decision rule.

    Parameters
    ----------
    network : pgmpy.models.DiscreteBayesianNetwork
        Any discrete network with a CPD for every node.
    class_var : node name
        The class variable (anywhere in the network: it may have parents).
    positive : state name, optional
        The positive state of the class; every other state is negative. Left out (or
        ``None``), the classifier picks one of the class's states, the most probable one
        (a *multi-class* classifier: :attr:`multiclass`, :meth:`predict`).
    threshold : real, default 0.5
        With ``rule="threshold"``: decide positive iff ``Pr(class_var = positive | x) >=
        threshold``. Not allowed with ``rule="argmax"``.
    features : sequence of node names, optional
        The observed features: any nodes other than the class. Defaults to the features
        a network learned by :func:`bnx.learn_tan` records (every column it was learned
        from), else to every leaf of the network (the convention of Shih, Choi and
        Darwiche); other models whose features are inner nodes must name them. Every
        other node is unobserved and summed out.
    rule : {"threshold", "argmax"}, keyword-only, optional
        ``"argmax"``: positive iff the positive state is the most probable class state,
        the first state in the class's order winning ties. Default: ``"threshold"`` with a
        positive state; a multi-class classifier decides by ``"argmax"`` only.
    on_states : mapping, keyword-only, optional
        ``{feature: its "on" state (or states)}``, for MC-explanations: declared once
        here, kept in a saved ODD's file, and used wherever no ``on=`` is given. A
        binary feature whose states are recognisably affirmative (yes/no, y/n,
        true/false, 1/0, +/-, present/absent, positive/negative, on/off, any case)
        needs none. It does not change any decision.
    ordinal : mapping or bool, keyword-only, optional
        The features whose states are ordered: ``{feature: every state of it, in
        increasing order}``, or ``True`` for every feature whose state names carry
        distinct numbers (``"a1_0" < "a6_2" < "a19_7"``), ordered by them. Kept in a
        saved ODD's file, read by :func:`bnx.general_reasons`, rules and monotonicity
        checks. It does not change any decision.

    Raises
    ------
    NetworkError
        The class variable, the positive state or a CPD is missing or invalid, or the
        class has a single state.
    StructureError
        The features are empty, repeated or include the class.
    ThresholdError
        The threshold is not a number in [0, 1].
    ArgumentError
        An unknown rule, or a threshold given with ``rule="argmax"``.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> clf.features
    ('WorkExperience', 'FirstTimeApplicant', 'EntranceExam', 'GPA')
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> round(clf.posterior(x), 4), clf.decide(x)
    (0.5642, True)
    >>> best = bnx.Classifier(clf.network, "Admit", "+", rule="argmax")
    >>> best.rule, best.threshold, best.decide(x)
    ('argmax', None, True)
    >>> bnx.Classifier(clf.network, "Admit", "+", on_states={"GPA": "+"}).on_states
    {'GPA': ('+',)}

    A multi-class classifier names no positive state:

    >>> asia = bnx.examples.asia()
    >>> many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> many.multiclass, many.classes, many.predict({"xray": "yes", "dysp": "yes"})
    (True, ('yes', 'no'), 'yes')
    """

    def __init__(self, network: Any, class_var: Feature, positive: State | None = None,
                 threshold: float | Fraction = _HALF,
                 features: Sequence[Feature] | None = None, *,
                 rule: str | None = None, on_states: Any = None, ordinal: Any = None) -> None:
        from pgmpy.models import DiscreteBayesianNetwork
        if not isinstance(network, DiscreteBayesianNetwork):
            raise NetworkError(
                f"expected a pgmpy DiscreteBayesianNetwork, got {type(network).__name__}")
        self._network = network
        nodes = list(network.nodes())
        if class_var not in network:
            raise NetworkError(f"class variable {class_var!r} is not a node of the network "
                               f"(nodes, closest first: {closest_first(class_var, nodes)})")
        self._class_var = class_var
        if positive is None and (threshold is not _HALF or rule == "threshold"):
            raise ArgumentError("a threshold decides about one positive state: name it "
                                "(positive=...), or leave both out for a classifier that "
                                "picks the most probable class state")
        if rule is None:
            rule = "threshold" if positive is not None else "argmax"
        if not isinstance(rule, str) or rule not in RULES:
            raise ArgumentError(f"rule must be 'threshold' or 'argmax', got {rule!r}")
        self._rule = rule
        if rule == "argmax":
            if threshold is not _HALF:
                raise ArgumentError(f"rule='argmax' takes no threshold (got {threshold!r}): "
                                    f"the most probable class decides")
            self._threshold = None
        else:
            self._threshold = check_threshold(threshold)
        from ._relevance import exact_cpds, prune
        self._states, self._parents, cpds = exact_cpds(network)
        cstates = self._states[class_var]
        if len(cstates) < 2:
            raise NetworkError(f"class variable {class_var!r} has a single state "
                               f"({', '.join(map(repr, cstates)) or 'none'}): it decides "
                               f"nothing; a classifier's class needs two states or more")
        if positive is None:  # multi-class: the most probable state
            self._positive_index = self._positive = None
        else:
            j = _resolve_state(cstates, positive)
            if j is None:
                raise NetworkError(
                    f"positive state {positive!r} is not a state of {class_var!r} "
                    f"(states, closest first: {closest_first(positive, cstates)})")
            self._positive_index = j
            self._positive = cstates[j]
        self._features = check_features(self._network, self._class_var, self._states,
                                        features)
        self._main, self._aside, self._barren = prune(
            network, self._parents, cpds, class_var, self._features)
        self._tree = as_tree(class_var, self._features, self._states, cpds, self._main,
                             self._aside)
        self._card = {n: len(s) for n, s in self._states.items()}
        self._cpds = cpds
        #: features fixed by :func:`bnx.classifier._restricted.restrict` (index per feature)
        self._evidence: dict = {}
        self._on_states = check_on_states(on_states, self._features, self._states)
        self._ordinal = check_ordinal(ordinal, self._features, self._states)

    @property
    def ordinal(self) -> dict:
        """The ordered features, ``{feature: its states in increasing order}``.

        Empty when none were declared.
        """
        return dict(self._ordinal)

    @property
    def multiclass(self) -> bool:
        """True when the classifier picks one of the class's states (no positive state)."""
        return self._positive is None

    @property
    def classes(self) -> tuple:
        """The class states, in order (the states a multi-class classifier picks from)."""
        return self._states[self._class_var]

    def class_classifier(self, state: State) -> Classifier:
        """Return the binary classifier "is the decision ``state``?".

        ``Classifier(network, class_var, state, rule="argmax", features=...)``, sharing this
        one's exact tables.

        Parameters
        ----------
        state : state name
            A state of the class.

        Returns
        -------
        Classifier
            Positive exactly where this classifier's most probable class is ``state``.

        Examples
        --------
        >>> import bnx
        >>> asia = bnx.examples.asia()
        >>> many = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
        >>> many.class_classifier("no")
        Classifier(general, class_var='either', positive='no', rule='argmax', features=2)
        """
        import copy
        j = _resolve_state(self.classes, state)
        if j is None:
            raise NetworkError(f"{state!r} is not a state of {self._class_var!r} (states, "
                               f"closest first: {closest_first(state, self.classes)})")
        out = copy.copy(self)
        out.__dict__.pop("fingerprint", None)
        out._positive_index, out._positive = j, self.classes[j]
        out._rule, out._threshold = "argmax", None
        return out

    @property
    def on_states(self) -> dict:
        """The declared on states of MC-explanations, ``{feature: tuple of states}``.

        Empty when none were declared.
        """
        return dict(self._on_states)

    # ------------------------------------------------------------------ properties
    @property
    def network(self) -> Any:
        """The wrapped pgmpy network."""
        return self._network

    @property
    def class_var(self) -> Feature:
        """The class variable."""
        return self._class_var

    @property
    def positive(self) -> State:
        """The positive state of the class."""
        return self._positive

    @property
    def rule(self) -> str:
        """The decision rule: ``"threshold"`` or ``"argmax"``."""
        return self._rule

    @property
    def threshold(self) -> Fraction | None:
        """The decision threshold, as the exact rational it was given as.

        ``None`` under ``rule="argmax"``.
        """
        return self._threshold

    @property
    def features(self) -> tuple:
        """The features.

        As given by ``features=``, else those a learned TAN records, else the leaves in the
        network's order.
        """
        return self._features

    @property
    def latent(self) -> tuple:
        """The unobserved nodes, other than the class, that matter to the decision."""
        if self._tree is not None:
            return self._tree.latent
        feats = set(self._features)
        seen: dict = {}
        for scope, _ in self._main:
            for v in scope:
                if v != self._class_var and v not in feats:
                    seen.setdefault(v, None)
        return tuple(seen)

    @cached_property
    def structure(self) -> str:
        """What is left after pruning.

        ``"naive_bayes"``, ``"latent_tree"``, ``"tan"`` (the class a root, each feature's
        parents the class and at most one feature, no other node) or ``"general"``.
        """
        if self._tree is not None:
            return "latent_tree" if self._tree.latent else "naive_bayes"
        c, feats = self._class_var, set(self._features)
        relevant = {v for scope, _ in self._main for v in scope}
        ok = (not self._parents[c] and not self._aside and relevant <= feats | {c}
              and all(c in self._parents[f] and len(self._parents[f]) <= 2
                      and set(self._parents[f]) <= feats | {c} for f in relevant - {c}))
        return "tan" if ok else "general"

    @property
    def class_states(self) -> tuple:
        """The states of the class variable."""
        return self._states[self._class_var]

    def states(self, node: Feature) -> tuple:
        """Return the state names of a feature (or of any node), in pgmpy's order.

        Returns
        -------
        tuple
        """
        try:
            return self._states[node]
        except (KeyError, TypeError):
            raise UnknownFeatureError(f"{node!r} is not a node of the network (nodes, closest "
                                      f"first: {closest_first(node, self._states)})") from None

    def _node(self, node: Any) -> Any:
        try:
            if node in self._states:
                return node
        except TypeError:
            pass
        raise UnknownFeatureError(f"{node!r} is not a node of the network (nodes, closest "
                                  f"first: {closest_first(node, self._states)})")

    def _tree_only(self, what: str):
        if self._tree is None:
            raise StructureError(f"{what} is defined for naive Bayes and latent trees; this "
                                 f"classifier's structure is {self.structure!r}")
        return self._tree

    def parents(self, node: Feature) -> tuple:
        """Return the parents of ``node`` in the network.

        Returns
        -------
        tuple
        """
        return self._parents[self._node(node)]

    def children(self, node: Feature) -> tuple:
        """Return the children of ``node`` that lead to features (naive Bayes and latent trees).

        Returns
        -------
        tuple
        """
        node = self._node(node)
        return tuple(self._tree_only("children()").tree.get(node, ()))

    def parent(self, node: Feature) -> Feature:
        """Return the parent of a non-class node (``None`` for the class), in a tree.

        Returns
        -------
        Feature
        """
        node = self._node(node)
        return self._tree_only("parent()").parent.get(node)

    def table(self, node: Feature) -> tuple[tuple[Fraction, ...], ...]:
        """Exact CPT of ``node``: ``table[parent_state][state]`` (one row for the class).

        Naive Bayes and latent trees only; tables of kept nodes include the exact sums
        of pruned subtrees below them.

        Returns
        -------
        tuple
        """
        node = self._node(node)
        return self._tree_only("table()").tables[node]

    # ---------------------------------------------------------- answers on instances
    # (validated, and decided exactly: Pr(c, x) through the tree of a naive Bayes or
    # latent tree, or by variable elimination over the network's exact integer factors,
    # bnx.classifier._inference; then the rule, bnx.classifier._rules)

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

    def _observed(self, idx: Mapping[Feature, int]) -> Mapping[Feature, int]:
        """Return the evidence of an instance's state indices: with the fixed features'."""
        return {**self._evidence, **idx} if self._evidence else idx

    def _decision_joint(self, idx: Mapping[Feature, int]) -> list:
        """Return ``Pr(c, x)`` exactly, up to one positive factor that does not depend on ``c``.

        That is enough to decide (0 for every class when ``Pr(x) = 0``).
        """
        if self._tree is not None:
            return self._tree.scaled_joint(idx)[0]
        got = self._inference.joint((self._class_var,), self._observed(idx), exact=True,
                                   whole=False)
        return got.table.reshape(-1).tolist()

    def _float_joint(self, idx: Mapping[Feature, int]):
        """Return ``Pr(c, x)`` in floats up to one positive factor, each within its ``err``.

        An :class:`~bnx.classifier._inference.Answer`; ``None`` for a tree classifier or
        when floats cannot prove a bound.
        """
        if self._tree is not None:
            return None
        try:
            return self._inference.joint((self._class_var,), self._observed(idx), whole=False)
        except FloatRange:
            return None

    def _class_joint(self, idx: Mapping[Feature, int]) -> list[Fraction]:
        """``[Pr(class = c, x) for c]`` exactly (features absent from ``idx`` summed out)."""
        if self._tree is not None:
            return self._tree.class_joint(idx)
        got = self._inference.joint((self._class_var,), self._observed(idx), exact=True)
        return [Fraction(v) for v in got.table.reshape(-1).tolist()]

    def _scaled_joint(self, idx: Mapping[Feature, int]) -> tuple[list[int], int]:
        """Return ``(joint, den)``: ``Pr(class = c, x) = joint[c] / den`` exactly, in integers.

        Features absent from ``idx`` are summed out; ``den`` is the same for every ``x``
        of a tree classifier.
        """
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
            raise impossible_error(self, self.encode(instance, partial=partial),
                                   "the instance has probability zero under the network "
                                   "(its posterior Pr(class | instance) is undefined): ")
        return Fraction(joint[self._positive_index]) / total

    def posterior(self, instance: Instance, *, partial: bool = False,
                  exact: bool = False) -> float:
        """Return ``Pr(class = positive | instance)``, a float in ``[0, 1]``.

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
        """Return ``(probabilities, err)`` in floats (``None``: only exactly)."""
        got = self._float_joint(idx)
        if got is None:
            return None
        try:
            return got.probabilities()
        except ZeroDivisionError:
            raise impossible_error(self, idx, "the instance has probability zero under the "
                                   "network (its posterior Pr(class | instance) is "
                                   "undefined): ") from None

    def decide(self, instance: Instance, *, partial: bool = False, within: str = "support"):
        """Decide an instance exactly under :attr:`rule`.

        ``threshold``: ``(1 - T) Pr(c, x) >= T Pr(not c, x)``; ``argmax``: the positive
        state beats every earlier state strictly and every later one weakly; a
        multi-class classifier: the most probable class state (:meth:`predict`).
        ``partial`` as in :meth:`posterior_exact` (the ODD decides complete instances only).
        ``within="support"`` (the default): an instance the network cannot produce
        (``Pr(x) = 0``) is refused, its conflicting findings named, as :meth:`posterior`
        and every question refuse it; ``within="all"`` asks the total decision function,
        which decides it by the rule's tie (``0 >= 0``: positive under the threshold rule;
        the first class state under argmax), as ``odd.decide(x, within="all")`` does (the
        compiled diagram is the total function; it too refuses such an instance by
        default).

        Raises
        ------
        ImpossibleInstanceError
            Within the support, the network cannot produce the instance.

        Returns
        -------
        bool or state
            True for a positive decision; the decided class state of a multi-class
            classifier.
        """
        idx = self.encode(instance, partial=partial)
        support = within_support(within)
        got = self._float_joint(idx)
        if got is not None:
            table = got.table.reshape(-1).tolist()
            settled = _settled(table, got.err, self._rule, self._positive_index,
                               self._threshold)
            # a positive float entry is a positive joint (zeros only ever stay zeros)
            if settled is not None and (not support or any(v > 0 for v in table)):
                return self.classes[settled] if self._positive_index is None else settled
        joint = self._decision_joint(idx)
        if support and not any(joint):
            raise impossible_error(self, idx, "the instance has probability zero under the "
                                   "network (its decision would be the rule's tie): ",
                                   InstanceError)
        if self._positive_index is None:
            return self.classes[_argmax(joint)]
        return decides(joint, self._rule, self._positive_index, self._threshold)

    def predict(self, instance: Instance, *, partial: bool = False, within: str = "support"):
        """Return the decided class state, by name.

        That is the most probable class state of a multi-class classifier (the first state
        in the class's order winning a tie); for a binary classifier the state its decision
        stands for (``"not <positive>"`` for a negative decision about one of several states).

        Parameters
        ----------
        instance : mapping, pandas.Series or one-row DataFrame
            ``{feature: state}``.
        partial : bool
            Allow features to be left out (summed out).
        within : {"support", "all"}, default "support"
            As for :meth:`decide`: refuse an instance the network cannot produce, or decide
            it by the rule's tie.

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
        decision = self.decide(instance, partial=partial, within=within)
        if self._positive_index is None:
            return decision
        from .._util.wording import decision_state
        return decision_state(self.classes, self._positive, bool(decision))

    def class_probabilities(self, instance: Instance, *, partial: bool = False,
                            exact: bool = False) -> dict:
        """Return ``{state: Pr(class = state | instance)}`` for every class state, in order.

        On a general network in floating point within a proven relative error bound of the
        exact values (as :meth:`posterior`); each rounded once from its exact value with
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
            raise impossible_error(self, idx, "the instance has probability zero under the "
                                   "network (its class probabilities are undefined): ")
        return {s: float(Fraction(v) / total) for s, v in zip(self.classes, joint)}

    def _one_state(self, what: str) -> None:
        if self._positive_index is None:
            from ..errors import ArgumentError
            raise ArgumentError(f"{what} is the probability of the positive state; this "
                                f"classifier picks one of {len(self.classes)} class states: "
                                f"use class_probabilities(x)")

    @cached_property
    def fingerprint(self) -> str:
        """A SHA-256 digest of everything the decision depends on."""
        import hashlib
        h = hashlib.sha256()
        parts = [repr(self._class_var), repr(self._positive), repr(self._threshold),
                 repr(self._features)]
        if self._positive is None:
            parts.append("multiclass")
        if self._rule != "threshold":
            parts.append(repr(self._rule))
        if self._tree is not None:
            t = self._tree
            for n in (self._class_var, *t.postorder):
                parts.append(repr((n, t.parent.get(n), self._states[n], t.tables[n])))
        else:
            for scope, table in self._main:
                parts.append(repr((scope, [self._states[v] for v in scope],
                                   table.reshape(-1).tolist())))
        h.update("\n".join(parts).encode())
        return h.hexdigest()

    def __repr__(self) -> str:
        if self._positive is None:
            return (f"Classifier({self.structure}, class_var={self._class_var!r}, "
                    f"classes={len(self.classes)}, features={len(self._features)})")
        rule = (f"threshold={float(self._threshold)!r}" if self._rule == "threshold"
                else "rule='argmax'")
        return (f"Classifier({self.structure}, class_var={self._class_var!r}, "
                f"positive={self._positive!r}, {rule}, features={len(self._features)})")


def _argmax(joint) -> int:
    """Return the index of the largest entry, the first on ties (``numpy.argmax``)."""
    best = 0
    for i in range(1, len(joint)):
        if joint[i] > joint[best]:
            best = i
    return best


def _settled(values: list, err: float, rule: str, positive: int | None, threshold) -> Any:
    """Return the decision on float values, each within a relative ``err`` of the exact one.

    The values are ``Pr(c, x)`` up to one positive factor. The answer is the decided
    class's index for ``argmax`` without a positive state, else True or False, when no
    exact values within those bounds decide otherwise; else ``None``. Every comparison
    is :func:`bnx._util.rounding.compare`, the one compare-or-defer.
    """
    vals = [Fraction(v) for v in values]
    if rule == "threshold" and positive is not None:
        t = Fraction(threshold)
        others = sum(vals, Fraction(0)) - vals[positive]  # nonnegative: within err too
        return compare((1 - t) * vals[positive], t * others, err)
    best = _argmax(vals)
    if not all(compare(vals[best], vals[c], err, strict=True)
               for c in range(len(vals)) if c != best):
        return None
    return best if positive is None else best == positive
