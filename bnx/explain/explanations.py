"""Sets of explanations, held as decision diagrams.

An :class:`Explanations` object is a set of (partial) instances encoded as a BDD,
as in the paper: it is counted, measured and minimised on the diagram, never by
enumerating it. A :class:`Layout` says how each feature's *choices* (a state, or
"dropped" for a partial instance) are written as BDD variables:

* ``complete``: the ODD's own log-encoded bits (MC-explanations live in the ODD's
  manager);
* ``keep``: one variable ``k{i}`` per feature, true when the feature is kept with
  its state in a fixed instance (PI-explanations of one decision);
* ``partial``: per feature ``k{i}`` then its value bits, all zero when dropped
  (prime implicants of a whole decision function).

Every traversal walks the diagram feature by feature, following only the codes
of valid choices, so codes that name no state never come out.
"""

from __future__ import annotations

import math
import sys
from functools import cached_property
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .._types import Feature, Manager, Node
from ..backends import make_node
from ..diagram import deep, recursion_for, restrict
from ..encoding import Encoding, _select

__all__ = ["Explanations", "Layout"]

DROPPED = None  # the label of the "dropped" choice


class Layout:
    """How the choices of each feature are laid out as BDD variables.

    Parameters
    ----------
    kind : {"complete", "keep", "partial"}
    encoding : Encoding
        The features, their states and (for ``complete``) their bits.
    instance : sequence of int, optional
        For ``keep``: the state index that a kept feature takes.
    weights : sequence of set of int, optional
        For each feature, the labels that count towards an explanation's length
        (a state index, or ``None`` for "dropped"). Default: ``complete`` counts
        nothing, ``keep`` and ``partial`` count kept features.
    """

    def __init__(self, kind: str, encoding: Encoding, *, instance: Sequence[int] | None = None,
                 weights: Sequence[set] | None = None) -> None:
        self.kind = kind
        self.encoding = encoding
        n = len(encoding.features)
        self.n = n
        if kind == "complete":
            self.variables = encoding.variables
            self.first_level = encoding.first_level
        elif kind == "keep":
            self.variables = tuple(f"k{i}" for i in range(n))
            self.first_level = tuple(range(n + 1))
        elif kind == "partial":
            names: list[str] = []
            first = []
            for i, bs in enumerate(encoding.bits):
                first.append(len(names))
                names.append(f"k{i}")
                names.extend(f"v{i}_{b}" for b in range(len(bs)))
            first.append(len(names))
            self.variables = tuple(names)
            self.first_level = tuple(first)
        else:
            from ..errors import ArgumentError
            raise ArgumentError(f"unknown layout kind {kind!r}: expected 'complete', 'keep' "
                                f"or 'partial'")
        self.instance = tuple(instance) if instance is not None else None
        self.nvars = len(self.variables)
        # choices[i] = list of (label, [(level, value), ...])
        self.choices: list[list[tuple[Any, list[tuple[int, bool]]]]] = []
        for i in range(n):
            k = len(encoding.states[i])
            lvl = self.first_level[i]
            m = len(encoding.bits[i])
            if kind == "complete":
                ch = [(j, [(lvl + b, bool((j >> (m - 1 - b)) & 1)) for b in range(m)])
                      for j in range(k)]
            elif kind == "keep":
                ch = [(DROPPED, [(lvl, False)]), (self.instance[i], [(lvl, True)])]
            else:
                ch = [(DROPPED, [(lvl, False)] + [(lvl + 1 + b, False) for b in range(m)])]
                ch += [(j, [(lvl, True)] + [(lvl + 1 + b, bool((j >> (m - 1 - b)) & 1))
                                            for b in range(m)]) for j in range(k)]
            self.choices.append(ch)
        if weights is None:
            weights = [set() if kind == "complete" else {j for j, _ in self.choices[i]
                                                         if j is not DROPPED}
                       for i in range(n)]
        self.weights = [frozenset(w) for w in weights]

    @cached_property
    def choice_map(self) -> list[dict]:
        """For each feature, ``{label: bits}`` of its choices (made once)."""
        return [dict(ch) for ch in self.choices]

    def build(self, bdd: Manager, i: int, children: Mapping[Any, Node]) -> Node:
        """The node over feature ``i``'s variables: choice ``label`` leads to ``children[label]``.

        Labels missing from ``children`` lead to false.
        """
        false = bdd.false
        if self.kind == "complete":
            k = len(self.encoding.states[i])
            return _select(bdd, self.encoding.bits[i], 0, 0,
                           [children.get(j, false) for j in range(k)], false)
        lvl = self.first_level[i]
        kvar = self.variables[lvl]
        if self.kind == "keep":
            return make_node(bdd, kvar, children.get(DROPPED, false),
                             children.get(self.instance[i], false))
        vbits = self.variables[lvl + 1:self.first_level[i + 1]]
        drop = children.get(DROPPED, false)
        for v in reversed(vbits):
            drop = make_node(bdd, v, drop, false)
        k = len(self.encoding.states[i])
        keep = _select(bdd, vbits, 0, 0, [children.get(j, false) for j in range(k)], false)
        return make_node(bdd, kvar, drop, keep)


