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
from ..diagram import deep, gc_paused, recursion_for
from ..backends import make_node
from ..encoding import Encoding
from ..encoding import _select as encoding_select
from ..view import Graph, read
from .walks import count_members, keep_minimal, length_counts, members, minimum

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
        if kind == "keep":  # (made for every PI-explanation call: kept short)
            x = self.instance
            self.choices = [[(DROPPED, [(i, False)]), (x[i], [(i, True)])] for i in range(n)]
            self.weights = [frozenset((x[i],)) for i in range(n)] if weights is None else \
                [frozenset(w) for w in weights]
            return
        for i in range(n):
            k = len(encoding.states[i])
            lvl = self.first_level[i]
            m = len(encoding.bits[i])
            if kind == "complete":
                ch = [(j, [(lvl + b, bool((j >> (m - 1 - b)) & 1)) for b in range(m)])
                      for j in range(k)]
            else:  # partial
                ch = [(DROPPED, [(lvl, False)] + [(lvl + 1 + b, False) for b in range(m)])]
                ch += [(j, [(lvl, True)] + [(lvl + 1 + b, bool((j >> (m - 1 - b)) & 1))
                                            for b in range(m)]) for j in range(k)]
            self.choices.append(ch)
        if weights is None:
            weights = [set() if kind == "complete" else set(range(len(encoding.states[i])))
                       for i in range(n)]
        self.weights = [frozenset(w) for w in weights]

    @cached_property
    def steps(self) -> list[list[tuple]]:
        """For each feature, ``[(label, cost, bits), ...]``: its choices with their
        contribution to an explanation's length (made once)."""
        return [[(label, 1 if label in self.weights[i] else 0, bits) for label, bits in ch]
                for i, ch in enumerate(self.choices)]

    @cached_property
    def tail(self) -> list:
        """``tail[i]``: the minimum length of a choice for each of features ``i..``
        (``inf`` when some feature offers no choice): the minimum below the true node."""
        out = [0] * (self.n + 1)
        for i in reversed(range(self.n)):
            best = math.inf
            for _, c, _ in self.steps[i]:
                if c < best:
                    best = c
            out[i] = best + out[i + 1]
        return out

    @cached_property
    def items(self) -> list[list[tuple]]:
        """For each feature, its choices last first as ``(item, level, bit)`` (one-bit
        choices) or ``(item, bits, None)``, ``item`` the ``(feature, state)`` pair the
        choice puts in an explanation (``None``: dropped); the enumeration's table."""
        enc = self.encoding
        return [[((enc.features[i], enc.states[i][label]) if label is not DROPPED else None,
                  *((bits[0][0], bits[0][1]) if len(bits) == 1 else (bits, None)))
                 for label, bits in reversed(ch)] for i, ch in enumerate(self.choices)]

    @cached_property
    def choice_map(self) -> list[dict]:
        """For each feature, ``{label: bits}`` of its choices (made once)."""
        return [dict(ch) for ch in self.choices]

    def build(self, g: Graph, i: int, children: Mapping[Any, int]) -> int:
        """The node of ``g`` over feature ``i``'s variables: choice ``label`` leads to
        ``children[label]`` (labels missing from ``children`` lead to false)."""
        lvl = self.first_level[i]
        if self.kind == "complete":
            k = len(self.encoding.states[i])
            return _select(g, lvl, self.first_level[i + 1] - lvl, 0, 0,
                           [children.get(j, 0) for j in range(k)])
        if self.kind == "keep":
            return g.node(lvl, children.get(DROPPED, 0), children.get(self.instance[i], 0))
        end = self.first_level[i + 1]
        drop = children.get(DROPPED, 0)
        for v in reversed(range(lvl + 1, end)):
            drop = g.node(v, drop, 0)
        k = len(self.encoding.states[i])
        keep = _select(g, lvl + 1, end - lvl - 1, 0, 0, [children.get(j, 0) for j in range(k)])
        return g.node(lvl, drop, keep)

    def build_dd(self, bdd: Manager, i: int, children: Mapping[Any, Node]) -> Node:
        """:meth:`build` on ``dd`` nodes of ``bdd`` (for algorithms that work with dd's
        operations, such as the contrastive and counterfactual sets)."""
        false = bdd.false
        if self.kind == "complete":
            k = len(self.encoding.states[i])
            return encoding_select(bdd, self.encoding.bits[i], 0, 0,
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
        keep = encoding_select(bdd, vbits, 0, 0, [children.get(j, false) for j in range(k)],
                               false)
        return make_node(bdd, kvar, drop, keep)


def _select(g: Graph, lvl: int, m: int, b: int, lo_code: int, children: Sequence[int]) -> int:
    """Branch on ``m`` bits from level ``lvl``: code ``j`` leads to ``children[j]``,
    unused codes to false (as :meth:`bnx.encoding.Encoding.select`)."""
    if lo_code >= len(children):
        return 0
    if b == m:
        return children[lo_code]
    step = 1 << (m - 1 - b)
    return g.node(lvl + b, _select(g, lvl, m, b + 1, lo_code, children),
                  _select(g, lvl, m, b + 1, lo_code + step, children))


class Explanations:
    """A set of explanations of a decision, held as a decision diagram.

    Returned by :func:`bnx.mc_explanations`, :func:`bnx.pi_explanations` and
    :func:`bnx.prime_implicants`. Immutable. Each explanation is a dict from
    feature to state; a partial one leaves dropped features out.

    Attributes
    ----------
    bdd, root : the ``dd`` manager and node of the diagram. When the set was
        computed on an integer view (:meth:`view`), ``root`` is written into
        ``bdd`` the first time it is read.
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

    def __init__(self, bdd: Manager, root: Node | None, layout: Layout, *, kind: str,
                 decision: bool | None = None, instance: Mapping | None = None,
                 feature_order: Sequence[Feature] | None = None,
                 view: tuple[Graph, int] | None = None,
                 make_manager=None, on: Mapping | None = None) -> None:
        if root is None and view is None:
            from ..errors import ArgumentError
            raise ArgumentError("an Explanations set needs a dd root or an integer view")
        self._bdd = bdd
        self._make_manager = make_manager  # makes bdd when it is first needed
        self._root = root
        self.layout = layout
        self._view = view  # (graph, node): the diagram as integers, read once
        enc = layout.encoding
        order = tuple(feature_order) if feature_order is not None else enc.features
        self._display = tuple(enc.position(f) for f in order)
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
            self._bdd = self._make_manager()
        return self._bdd

    @property
    def root(self) -> Node:
        """The diagram's ``dd`` node (written from the integer view on first use)."""
        if self._root is None:
            g, u = self._view
            with recursion_for(self.layout.nvars), gc_paused():
                self._root = g.to_dd(u, self.bdd, self.layout.variables)
        return self._root

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
            g, u = self.view()
            with recursion_for(self.layout.nvars), gc_paused():
                self._count = count_members(g, u, 0, self.layout, {})
        return self._count

    def view(self) -> tuple[Graph, int]:
        """The diagram as a :class:`bnx.view.Graph` and its root node (read from dd
        once, then kept)."""
        if self._view is None:
            g, (u,) = read([self.root], self.layout.nvars)
            self._view = (g, u)
        return self._view

    def __len__(self) -> int:
        n = self.count
        if n > sys.maxsize:
            from ..errors import ExplanationError
            raise ExplanationError(f"{n} explanations are too many for len(); use .count")
        return n

    def __bool__(self) -> bool:
        if self._view is not None:
            return self._view[1] != 0
        return self.root != self.bdd.false

    @deep
    def lengths(self) -> dict[int, int]:
        """``{length: number of explanations}``, computed on the diagram.

        The length of a partial instance is the number of features it keeps; the
        length of an MC-explanation is its cardinality (the number of its features
        in the minimised states).
        """
        if self._lengths is None:
            g, u = self.view()
            poly = length_counts(g, u, 0, self.layout, {})
            self._lengths = {k: v for k, v in sorted(poly.items()) if v}
        return dict(self._lengths)

    @deep
    def shortest(self) -> "Explanations":
        """All explanations of minimum length, by minimisation on the diagram."""
        g, u = self.view()
        memo: dict = {}
        best = minimum(g, u, 0, self.layout, memo)
        if best == math.inf:
            return self
        out = Graph(self.layout.nvars)
        root = keep_minimal(g, u, 0, self.layout, memo, {}, out)
        return Explanations(self._bdd, None, self.layout, kind=self.kind,
                            decision=self.decision, make_manager=self._make_manager,
                            instance=self.instance, feature_order=self.features,
                            view=(out, root), on=self._on)

    # ------------------------------------------------------------------ items
    def __iter__(self) -> Iterator[dict]:
        """Explanations in a stable order: depth first in the diagram's variable
        order, "dropped" before the states, states in pgmpy's order. Each is a dict
        whose keys follow :attr:`features` (the classifier's order)."""
        g, root = self.view()
        rank = [0] * self.layout.n  # feature -> its position in the display order
        for r, j in enumerate(self._display):
            rank[j] = r
        return members(g, root, self.layout, rank)

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
        g, u = self.view()
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
            from ..errors import ArgumentError
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
