"""Which parts of a network can affect a classifier's decision, and their exact factors.

:func:`exact_cpds` reads every CPD of a pgmpy network as an exact factor (each float
is the rational it denotes). :func:`prune` then splits the factors into

* the *barren* part: nodes that are ancestors of neither the class nor a feature.
  Summed out, they leave factors over their kept parents whose entries are the exact
  column sums of their tables (``1`` only up to rounding, since pgmpy accepts sums
  within 0.01 of 1), always positive; these are kept;
* the *main* part: the factors connected to the class in the moral graph of what is
  left once the features are removed (the observed features block every other path);
* the *aside* groups: the other connected parts. Each multiplies ``Pr(c, x)`` by the same
  factor ``phi(x) >= 0`` for every class ``c``. A group is set aside only when every
  entry of its factors is positive, so that ``phi(x) > 0`` for every instance and the
  decision never depends on it; a group with a zero entry could make ``Pr(x) = 0`` and
  stays in the main part.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._util.disjoint import DisjointSets
from ..errors import NetworkError
from ._inference import eliminate

__all__ = ["exact_cpds", "ordered_table", "prune"]


def _fraction(v: Any, node: Any) -> Fraction:
    x = float(v)
    if not (math.isfinite(x) and x >= 0):
        raise NetworkError(f"CPD of {node!r} has the invalid entry {x!r}")
    return Fraction(x)


def exact_cpds(network: Any) -> tuple[dict, dict, dict]:
    """Read ``(states, parents, factors)`` of every node, exactly.

    Read through ``cpd.variables`` and ``state_names``: ``factors[n] = ((n, *parents),
    table)`` with exact Fraction entries, each parent's axis in the order of that parent's
    own states.
    """
    nodes = list(network.nodes())
    cpds = {cpd.variable: cpd for cpd in network.get_cpds()}
    missing = [n for n in nodes if n not in cpds]
    if missing:
        raise NetworkError(f"missing CPDs for {', '.join(map(repr, missing))}")
    try:
        network.check_model()
    except Exception as exc:
        raise NetworkError(f"invalid network: {exc}") from exc
    states = {n: tuple(cpds[n].state_names[n]) for n in nodes}
    parents: dict = {}
    factors: dict = {}
    for n in nodes:
        cpd = cpds[n]
        variables = list(cpd.variables)
        graph_parents = set(network.predecessors(n))
        if variables[0] != n or set(variables[1:]) != graph_parents:
            raise NetworkError(f"CPD of {n!r} is over {variables}, expected {n!r} and its "
                               f"parents {sorted(map(str, graph_parents))}")
        values = ordered_table(n, variables, cpd.state_names, np.asarray(cpd.values), states)
        table = np.empty(values.shape, dtype=object)
        tflat, vflat = table.reshape(-1), values.reshape(-1)
        for j in range(vflat.size):
            tflat[j] = _fraction(vflat[j], n)
        parents[n] = tuple(variables[1:])
        factors[n] = (tuple(variables), table)
    return states, parents, factors


def ordered_table(n: Any, variables: list, names: dict, values: np.ndarray,
                  states: dict) -> np.ndarray:
    """Return the table of ``n``'s CPD with each axis in its variable's own state order.

    ``names[v]`` are the CPD's names of the states of ``v`` along its axis, ``states[v]``
    the variable's own (from its CPD); they are matched by text, through a dict (a
    variable of a million states is read in linear time). :class:`~bnx.NetworkError`
    when they are not the same states.
    """
    if all(tuple(names[v]) == tuple(states[v]) for v in variables):
        return values  # every axis in its own order already (the common case)
    perm = []
    for v in variables:
        own = list(map(str, names[v]))
        if sorted(own) != sorted(map(str, states[v])):
            raise NetworkError(f"CPD of {n!r} names the states of {v!r} as "
                               f"{names[v]}, but {v!r} has states {list(states[v])}")
        at = {s: j for j, s in reversed(list(enumerate(own)))}  # the first of equals
        perm.append([at[str(s)] for s in states[v]])
    return values[np.ix_(*perm)] if values.ndim else values


def _ancestral(parents: dict, roots) -> set:
    seen: set = set()
    stack = list(roots)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(parents[n])
    return seen


def prune(network: Any, parents: dict, factors: dict, class_var: Any,
          features: tuple) -> tuple[list, list, list]:
    """Split the factors into ``(main, aside, barren)``: see the module docstring.

    ``main`` and each group of ``aside`` are lists of exact factors; ``barren`` names the
    nodes summed out as barren.
    """
    import networkx as nx

    keep = _ancestral(parents, (class_var, *features))
    order = [n for n in nx.topological_sort(network) if n not in keep]
    barren_factors = [factors[n] for n in order]
    folded = eliminate(barren_factors, reversed(order))  # children first
    kept = [factors[n] for n in nx.topological_sort(network) if n in keep]
    kept += folded  # a scalar (from a barren root) lands in an aside group
    feats = set(features)
    # connected parts of the moral graph without the features (union-find)
    linked = DisjointSets()
    for scope, _ in kept:
        rest = [v for v in scope if v not in feats]
        if rest:
            linked.join(*rest)
    find = linked.find
    groups: dict = {}
    main = []
    for f in kept:
        rest = [v for v in f[0] if v not in feats]
        if rest and find(rest[0]) == find(class_var):
            main.append(f)
        else:
            key = find(rest[0]) if rest else ("features", id(f))
            groups.setdefault(key, []).append(f)
    aside = []
    for group in groups.values():
        if all(x > 0 for _, t in group for x in t.reshape(-1)):
            aside.append(group)
        else:  # phi(x) may be 0: keep it where the decision sees it
            main.extend(group)
    return main, aside, order
