"""Monotone decision functions (Section 2.2) and Theorem 3.

A decision function over binary features is monotone when turning a feature on
never turns a positive decision negative. On an OBDD it is decided feature by
feature: ``f`` is monotone iff ``f|X=off`` implies ``f|X=on`` for every feature ``X``;
that fails exactly when some node ``u`` testing ``X`` has a satisfiable
``off(u) and not on(u)`` (its two children; every node lies below the root). On the
ODD's arrays, the pairs of children of all of ``X``'s nodes are expanded together, level
by level (numpy), until one pair is found satisfiable or none is left; a witness is then
read off one such node by a depth-first search (a loop).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy as np

from .._util.types import Feature, Instance, State
from ..diagram._arrays import DiagramArrays
from ..errors import ExplanationError
from ..odd._odd import ODD, check_odd
from .mc import mc_explanations, on_states
from .monotone_result import MonotoneCounterexample
from .pi import pi_explanations

__all__ = ["is_monotone", "monotone_counterexample", "theorem3_holds"]


def _binary_on(odd: ODD, on) -> list[int]:
    check_odd(odd)
    ons = on_states(odd, on)
    out = []
    for i, f in enumerate(odd.features):
        if len(odd.encoding.states[i]) != 2 or len(ons[i]) != 1:
            raise ExplanationError(
                f"monotonicity is defined for binary features with one on state; "
                f"feature {f!r} has states {list(odd.encoding.states[i])}")
        out.append(next(iter(ons[i])))
    return out


def monotone_counterexample(odd: ODD, *,
                            on: Mapping[Feature, State | Collection[State]] | None = None
                            ) -> MonotoneCounterexample:
    """A pair of instances that breaks monotonicity, or the answer that none does.

    A counterexample is two complete instances ``low`` and ``high``, ``high`` being
    ``low`` with one more feature on, yet ``low`` is decided positive and ``high``
    negative.

    Returns
    -------
    MonotoneCounterexample
        ``.found`` (``bool()`` of it) says whether there is one, ``.low``, ``.high`` and
        ``.feature`` give it; when the function is monotone, ``found`` is ``False``
        (``.monotone`` ``True``) and the pair does not apply.

    Raises
    ------
    ExplanationError
        A feature is not binary with one on state.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.monotone_counterexample(odd).monotone
    True
    """
    onv = _binary_on(odd, on)
    enc = odd.encoding
    arrays = odd.arrays
    words = dict(positive=odd.decision_text(True), negative=odd.decision_text(False))
    for i, feat in enumerate(enc.features):
        lvl = enc.first_level[i]
        s = arrays.block(lvl)
        us = np.arange(s.start, s.stop, dtype=np.int64)
        off, on_ = (arrays.lo, arrays.hi) if onv[i] == 1 else (arrays.hi, arrays.lo)
        if not len(us) or not _any_sat_diff(arrays, off[us], on_[us]):
            continue
        for u in us.tolist():
            model = _sat_diff(arrays, int(off[u]), int(on_[u]), {})
            if model is not None:
                break
        model.update(_path_to(arrays, u))
        x = {}
        for j, g in enumerate(enc.features):
            if j != i:
                x[g] = enc.states[j][int(model.get(enc.first_level[j], False))]
        x_low = {**x, feat: enc.states[i][1 - onv[i]]}
        x_high = {**x, feat: enc.states[i][onv[i]]}
        return MonotoneCounterexample(True, feature=feat, **words,
                                      low={g: x_low[g] for g in enc.features},
                                      high={g: x_high[g] for g in enc.features})
    return MonotoneCounterexample(False, **words)


def _any_sat_diff(arrays: DiagramArrays, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a[k] and not b[k]`` is satisfiable for some ``k`` (node numbers of
    ``arrays``): the pairs are expanded breadth first, level by level, each distinct pair
    once, until a satisfiable one shows."""
    level, lo, hi = arrays.level, arrays.lo, arrays.hi
    big = np.int64(arrays.size)
    pending: dict = {}

    def step(a, b) -> bool:
        live = (a != 0) & (b != 1) & (a != b)
        a, b = a[live], b[live]
        if ((a == 1) | (b == 0)).any():  # a true and b not, or b false and a not
            return True
        if len(a):
            top = np.minimum(level[a], level[b])
            keys = a * big + b
            for lv in np.unique(top).tolist():
                pending.setdefault(lv, []).append(keys[top == lv])
        return False

    if step(np.asarray(a), np.asarray(b)):
        return True
    while pending:
        lv = min(pending)
        keys = np.unique(np.concatenate(pending.pop(lv)))
        p, q = keys // big, keys % big
        tp, tq = level[p] == lv, level[q] == lv
        for side in (lo, hi):
            if step(np.where(tp, side[p], p), np.where(tq, side[q], q)):
                return True
    return False


