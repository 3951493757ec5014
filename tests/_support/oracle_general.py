"""Brute-force general reasons: every box around an instance enumerated, every instance
of each box decided from a decision table (``oracle.decision_table``: exact rationals).

A box allows, per feature, a set of states holding the instance's (an interval of the
feature's order for an ordinal feature). It is kept when every instance in it satisfies
``keep`` (a predicate on the table's decisions), and is maximal when no feature's set can
be replaced by a larger allowed set and still be kept.
"""

from __future__ import annotations

import itertools


def _sets(states, x_state, order=None):
    """Every allowed set of ``states`` holding ``x_state``: every subset, or the
    intervals of ``order``."""
    if order is not None:
        p = order.index(x_state)
        return [frozenset(order[a:b + 1]) for a in range(p + 1) for b in range(p, len(order))]
    others = [s for s in states if s != x_state]
    return [frozenset((x_state, *c)) for r in range(len(others) + 1)
            for c in itertools.combinations(others, r)]


def general_reasons(table, features, states, instance, keep, ordinal=None):
    """The maximal kept boxes around ``instance``, each a dict from the constrained
    features to the frozenset of states allowed.

    ``table`` maps a tuple of states (``features`` order) to a decision; ``states``
    maps each feature to its states; ``ordinal`` maps some features to their states in
    increasing order."""
    ordinal = ordinal or {}
    options = [_sets(states[f], instance[f], ordinal.get(f)) for f in features]
    ok_memo: dict = {}

    def kept(box) -> bool:
        got = ok_memo.get(box)
        if got is None:
            got = ok_memo[box] = all(keep(table[y]) for y in itertools.product(*box))
        return got

    out = []
    for box in itertools.product(*options):
        if not kept(box):
            continue
        grows = any(kept(box[:i] + (s,) + box[i + 1:])
                    for i, opts in enumerate(options) for s in opts if s > box[i])
        if not grows:
            out.append({f: s for f, s in zip(features, box) if len(s) < len(states[f])})
    return out
