"""Networks from and to pyAgrum.

pyAgrum is an optional dependency: ``pip install -e ".[pyagrum]"`` in the clone.

:func:`from_pyagrum` turns a ``pyagrum.BayesNet`` into a pgmpy
``DiscreteBayesianNetwork`` with the same variables, state labels (in the same order), arcs
and tables, entry for entry (both hold IEEE doubles, so nothing is rounded);
:func:`to_pyagrum` does the reverse. ``bnx.Classifier.from_pyagrum`` and
``Classifier.to_pyagrum`` use them. Tables are read and written one parent configuration
at a time through pyAgrum's own indexing by names and labels, never through its internal
memory layout.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..errors import ArgumentError, NetworkError

__all__ = ["from_pyagrum", "to_pyagrum"]


def _pyagrum():
    try:
        import pyagrum
    except ImportError:
        raise ArgumentError("pyAgrum is not installed: pip install pyagrum (or, in bnx's "
                            "clone, pip install -e '.[pyagrum]')") from None
    return pyagrum


def from_pyagrum(bn: Any) -> Any:
    """Convert a ``pyagrum.BayesNet`` to a pgmpy network.

    Parameters
    ----------
    bn : pyagrum.BayesNet
        A Bayesian network over discrete variables (labelized, range or integer ones; the
        states are their labels, as text).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The same variables, states, arcs and tables.

    Raises
    ------
    ArgumentError
        pyAgrum is missing, or `bn` is not a ``pyagrum.BayesNet``.
    NetworkError
        pgmpy refuses the tables (a column that does not sum to 1).

    Examples
    --------
    >>> import pyagrum as gum  # doctest: +SKIP
    >>> net = from_pyagrum(gum.fastBN("smoke->lung->xray"))  # doctest: +SKIP
    >>> sorted(net.edges())  # doctest: +SKIP
    [('lung', 'xray'), ('smoke', 'lung')]
    """
    gum = _pyagrum()
    if not isinstance(bn, gum.BayesNet):
        raise ArgumentError(f"expected a pyagrum.BayesNet, got {type(bn).__name__}")
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    order = [bn.variable(i).name() for i in bn.topologicalOrder()]
    labels = {n: list(bn.variable(n).labels()) for n in order}
    net = DiscreteBayesianNetwork()
    net.add_nodes_from(order)
    cpds = []
    for child in order:
        parents = list(bn.cpt(child).names[1:])  # pyAgrum's table: the child, then parents
        net.add_edges_from((p, child) for p in parents)
        columns = [[float(v) for v in bn.cpt(child)[dict(zip(parents, config))]]
                   for config in itertools.product(*(labels[p] for p in parents))]
        values = [[col[k] for col in columns] for k in range(len(labels[child]))]
        cpds.append(TabularCPD(child, len(labels[child]), values,
                               evidence=parents or None,
                               evidence_card=[len(labels[p]) for p in parents] or None,
                               state_names={v: labels[v] for v in (child, *parents)}))
    net.add_cpds(*cpds)
    try:
        net.check_model()
    except ValueError as exc:
        raise NetworkError(f"pgmpy refuses the pyAgrum network's tables: {exc}") from None
    return net


def to_pyagrum(network: Any) -> Any:
    """Convert a pgmpy ``DiscreteBayesianNetwork`` to a ``pyagrum.BayesNet``.

    Every variable becomes a ``pyagrum.LabelizedVariable`` whose labels are its state
    names as text (in pgmpy's order); the tables are copied entry for entry.

    Raises
    ------
    ArgumentError
        pyAgrum is missing.
    NetworkError
        Two states of a variable have the same text (pyAgrum's labels are text), or a node
        has no table.
    """
    gum = _pyagrum()
    bn = gum.BayesNet()
    states = {}
    for node in network.nodes():
        cpd = network.get_cpds(node)
        if cpd is None:
            raise NetworkError(f"node {node!r} has no table")
        names = [str(s) for s in cpd.state_names[node]]
        if len(set(names)) != len(names):
            raise NetworkError(f"the states of {node!r} are not distinct as text: {names}")
        states[node] = names
        bn.add(gum.LabelizedVariable(str(node), str(node), names))
    for u, v in network.edges():
        bn.addArc(str(u), str(v))
    for node in network.nodes():
        cpd = network.get_cpds(node)
        parents = list(cpd.variables[1:])
        table = cpd.get_values()  # (states of node, parent configurations, last fastest)
        own = {v: [str(x) for x in cpd.state_names[v]] for v in cpd.variables}  # its order
        where = {n: j for j, n in reversed(list(enumerate(states[node])))}
        at = [where[label] for label in own[node]]
        for j, config in enumerate(itertools.product(*(own[p] for p in parents))):
            column = [0.0] * len(at)
            for k, x in zip(at, table[:, j]):
                column[k] = float(x)
            bn.cpt(str(node))[{str(p): label for p, label in zip(parents, config)}] = column
    return bn
