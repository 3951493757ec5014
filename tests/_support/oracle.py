"""Brute-force, exact-arithmetic oracle for Bayesian network classifiers.

This module is deliberately independent of ``bnx``: it never imports it.  All
probabilities are computed with :class:`fractions.Fraction` by plain
enumeration, so every answer is exact with respect to the floats stored in the
network's CPTs (``Fraction(float(v))`` is an exact conversion).

CPTs are read *only* through ``cpd.variables``, ``cpd.state_names`` and
``cpd.values`` (whose axes follow ``cpd.variables``).  The ordering reported by
``get_parents()`` / ``get_evidence()`` is never used.

Decision rule (the ``bnx`` rule): an instance ``x`` is positive iff

    (1 - T) * P(C=positive, x) >= T * sum_{c != positive} P(C=c, x)

so instances of probability zero are positive, and a class with more than two
states is treated as "positive state against all others".

Argmax rule (``rule="argmax"``, the threshold is ignored): an instance is
positive iff the first class state, in the class CPD's state order, whose
joint ``P(C=c, x)`` is largest is the positive state (``numpy.argmax`` of the
exact posterior: the first state wins ties, and an instance of probability
zero goes to the first state).

Any discrete network is accepted: the class may have parents, features may be
internal nodes, and every node that is neither the class nor a feature is
summed out by enumeration (with the exact column sums the CPTs have).

Instances and explanations are represented as dicts ``feature -> state``;
explanations are returned as ``frozenset(dict.items())`` so that they can be
collected in sets.

Everything here is exponential and meant for small networks only (up to about
8 features / a few hundred instances).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

__all__ = [
    "to_fraction",
    "node_states",
    "joint",
    "class_joint",
    "class_joint_table",
    "decide",
    "RULES",
    "posterior",
    "all_instances",
    "decision_table",
    "count_positive",
    "mc_explanations",
    "pi_explanations",
    "prime_implicants",
    "is_monotone",
]


# ---------------------------------------------------------------------------
# Reading the network
# ---------------------------------------------------------------------------


def to_fraction(value):
    """Convert a probability or threshold to an exact :class:`Fraction`.

    Parameters
    ----------
    value : float, int, numpy scalar or Fraction
        The number to convert.  Floats are converted exactly (a float is a
        dyadic rational), so ``to_fraction(0.1) != Fraction(1, 10)``.

    Returns
    -------
    Fraction
        The exact value.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):  # includes bool
        return Fraction(value)
    return Fraction(float(value))


def _cpd_of(net, node):
    cpd = net.get_cpds(node)
    if cpd is None:
        raise ValueError(f"no CPD for node {node!r}")
    return cpd


def node_states(net, node):
    """States of ``node`` in index order, as given by its own CPD.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network.
    node : hashable
        A node of ``net``.

    Returns
    -------
    list
        ``net.get_cpds(node).state_names[node]`` as a list.
    """
    return list(_cpd_of(net, node).state_names[node])


def _fingerprint(net):
    """Hashable summary of all CPDs (variables, state names and values)."""
    parts = []
    for cpd in net.get_cpds():
        variables = tuple(cpd.variables)
        states = tuple(tuple(cpd.state_names[v]) for v in variables)
        values = cpd.values
        parts.append((variables, states, values.shape, values.astype(float).tobytes()))
    parts.sort(key=repr)
    return tuple(parts)


class _Net:
    """Exact tables of a network, indexed by state *names*."""

    def __init__(self, net):
        self.nodes = list(net.nodes())
        self.states = {}
        self.factors = []  # list of (variables, {state-name tuple: Fraction})
        for node in self.nodes:
            cpd = _cpd_of(net, node)
            if cpd.variables[0] != node:
                raise ValueError(f"CPD of {node!r} does not have {node!r} first")
            self.states[node] = list(cpd.state_names[node])
        for node in self.nodes:
            cpd = _cpd_of(net, node)
            variables = list(cpd.variables)
            names = [list(cpd.state_names[v]) for v in variables]
            values = cpd.values
            if values.ndim != len(variables):
                raise ValueError(f"CPD of {node!r}: values do not follow variables")
            table = {}
            for idx in itertools.product(*(range(len(s)) for s in names)):
                key = tuple(names[k][i] for k, i in enumerate(idx))
                table[key] = Fraction(float(values[idx]))
            self.factors.append((variables, table))

    def joint(self, assignment):
        result = Fraction(1)
        for variables, table in self.factors:
            result *= table[tuple(assignment[v] for v in variables)]
            if result == 0:
                return result
        return result


