"""How the choices of each feature of an explanation are laid out as BDD variables.

A :class:`Layout` says how each feature's *choices* (a state, or "dropped" for a partial
instance) are written as BDD variables:

* ``complete``: the ODD's own log-encoded bits (MC-explanations, positive instances);
* ``keep``: one variable ``k{i}`` per feature, true when the feature is kept with
  its state in a fixed instance (PI-explanations of one decision);
* ``partial``: per feature ``k{i}`` then its value bits, all zero when dropped
  (prime implicants of a whole decision function).

Examples
--------
>>> from bnx.diagram.encoding import Encoding
>>> lay = Layout("partial", Encoding(("a", "b"), (("x", "y", "z"), ("0", "1"))))
>>> lay.variables, lay.first_level
(('k0', 'v0_0', 'v0_1', 'k1', 'v1_0'), (0, 3, 5))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from typing import Any

from .._util.types import Manager, Node
from ..diagram import _setops as sets
from ..diagram.backends import make_node
from ..diagram.encoding import Encoding
from ..diagram.encoding import _select as encoding_select
from ..errors import ArgumentError

__all__ = ["DROPPED", "Layout"]

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
            self.variables, self.first_level = _keep_names(n)
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
            raise ArgumentError(f"unknown layout kind {kind!r}: expected 'complete', 'keep' "
                                f"or 'partial'")
        self.instance = tuple(instance) if instance is not None else None
        self.nvars = len(self.variables)
        # choices[i] = list of (label, [(level, value), ...])
        if kind == "keep":  # (made for every PI-explanation call: choices made on use)
            self._keep_weights = weights
            return
        self.choices: list[list[tuple[Any, list[tuple[int, bool]]]]] = []
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

    def __getattr__(self, name: str):
        """Make a keep layout's ``choices`` and ``weights`` when first asked for."""
        # a keep layout makes its choices and weights when first asked for
        if name in ("choices", "weights") and self.__dict__.get("kind") == "keep":
            x, n, weights = self.instance, self.n, self.__dict__.pop("_keep_weights", None)
            self.choices = [[(DROPPED, [(i, False)]), (x[i], [(i, True)])] for i in range(n)]
            self.weights = [frozenset((x[i],)) for i in range(n)] if weights is None else \
                [frozenset(w) for w in weights]
            return self.__dict__[name]
        raise AttributeError(name)

    @cached_property
    def steps(self) -> list[list[tuple]]:
        """For each feature, its choices with their contribution to an explanation's length.

        ``[(label, cost, bits), ...]``, made once.
        """
        return [[(label, 1 if label in self.weights[i] else 0, bits) for label, bits in ch]
                for i, ch in enumerate(self.choices)]

    @cached_property
    def tail(self) -> list:
        """``tail[i]``: the minimum length of a choice for each of features ``i..``.

        ``inf`` when some feature offers no choice: the minimum below the true node.
        """
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
        """For each feature, its choices last first: the enumeration's table.

        As ``(item, level, bit)`` (one-bit choices) or ``(item, bits, None)``, ``item`` the
        ``(feature, state)`` pair the choice puts in an explanation (``None``: dropped).
        """
        enc = self.encoding
        return [[((enc.features[i], enc.states[i][label]) if label is not DROPPED else None,
                  *((bits[0][0], bits[0][1]) if len(bits) == 1 else (bits, None)))
                 for label, bits in reversed(ch)] for i, ch in enumerate(self.choices)]

    @cached_property
    def choice_map(self) -> list[dict]:
        """For each feature, ``{label: bits}`` of its choices (made once)."""
        return [dict(ch) for ch in self.choices]

    def build_dd(self, bdd: Manager, i: int, children: Mapping[Any, Node]) -> Node:
        """Make the node of ``bdd`` over feature ``i``'s variables.

        Choice ``label`` leads to ``children[label]`` (labels missing from ``children`` lead
        to false).
        """
        false = sets.false(bdd)
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

    def build_table(self, table, i: int, children: Mapping[Any, int]) -> int:
        """Do :meth:`build_dd` in a :class:`~bnx.explanation.store.Store`.

        One whose level ``l`` is this layout's variable ``l`` (``1`` true, ``0`` false): the
        tables in which bnx builds explanation sets
        (:func:`bnx.explanation._cache.node_table`).
        """
        node = table.node
        lvl = self.first_level[i]
        if self.kind == "keep":
            return node(lvl, children.get(DROPPED, 0), children.get(self.instance[i], 0))
        k = len(self.encoding.states[i])
        if self.kind == "complete":
            return _select_table(node, lvl, self.first_level[i + 1] - lvl, 0, 0,
                                 [children.get(j, 0) for j in range(k)])
        end = self.first_level[i + 1]
        drop = children.get(DROPPED, 0)
        for v in reversed(range(lvl + 1, end)):
            drop = node(v, drop, 0)
        keep = _select_table(node, lvl + 1, end - lvl - 1, 0, 0,
                             [children.get(j, 0) for j in range(k)])
        return node(lvl, drop, keep)


@lru_cache(maxsize=64)
def _keep_names(n: int) -> tuple:
    return tuple(f"k{i}" for i in range(n)), tuple(range(n + 1))


def _select_table(node, lvl: int, m: int, b: int, lo_code: int, children: Sequence[int]) -> int:
    """Branch on ``m`` bits from level ``lvl`` with a node table's ``node``.

    Code ``j`` leads to ``children[j]``, unused codes to false (as
    :meth:`bnx.diagram.encoding.Encoding.select`).
    """
    if lo_code >= len(children):
        return 0
    if b == m:
        return children[lo_code]
    step = 1 << (m - 1 - b)
    return node(lvl + b, _select_table(node, lvl, m, b + 1, lo_code, children),
                _select_table(node, lvl, m, b + 1, lo_code + step, children))