class Explanations:
    """A set of explanations of a decision, held as a decision diagram.

    Returned by :func:`bnx.mc_explanations`, :func:`bnx.pi_explanations` and
    :func:`bnx.prime_implicants`. Immutable. Each explanation is a dict from
    feature to state; a partial one leaves dropped features out.

    Attributes
    ----------
    bdd, root : the ``dd`` manager and node of the diagram.
    layout : Layout
    kind : str
        ``"MC"``, ``"PI"`` or ``"prime implicants"``.
    decision : bool or None
        The decision explained (or the polarity of the prime implicants).
    instance : dict or None
        The instance explained.
    """

    def __init__(self, bdd: Manager, root: Node, layout: Layout, *, kind: str,
                 decision: bool | None = None, instance: Mapping | None = None,
                 feature_order: Sequence[Feature] | None = None) -> None:
        self.bdd = bdd
        self.root = root
        self.layout = layout
        enc = layout.encoding
        order = tuple(feature_order) if feature_order is not None else enc.features
        self._display = tuple(enc.position(f) for f in order)
        self.kind = kind
        self.decision = decision
        self.instance = dict(instance) if instance is not None else None
        self._count: int | None = None
        self._lengths: dict[int, int] | None = None

    # ------------------------------------------------------------------ measures
    @property
    def features(self) -> tuple:
        """The features, in the classifier's order (the order of dict keys and columns)."""
        enc = self.layout.encoding
        return tuple(enc.features[i] for i in self._display)

    @property
    @deep
    def size(self) -> int:
        """Number of nodes of the diagram (terminals counted once)."""
        return self.root.dag_size

    @property
    def count(self) -> int:
        """Number of explanations, counted on the diagram (exact)."""
        if self._count is None:
            with recursion_for(self.layout.nvars):
                self._count = _count(self.root, 0, self.layout, {})
        return self._count

    def __len__(self) -> int:
        n = self.count
        if n > sys.maxsize:
            from ..errors import ExplanationError
            raise ExplanationError(f"{n} explanations are too many for len(); use .count")
        return n

    def __bool__(self) -> bool:
        return self.root != self.bdd.false

    @deep
    def lengths(self) -> dict[int, int]:
        """``{length: number of explanations}``, computed on the diagram.

        The length of a partial instance is the number of features it keeps; the
        length of an MC-explanation is its cardinality (the number of its features
        in the minimised states).
        """
        if self._lengths is None:
            poly = _lengths(self.root, 0, self.layout, {})
            self._lengths = {k: v for k, v in sorted(poly.items()) if v}
        return dict(self._lengths)

    @deep
    def shortest(self) -> "Explanations":
        """All explanations of minimum length, by minimisation on the diagram."""
        memo: dict = {}
        best = _minimum(self.root, 0, self.layout, memo)
        if best == math.inf:
            return self
        root = _keep_minimal(self.root, 0, self.layout, memo, {}, self.bdd)
        return Explanations(self.bdd, root, self.layout, kind=self.kind,
                            decision=self.decision, instance=self.instance,
                            feature_order=self.features)

    # ------------------------------------------------------------------ items
    def __iter__(self) -> Iterator[dict]:
        """Explanations in a stable order: depth first in the diagram's variable
        order, "dropped" before the states, states in pgmpy's order. Each is a dict
        whose keys follow :attr:`features` (the classifier's order)."""
        enc = self.layout.encoding
        stack: list[tuple[Node, int, tuple]] = [(self.root, 0, ())]
        while stack:
            u, i, labels = stack.pop()
            if u == self.bdd.false:
                continue
            if i == self.layout.n:
                yield {enc.features[j]: enc.states[j][labels[j]]
                       for j in self._display if labels[j] is not DROPPED}
                continue
            for label, bits in reversed(self.layout.choices[i]):
                stack.append((restrict(u, bits, self.layout.nvars), i + 1, labels + (label,)))

    def to_set(self) -> set[frozenset]:
        """The explanations as a set of ``frozenset(dict.items())``."""
        return {frozenset(e.items()) for e in self}

    def __contains__(self, item: Any) -> bool:
        """Whether ``item`` (a dict from features to states) is one of the explanations.

        States match as in instances (by value, or by their text); a key that is
        not a feature makes the answer False.
        """
        from ..classifier import _resolve_state
        if not isinstance(item, Mapping):
            return False
        enc = self.layout.encoding
        try:
            if any(f not in enc._index for f in item):
                return False
        except TypeError:
            return False
        u = self.root
        for i, f in enumerate(enc.features):
            label = DROPPED
            if f in item:
                label = _resolve_state(enc.states[i], item[f])
                if label is None:
                    return False
            bits = self.layout.choice_map[i].get(label)
            if bits is None:
                return False
            u = restrict(u, bits, self.layout.nvars)
        return u == self.bdd.true

    # ------------------------------------------------------------------ display
    def to_frame(self, limit: int | None = None):
        """A pandas DataFrame, one row per explanation, ``*`` for a dropped feature.

        ``limit`` caps the number of rows (``None``: all of them).
        """
        import pandas as pd
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            from ..errors import ArgumentError
            raise ArgumentError(f"limit must be a non-negative integer or None, got {limit!r}")
        rows = []
        for e in self:
            if limit is not None and len(rows) >= limit:
                break
            rows.append({f: e.get(f, "*") for f in self.features})
        return pd.DataFrame(rows, columns=list(self.features), dtype=object)

    def plot(self, ax=None, **options):
        """Draw the explanations as a grid with matplotlib; see :func:`bnx.plot.plot_explanations`."""
        from ..plot import plot_explanations
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

    def __str__(self) -> str:
        limit = 20
        df = self.to_frame(limit=limit)
        body = df.to_string(index=False) if len(df) else "(none)"
        more = f"\n... and {self.count - limit} more" if self.count > limit else ""
        return f"{self.title()}\n{body}{more}"

    def _repr_html_(self) -> str:
        limit = 50
        df = self.to_frame(limit=limit)
        more = f"<p>... and {self.count - limit} more</p>" if self.count > limit else ""
        return f"<p><b>{self.title()}</b></p>{df.to_html(index=False)}{more}"

    def __repr__(self) -> str:
        return f"<Explanations: {self.title()}, diagram size {self.size}>"


