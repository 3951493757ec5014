"""A classifier as JSON: its pgmpy network exactly, and how it decides.

Saved ODD files (format versions 2 and 3, see ``docs/file-format.md``) hold the classifier
they were compiled from under the key ``classifier``, so a loaded ODD has its
posteriors back. The network is stored node by node and CPD by CPD, through
``cpd.variables``, ``cpd.state_names`` and ``cpd.values`` only: every entry is a
JSON number written as Python's ``repr`` of the float, which reads back as the
same float, so the rebuilt classifier is exactly the original (its
:attr:`~bnx.Classifier.fingerprint` is checked on loading).

======================  ==================================================
key                     value
======================  ==================================================
``class_var``           the class variable
``positive``            the positive class state (``null``: a multi-class classifier)
``threshold``           the exact threshold as ``"p/q"`` (``null`` under the argmax rule)
``features``            the features, in the classifier's order
``rule``                the decision rule, ``"threshold"`` or ``"argmax"``
``nodes``               every node of the network, in its order
``edges``               every edge ``[parent, child]``
``cpds``                per node: ``variables`` (the node first, then its
                        parents in the CPD's axis order), ``states`` (for
                        each of those variables its state names),
                        ``values`` (the table flattened in C order over
                        those axes)
``on_states``           optional: the declared on states of MC-explanations,
                        ``[[feature, [state, ...]], ...]`` (absent when none
                        were declared)
``ordinal``             optional: the ordered features, ``[[feature, [state,
                        ...]], ...]``, states in increasing order (absent when
                        none were declared)
======================  ==================================================

pgmpy is imported only when a classifier is rebuilt, so loading an ODD file stays
quick; :class:`bnx.ODD` rebuilds its classifier on first use of ``.classifier``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..errors import BnxError, ODDFileError

__all__ = ["classifier_document", "classifier_from_document", "document_tables",
           "stored_on_states"]


def classifier_document(clf: Any, scalar: Callable[[Any, str], Any]) -> dict:
    """Describe ``clf`` as JSON-ready data; ``scalar(value, what)`` checks names."""
    net = clf.network
    cpds = []
    for cpd in net.get_cpds():
        variables = list(cpd.variables)
        values = [float(v) for v in cpd.values.reshape(-1)]
        if not all(math.isfinite(v) for v in values):
            raise BnxError(f"cannot save this ODD: the CPD of {cpd.variable!r} has a "
                           f"non-finite entry")
        cpds.append({
            "variables": [scalar(v, "node") for v in variables],
            "states": [[scalar(s, f"state of {v!r}") for s in cpd.state_names[v]]
                       for v in variables],
            "values": values,
        })
    t = None if clf.threshold is None else Fraction(clf.threshold)
    on = getattr(clf, "on_states", None) or {}
    extra = {"on_states": [[scalar(f, "feature"), [scalar(s, f"state of {f!r}") for s in ss]]
                           for f, ss in on.items()]} if on else {}
    ordinal = getattr(clf, "ordinal", None) or {}
    if ordinal:
        extra["ordinal"] = [[scalar(f, "feature"), [scalar(s, f"state of {f!r}") for s in ss]]
                            for f, ss in ordinal.items()]
    return {
        "class_var": scalar(clf.class_var, "class variable"),
        "positive": scalar(clf.positive, "positive state"),
        "threshold": None if t is None else f"{t.numerator}/{t.denominator}",
        "features": [scalar(f, "feature") for f in clf.features],
        "rule": str(getattr(clf, "rule", "threshold")),
        "nodes": [scalar(n, "node") for n in net.nodes()],
        "edges": [[scalar(u, "node"), scalar(v, "node")] for u, v in net.edges()],
        "cpds": cpds,
        **extra,
    }


def stored_on_states(doc: dict, key: str = "on_states") -> dict:
    """Read the declared on states a classifier document holds, ``{feature: tuple of states}``.

    With ``key="ordinal"``, the ordered features instead; empty when it holds none. Raises
    ``TypeError`` or ``ValueError`` when malformed.
    """
    pairs = doc.get(key) or []
    if not isinstance(pairs, list):
        raise TypeError(key)
    out = {}
    for f, states in pairs:
        if not isinstance(states, list):
            raise TypeError(key)
        out[f] = tuple(states)
    return out


#: The types of a table's entries in a document (JSON numbers; ``bool`` is not one).
_NUMBERS = frozenset((int, float))


def document_tables(doc: Any, where: str) -> tuple[dict, dict, dict]:
    """Read ``(states, parents, tables)`` of every node of a classifier document, in floats.

    As :func:`bnx.classifier._relevance.exact_cpds` reads a pgmpy network, without pgmpy:
    ``tables[n]`` is a float64 array over ``(n, *parents[n])``, each axis in its variable's
    own state order (the entries are the floats the file holds, each the exact rational
    it denotes). :class:`~bnx.ODDFileError` (naming ``where``) when malformed.
    """
    import numpy as np

    from ..classifier._relevance import ordered_table
    from ..errors import NetworkError

    def bad(problem: str) -> ODDFileError:
        return ODDFileError(f"{where} holds an invalid classifier: {problem}")

    try:
        nodes = list(doc["nodes"])
        entries = {e["variables"][0]: e for e in doc["cpds"]}
        if set(entries) != set(nodes) or len(entries) != len(doc["cpds"]):
            raise bad("its CPDs are not one per node")
        graph = {n: set() for n in nodes}
        for u, v in doc["edges"]:
            graph[v].add(u)
        states = {n: tuple(entries[n]["states"][0]) for n in nodes}
        parents, tables, raws, axes = {}, {}, [], []
        for n in nodes:
            variables, names = list(entries[n]["variables"]), entries[n]["states"]
            if set(variables[1:]) != graph[n] or len(variables) != len(names):
                raise bad(f"the CPD of {n!r} is not over {n!r} and its parents")
            raw = entries[n]["values"]
            if not isinstance(raw, list) or not set(map(type, raw)) <= _NUMBERS:
                raise bad(f"the CPD of {n!r} has an entry that is not a number")
            card = [len(ss) for ss in names]
            if len(raw) != math.prod(card):
                raise bad(f"the CPD of {n!r} has {len(raw)} entries, not {math.prod(card)}")
            raws.append(raw)
            axes.append((variables, names, card))
            parents[n] = tuple(variables[1:])
        whole = np.fromiter(itertools.chain.from_iterable(raws), dtype=np.float64,
                            count=sum(map(len, raws)))
        good = np.isfinite(whole) & (whole >= 0)
        cut = np.cumsum([0, *map(len, raws)])
        if not good.all():
            n = nodes[int(np.searchsorted(cut, np.flatnonzero(~good)[0], side="right")) - 1]
            raise bad(f"the CPD of {n!r} has an entry that is not a finite nonnegative "
                      f"number")
        for n, (variables, names, card), a, b in zip(nodes, axes, cut.tolist(),
                                                      cut[1:].tolist()):
            tables[n] = ordered_table(n, variables, dict(zip(variables, names)),
                                      whole[a:b].reshape(card), states)
    except ODDFileError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, NetworkError) as exc:
        raise bad(str(exc) or type(exc).__name__) from None
    return states, parents, tables


def classifier_from_document(doc: Any, *, fingerprint: str | None, where: str) -> Any:
    """Rebuild the :class:`~bnx.Classifier` described by ``doc``.

    Raises :class:`~bnx.ODDFileError` (naming ``where``) when the description is
    malformed, or when the rebuilt classifier's fingerprint differs from
    ``fingerprint`` (the file does not hold the classifier its ODD came from).
    """
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    from ..classifier._classifier import Classifier

    def bad(problem: str) -> ODDFileError:
        return ODDFileError(f"{where} holds an invalid classifier: {problem}")

    keys = {"class_var", "positive", "threshold", "features", "rule", "nodes", "edges", "cpds"}
    if not isinstance(doc, dict) or not keys <= set(doc) <= keys | {"on_states", "ordinal"}:
        raise bad(f"expected the keys {sorted(keys)} (and optionally 'on_states', 'ordinal')")
    try:
        on = stored_on_states(doc)
        ordinal = stored_on_states(doc, "ordinal")
    except (TypeError, ValueError):
        raise bad("its 'on_states' or 'ordinal' is not a list of [feature, [states]] "
                  "pairs") from None
    try:
        net = DiscreteBayesianNetwork()
        net.add_nodes_from(doc["nodes"])
        net.add_edges_from(tuple(e) for e in doc["edges"])
        cpds = []
        for entry in doc["cpds"]:
            variables, states = entry["variables"], entry["states"]
            card = [len(s) for s in states]
            values = np.array(entry["values"], dtype=float)
            if values.size != math.prod(card) or any(isinstance(v, bool) for v in entry["values"]):
                raise bad(f"the CPD of {variables[0]!r} has {values.size} entries, "
                          f"not {math.prod(card)}")
            cpds.append(TabularCPD(variables[0], card[0], values.reshape(card[0], -1),
                                   evidence=variables[1:] or None,
                                   evidence_card=card[1:] or None,
                                   state_names=dict(zip(variables, map(list, states)))))
        net.add_cpds(*cpds)
        t = None if doc["threshold"] is None else Fraction(doc["threshold"])
    except ODDFileError:
        raise
    except Exception as exc:  # malformed lists, pgmpy's own checks
        raise bad(str(exc) or type(exc).__name__) from None
    if doc["rule"] not in ("threshold", "argmax") or (t is None) != (doc["rule"] == "argmax"):
        raise bad(f"rule {doc['rule']!r} with threshold {doc['threshold']!r}: expected the "
                  f"rule 'threshold' with a threshold, or 'argmax' with none")
    kwargs = {"threshold": t} if t is not None else {"rule": "argmax"}
    try:
        clf = Classifier(net, doc["class_var"], doc["positive"], features=doc["features"],
                         on_states=on or None, ordinal=ordinal or None, **kwargs)
    except (BnxError, TypeError) as exc:
        raise bad(str(exc)) from None
    if fingerprint is not None and clf.fingerprint != fingerprint:
        raise bad("it is not the classifier the diagram was compiled from "
                  "(fingerprint mismatch)")
    return clf
