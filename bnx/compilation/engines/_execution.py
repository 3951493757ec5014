"""Running the plan on concrete factors: the general engine's arithmetic.

:func:`prepare` turns a classifier's main factors into exact integer tables with the
class axis first (restricted to a pair of class states when comparing two), sums out
free hidden variables ahead of any observation, and separates the factors over the
class alone; :func:`run_ops` executes a plan's operations.
"""

from __future__ import annotations

import numpy as np

from ...classifier._classifier import Classifier
from ...classifier._inference import TICK_ENTRIES, as_table, observe, product
from ._plan import Plan

__all__ = ["prepare", "prepared_scopes", "run_ops", "ones"]


def ones(k: int) -> np.ndarray:
    """Make a table of ones over the given axes."""
    out = np.empty(k, dtype=object)
    out[:] = 1
    return out


def _class_first(factor, c) -> tuple:
    scope, table = factor
    if c in scope and scope[0] != c:
        new = (c, *[v for v in scope if v != c])
        return new, table.transpose([scope.index(v) for v in new])
    return scope, table


def prepare(clf: Classifier, classes: tuple | None) -> tuple[dict, dict, list, set, int]:
    """Prepare the classifier's factors in integers: ``(static, scopes, const, hidden, largest)``.

    The class axis first (restricted to the class states ``classes`` when given), free
    hidden variables summed out ahead of any observation; ``const`` lists the class-only and
    empty factors (the prior part of the class weights); ``largest`` is the largest table
    made.
    """
    c = clf.class_var
    feats = set(clf.features)
    static: dict = {}
    for f in clf._int_main:
        scope, table = _class_first(f, c)
        if classes is not None and scope and scope[0] == c:
            table = table[list(classes)]
        static[len(static)] = (scope, table)
    card = dict(clf._card)
    if classes is not None:
        card[c] = len(classes)
    hidden = {v for s, _ in static.values() for v in s if v != c and v not in feats}
    plan = Plan({j: s for j, (s, _) in static.items()}, c, hidden, card)
    _sum_free_hidden(plan, lambda ops: run_ops(ops, static, static, card))
    const = [j for j, s in plan.scopes.items() if not [v for v in s if v != c]]
    scopes = {j: s for j, s in plan.scopes.items() if j not in const}
    return ({j: static[j] for j in scopes}, scopes, [static[j] for j in const], plan.hidden,
            plan.largest)


def _sum_free_hidden(plan: Plan, run) -> None:
    """Sum out the hidden variables that make no bigger factor than they consume.

    ``run(ops)`` executes each elimination. The smallest new factor first (then the fewest
    factors consumed, then the name); each variable's factors are kept in an index and its
    key recomputed only when an elimination changes them, so the whole is about linear in
    the network (it rescanned every factor for every variable at every step: 52 s on
    diabetes).
    """
    occ: dict = {}
    for j, s in plan.scopes.items():
        for v in s:
            occ.setdefault(v, set()).add(j)
    keys: dict = {}

    def rekey(h) -> None:
        hit = occ.get(h, ())
        new = plan.size({v for j in hit for v in plan.scopes[j] if v != h})
        if hit and new <= max(plan.size(plan.scopes[j]) for j in hit):
            keys[h] = (new, len(hit), str(h))
        else:
            keys.pop(h, None)

    for h in plan.hidden:
        rekey(h)
    while keys:
        best = min(keys, key=keys.__getitem__)
        hit = list(occ[best])
        touched = {v for j in hit for v in plan.scopes[j]}
        ops: list = []
        plan._eliminate(best, ops)
        run(ops)
        plan.touched.clear()
        for j in hit:
            for v in touched:
                occ[v].discard(j)
        made = ops[-1][-1]  # ("sum", srcs, var, scope, dst)
        for v in plan.scopes[made]:
            occ.setdefault(v, set()).add(made)
        del keys[best]
        for v in touched:
            if v in plan.hidden:
                rekey(v)


def prepared_scopes(clf: Classifier) -> tuple[list, set]:
    """Return the ``(scopes, hidden)`` that :func:`prepare` leaves (class-only scopes included).

    Found on the scopes alone: a cheap look before any table is made.
    """
    c = clf.class_var
    feats = set(clf.features)
    scopes = {j: (c, *[v for v in scope if v != c]) if c in scope else tuple(scope)
              for j, (scope, _) in enumerate(clf._main)}
    hidden = {v for s in scopes.values() for v in s if v != c and v not in feats}
    plan = Plan(scopes, c, hidden, dict(clf._card))
    _sum_free_hidden(plan, lambda ops: None)
    return list(plan.scopes.values()), plan.hidden


def run_ops(ops, regs: dict, static: dict, card: dict, vecs: dict | None = None, *,
            tick=None) -> None:
    """Execute planned ops on concrete factors; results go to ``regs``.

    ``tick`` (a compilation's budget check, optional) is called between slices of each
    product and each sum: one op of exact tables (up to ``MAX_TABLE`` entries of big
    integers: barley's) runs for seconds and grows by gigabytes.
    """
    for op in ops:
        kind = op[0]
        if kind == "obs":
            _, src, dst, var = op
            f = regs[src] if src in regs else static[src]
            regs[dst] = observe(f, var, vecs[var])
        else:
            srcs = op[1]
            dst = op[-1]
            fs = [regs[s] if s in regs else static[s] for s in srcs]
            if kind == "mul":
                scope, table = product(fs, fs[0][0], tick=tick)
                regs[dst] = (scope, table if isinstance(table, np.ndarray) else as_table(table))
            else:  # "sum": multiply, sum out h, lay the axes out as planned
                h, scope = op[2], op[3]
                full = (*scope, h)
                _, table = product(fs, full, tick=tick)
                shape = tuple(card[v] for v in full)
                if table.shape != shape:
                    table = np.broadcast_to(table, shape).copy()
                table = _sum_last(table, tick)
                regs[dst] = (scope, table if isinstance(table, np.ndarray) else as_table(table))
        for s in op[1] if op[0] != "obs" else (op[1],):
            regs.pop(s, None)


def _sum_last(table: np.ndarray, tick) -> np.ndarray:
    """Sum ``table`` over its last axis, in slices of ``TICK_ENTRIES`` entries, ``tick`` between."""
    n = table.shape[-1]
    rows = table.reshape(-1, n)
    if tick is None or rows.size <= TICK_ENTRIES:
        return table.sum(axis=-1)
    step = max(1, TICK_ENTRIES // max(n, 1))
    out = np.empty(len(rows), dtype=table.dtype)
    for i in range(0, len(rows), step):
        out[i:i + step] = rows[i:i + step].sum(axis=1)
        tick()
    return out.reshape(table.shape[:-1])