#: The decision rules the oracle knows.
RULES = ("threshold", "argmax")

_CACHE_SIZE = 64
_NET_CACHE = {}  # fingerprint -> _Net
_TABLE_CACHE = {}  # (fingerprint, class_var, positive, threshold, features) -> dict


def _remember(cache, key, value):
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))  # drop the oldest entry
    cache[key] = value
    return value


def _compiled(net):
    """The exact tables of ``net``, memoised on the CPD contents."""
    fp = _fingerprint(net)
    if fp in _NET_CACHE:
        return _NET_CACHE[fp]
    return _remember(_NET_CACHE, fp, _Net(net))


# ---------------------------------------------------------------------------
# Probabilities and decisions
# ---------------------------------------------------------------------------


def joint(net, assignment):
    """Exact joint probability of a full assignment of all nodes.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network.
    assignment : dict
        Maps every node of ``net`` to one of its state names.

    Returns
    -------
    Fraction
        Product of the CPT entries selected by ``assignment``.
    """
    n = _compiled(net)
    missing = set(n.nodes) - set(assignment)
    if missing:
        raise ValueError(f"assignment misses nodes {sorted(map(str, missing))}")
    for v in n.nodes:
        if assignment[v] not in n.states[v]:
            raise ValueError(f"{assignment[v]!r} is not a state of {v!r}")
    return n.joint(assignment)


def class_joint(net, class_var, instance, features):
    """Exact ``P(C=c, x)`` for every class state ``c``.

    All nodes other than the class and ``features`` (latent nodes, leaves that
    are not features) are summed out by plain enumeration.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network.
    class_var : hashable
        The class node.
    instance : dict
        Maps every feature in ``features`` to a state name.
    features : sequence
        Feature node names.

    Returns
    -------
    dict
        Class state -> Fraction.
    """
    return _class_joint(_compiled(net), class_var, instance, list(features))


def _check_features(n, class_var, features):
    if class_var not in n.states:
        raise ValueError(f"{class_var!r} is not a node")
    if class_var in features:
        raise ValueError("the class cannot be a feature")
    if len(set(features)) != len(features):
        raise ValueError("duplicate features")
    for f in features:
        if f not in n.states:
            raise ValueError(f"{f!r} is not a node")


def _class_joint(n, class_var, instance, features):
    _check_features(n, class_var, features)
    for f in features:
        if f not in instance:
            raise ValueError(f"instance misses feature {f!r}")
        if instance[f] not in n.states[f]:
            raise ValueError(f"{instance[f]!r} is not a state of {f!r}")
    hidden = [v for v in n.nodes if v != class_var and v not in features]
    result = {}
    for c in n.states[class_var]:
        total = Fraction(0)
        base = {f: instance[f] for f in features}
        base[class_var] = c
        for values in itertools.product(*(n.states[h] for h in hidden)):
            assignment = dict(base)
            assignment.update(zip(hidden, values))
            total += n.joint(assignment)
        result[c] = total
    return result


def _check_rule(rule):
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; expected one of {RULES}")


def _decide_from_joint(cj, positive, threshold, rule="threshold"):
    if rule == "argmax":
        best = None
        for c, p in cj.items():  # class states in CPD order: the first maximum wins
            if best is None or p > cj[best]:
                best = c
        return best == positive
    t = to_fraction(threshold)
    pos = cj[positive]
    neg = sum((p for c, p in cj.items() if c != positive), Fraction(0))
    return (1 - t) * pos >= t * neg


def decide(net, class_var, positive, threshold, instance, features, *, rule="threshold"):
    """The bnx decision for one instance.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network.
    class_var : hashable
        The class node.
    positive : hashable
        The positive class state.
    threshold : float, int or Fraction
        Classification threshold ``T`` (converted exactly).
    instance : dict
        Maps every feature to a state name.
    features : sequence
        Feature node names.
    rule : {"threshold", "argmax"}, optional
        The decision rule (see the module docstring); ``threshold`` is ignored
        by ``"argmax"``.

    Returns
    -------
    bool
        ``(1 - T) * P(positive, x) >= T * sum_{c != positive} P(c, x)``, or
        whether ``positive`` is the first most probable class state.
    """
    _check_rule(rule)
    cj = class_joint(net, class_var, instance, features)
    if positive not in cj:
        raise ValueError(f"{positive!r} is not a state of {class_var!r}")
    return _decide_from_joint(cj, positive, threshold, rule)


