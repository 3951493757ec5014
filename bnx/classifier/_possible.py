"""Whether the network can produce some findings, ``Pr(e) > 0``, exactly; and why not.

``Pr(e) = sum_h prod_v P(v | parents(v))`` over the states ``h`` of the nodes that are not
observed, a sum of nonnegative products; the nodes that are ancestors of no finding sum
to 1 and drop out. So ``Pr(e) > 0`` exactly when some ``h`` puts a positive entry of every
table of the findings' ancestors along ``(e, h)``: a question on the tables' zero patterns
only, never on their values. :class:`ZeroPatterns` answers it by the network's inference
path (:func:`~bnx.classifier._inference.plan` and :func:`~bnx.classifier._inference.contract`)
in the Boolean semiring, after

* indexing each table by the findings in its scope;
* dropping every table that is then positive everywhere (it holds for every ``h``; most
  tables of most networks) and answering *no* at once when one is zero everywhere (a
  finding its observed parents rule out);
* splitting what is left into the parts it leaves connected, each contracted alone.

:meth:`ZeroPatterns.conflict` finds a minimal set of findings that cannot hold together:
one that stays impossible with no finding of it dropped, each being necessary (without it,
the rest is possible). Deletion finds one (drop each finding in turn, keep it dropped
when the rest still cannot hold); here the findings outside the part that fails are
dropped first, all at once, then halves of the rest (QuickXplain, Junker 2004), so that
a conflict of two findings among 77 takes about a dozen checks rather than 77.

:func:`refuse_impossible` is the check instances pass where they enter
(:func:`bnx.question._cache.indices`, :func:`bnx.explain`, the explorer, the rows of
:func:`bnx.explain_data`): an :class:`~bnx.ImpossibleInstanceError` naming the conflict.

Examples
--------
>>> import bnx
>>> clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
...                      features=["tub", "either", "smoke"])
>>> refuse_impossible(clf, {"tub": "yes", "either": "no", "smoke": "yes"})
Traceback (most recent call last):
...
bnx.errors.ImpossibleInstanceError: tub = yes and either = no cannot both hold under the network
>>> refuse_impossible(clf, {"tub": "no", "either": "no"})  # a partial instance: possible
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._util.disjoint import DisjointSets
from ..errors import ExplanationError, ImpossibleInstanceError
from ._inference import Inference, contract, plan

__all__ = ["ZeroPatterns", "conflict_of", "impossible_error", "may_be_impossible",
           "network_evidence", "refuse_impossible", "refuse_impossible_rows", "zero_patterns"]

#: One per inference (a classifier's, or the one a loaded ODD reads from its file).
_MADE: weakref.WeakKeyDictionary[Inference, ZeroPatterns] = weakref.WeakKeyDictionary()


def zero_patterns(inference: Inference) -> ZeroPatterns:
    """Return the :class:`ZeroPatterns` of a network's inference, made once."""
    got = _MADE.get(inference)
    if got is None:
        got = _MADE[inference] = ZeroPatterns(inference)
    return got


