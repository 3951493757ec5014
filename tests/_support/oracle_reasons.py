"""Brute-force oracle for the questions of issue 8 (reasons, robustness, bias, probability).

Independent of ``bnx``: built on :mod:`tests._support.oracle` (which never imports bnx), by
plain enumeration of instances, subsets and completions with exact fractions.
Every function takes ``args = (net, class_var, positive, threshold, features)``.
Explanations are sets of ``frozenset(dict.items())``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

try:
    from tests._support import oracle
except ImportError:  # pragma: no cover
    import oracle

__all__ = ["contrastive_explanations", "minimal_hitting_sets", "feature_roles",
           "robustness", "counterfactuals", "robustness_profile", "biased", "count_biased",
           "same_decision_probability", "sufficient", "check_explanation"]


def _table(args, rule="threshold"):
    net, class_var, positive, threshold, features = args
    return oracle.decision_table(net, class_var, positive, threshold, features, rule=rule)


def _states(args):
    net, features = args[0], args[4]
    return {f: oracle.node_states(net, f) for f in features}


def _decide(args, inst):
    return _table(args)[tuple(inst[f] for f in args[4])]


def _flips_with(args, x, free):
    """Whether changing the features in ``free`` (to any states) can flip x's decision."""
    features, states = list(args[4]), _states(args)
    d = _decide(args, x)
    domains = [states[f] if f in free else [x[f]] for f in features]
    table = _table(args)
    return any(table[combo] != d for combo in itertools.product(*domains))


def contrastive_explanations(args, x):
    """Minimal sets of features whose change can flip the decision, as ``{f: x[f]}``."""
    features = list(args[4])
    good = [frozenset(s) for r in range(len(features) + 1)
            for s in itertools.combinations(features, r) if _flips_with(args, x, set(s))]
    minimal = [s for s in good if not any(o < s for o in good)]
    return {frozenset((f, x[f]) for f in s) for s in minimal}


def minimal_hitting_sets(family, universe):
    """The minimal subsets of ``universe`` that meet every set of ``family``."""
    family = [set(s) for s in family]
    hits = [frozenset(s) for r in range(len(universe) + 1)
            for s in itertools.combinations(sorted(universe, key=repr), r)
            if all(set(s) & e for e in family)]
    return {s for s in hits if not any(o < s for o in hits)}


def feature_roles(args, x):
    """``{feature: "necessary" | "relevant" | "irrelevant"}`` from the PI-explanations."""
    pis = [dict(p) for p in oracle.pi_explanations(*args, x)]
    out = {}
    for f in args[4]:
        inside = sum(1 for p in pis if f in p)
        out[f] = ("irrelevant" if inside == 0 else
                  "necessary" if inside == len(pis) else "relevant")
    return out


def _hamming(a, b, features):
    return sum(1 for f in features if a[f] != b[f])


def _others(args, x, immutable=()):
    """Instances with the other decision that keep the immutable features."""
    features = list(args[4])
    d = _decide(args, x)
    return [y for y in oracle.all_instances(args[0], features)
            if all(y[f] == x[f] for f in immutable) and _decide(args, y) != d]


def robustness(args, x, immutable=()):
    """Fewest changes for the other decision (``math.inf``: impossible)."""
    others = _others(args, x, immutable)
    return min((_hamming(x, y, args[4]) for y in others), default=math.inf)


def counterfactuals(args, x, immutable=()):
    """Closest instances with the other decision, as their changes ``{f: new state}``."""
    r = robustness(args, x, immutable)
    if r == math.inf:
        return set()
    return {frozenset((f, y[f]) for f in args[4] if y[f] != x[f])
            for y in _others(args, x, immutable) if _hamming(x, y, args[4]) == r}


def robustness_profile(args, immutable=(), rule="threshold", decision=None):
    """``{k: instances of robustness k}``, ``math.inf`` last for the unflippable (only the
    instances with ``decision``, when given)."""
    features = list(args[4])
    fixed = [k for k, f in enumerate(features) if f in immutable]
    rows = list(_table(args, rule).items())
    counts = {}
    for x, d in rows:
        if decision is not None and d != decision:
            continue
        r = min((sum(1 for a, b in zip(x, y) if a != b) for y, e in rows
                 if e != d and all(x[k] == y[k] for k in fixed)), default=math.inf)
        counts[r] = counts.get(r, 0) + 1
    return {k: counts[k] for k in sorted(counts)}  # math.inf, if there, sorts last


def biased(args, x, protected):
    """Whether an instance differing from x only on ``protected`` has the other decision."""
    return _flips_with(args, x, set(protected))


def count_biased(args, protected):
    return sum(1 for x in oracle.all_instances(args[0], args[4]) if biased(args, x, protected))


def same_decision_probability(args, evidence, decision=None):
    """``sum_z Pr(z | e) [decide(e, z) = decision]`` over every completion, exactly."""
    net, class_var, positive, threshold, features = args
    states = _states(args)
    missing = [f for f in features if f not in evidence]
    total = Fraction(0)
    same = {True: Fraction(0), False: Fraction(0)}
    for combo in itertools.product(*(states[f] for f in missing)):
        inst = dict(evidence)
        inst.update(zip(missing, combo))
        p = sum(oracle.class_joint(net, class_var, inst, features).values(), Fraction(0))
        total += p
        same[_decide(args, inst)] += p
    if total == 0:
        return None
    if decision is None:  # the decision on the evidence itself, by its exact posterior
        cj = {}
        for combo in itertools.product(*(states[f] for f in missing)):
            inst = dict(evidence)
            inst.update(zip(missing, combo))
            for c, p in oracle.class_joint(net, class_var, inst, features).items():
                cj[c] = cj.get(c, Fraction(0)) + p
        t = oracle.to_fraction(threshold)
        pos = cj[positive]
        decision = (1 - t) * pos >= t * (sum(cj.values(), Fraction(0)) - pos)
    return same[decision] / total


def sufficient(args, x, partial):
    """Every completion of ``partial`` has x's decision."""
    features, states = list(args[4]), _states(args)
    d = _decide(args, x)
    domains = [[partial[f]] if f in partial else states[f] for f in features]
    table = _table(args)
    return all(table[combo] == d for combo in itertools.product(*domains))


def check_explanation(args, x, partial):
    """``(sufficient, minimal, redundant features)`` of a part of ``x``."""
    if not sufficient(args, x, partial):
        return False, False, set()
    redundant = {f for f in partial
                 if sufficient(args, x, {g: s for g, s in partial.items() if g != f})}
    return True, not redundant, redundant