def _sat_diff(arrays: DiagramArrays, a: int, b: int, memo: dict) -> dict | None:
    """``{level: bit}`` under which ``a`` holds and ``b`` does not, or ``None``.

    Depth first, the low branch before the high one, as a loop: the stack holds the pairs
    on the current path, each with the branch it is trying; a pair found unsatisfiable is
    kept in ``memo`` (across calls)."""
    level, lo, hi = arrays.level, arrays.lo, arrays.hi
    stack = [[a, b, -1, 0]]  # [a, b, the pair's top level (-1: not yet seen), next branch]
    while stack:
        top = stack[-1]
        a, b, lv, bit = top
        if lv < 0:
            if a == 0 or b == 1 or a == b or (a, b) in memo:
                stack.pop()
                continue
            if a == 1 and b == 0:  # found: each pair on the path took the branch before
                return {p[2]: bool(p[3] - 1) for p in stack[:-1]}
            lv = top[2] = min(int(level[a]), int(level[b]))
        if bit == 2:  # both branches failed
            memo[(a, b)] = None
            stack.pop()
            continue
        side = hi if bit else lo
        top[3] = bit + 1
        stack.append([int(side[a]) if level[a] == lv else a,
                      int(side[b]) if level[b] == lv else b, -1, 0])
    return None


def _path_to(arrays: DiagramArrays, u: int) -> dict:
    """``{level: bit}`` along one path from the root to node ``u``."""
    parent = np.full(arrays.size, -1, dtype=np.int64)
    lo, hi, level = arrays.lo, arrays.hi, arrays.level
    for lvl in range(int(level[arrays.root]), int(level[u])):
        s = arrays.block(lvl)
        nodes = np.arange(s.start, s.stop, dtype=np.int64)
        nodes = nodes[(parent[nodes] >= 0) | (nodes == arrays.root)]
        for side in (lo, hi):
            kids = side[nodes]
            fresh = parent[kids] < 0
            parent[kids[fresh]] = nodes[fresh]
    path = {}
    w = u
    while w != arrays.root:
        p = int(parent[w])
        path[int(level[p])] = bool(hi[p] == w and lo[p] != w)
        w = p
    return path


def is_monotone(odd: ODD, *,
                on: Mapping[Feature, State | Collection[State]] | None = None) -> bool:
    """Whether the decision function is monotone (binary features, their on states).

    See :func:`monotone_counterexample` for a witness when it is not.

    Returns
    -------
    bool
        Whether the decision function is monotone.

    Examples
    --------
    >>> import bnx
    >>> bnx.is_monotone(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    True
    """
    return monotone_counterexample(odd, on=on).monotone


def theorem3_holds(odd: ODD, instance: Instance, *,
                   on: Mapping[Feature, State | Collection[State]] | None = None) -> bool:
    """Theorem 3 on one decision: MC-explanations match the shortest PI-explanations.

    Each shortest PI-explanation, completed with every missing feature off (for a
    positive decision) or on (for a negative one), must be an MC-explanation, and
    every MC-explanation must arise so. Guaranteed for monotone decision
    functions; may fail otherwise. The two sets are enumerated to be compared,
    so this is a check for sets of moderate size.

    Returns
    -------
    bool
        Whether Theorem 3 of the paper holds for this classifier.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.theorem3_holds(odd, x)
    True
    """
    onv = _binary_on(odd, on)
    mc = mc_explanations(odd, instance, on=on)
    shortest = pi_explanations(odd, instance).shortest()
    enc = odd.encoding
    fill = {f: enc.states[i][1 - onv[i] if mc.decision else onv[i]]
            for i, f in enumerate(enc.features)}
    matched = {frozenset({**fill, **z}.items()) for z in shortest}
    return matched == mc.to_set()
