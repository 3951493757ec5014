"""Sets of explanations, held as decision diagrams.

An :class:`Explanations` object is a set of (partial) instances encoded as a BDD,
as in the paper: it is counted, measured and minimised on the diagram, never by
enumerating it. Its :class:`~bnx.explanation.layout.Layout` says how each feature's
choices are written as BDD variables.

The algorithms build a set node by node in a :class:`~bnx.explanation.nodetable.NodeTable`
(Python lists with a unique table) or as arrays; the set reads its diagram into lists once
(:class:`~bnx.explanation.setdiagram.SetDiagram`) for its walks (:mod:`.walks`), and writes
it into a ``dd`` manager of the ODD's backend only when :attr:`Explanations.root` is
asked for. Every traversal walks the diagram feature by feature, following only the
codes of valid choices, so codes that name no state never come out.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .._types import Feature, Manager, Node
from ..diagram.backends import new_manager
from ..diagram._passes import deep, recursion_for
from ..errors import ArgumentError, ExplanationError
from ..odd._odd import check_odd
from .layout import DROPPED, Layout
from .setdiagram import SetDiagram
from .nodetable import NodeTable
from .walks import count_members, keep_minimal, length_counts, members, minimum

__all__ = ["DROPPED", "Explanations", "Layout", "positives"]


class Explanations:
    """A set of explanations of a decision, held as a decision diagram.

    Returned by :func:`bnx.mc_explanations`, :func:`bnx.pi_explanations` and
    :func:`bnx.prime_implicants`. Immutable. Each explanation is a dict from
    feature to state; a partial one leaves dropped features out.

    Attributes
    ----------
    bdd, root : the ``dd`` manager and node of the diagram. When the set was
        computed as a :attr:`diagram` of lists, ``root`` is written into ``bdd`` the
        first time it is read.
    layout : Layout
    kind : str
        ``"MC"``, ``"PI"`` or ``"prime implicants"``.
    decision : bool or None
        The decision explained (or the polarity of the prime implicants).
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
                 diagram: SetDiagram | None = None, core: tuple | None = None,
                 make_manager=None, on: Mapping | None = None) -> None:
        if root is None and diagram is None and core is None:
            raise ArgumentError("an Explanations set needs a dd root or a diagram")
        self._core = core  # (NodeTable, node): where the set was built
        self._bdd = bdd
        self._make_manager = make_manager  # makes bdd when it is first needed
        self._root = root
        self._diagram = diagram  # the diagram as lists, read once
        self.layout = layout
        enc = layout.encoding
        self._display = enc.positions(feature_order if feature_order is not None
                                      else enc.features)
        self.kind = kind
        self.decision = decision
        self.instance = dict(instance) if instance is not None else None
        self._on = on  # a mapping, or a function that makes it on first use
        self._count: int | None = None
        self._lengths: dict[int, int] | None = None

    @property
    def on(self) -> dict | None:
        """The on states of MC-explanations (see the class docstring); ``None`` otherwise."""
        on = self._on
        if on is not None and not isinstance(on, dict):
            on = self._on = dict(on()) if callable(on) else dict(on)
        return on

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
            self._root = self.diagram.to_dd(self.bdd, self.layout.variables)
        return self._root

    @property
    def diagram(self) -> SetDiagram:
        """The diagram as lists (:class:`~bnx.explanation.setdiagram.SetDiagram`), read once."""
        if self._diagram is None:
            if self._core is not None:
                core, ref = self._core
                self._diagram = core.diagram(ref)
            else:
                self._diagram = SetDiagram.from_dd(self.root, self.layout.nvars)
        return self._diagram

    @property
    def features(self) -> tuple:
        """The features, in the classifier's order (the order of dict keys and columns)."""
        enc = self.layout.encoding
        return tuple(enc.features[i] for i in self._display)

    @property
    @deep
    def size(self) -> int:
        """Number of nodes of the diagram (terminals counted once)."""
        if self._root is None and self._core is not None:  # the same count as in dd
            core, ref = self._core
            return core.size(ref)
        return self.root.dag_size

    @property
    def count(self) -> int:
        """Number of explanations, counted on the diagram (exact)."""
        if self._count is None:
            d = self.diagram
            if self.layout.kind == "keep":  # every assignment is a member: count models
                self._count = d.count()
            else:
                with recursion_for(self.layout.nvars):
                    self._count = count_members(d, d.root, 0, self.layout, {})
        return self._count

    def __len__(self) -> int:
        n = self.count
        if n > sys.maxsize:
            raise ExplanationError(f"{n} explanations are too many for len(); use .count")
        return n

    def __bool__(self) -> bool:
        if self._diagram is not None:
            return self._diagram.root != 0
        if self._core is not None:
            return self._core[1] != 0
        return self.root != self.bdd.false

    @deep
    def lengths(self) -> dict[int, int]:
        """``{length: number of explanations}``, computed on the diagram.

        The length of a partial instance is the number of features it keeps; the
        length of an MC-explanation is its cardinality (the number of its features
        in the minimised states).
        """
        if self._lengths is None:
            d = self.diagram
            poly = length_counts(d, d.root, 0, self.layout, {})
            self._lengths = {k: v for k, v in sorted(poly.items()) if v}
        return dict(self._lengths)

    @deep
    def shortest(self) -> "Explanations":
        """All explanations of minimum length, by minimisation on the diagram."""
        d = self.diagram
        memo: dict = {}
        best = minimum(d, d.root, 0, self.layout, memo)
        if best == math.inf:
            return self
        core = NodeTable(self.layout.nvars)
        ref = keep_minimal(d, d.root, 0, self.layout, memo, {}, core)
        return Explanations(self._bdd, None, self.layout, kind=self.kind,
                            decision=self.decision, make_manager=self._make_manager,
                            instance=self.instance, feature_order=self.features,
                            core=(core, ref), on=self._on)

    # ------------------------------------------------------------------ items
    def __iter__(self) -> Iterator[dict]:
        """Explanations in a stable order: depth first in the diagram's variable
        order, "dropped" before the states, states in pgmpy's order. Each is a dict
        whose keys follow :attr:`features` (the classifier's order)."""
        d = self.diagram
        rank = [0] * self.layout.n  # feature -> its position in the display order
        for r, j in enumerate(self._display):
            rank[j] = r
        return members(d, d.root, self.layout, rank)

    def to_set(self) -> set[frozenset]:
        """The explanations as a set of ``frozenset(dict.items())``."""
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
        g = self.diagram
        u = g.root
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

    # ------------------------------------------------------------------ display
    def to_frame(self, limit: int | None = None):
        """A pandas DataFrame, one row per explanation, ``*`` for a dropped feature.

        ``limit`` caps the number of rows (``None``: all of them). For MC-explanations,
        ``attrs["on"]`` holds the on states (:attr:`on`).
        """
        import pandas as pd
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise ArgumentError(f"limit must be a non-negative integer or None, got {limit!r}")
        rows = []
        for e in self:
            if limit is not None and len(rows) >= limit:
                break
            rows.append({f: e.get(f, "*") for f in self.features})
        frame = pd.DataFrame(rows, columns=list(self.features), dtype=object)
        if self.on is not None:
            frame.attrs["on"] = dict(self.on)
        return frame

    def plot(self, ax=None, **options):
        """Draw the explanations as a grid with matplotlib; see :func:`bnx.plot.plot_explanations`."""
        from ..diagram.drawing import plot_explanations
        return plot_explanations(self, ax, **options)

    def title(self) -> str:
        """One line: how many explanations of which decision, and their lengths."""
        what = {"MC": "MC-explanation", "PI": "PI-explanation",
                "prime implicants": "prime implicant",
                "instances": "positive instance"}.get(self.kind, self.kind)
        n = self.count
        s = f"{n} {what}{'' if n == 1 else 's'}"
        if self.decision is not None and self.kind != "instances":
            s += f" of a {'positive' if self.decision else 'negative'} decision" \
                if self.kind != "prime implicants" else \
                f" of the {'positive' if self.decision else 'negative'} decisions"
        lens = self.lengths() if self.kind != "instances" else {}
        if lens:
            s += " (length " + ", ".join(f"{k}: {v}" for k, v in lens.items()) + ")"
        return s

    def on_text(self) -> str | None:
        """The on states of MC-explanations as one line (``None`` for other kinds).

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.asia(), backend="autoref")
        >>> x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
        >>> bnx.mc_explanations(odd, x).on_text()
        'on states (counted): asia=no, smoke=no, xray=no, dysp=no'
        """
        if self.on is None:
            return None
        shown = [f for f in self.features if f in self.on]
        return "on states (counted): " + (", ".join(
            f"{f}={'|'.join(map(str, self.on[f]))}" for f in shown) or "(none)")

    def __str__(self) -> str:
        limit = 20
        df = self.to_frame(limit=limit)
        body = df.to_string(index=False) if len(df) else "(none)"
        more = f"\n... and {self.count - limit} more" if self.count > limit else ""
        on = f"{self.on_text()}\n" if self.on is not None else ""
        return f"{self.title()}\n{on}{body}{more}"

    def _repr_html_(self) -> str:
        limit = 50
        df = self.to_frame(limit=limit)
        more = f"<p>... and {self.count - limit} more</p>" if self.count > limit else ""
        on = f"<p>{self.on_text()}</p>" if self.on is not None else ""
        return f"<p><b>{self.title()}</b></p>{on}{df.to_html(index=False)}{more}"

    def __repr__(self) -> str:
        return f"<Explanations: {self.title()}, diagram size {self.size}>"


def positives(odd) -> Explanations:
    """The positive instances of an ODD as an :class:`Explanations` set (a diagram):
    ``len()`` counts them on the diagram, iterating lists them.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> pos = bnx.positives(odd)
    >>> len(pos), all(odd.decide(x) for x in pos)
    (6, True)
    """
    check_odd(odd)
    return Explanations(odd.bdd, odd.root, Layout("complete", odd.encoding), kind="instances",
                        feature_order=odd.display_order)