def posterior(net, class_var, positive, threshold, instance, features):
    """Exact posterior ``P(C=positive | x)``.

    Parameters
    ----------
    net, class_var, positive, threshold, instance, features
        As for :func:`decide` (``threshold`` is ignored; it is accepted for a
        uniform signature).

    Returns
    -------
    Fraction or None
        The posterior, or ``None`` when ``P(x) = 0``.
    """
    cj = class_joint(net, class_var, instance, features)
    total = sum(cj.values(), Fraction(0))
    if total == 0:
        return None
    return cj[positive] / total


def all_instances(net, features):
    """All instances over ``features``.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network (state names come from each feature's CPD).
    features : sequence
        Feature node names.

    Returns
    -------
    list of dict
        Instances in lexicographic order of state indices, the first feature
        being the most significant.
    """
    features = list(features)
    states = [node_states(net, f) for f in features]
    return [dict(zip(features, combo)) for combo in itertools.product(*states)]


def _marginal_table(n, class_var, features):
    """``{instance tuple: {class state: P(C=c, x)}}`` by one pass over all assignments.

    The joint of every assignment of all nodes, as one array of Python integers (each CPT
    scaled by the least common multiple of its entries' denominators, an exact integer
    table, broadcast over the nodes' axes and multiplied in), summed over the nodes that
    are neither features nor the class, then divided by the product of the scales: the
    same sums as adding ``joint(assignment)`` over every assignment, without a Python loop
    per assignment.
    """
    _check_features(n, class_var, features)
    nodes = list(n.nodes)
    axis = {v: i for i, v in enumerate(nodes)}
    joint = np.ones([1] * len(nodes), dtype=object)
    scale = 1
    for variables, table in n.factors:
        d = math.lcm(*(p.denominator for p in table.values()))
        shape = [len(n.states[v]) for v in variables]
        ints = np.empty(shape, dtype=object)
        for idx in itertools.product(*map(range, shape)):
            p = table[tuple(n.states[v][i] for v, i in zip(variables, idx))]
            ints[idx] = p.numerator * (d // p.denominator)
        order = sorted(range(len(variables)), key=lambda k: axis[variables[k]])
        spread = [1] * len(nodes)
        for k in order:
            spread[axis[variables[k]]] = shape[k]
        joint = joint * ints.transpose(order).reshape(spread)
        scale *= d
    keep = [axis[f] for f in features] + [axis[class_var]]
    rest = tuple(i for i in range(len(nodes)) if i not in keep)
    summed = joint.sum(axis=rest) if rest else joint
    summed = np.broadcast_to(summed, [len(n.states[nodes[i]]) for i in sorted(keep)])
    summed = summed.transpose([sorted(keep).index(i) for i in keep])
    table = {}
    for idx in itertools.product(*(range(len(n.states[f])) for f in features)):
        combo = tuple(n.states[f][i] for f, i in zip(features, idx))
        table[combo] = {c: Fraction(int(summed[(*idx, j)]), scale)
                        for j, c in enumerate(n.states[class_var])}
    return table


_MARGINAL_CACHE = {}  # (fingerprint, class_var, features) -> marginal table


def class_joint_table(net, class_var, features):
    """Exact ``P(C=c, x)`` of every instance ``x``, by one enumeration of the network.

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network (the product of all its cardinalities should stay below a
        few hundred thousand).
    class_var : hashable
        The class node.
    features : sequence
        Feature node names.

    Returns
    -------
    dict
        Maps the tuple of states (in ``features`` order) to a dict class state
        -> Fraction (class states in CPD order). Do not mutate: it is cached.
    """
    features = tuple(features)
    key = (_fingerprint(net), class_var, features)
    if key in _MARGINAL_CACHE:
        return _MARGINAL_CACHE[key]
    return _remember(_MARGINAL_CACHE, key, _marginal_table(_compiled(net), class_var,
                                                           list(features)))


def _decision_table(net, class_var, positive, threshold, features, rule):
    n = _compiled(net)
    if positive not in n.states.get(class_var, ()):
        raise ValueError(f"{positive!r} is not a state of {class_var!r}")
    marginal = class_joint_table(net, class_var, features)
    return {combo: _decide_from_joint(cj, positive, threshold, rule)
            for combo, cj in marginal.items()}


def decision_table(net, class_var, positive, threshold, features, *, rule="threshold"):
    """Decision of every instance.

    Parameters
    ----------
    net, class_var, positive, threshold
        As for :func:`decide`.
    features : sequence
        Feature node names.
    rule : {"threshold", "argmax"}, optional
        The decision rule; ``threshold`` is ignored by ``"argmax"``.

    Returns
    -------
    dict
        Maps the tuple of states (in ``features`` order) to the decision.
        Do not mutate: the result is cached.
    """
    _check_rule(rule)
    features = tuple(features)
    threshold = None if rule == "argmax" else to_fraction(threshold)
    key = (_fingerprint(net), class_var, positive, threshold, features, rule)
    if key in _TABLE_CACHE:
        return _TABLE_CACHE[key]
    return _remember(
        _TABLE_CACHE, key,
        _decision_table(net, class_var, positive, threshold, list(features), rule))


def count_positive(net, class_var, positive, threshold, features, *, rule="threshold"):
    """Number of positive instances.

    Parameters
    ----------
    net, class_var, positive, threshold, features, rule
        As for :func:`decision_table` (``rule`` is keyword-only).

    Returns
    -------
    int
        Count of instances ``x`` with ``decide(x)`` true.
    """
    table = decision_table(net, class_var, positive, threshold, features, rule=rule)
    return sum(1 for d in table.values() if d)


# ---------------------------------------------------------------------------
# Explanations
# ---------------------------------------------------------------------------


def _normalise_on(net, features, on):
    """feature -> frozenset of on states (accepts a single state or a collection)."""
    result = {}
    for f in features:
        if f not in on:
            raise ValueError(f"`on` does not mention feature {f!r}")
        value = on[f]
        if isinstance(value, (set, frozenset, list, tuple)):
            value = frozenset(value)
        else:
            value = frozenset([value])
        states = node_states(net, f)
        bad = value - set(states)
        if bad:
            raise ValueError(f"on states {bad!r} are not states of {f!r}")
        result[f] = value
    return result


def _check_instance(net, features, instance):
    for f in features:
        if f not in instance:
            raise ValueError(f"instance misses feature {f!r}")
        if instance[f] not in node_states(net, f):
            raise ValueError(f"{instance[f]!r} is not a state of {f!r}")


def mc_explanations(net, class_var, positive, threshold, features, instance, on, fixed=(), *,
                    rule="threshold", table=None):
    """Minimum-cardinality explanations (paper Def. 3, generalised in Sec. 5).

    Let ``i = decide(instance)``.  Candidates ``x*``: features in ``fixed``
    keep the instance's state.  For any other feature ``F``, if ``i`` is True:
    an off state of the instance is kept; an on state may be kept or replaced by
    any off state.  If ``i`` is False the roles of on and off are swapped.
    Among the candidates with ``decide(x*) == i``, those minimising the number
    of non-fixed features whose state is on (``i`` True) / off (``i`` False)
    are returned.

    Parameters
    ----------
    net, class_var, positive, threshold, features, rule
        As for :func:`decision_table` (``rule`` is keyword-only).
    instance : dict
        The instance to explain.
    table : dict, optional
        A decision table as :func:`decision_table` returns (state tuple in
        ``features`` order -> bool) to use instead of enumerating ``net``; for
        networks too large for this oracle, whose decisions come from elsewhere.
    on : dict
        Maps every feature to its collection of on states (a single state is
        also accepted).
    fixed : iterable, optional
        Features whose state is kept.

    Returns
    -------
    set of frozenset
        Each explanation is ``frozenset(x_star.items())`` over all features.
    """
    features = list(features)
    _check_instance(net, features, instance)
    on = _normalise_on(net, features, on)
    fixed = set(fixed)
    if table is None:
        table = decision_table(net, class_var, positive, threshold, features, rule=rule)
    i = table[tuple(instance[f] for f in features)]

    choices = []
    for f in features:
        s = instance[f]
        if f in fixed:
            choices.append([s])
            continue
        states = node_states(net, f)
        # "kept" = states that must stay; "movable" = states that may change.
        movable = (s in on[f]) if i else (s not in on[f])
        if not movable:
            choices.append([s])
        else:
            targets = [t for t in states if (t not in on[f]) == i]  # off if i, on if not i
            choices.append([s] + [t for t in targets if t != s])

    def cost(x_star):
        return sum(
            1 for f in features
            if f not in fixed and ((x_star[f] in on[f]) if i else (x_star[f] not in on[f]))
        )

    candidates = []
    for combo in itertools.product(*choices):
        if table[combo] == i:
            candidates.append(dict(zip(features, combo)))
    best = min(cost(x) for x in candidates)  # the instance itself is a candidate
    return {frozenset(x.items()) for x in candidates if cost(x) == best}


def _is_implicant(table, features, states, partial, decision):
    """True iff every completion of ``partial`` (dict) has ``decision``."""
    domains = [[partial[f]] if f in partial else states[f] for f in features]
    return all(table[combo] == decision for combo in itertools.product(*domains))


def pi_explanations(net, class_var, positive, threshold, features, instance, *,
                    rule="threshold", table=None):
    """Prime-implicant explanations (paper Def. 5).

    Parameters
    ----------
    net, class_var, positive, threshold, features, rule
        As for :func:`decision_table` (``rule`` is keyword-only).
    instance : dict
        The instance to explain.
    table : dict, optional
        As for :func:`mc_explanations`.

    Returns
    -------
    set of frozenset
        All subsets ``z`` of ``instance.items()`` (restricted to ``features``),
        minimal w.r.t. set inclusion, such that every completion of ``z`` has
        the decision of ``instance``.
    """
    features = list(features)
    _check_instance(net, features, instance)
    if table is None:
        table = decision_table(net, class_var, positive, threshold, features, rule=rule)
    states = {f: node_states(net, f) for f in features}
    i = table[tuple(instance[f] for f in features)]
    valid = []
    for r in range(len(features) + 1):
        for subset in itertools.combinations(features, r):
            z = {f: instance[f] for f in subset}
            if _is_implicant(table, features, states, z, i):
                valid.append(frozenset(z.items()))
    return {z for z in valid if not any(other < z for other in valid)}


def prime_implicants(net, class_var, positive, threshold, features, decision=True, *,
                     rule="threshold", table=None):
    """All prime implicants of the decision function or of its complement.

    Parameters
    ----------
    net, class_var, positive, threshold, features, rule
        As for :func:`decision_table` (``rule`` is keyword-only).
    decision : bool, optional
        ``True`` for the prime implicants of the decision function, ``False``
        for those of its complement.
    table : dict, optional
        As for :func:`mc_explanations`.

    Returns
    -------
    set of frozenset
        Minimal partial instances (at most one state per feature) all of whose
        completions have ``decision``.
    """
    features = list(features)
    decision = bool(decision)
    if table is None:
        table = decision_table(net, class_var, positive, threshold, features, rule=rule)
    states = {f: node_states(net, f) for f in features}
    implicants = set()
    for combo in itertools.product(*([None] + states[f] for f in features)):
        partial = {f: s for f, s in zip(features, combo) if s is not None}
        if _is_implicant(table, features, states, partial, decision):
            implicants.add(frozenset(partial.items()))
    # Implicants are closed under extension, so an implicant is prime iff
    # dropping any single literal yields a non-implicant.
    return {z for z in implicants if not any(z - {lit} in implicants for lit in z)}


def is_monotone(net, class_var, positive, threshold, features, on, *, rule="threshold"):
    """Monotonicity of the decision function over binary features (paper Def. 2).

    Parameters
    ----------
    net, class_var, positive, threshold, features, rule
        As for :func:`decision_table`.  Every feature must have two states.
    on : dict
        Maps every feature to its on state (``1``); a one-element collection
        is also accepted.

    Returns
    -------
    tuple
        ``(True, None)`` if for all ``x*``, ``x`` with
        ``on(x*) ⊆ on(x)`` we have ``f(x*) <= f(x)``; otherwise
        ``(False, (x_star, x))`` with such a pair where ``f(x*) = 1`` and
        ``f(x) = 0`` (instances as dicts).
    """
    features = list(features)
    on = _normalise_on(net, features, on)
    for f in features:
        if len(node_states(net, f)) != 2 or len(on[f]) != 1:
            raise ValueError(f"feature {f!r} must be binary with exactly one on state")
    table = decision_table(net, class_var, positive, threshold, features, rule=rule)
    instances = all_instances(net, features)

    def on_set(x):
        return frozenset(f for f in features if x[f] in on[f])

    for x_star in instances:
        if not table[tuple(x_star[f] for f in features)]:
            continue
        for x in instances:
            if on_set(x_star) <= on_set(x) and not table[tuple(x[f] for f in features)]:
                return False, (x_star, x)
    return True, None
