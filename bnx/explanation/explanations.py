"""Sets of explanations, held as decision diagrams.

An :class:`Explanations` object is a set of (partial) instances encoded as a BDD,
as in the paper: it is counted, measured and minimised on the diagram, never by
enumerating it. Its :class:`~bnx.diagram.layout.Layout` says how each feature's
choices are written as BDD variables.

The algorithms build a set node by node in a :class:`~bnx.diagram.store.Store`
(Python lists with a unique table); the set is counted and walked (:mod:`bnx.diagram.walks`) there,
and written into a ``dd`` manager of the ODD's backend only when :attr:`Explanations.root`
is asked for (a set given as a ``dd`` function is read into a table once). Every
traversal walks the diagram feature by feature, following only the codes of valid
choices, so codes that name no state never come out.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .._util.guard import guarded
from .._util.types import Feature, Manager, Node
from ..diagram import _setops as sets
from ..diagram.backends import new_manager
from ..diagram.layout import DROPPED, Layout
from ..diagram.store import Store
from ..diagram.walks import count_members, keep_minimal, length_counts, members, minimum
from ..errors import ArgumentError, ExplanationError
from ..odd._odd import check_odd
from ._shown import Shown

__all__ = ["DROPPED", "Explanations", "Layout", "positives", "wording_of"]


@guarded
class Explanations(Shown):
    """A set of explanations of a decision, held as a decision diagram.

    Returned by :func:`bnx.mc_explanations`, :func:`bnx.pi_explanations`,
    :func:`bnx.prime_implicants`, :func:`bnx.contrastive_explanations` and
    :func:`bnx.counterfactuals`. Immutable. Each explanation is a dict from
    feature to state; a partial one leaves dropped features out.

    ``print`` shows the decision by its class state and the first few explanations,
    shortest first, each as ``feature = state`` terms; :meth:`to_frame` is the wide
    table of all of them (these displays are in :class:`~._shown.Shown`).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> print(bnx.pi_explanations(odd, x))
    3 sufficient reasons for Admit = + (PI-explanations), shortest first:
      WorkExperience = +, GPA = +
      WorkExperience = +, FirstTimeApplicant = +, EntranceExam = +
      FirstTimeApplicant = +, EntranceExam = +, GPA = +

    Attributes
    ----------
    bdd, root : the ``dd`` manager and node of the diagram. When the set was
        built in a node table (:attr:`nodes`), ``root`` is written into ``bdd`` the
        first time it is read.
    layout : Layout
    kind : str
        ``"MC"``, ``"PI"`` or ``"prime implicants"``.
    decision : bool or None
        The decision explained (or the polarity of the prime implicants). On a
        :class:`~bnx.MulticlassODD`, the decision of the class formula asked: ``True`` for
        the decided class's, ``False`` for a rival's.
    decision_text : str or None
        The decision in the class's words, ``"Admit = +"`` (see
        :meth:`bnx.ODD.decision_text`); on a multi-class ODD ``"Disease = PAIVS"``, and
        ``"Disease = PAIVS and not TGA"`` with ``rival="TGA"``.
    wording : tuple of str or None
        Both decisions in the class's words, positive first (on a multi-class ODD, those of
        the class formula asked: ``("Disease = PAIVS", "Disease other than PAIVS")``, or
        with a rival ``("Disease = TGA", "Disease = PAIVS and not TGA")``).
    decided : class state or None
        On a multi-class ODD, the class state decided on the instance (for
        :func:`bnx.prime_implicants`, the class they imply); ``None``, not applicable, on
        a binary ODD (its decision is :attr:`decision`).
    rival : class state or None
        The rival of a "why this class and not that one" question (``rival=``); ``None``,
        not applicable, without one or on a binary ODD.
    instance : dict or None
        The instance explained.
    on : dict or None
        For MC-explanations, the on states of each feature that counts (``{feature:
        tuple of states}``; fixed features are left out): an MC-explanation keeps the
        decision with the fewest of these. Shown by ``print``, and in
        ``to_frame().attrs["on"]``.
    """

    def __init__(self, bdd: Manager | None, root: Node | None, layout: Layout, *, kind: str,
                 decision: bool | None = None, instance: Mapping | None = None,
                 feature_order: Sequence[Feature] | None = None,
                 core: tuple | None = None,
                 make_manager=None, on: Mapping | None = None, wording=None,
                 decided: Any = None, rival: Any = None) -> None:
        if root is None and core is None:
            raise ArgumentError("an Explanations set needs a dd root or a node table")
        self._core = core  # (Store, node): where the set was built (or read into)
        self._bdd = bdd
        self._make_manager = make_manager  # makes bdd when it is first needed
        self._root = root
        self.layout = layout
        enc = layout.encoding
        self._display = enc.positions(feature_order if feature_order is not None
                                      else enc.features)
        self.kind = kind
        self.decision = decision
        self.instance = dict(instance) if instance is not None else None
        self.decided = decided
        self.rival = rival
        self._on = on  # a mapping, or a function that makes it on first use
        self._wording = wording  # (positive, negative) texts, or a function making them
        self._count: int | None = None
        self._lengths: dict[int, int] | None = None

    @property
    def on(self) -> dict | None:
        """The on states of MC-explanations (see the class docstring).

        ``None``, not applicable, for other kinds.
        """
        on = self._on
        if on is not None and not isinstance(on, dict):
            on = self._on = dict(on()) if callable(on) else dict(on)
        return on

    @property
    def wording(self) -> tuple | None:
        """Both decisions in the class's words, positive first.

        ``None``, not applicable, when the set was made without them, e.g. from bare arrays.
        """
        w = self._wording
        if callable(w):
            w = self._wording = tuple(w())
        return w

    @property
    def decision_text(self) -> str | None:
        """The decision explained in the class's words, ``"Admit = +"``.

        ``None``, not applicable, where :attr:`wording` is, or for a set that explains no
        decision, such as prime implicants; for :func:`positives`, the positive
        decision.
        """
        w = self.wording
        decision = True if self.kind == "instances" else self.decision
        if w is None or decision is None:
            return None
        return w[0] if decision else w[1]

    # ------------------------------------------------------------------ measures
    @property
    def bdd(self) -> Manager:
        """The ``dd`` manager of the diagram (made when first needed)."""
        if self._bdd is None:
            self._bdd = (self._make_manager() if self._make_manager is not None
                         else new_manager("autoref", self.layout.variables))
        return self._bdd

    @property
    def root(self) -> Node:
        """The diagram's ``dd`` node (written into :attr:`bdd` on first use)."""
        if self._root is None:
            table, ref = self.nodes
            self._root = table.to_dd(self.bdd, self.layout.variables, ref)
        return self._root

    @property
    def nodes(self) -> tuple[Store, int]:
        """``(table, node)``: the :class:`~bnx.diagram.store.Store` of the diagram, its node.

        A set given as a ``dd`` node is read once.
        """
        if self._core is None:
            table = Store(self.layout.nvars)
            self._core = (table, table.read_dd(self._root))
        return self._core

    @property
    def features(self) -> tuple:
        """The features, in the classifier's order (the order of dict keys and columns)."""
        enc = self.layout.encoding
        return tuple(enc.features[i] for i in self._display)

    @property
    def size(self) -> int:
        """Number of nodes of the diagram (terminals counted once)."""
        if self._root is None:  # the same count as in dd
            core, ref = self._core
            return core.size(ref)
        return sets.dag_size(self.root)

    @property
    def count(self) -> int:
        """Number of explanations, counted on the diagram (exact)."""
        if self._count is None:
            table, ref = self.nodes
            if self.layout.kind == "keep":  # every assignment is a member: count models
                self._count = table.count(ref)
            else:
                self._count = count_members(table, ref, 0, self.layout,
                                            table.memo(self.layout.choices))
        return self._count

    def __len__(self) -> int:
        """Count the explanations (:attr:`count`; too many for ``len()`` past ``sys.maxsize``)."""
        n = self.count
        if n > sys.maxsize:
            raise ExplanationError(f"{n} explanations are too many for len(); use .count")
        return n

    def __bool__(self) -> bool:
        """Tell whether there is any explanation."""
        if self._core is not None:
            return self._core[1] != 0
        return self.root != sets.false(self.bdd)

    def lengths(self) -> dict[int, int]:
        """``{length: number of explanations}``, computed on the diagram.

        The length of a partial instance is the number of features it keeps; the
        length of an MC-explanation is its cardinality (the number of its features
        in the minimised states).

        Returns
        -------
        dict
            ``{length: number of explanations}``.
        """
        if self._lengths is None:
            table, ref = self.nodes
            poly = length_counts(table, ref, 0, self.layout, {})
            self._lengths = {k: v for k, v in sorted(poly.items()) if v}
        return dict(self._lengths)

    def shortest(self) -> Explanations:
        """All explanations of minimum length, by minimisation on the diagram.

        Returns
        -------
        'Explanations'
            The explanations of minimum length.
        """
        table, ref = self.nodes
        memo: dict = {}
        best = minimum(table, ref, 0, self.layout, memo)
        if best == math.inf:
            return self
        ref = keep_minimal(table, ref, 0, self.layout, memo, {}, table)  # in the same table
        return Explanations(self._bdd, None, self.layout, kind=self.kind,
                            decision=self.decision, make_manager=self._make_manager,
                            instance=self.instance, feature_order=self.features,
                            core=(table, ref), on=self._on, wording=self._wording,
                            decided=self.decided, rival=self.rival)

    # ------------------------------------------------------------------ items
    def __iter__(self) -> Iterator[dict]:
        """Iterate over the explanations in a stable order.

        Depth first in the diagram's variable order, "dropped" before the states, states in
        pgmpy's order. Each is a dict whose keys follow :attr:`features` (the classifier's
        order).
        """
        table, ref = self.nodes
        rank = [0] * self.layout.n  # feature -> its position in the display order
        for r, j in enumerate(self._display):
            rank[j] = r
        return members(table, ref, self.layout, rank)

    def to_set(self) -> set[frozenset]:
        """Return the explanations as a set of ``frozenset(dict.items())``.

        Returns
        -------
        set
        """
        return {frozenset(e.items()) for e in self}

    def __contains__(self, item: Any) -> bool:
        """Whether ``item`` (a dict from features to states) is one of the explanations.

        States match as in instances (by value, or by their text); a key that is
        not a feature makes the answer False.
        """
        from ..classifier._classifier import _resolve_state
        if not isinstance(item, Mapping):
            return False
        enc = self.layout.encoding
        try:
            if any(f not in enc._index for f in item):
                return False
        except TypeError:
            return False
        g, u = self.nodes
        for i, f in enumerate(enc.features):
            label = DROPPED
            if f in item:
                label = _resolve_state(enc.states[i], item[f])
                if label is None:
                    return False
            bits = self.layout.choice_map[i].get(label)
            if bits is None:
                return False
            u = g.restrict(u, bits)
        return u == 1