class ZeroPatterns:
    """Which findings a network can produce, from which of its table entries are zero.

    Parameters
    ----------
    inference : bnx.classifier._inference.Inference
        The network's inference (its nodes' cardinalities, parents and exact tables).
    """

    def __init__(self, inference: Inference) -> None:
        self.card = inference.card
        self._ancestors = inference._ancestors
        #: per node whose table has a zero entry: (scope, bool table of the positive entries)
        self.tables: dict = {}
        for v, (scope, table) in inference.factors.items():
            positive = np.asarray(np.asarray(table) > 0, dtype=bool)
            if not positive.all():
                self.tables[v] = (tuple(scope), positive)
        self._rank = {v: k for k, v in enumerate(self.card)}
        self._plans: dict = {}

    def has_zeros(self, nodes) -> bool:
        """Whether a table of ``nodes`` or of their ancestors has a zero entry."""
        return any(v in self.tables for v in self._ancestors(nodes))

    def zero_tables(self, nodes) -> list:
        """List the tables with a zero entry among those of ``nodes`` and their ancestors.

        Each as ``(scope, bool table of the positive entries)``; the others never vanish.
        """
        return [self.tables[v] for v in self._ancestors(nodes) if v in self.tables]

    def possible(self, evidence: Mapping) -> bool:
        """Whether ``Pr(evidence) > 0``, exactly (``evidence``: ``{node: state index}``)."""
        return self._failing(evidence) is None

    def _failing(self, evidence: Mapping) -> set | None:
        """Return ``None`` when ``Pr(evidence) > 0``, else the findings of a part that fails.

        Those are the observed nodes in the scopes of the tables of one part of the
        Boolean contraction whose answer is *no*; tables over the same nodes are conjoined
        into one first.
        """
        if not self.tables or not evidence:
            return None
        rank = self._rank
        merged: dict = {}  # scope (in rank order) -> (table, findings)
        for v in self._ancestors(evidence):
            got = self.tables.get(v)
            if got is None:
                continue
            scope, table = got
            seen = tuple(w for w in scope if w in evidence)
            if seen:
                table = table[tuple(evidence[w] if w in evidence else slice(None)
                                    for w in scope)]
            if table.all():
                continue  # positive whatever the other nodes say
            if not table.any():
                return set(seen)
            rest = [w for w in scope if w not in evidence]
            key = tuple(sorted(rest, key=rank.__getitem__))
            if list(key) != rest:
                table = table.transpose([rest.index(w) for w in key])
            old = merged.get(key)
            merged[key] = (table, set(seen)) if old is None else (old[0] & table,
                                                                  old[1] | set(seen))
        linked = DisjointSets()
        for key in merged:
            linked.join(*key)
        groups: dict = {}
        for key, (table, seen) in merged.items():
            groups.setdefault(linked.find(key[0]), []).append((key, table, seen))
        for group in sorted(groups.values(), key=len):
            if not self._part_holds([(key, table) for key, table, _ in group]):
                return set().union(*(seen for _, _, seen in group))
        return None

    def _part_holds(self, tables: list) -> bool:
        """Whether some states of the nodes of ``tables`` (one connected part) satisfy all.

        First the states no table allows with any states of its other nodes are removed,
        node by node, until none is (arc consistency: no state of a satisfying choice is
        ever removed, and a node left with none means *no*); the tables cut to the states
        left are contracted in the Boolean semiring along an elimination order planned
        for them (kept for the next instance that leaves the same tables).
        """
        allowed: dict = {}
        changed = True
        while changed:
            changed = False
            for key, table in tables:
                table = _masked(table, key, allowed)
                for i, w in enumerate(key):
                    axes = tuple(a for a in range(len(key)) if a != i)
                    seen = table.any(axis=axes) if axes else table
                    old = allowed.get(w)
                    if old is None or (old & ~seen).any():
                        allowed[w] = seen if old is None else old & seen
                        if not allowed[w].any():
                            return False
                        changed = True
        left = {w: np.flatnonzero(m) for w, m in allowed.items()}
        cut = []
        for key, table in tables:
            table = table[np.ix_(*(left[w] for w in key))]
            if not table.all():
                cut.append((key, table))
        if not cut:
            return True
        card = {w: len(left[w]) for key, _ in cut for w in key}
        scopes = tuple(key for key, _ in cut)
        p = self._plan(scopes, card)
        return bool(contract(p, [t for _, t in cut], boolean=True)[0].item())

    def _plan(self, scopes: tuple, card: dict):
        """Return the contraction of tables over ``scopes`` down to nothing, planned once."""
        index = (scopes, tuple(sorted(card.items(), key=lambda kv: self._rank[kv[0]])))
        got = self._plans.get(index)
        if got is None:
            if len(self._plans) >= PLANS:
                self._plans.clear()
            got = self._plans[index] = plan(scopes, (), card)
        return got

    def conflict(self, evidence: Mapping, findings: Sequence) -> tuple | None:
        """Return a minimal part of ``findings`` that cannot hold with the rest of the evidence.

        ``None`` when ``Pr(evidence) > 0``. ``findings`` are nodes of ``evidence`` (the
        others always stay: a restricted classifier's fixed features); the part returned
        keeps their order. Every one of its findings is necessary: without any one,
        the evidence is possible. Empty when the fixed evidence alone is impossible.

        By deletion, in halves (QuickXplain, Junker 2004): a half of the candidates is
        dropped at once when the rest still cannot hold, so a conflict of ``k`` of ``n``
        findings takes about ``2 k log2(n / k)`` checks rather than ``n``.
        """
        failing = self._failing(evidence)
        if failing is None:
            return None
        chosen = set(findings)
        fixed = {v: j for v, j in evidence.items() if v not in chosen}
        if not self.possible(fixed):
            return ()
        candidates = list(findings)
        inside = [v for v in candidates if v in failing]
        if len(inside) < len(candidates) and not self._holds(fixed, evidence, inside):
            candidates = inside
        found = set(self._halves(fixed, evidence, [], candidates))
        return tuple(v for v in findings if v in found)

    def _holds(self, fixed: dict, evidence: Mapping, part: Sequence) -> bool:
        return self.possible({**fixed, **{v: evidence[v] for v in part}})

    def _halves(self, fixed: dict, evidence: Mapping, base: list, candidates: list) -> list:
        """QuickXplain: a minimal part of ``candidates`` impossible with ``base``.

        ``base + candidates`` cannot hold and ``base`` can (with ``fixed``). Depth
        ``log2(len(candidates))``: no deep recursion.
        """
        if len(candidates) == 1:
            return candidates
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        if not self._holds(fixed, evidence, base + first):
            return self._halves(fixed, evidence, base, first)
        if not self._holds(fixed, evidence, base + second):
            return self._halves(fixed, evidence, base, second)
        right = self._halves(fixed, evidence, base + first, second)
        left = self._halves(fixed, evidence, base + right, first)
        return left + right


def _masked(table: np.ndarray, key: tuple, allowed: dict) -> np.ndarray:
    """``table`` with the states of its nodes that ``allowed`` rules out set to False."""
    for i, w in enumerate(key):
        m = allowed.get(w)
        if m is not None:
            table = table & m.reshape((-1,) + (1,) * (len(key) - i - 1))
    return table


