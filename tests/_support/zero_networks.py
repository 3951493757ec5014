"""A hypothesis strategy for classifiers whose networks have many zero CPT entries.

The strategies of :mod:`tests._support.strategies` put a zero in about one entry in eight; the
questions on the instances a network allows (``bnx.support``, ``within=``) need networks
where many instances have probability zero. :func:`zero_networks` draws a classifier
(naive Bayes, latent tree or a random DAG with hidden nodes; multi-valued features; both
rules) and then zeroes entries of its CPTs column by column (never a whole column) and
renormalises the column.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

from tests._support.strategies import (
    Case,
    classifiers,
    general_networks,
    multiclass_networks,
    naive_bayes,
    tan_networks,
)

__all__ = ["classifier_of", "linear_zero_networks", "zero_networks"]


@st.composite
def _zeroed(draw, case: Case) -> Case:
    net = DiscreteBayesianNetwork(case.net.edges())
    net.add_nodes_from(case.net.nodes())
    cpds = []
    for cpd in case.net.get_cpds():
        variables = list(cpd.variables)
        card = list(cpd.cardinality)
        values = np.asarray(cpd.values, dtype=float).reshape(card[0], -1)
        out = values.copy()
        for j in range(values.shape[1]):
            if draw(st.integers(0, 2)) == 0:  # this column keeps its entries
                continue
            col = [Fraction(float(v)) for v in values[:, j]]
            nonzero = [i for i, v in enumerate(col) if v]
            drop = draw(st.sets(st.sampled_from(nonzero), max_size=len(nonzero) - 1)) \
                if len(nonzero) > 1 else set()
            for i in drop:
                col[i] = Fraction(0)
            total = sum(col)
            out[:, j] = [float(v / total) for v in col]
        names = {v: list(cpd.state_names[v]) for v in variables}
        if len(variables) == 1:
            cpds.append(TabularCPD(variables[0], card[0], out.reshape(-1, 1).tolist(),
                                   state_names=names))
        else:
            cpds.append(TabularCPD(variables[0], card[0], out.tolist(),
                                   evidence=variables[1:], evidence_card=card[1:],
                                   state_names=names))
    net.add_cpds(*cpds)
    assert net.check_model()
    return Case(net, case.class_var, case.positive, case.threshold, list(case.features),
                case.rule)


@st.composite
def zero_networks(draw, max_instances: int = 48, multiclass: bool = False):
    """A classifier whose CPTs have many zero entries (see the module docstring).

    ``multiclass``: a :func:`~tests._support.strategies.multiclass_networks` case instead
    (3 to 5 class states, the most probable decides).
    """
    if multiclass:
        case = draw(multiclass_networks(max_classes=5, max_features=4,
                                        max_instances=max_instances))
    else:
        case = draw(st.one_of(classifiers(max_features=4, max_instances=max_instances),
                              general_networks(max_features=4, max_hidden=3,
                                               max_instances=max_instances)))
    return draw(_zeroed(case))


@st.composite
def linear_zero_networks(draw, max_instances: int = 48):
    """A naive Bayes or TAN (what :mod:`bnx.linear` explains) with many zero entries."""
    case = draw(st.one_of(naive_bayes(max_features=4, max_instances=max_instances),
                          tan_networks(max_features=4, max_instances=max_instances)))
    return draw(_zeroed(case))


def classifier_of(case: Case):
    """The :class:`bnx.Classifier` of ``case`` (its rule and threshold)."""
    import bnx
    kw = {"rule": "argmax"} if case.rule == "argmax" else {"threshold": case.threshold}
    return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                          **kw)
