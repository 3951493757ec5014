"""The tree view of a classifier: naive Bayes and latent trees rooted at the class.

When what is left of a network after pruning (:mod:`bnx.classifier._relevance`) is a tree rooted
at the class whose leaves are the features, a :class:`Tree` gives the
compilers of :mod:`bnx.compilation` and exact message passing its tables
``table[parent_state][state]`` (the exact column sums of pruned parts multiplied in).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

__all__ = ["Tree", "as_tree"]


class Tree:
    """Parents, children, exact tables and a post-order of a pruned tree classifier."""

    def __init__(self, class_var: Any, parent: dict, tables: dict, states: dict):
        self.class_var = class_var
        self.parent = parent
        self.tables = tables
        self.states = states
        children: dict = {n: [] for n in (class_var, *parent)}
        for n, p in parent.items():
            children[p].append(n)
        self.tree = {n: ch for n, ch in children.items() if ch}
        self.latent = tuple(n for n in self.tree if n != class_var)
        post: list = []
        stack = [(class_var, False)]
        while stack:
            n, done = stack.pop()
            if done:
                if n != class_var:
                    post.append(n)
                continue
            stack.append((n, True))
            stack.extend((ch, False) for ch in reversed(self.tree.get(n, ())))
        self.postorder = tuple(post)

    def _integers(self) -> tuple:
        """Return ``(tables, columns, den)``: each table scaled to integers.

        Each table is scaled by the least common denominator of its entries; its columns
        (``columns[n][s]``: the messages of node ``n`` observed in state ``s``), and the
        product of those denominators (made once). Every node's table enters the class joint
        exactly once, so the joint of the integer tables over ``den`` is the exact joint,
        computed without a gcd per product.
        """
        got = getattr(self, "_int", None)
        if got is None:
            tables, columns, den = {}, {}, 1
            for n, table in self.tables.items():
                d = 1
                for row in table:
                    for v in row:
                        d = math.lcm(d, Fraction(v).denominator)
                tables[n] = tuple(tuple(int(v * d) for v in row) for row in table)
                columns[n] = tuple(zip(*tables[n]))
                den *= d
            got = self._int = (tables, columns, den)
        return got

    def scaled_joint(self, idx: Mapping) -> tuple[list[int], int]:
        """Return ``(joint, den)``: ``[Pr(class = c, x) * den for c]`` in integers.

        By exact message passing over the integer tables (absent features summed out).
        """
        tables, columns, den = self._integers()
        msg: dict = {}
        for n in self.postorder:
            if n in idx:
                msg[n] = columns[n][idx[n]]
            else:
                table = tables[n]
                kids = self.tree.get(n, ())
                inner = [math.prod(msg[ch][s] for ch in kids)
                         for s in range(len(self.states[n]))]
                msg[n] = [sum(row[s] * inner[s] for s in range(len(row))) for row in table]
        prior = tables[self.class_var][0]
        kids = self.tree.get(self.class_var, ())
        return [prior[c] * math.prod(msg[ch][c] for ch in kids) for c in range(len(prior))], den

    def class_joint(self, idx: Mapping) -> list[Fraction]:
        """``[Pr(class = c, x) for c]`` exactly (absent features summed out)."""
        joint, den = self.scaled_joint(idx)
        return [Fraction(v, den) for v in joint]


def as_tree(class_var: Any, features: tuple, states: dict, cpds: dict, main: list,
            aside: list) -> Tree | None:
    """Make the :class:`Tree` of the pruned factors ``main``, if they are one.

    ``None`` if they are no tree rooted at the class with every feature a leaf (``cpds[n]``
    is the factor of ``n``'s CPT; other factors, of ``main`` or ``aside``, must be over one
    node of the tree and are multiplied into its table).
    """
    ids = {id(f): n for n, f in cpds.items()}
    nodes = {ids[id(f)]: f for f in main if id(f) in ids}
    if class_var not in nodes or nodes[class_var][0] != (class_var,):
        return None
    if any(f not in nodes for f in features):
        return None
    parent = {}
    for n, (scope, _) in nodes.items():
        if n == class_var:
            continue
        if len(scope) != 2 or scope[1] not in nodes:
            return None
        parent[n] = scope[1]
    feats = set(features)
    if any(p in feats for p in parent.values()):
        return None
    extra: dict = {}
    in_main = {id(f) for f in main}
    for f in main + [f for group in aside for f in group]:
        if id(f) in ids:
            if id(f) not in in_main:  # a CPT set aside: no tree
                return None
            continue
        scope, table = f
        if len(scope) != 1 or scope[0] not in nodes:
            return None
        vec = extra.get(scope[0], [Fraction(1)] * len(table))
        extra[scope[0]] = [a * b for a, b in zip(vec, table)]
    tables = {}
    for n, (_scope, table) in nodes.items():
        fold = extra.get(n, [Fraction(1)] * len(states[n]))
        if n == class_var:
            tables[n] = (tuple(table[s] * fold[s] for s in range(len(fold))),)
        else:
            tables[n] = tuple(tuple(table[s, p] * fold[s] for s in range(len(fold)))
                              for p in range(table.shape[1]))
    return Tree(class_var, parent, tables, states)
