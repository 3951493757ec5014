"""The members of an explanation set shortest first, without enumerating the set.

:func:`shortest_first` lists the members length by length: for a length ``k`` it walks the
diagram depth first and follows a choice only when members of the remaining length lie
below it, read off the per-node length counts of :func:`~.walks.length_counts`. Every
path it starts ends in a member, so the first few members cost a few walks down the
diagram, whatever the size of the set.
"""

from __future__ import annotations

from collections.abc import Iterator

from .layout import DROPPED
from .store import Store
from .walks import length_counts

__all__ = ["shortest_first"]


def shortest_first(g: Store, root: int, layout, rank: list) -> Iterator[dict]:
    """List the members of ``root`` (in ``layout``) as dicts, shortest first.

    Then depth first in the diagram's variable order; ``rank[i]`` is feature ``i``'s
    position among the dict's keys (as in :func:`~.walks.members`).
    """
    if root == 0:
        return
    n = layout.n
    enc = layout.encoding
    memo: dict = {}
    lengths = length_counts(g, root, 0, layout, memo)

    def below(u: int, i: int) -> dict:
        got = memo.get((u, i)) if i < n else None
        if got is None:
            got = length_counts(g, u, i, layout, memo)
        return got

    choices, weights = layout.choices, layout.weights
    for k in sorted(k for k, c in lengths.items() if c):
        items: list = [None] * n
        stack = [(root, 0, k, None)]
        while stack:
            u, i, r, item = stack.pop()
            if i:
                items[rank[i - 1]] = item
            if i == n:
                yield dict(filter(None, items))
                continue
            for label, bits in reversed(choices[i]):
                w = g.restrict(u, bits)
                if w == 0:
                    continue
                left = r - (1 if label in weights[i] else 0)
                if left < 0 or not below(w, i + 1).get(left):
                    continue
                stack.append((w, i + 1, left, None if label is DROPPED else
                              (enc.features[i], enc.states[i][label])))
