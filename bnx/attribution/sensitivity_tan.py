"""Whole-classifier sensitivity of a TAN: extreme products over the diagram's paths with
pairwise factors.

In a TAN (the class the parent of every feature, each feature at most one feature
parent) the ratio ``R(x)`` of :mod:`bnx.attribution.sensitivity_all` is a product of
factors ``r_f(x_f, x_parent(f))``. A path of the compiled diagram read per feature fixes
every feature's state, so the largest and smallest ``R`` over the positive (negative)
instances of a group is a max-/min-product walk to the terminal 1 (0) whose state at
each layer also holds the states of the *open* features: those already read whose
factor with a later feature is still to come. Each factor is applied at the layer of
the later of its two features. One walk per group (the entry's state or another state
of its feature, its parent at the column's state), in exact fractions.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["tan_extremes"]

_NONE_MAX, _NONE_MIN = Fraction(0), float("inf")


def tan_extremes(kids_by_layer, value, feats, parent, factor, allowed, override):
    """``{(term, "max"|"min"): R}`` over the instances the walk may take.

    ``parent[f]``: the feature parent of ``f`` or None; ``factor(f, s, w)``: the
    factor of ``f``'s state ``s`` given its parent's state ``w`` (None without a
    parent); ``allowed[f]``: the states ``f`` may take (absent: all); ``override``:
    ``(feature, {s: g})``, factors that replace that feature's own (``(None, {})``:
    none).
    """
    n = len(feats)
    pos = {f: m for m, f in enumerate(feats)}
    # the layer at which each factor is applied, and the open features at each boundary
    at = {f: max(pos[f], pos[parent[f]]) if parent[f] is not None else pos[f] for f in feats}
    partners: dict = {f: [] for f in feats}
    for f in feats:
        if parent[f] is not None:
            partners[f].append(at[f])
            partners[parent[f]].append(at[f])
    open_after = [tuple(g for g in feats if pos[g] <= m and any(a > m for a in partners[g]))
                  for m in range(n)]
    o_feat, o_factors = override
    states = {(0, ()): (Fraction(1), Fraction(1))}  # (node, open states) -> (max, min)
    for m in range(n):
        h = feats[m]
        kids = kids_by_layer[m]
        before = open_after[m - 1] if m else ()
        after = open_after[m]
        due = [f for f in feats if at[f] == m]  # factors applied here
        nxt: dict = {}
        for (u, a), (hi, lo) in states.items():
            known = dict(zip(before, a))
            for s in allowed.get(h, range(kids.shape[1])):
                known[h] = s
                w = Fraction(1)
                for f in due:
                    if f == o_feat:
                        w *= o_factors[known[f]]
                    else:
                        w *= factor(f, known[f], known[parent[f]] if parent[f] is not None
                                    else None)
                key = (int(kids[u, s]), tuple(known[g] for g in after))
                old = nxt.get(key)
                cand = (hi * w, lo * w)
                nxt[key] = cand if old is None else (max(old[0], cand[0]), min(old[1], cand[1]))
            known.pop(h, None)
        states = nxt
    out = {(t, k): (_NONE_MAX if k == "max" else _NONE_MIN) for t in (0, 1) for k in ("max", "min")}
    for (u, _), (hi, lo) in states.items():
        t = int(value[u])
        out[t, "max"] = max(out[t, "max"], hi)
        out[t, "min"] = min(out[t, "min"], lo)
    return out