#: Plans kept per network (a question planned once serves every instance that asks it).
PLANS = 256


def network_evidence(model: Any) -> tuple | None:
    """Return ``(inference, evidence of)`` for a classifier or an ODD; ``None``: cannot tell.

    ``evidence of(named)`` turns ``{feature: state}`` into the network's evidence. An ODD
    says which network it holds (``ODD._network_evidence``: its classifier, or the tables
    of its file); one without (a file of format version 1, a diagram a question derived)
    has nothing to tell with.
    """
    if hasattr(model, "_observed"):  # a Classifier (duck-typed: it imports this module)
        return model._inference, lambda named: model._observed(model.encode(named,
                                                                            partial=True))
    ask = getattr(model, "_network_evidence", None)
    return None if ask is None else ask()


def may_be_impossible(model: Any) -> bool | None:
    """Whether the network may give some complete instance probability zero.

    ``True`` when a table of an ancestor of the features has a zero entry (the instances
    the network allows may then be fewer than all), ``False`` when none has (every
    instance has a positive probability: the paper's naive Bayes with positive tables);
    ``None`` when ``model`` holds no network to tell (an ODD file of format version 1).
    ``model``: a :class:`~bnx.Classifier` or an :class:`~bnx.ODD`.

    Examples
    --------
    >>> import bnx
    >>> may_be_impossible(bnx.examples.admissions())
    False
    >>> may_be_impossible(bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
    ...                                  features=["tub", "either", "smoke"]))
    True
    """
    source = network_evidence(model)
    if source is None:
        return None
    inference, evidence_of = source
    nodes = evidence_of({f: model.states(f)[0] for f in model.features})  # their nodes
    return zero_patterns(inference).has_zeros(nodes)


def conflict_of(model: Any, instance: Mapping) -> dict | None:
    """Return a minimal conflicting part of the named (partial) ``instance``, or ``None``.

    ``{feature: state}`` in the instance's order, each of its findings necessary
    (:meth:`ZeroPatterns.conflict`); ``None`` when the network gives the instance a positive
    probability, or when ``model`` holds no network to tell (an ODD file of format
    version 1). ``model``: a :class:`~bnx.Classifier` or an :class:`~bnx.ODD`.
    """
    source = network_evidence(model)
    if source is None:
        return None
    inference, evidence_of = source
    evidence = evidence_of(instance)
    found = zero_patterns(inference).conflict(evidence, [f for f in instance if f in evidence])
    return None if found is None else {f: instance[f] for f in found}


def impossible_error(clf: Any, idx: Mapping, message: str,
                     fallback: type = ExplanationError) -> Exception:
    """Return the error that refuses evidence of probability zero, its findings named.

    ``idx``: ``{feature: state index}`` of ``clf``'s features (complete or partial), whose
    joint is zero. An :class:`~bnx.ImpossibleInstanceError` naming a minimal set of the
    findings that cannot hold together (:func:`conflict_of`), after ``message``
    (``"the evidence has probability zero under the network: "``); a ``fallback``
    saying ``message`` where the network is not at hand.
    """
    named = {f: clf.states(f)[j] for f, j in idx.items()}
    found = conflict_of(clf, named)
    if found is None:
        return fallback(message.rstrip(": "))
    return ImpossibleInstanceError(found, message)


def refuse_impossible(model: Any, instance: Mapping, where: str = "") -> None:
    """Raise :class:`~bnx.ImpossibleInstanceError` when the network cannot produce ``instance``.

    ``instance``: ``{feature: state}``, complete or partial, already validated; the error
    names a minimal set of its findings that cannot hold together (:func:`conflict_of`),
    after ``where`` (``"row 3: "``).
    """
    found = conflict_of(model, instance)
    if found is not None:
        raise ImpossibleInstanceError(found, where)


def refuse_impossible_rows(model: Any, frame: Any, codes: np.ndarray,
                           features: Sequence, what: str = "") -> None:
    """Refuse the first row of ``frame`` whose observed findings the network cannot produce.

    ``codes``: the rows' state indices in the order of ``features`` (``-1``: missing). Each
    distinct row is checked once; the :class:`~bnx.ImpossibleInstanceError` names the row
    (its index label) and a minimal set of its findings that conflict, as a row with an
    unknown state is refused naming it (:func:`bnx.classifier._instances.encode_rows`);
    ``what`` names the data set first (``"background "``: "background row 3: ...").
    """
    if len(codes) == 0 or not may_be_impossible(model):  # (None: no network to tell)
        return
    _, first = np.unique(codes, axis=0, return_index=True)
    states = [model.states(f) for f in features]
    labels = frame.index if hasattr(frame, "iloc") else None  # a list: its positions
    for k in np.sort(first).tolist():
        x = {f: states[i][j] for i, (f, j) in enumerate(zip(features, codes[k].tolist()))
             if j >= 0}
        refuse_impossible(model, x, f"{what}row {k if labels is None else labels[k]!r}: ")
