"""The static plan of the general engine: which factors each observation touches.

Compiling a general network follows variable elimination along the ODD's order.
Factors are identified by integer ids; a factor is *touched* once it depends on the
observed prefix (it was indexed by an observed feature, or made from a touched
factor). Untouched factors are the same for every prefix and stay out of the
compiler's state; the touched ones, normalised, are the state.

At each level the plan

1. indexes every factor that mentions the observed feature (``("obs", src, dst, var)``);
2. multiplies a touched factor into another touched factor whose scope contains it
   (``("mul", srcs, dst)``): this loses no information and makes states canonical;
3. sums out a hidden variable when that does not grow the state (the new factor,
   not counting the class axis, is no bigger than the touched factors it replaces),
   and every remaining hidden variable after the last feature, those of untouched
   factors only first, then the smallest new factor first
   (``("sum", srcs, var, scope, dst)``). A sum of untouched factors is untouched:
   the engine computes it once.

Each level also records the untouched factors alive before it (``(id, scope)``).
The class axis is always first in a scope that holds it. ``size`` counts a factor's
entries without the class axis; the *width* of the plan is the largest total size
of a state.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["Plan", "elimination_width"]


class Plan:
    """A symbolic run of the elimination over scopes only (no tables)."""

    def __init__(self, scopes: dict, class_var: Any, hidden: set, card: dict):
        self.scopes = dict(scopes)          # id -> scope tuple (live factors)
        self.touched: set = set()
        self.class_var = class_var
        self.hidden = set(hidden)
        self.card = card
        self.next_id = max(scopes, default=-1) + 1
        self.levels: list = []              # per level: (ops, state ids after)
        self.width = 0
        self.largest = 0                    # the largest table an elimination makes

    def copy(self) -> Plan:
        """Copy the plan (an independent copy)."""
        p = Plan.__new__(Plan)
        p.scopes, p.touched = dict(self.scopes), set(self.touched)
        p.class_var, p.hidden, p.card = self.class_var, set(self.hidden), self.card
        p.next_id, p.levels, p.width = self.next_id, list(self.levels), self.width
        p.largest = self.largest
        return p

    def size(self, scope) -> int:
        """Count the entries of a table over ``scope`` (the class axis not counted)."""
        return math.prod(self.card[v] for v in scope if v != self.class_var)

    def state_size(self) -> int:
        """Count the entries of the state's tables."""
        return sum(self.size(self.scopes[j]) for j in self.touched)

    def _scope(self, variables) -> tuple:
        seen = dict.fromkeys(variables)
        c = self.class_var
        if c in seen:
            del seen[c]
            return (c, *seen)
        return tuple(seen)

    def _new(self, scope, touched: bool = True) -> int:
        j = self.next_id
        self.next_id += 1
        self.scopes[j] = scope
        if touched:
            self.touched.add(j)
        return j

    def _absorb(self, ops: list) -> None:
        changed = True
        while changed:
            changed = False
            live = sorted(self.touched, key=lambda j: -len(self.scopes[j]))
            for x in live:
                sx = set(self.scopes[x])
                for y in live:
                    if y != x and set(self.scopes[y]) <= sx:
                        j = self._new(self.scopes[x])
                        ops.append(("mul", (x, y), j))
                        for z in (x, y):
                            del self.scopes[z]
                            self.touched.discard(z)
                        changed = True
                        break
                if changed:
                    break

    def _eliminate(self, h, ops: list) -> None:
        hit = [j for j, s in self.scopes.items() if h in s]
        scope = self._scope(v for j in hit for v in self.scopes[j] if v != h)
        self.largest = max(self.largest, self.card[h] * math.prod(self.card[v] for v in scope))
        j = self._new(scope, any(z in self.touched for z in hit))
        ops.append(("sum", tuple(hit), h, scope, j))
        for z in hit:
            del self.scopes[z]
            self.touched.discard(z)
        self.hidden.discard(h)

    def _candidate(self, last: bool):
        """Choose the hidden variable to sum out next, or return ``None``."""
        best, best_key = None, None
        occ: dict = {}  # variable -> the live factors that hold it (one pass, not one a var)
        for j, s in self.scopes.items():
            for v in s:
                occ.setdefault(v, []).append(j)
        for h in sorted(self.hidden, key=str):
            hit = occ.get(h, [])
            if not last and not any(j in self.touched for j in hit):
                continue
            new = self.size({v for j in hit for v in self.scopes[j] if v != h})
            if not last:
                old = sum(self.size(self.scopes[j]) for j in hit if j in self.touched)
                if new > old:
                    continue
            key = (new, len(hit))
            if best_key is None or key < best_key:
                best, best_key = h, key
        return best

    def observe(self, feature, last: bool) -> None:
        """Plan the level that observes ``feature`` (``last``: sum out every hidden too)."""
        ops: list = []
        before = tuple((j, s) for j, s in self.scopes.items() if j not in self.touched)
        for j in [j for j, s in self.scopes.items() if feature in s]:
            k = self._new(tuple(v for v in self.scopes[j] if v != feature))
            ops.append(("obs", j, k, feature))
            del self.scopes[j]
            self.touched.discard(j)
        self._absorb(ops)
        while True:
            h = self._candidate(last)
            if h is None:
                break
            self._eliminate(h, ops)
            self._absorb(ops)
        # class-only and empty factors leave the state (folded into the class weights)
        folds = [j for j, s in self.scopes.items() if not [v for v in s if v != self.class_var]]
        for j in folds:
            self.touched.discard(j)
            del self.scopes[j]
        state = tuple((j, self.scopes[j]) for j in sorted(self.touched))
        self.levels.append((tuple(ops), tuple(sorted(folds)), state, before))
        self.width = max(self.width, self.state_size())


def elimination_width(scopes: list, order: list, card: dict) -> int:
    """Return the largest table that eliminating ``order`` from factors with ``scopes`` makes."""
    pool = [set(s) for s in scopes]
    width = max((math.prod(card[v] for v in s) for s in pool), default=1)
    for v in order:
        hit = [s for s in pool if v in s]
        if not hit:
            continue
        pool = [s for s in pool if v not in s]
        new = set().union(*hit)
        width = max(width, math.prod(card[u] for u in new))
        new.discard(v)
        pool.append(new)
    return width