# ---------------------------------------------------------------------- traversals
# Module-level recursions with explicit memos (see bnx.diagram for why).

def _count(u: Node, i: int, layout: Layout, memo: dict) -> int:
    if u.var is None and u == u.bdd.false:
        return 0
    if i == layout.n:
        return 1
    key = (u, i)
    got = memo.get(key)
    if got is None:
        got = sum(_count(restrict(u, bits, layout.nvars), i + 1, layout, memo)
                  for _, bits in layout.choices[i])
        memo[key] = got
    return got


def _lengths(u: Node, i: int, layout: Layout, memo: dict) -> dict[int, int]:
    if u.var is None and u == u.bdd.false:
        return {}
    if i == layout.n:
        return {0: 1}
    key = (u, i)
    got = memo.get(key)
    if got is None:
        got = {}
        w = layout.weights[i]
        for label, bits in layout.choices[i]:
            shift = 1 if label in w else 0
            for k, v in _lengths(restrict(u, bits, layout.nvars), i + 1, layout, memo).items():
                got[k + shift] = got.get(k + shift, 0) + v
        memo[key] = got
    return got


def _minimum(u: Node, i: int, layout: Layout, memo: dict) -> float:
    """Minimum length of a member below ``u`` (``inf`` when empty); pass one of minimize."""
    if u.var is None and u == u.bdd.false:
        return math.inf
    if i == layout.n:
        return 0
    key = (u, i)
    got = memo.get(key)
    if got is None:
        w = layout.weights[i]
        got = min(((1 if label in w else 0)
                   + _minimum(restrict(u, bits, layout.nvars), i + 1, layout, memo)
                   for label, bits in layout.choices[i]), default=math.inf)
        memo[key] = got
    return got


def _keep_minimal(u: Node, i: int, layout: Layout, mins: dict, memo: dict,
                  bdd: Manager) -> Node:
    """Pass two of minimize: keep only the edges on minimum-length paths."""
    if u.var is None and u == u.bdd.false:
        return u
    if i == layout.n:
        return u
    key = (u, i)
    got = memo.get(key)
    if got is None:
        best = _minimum(u, i, layout, mins)
        w = layout.weights[i]
        children = {}
        for label, bits in layout.choices[i]:
            child = restrict(u, bits, layout.nvars)
            if (1 if label in w else 0) + _minimum(child, i + 1, layout, mins) == best:
                children[label] = _keep_minimal(child, i + 1, layout, mins, memo, bdd)
        got = layout.build(bdd, i, children)
        memo[key] = got
    return got