def wording_of(odd):
    """Make a function giving both decisions of ``odd`` in the class's words, positive first.

    An :class:`Explanations` set calls it when it first prints.
    """
    return lambda: (odd.decision_text(True), odd.decision_text(False))


def positives(odd, decision=None) -> Explanations:
    """Return the positive instances of an ODD as an :class:`Explanations` set (a diagram).

    ``len()`` counts them on the diagram, iterating lists them. On a
    :class:`~bnx.MulticlassODD`, the instances decided the class ``decision``.

    Parameters
    ----------
    odd : ODD or MulticlassODD
    decision : class state, optional
        On a multi-class ODD, the class whose instances are wanted (required); on a binary
        ODD, ``None`` or ``True`` (its positive instances).

    Returns
    -------
    Explanations
        Complete instances, counted on the diagram.

    Raises
    ------
    ArgumentError
        A multi-class ODD and no class named, or a binary ODD and another decision.
    UnknownStateError
        ``decision`` is not a class state.

    See Also
    --------
    bnx.ODD.count : how many there are (per class on a multi-class ODD).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> from bnx.explanation.explanations import positives
    >>> pos = positives(odd)
    >>> len(pos), all(odd.decide(x) for x in pos)
    (6, True)
    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> print(positives(odd, "allergy"))  # doctest: +NORMALIZE_WHITESPACE
    3 instances decided Illness = allergy:
      Season = spring, Fever = no, Sneezing = yes, Aches = no
      Season = spring, Fever = no, Sneezing = no, Aches = no
      Season = summer, Fever = no, Sneezing = yes, Aches = no
    """
    check_odd(odd)
    extra = {"wording": wording_of(odd)}
    if odd.multiclass:
        if decision is None or isinstance(decision, bool):
            raise ArgumentError(f"this ODD picks one of {len(odd.classes)} class states: name "
                                f"the class whose instances you want, one of "
                                f"{', '.join(map(str, odd.classes))}")
        from ..question._classes import of_class
        q = of_class(odd, decision)
        odd = q.formula
        extra = {"wording": q.wording, "decided": q.decided}
    elif decision is not None and decision is not True:
        raise ArgumentError(f"decision={decision!r}: a binary ODD lists its positive "
                            f"instances; decision= names a class of a multi-class ODD")
    return Explanations(odd.bdd, odd.root, Layout("complete", odd.encoding), kind="instances",
                        feature_order=odd.display_order, **extra)
