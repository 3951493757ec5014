"""Bayesian network classifiers: naive Bayes and latent-tree classifiers over pgmpy networks.

A :class:`Classifier` wraps a pgmpy ``DiscreteBayesianNetwork`` whose CPDs are set,
names the class variable and its positive state, and decides an instance ``x``
positively iff ``Pr(class = positive | x) >= threshold``.

Exactness. Every CPT entry is taken as the exact rational number its float is
(:class:`fractions.Fraction`), and so is the threshold ``T``. An instance is decided
by the exact comparison ``(1 - T) * Pr(c, x) >= T * Pr(not c, x)``, which is the
definition for every instance of positive probability, ties included. An
instance of probability zero has no posterior; the same comparison (``0 >= 0``)
decides it positive. Compiled ODDs and explanations follow this rule.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any

from ._types import Feature, Instance, State
from .errors import (MissingFeatureError, NetworkError, NetworkFileError, StructureError,
                     ThresholdError, UnknownFeatureError, UnknownStateError)
from .instances import as_instance

__all__ = ["Classifier", "read_network"]

_READERS = {
    ".bif": "BIFReader",
    ".xmlbif": "XMLBIFReader",
    ".xml": "XMLBIFReader",
    ".net": "NETReader",
    ".uai": "UAIReader",
}


def read_network(path: str | os.PathLike) -> Any:
    """Read a network file with pgmpy's reader for its format.

    The format follows the extension: ``.bif`` (BIF), ``.xml``/``.xmlbif`` (XMLBIF),
    ``.net`` (Hugin NET), ``.uai`` (UAI). Any failure becomes a
    :class:`~bnx.NetworkFileError` that names the file.
    """
    if not isinstance(path, (str, os.PathLike)):
        from .errors import ArgumentError
        raise ArgumentError(f"a network file path must be a str or path-like, got {path!r}")
    path = os.fspath(path)
    if os.path.isdir(path):
        raise NetworkFileError(f"{path}: is a directory, not a network file")
    ext = os.path.splitext(path)[1].lower()
    if ext not in _READERS:
        raise NetworkFileError(
            f"{path}: unknown network format {ext or '(no extension)'!r}; "
            f"expected one of {', '.join(sorted(_READERS))}")
    if not os.path.isfile(path):
        raise NetworkFileError(f"{path}: no such file")
    from pgmpy import readwrite
    reader_cls = getattr(readwrite, _READERS[ext])
    try:
        with open(path, "rb") as fh:
            fh.read(1)
        reader = reader_cls(path)
        reader._bnx_path = path
        model = _uai_model(reader) if ext == ".uai" else reader.get_model()
    except NetworkFileError:
        raise
    except Exception as exc:  # pgmpy's readers raise anything from parse errors
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise NetworkFileError(f"{path}: cannot read as {_READERS[ext][:-6]}: {detail}") from None
    fmt = _READERS[ext][:-6]
    if model.number_of_nodes() == 0:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: no variables found")
    have = {cpd.variable for cpd in model.get_cpds()}
    missing = [n for n in model.nodes() if n not in have]
    if missing:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: no probability table for "
                               f"{', '.join(map(repr, missing))} (truncated file?)")
    try:
        model.check_model()
    except Exception as exc:
        raise NetworkFileError(f"{path}: cannot read as {fmt}: {exc}") from exc
    return model


def reader_path(reader: Any) -> str:
    """The file a pgmpy reader was given (for messages)."""
    return str(getattr(reader, "_bnx_path", "UAI file"))


def _uai_model(reader: Any) -> Any:
    """A Bayesian network from pgmpy's UAI parser, with tables laid out as UAI defines.

    In a UAI ``BAYES`` file the child is the last variable of each function's scope
    and the last variable changes fastest. pgmpy 1.1's ``UAIReader.get_model`` reads
    the values child-first instead, which transposes every table; we keep its parser
    and reshape the values ourselves.
    """
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    if reader.network_type != "BAYES":
        raise NetworkFileError(f"{reader_path(reader)}: UAI network type "
                               f"{reader.network_type!r} is not BAYES")
    parsed = reader.grammar.parse_string(reader.network)
    card = {v: int(reader.domain[v]) for v in reader.variables}
    model = DiscreteBayesianNetwork()
    model.add_nodes_from(reader.variables)
    cpds = []
    children: set = set()
    for fn in range(int(reader.no_functions)):
        scope = parsed["fun_" + str(fn)]
        scope = [scope] if isinstance(scope, int) else list(scope)
        names = ["var_" + str(v) for v in scope]
        raw = parsed["fun_values_" + str(fn)]
        raw = [raw] if isinstance(raw, str) else list(raw)  # one value comes as a string
        values = np.array([float(v) for v in raw])
        if names[-1] in children:
            raise NetworkFileError(f"{reader_path(reader)}: two tables for {names[-1]}")
        children.add(names[-1])
        child, parents = names[-1], names[:-1]
        values = values.reshape([card[v] for v in names])
        values = np.moveaxis(values, -1, 0).reshape(card[child], -1)
        model.add_edges_from((p, child) for p in parents)
        if parents:
            cpds.append(TabularCPD(child, card[child], values, evidence=parents,
                                   evidence_card=[card[p] for p in parents]))
        else:
            cpds.append(TabularCPD(child, card[child], values))
    _check_uai_length(reader, parsed, card)
    model.add_cpds(*cpds)
    return model


def _check_uai_length(reader: Any, parsed: Any, card: dict) -> None:
    """pgmpy's grammar stops after the declared entries: refuse a file with more."""
    tokens = reader.network.split()
    n = len(card)
    expected = 3 + n  # type, number of variables, cardinalities, number of functions
    for fn in range(int(reader.no_functions)):
        scope = parsed["fun_" + str(fn)]
        scope = [scope] if isinstance(scope, int) else list(scope)
        raw = parsed["fun_values_" + str(fn)]
        raw = [raw] if isinstance(raw, str) else list(raw)
        expected += 1 + len(scope) + 1 + len(raw)
    if len(tokens) != expected:
        raise NetworkFileError(
            f"{reader_path(reader)}: the file has {len(tokens)} numbers where its header "
            f"declares {expected}; a table has more or fewer entries than it says")


def _resolve_state(names: Sequence[State], state: Any) -> int | None:
    """Index of ``state`` among ``names``, matching by value, then by its text."""
    for j, s in enumerate(names):
        if s == state and type(s) is not bool:
            return j
    text = str(state)
    hits = [j for j, s in enumerate(names) if str(s) == text]
    return hits[0] if len(hits) == 1 else None


class Classifier:
    """A naive Bayes or latent-tree classifier with an exact decision rule.

    Parameters
    ----------
    network : pgmpy.models.DiscreteBayesianNetwork
        The network, with a CPD for every node.
    class_var : node name
        The class variable: the root of the network.
    positive : state name
        The positive state of the class; every other state is negative.
    threshold : real, default 0.5
        Decide positive iff ``Pr(class_var = positive | x) >= threshold``.
    features : sequence of node names, optional
        The observed features: leaves of the network. Defaults to all leaves.

    Raises
    ------
    NetworkError
        The class variable, the positive state or a CPD is missing or invalid.
    StructureError
        The network is neither naive Bayes nor a latent tree rooted at the class.
    ThresholdError
        The threshold is not a number in [0, 1].

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> clf.features
    ('WorkExperience', 'FirstTimeApplicant', 'EntranceExam', 'GPA')
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> round(clf.posterior(x), 4), clf.decide(x)
    (0.5642, True)
    """

    def __init__(self, network: Any, class_var: Feature, positive: State,
                 threshold: float | Fraction = 0.5,
                 features: Sequence[Feature] | None = None) -> None:
        from pgmpy.models import DiscreteBayesianNetwork
        if not isinstance(network, DiscreteBayesianNetwork):
            raise NetworkError(
                f"expected a pgmpy DiscreteBayesianNetwork, got {type(network).__name__}")
        self._network = network
        nodes = list(network.nodes())
        if class_var not in network:
            raise NetworkError(f"class variable {class_var!r} is not a node of the network "
                               f"(nodes: {', '.join(map(str, nodes))})")
        self._class_var = class_var
        self._threshold = self._check_threshold(threshold)
        self._check_structure(nodes)
        self._tables = self._read_cpds(nodes)
        cstates = self._states[class_var]
        j = _resolve_state(cstates, positive)
        if j is None:
            raise NetworkError(f"positive state {positive!r} is not a state of {class_var!r} "
                               f"(states: {', '.join(map(str, cstates))})")
        self._positive_index = j
        self._positive = cstates[j]
        self._features = self._check_features(features)
        self._prune()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_file(cls, path: str | os.PathLike, class_var: Feature, positive: State, *,
                  threshold: float | Fraction = 0.5,
                  features: Sequence[Feature] | None = None) -> "Classifier":
        """Read a BIF, XMLBIF, Hugin NET or UAI file and wrap it as a classifier.

        UAI files have no names: pgmpy calls their variables ``var_0``, ``var_1``, ...
        and their states ``0``, ``1``, ...

        Examples
        --------
        >>> import bnx, os, tempfile
        >>> from pgmpy.readwrite import BIFWriter
        >>> path = os.path.join(tempfile.mkdtemp(), "admissions.bif")
        >>> BIFWriter(bnx.examples.admissions_network()).write_bif(path)
        >>> clf = bnx.Classifier.from_file(path, "Admit", "+")
        >>> clf.structure, len(clf.features)
        ('naive_bayes', 4)
        """
        return cls(read_network(path), class_var, positive, threshold=threshold,
                   features=features)

    @classmethod
    def from_sklearn(cls, estimator: Any, positive: State = None, *,
                     feature_names: Sequence[Feature] | None = None) -> "Classifier":
        """The classifier of a fitted sklearn CategoricalNB or BernoulliNB; see :func:`bnx.sklearn.from_sklearn`."""
        from .sklearn import from_sklearn
        return from_sklearn(estimator, positive, feature_names=feature_names)

    @staticmethod
    def _check_threshold(threshold: Any) -> Fraction:
        if isinstance(threshold, bool) or not isinstance(threshold, (numbers.Real, Fraction)):
            raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
        if isinstance(threshold, float) and not math.isfinite(threshold):
            raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
        if isinstance(threshold, (int, Fraction)):
            t = Fraction(threshold)
        else:  # float, numpy floats: the exact value of the float
            value = float(threshold)
            if not math.isfinite(value):
                raise ThresholdError(f"threshold must be a real number in [0, 1], got {threshold!r}")
            t = Fraction(value)
        if not 0 <= t <= 1:
            raise ThresholdError(f"threshold must lie in [0, 1], got {threshold!r}")
        return t

    def _check_structure(self, nodes: list) -> None:
        net, c = self._network, self._class_var
        parents = {n: list(net.predecessors(n)) for n in nodes}
        if parents[c]:
            raise StructureError(
                f"unsupported structure: the class {c!r} must be the root, but it has the "
                f"parent edge {parents[c][0]!r} -> {c!r}")
        for n in nodes:
            if n == c:
                continue
            if len(parents[n]) > 1:
                edges = ", ".join(f"{p!r} -> {n!r}" for p in parents[n])
                raise StructureError(
                    f"unsupported structure: node {n!r} has {len(parents[n])} parents "
                    f"({edges}); naive Bayes and latent-tree classifiers give each node one parent")
            if not parents[n]:
                raise StructureError(
                    f"unsupported structure: node {n!r} is a second root; every node must "
                    f"descend from the class {c!r}")
        self._parent = {n: parents[n][0] for n in nodes if n != c}
        self._children = {n: list(net.successors(n)) for n in nodes}
        if not self._children[c]:
            raise StructureError(f"unsupported structure: the class {c!r} has no children")

    def _read_cpds(self, nodes: list) -> dict:
        net = self._network
        cpds = {cpd.variable: cpd for cpd in net.get_cpds()}
        missing = [n for n in nodes if n not in cpds]
        if missing:
            raise NetworkError(f"missing CPDs for {', '.join(map(repr, missing))}")
        try:
            net.check_model()
        except Exception as exc:
            raise NetworkError(f"invalid network: {exc}") from exc
        self._states = {n: tuple(cpds[n].state_names[n]) for n in nodes}
        tables = {}
        for n in nodes:
            cpd = cpds[n]
            values = cpd.values
            if n == self._class_var:
                tables[n] = (tuple(Fraction(float(v)) for v in values.reshape(-1)),)
                continue
            p = self._parent[n]
            if len(cpd.variables) != 2 or set(cpd.variables) != {n, p}:
                raise NetworkError(f"CPD of {n!r} is over {cpd.variables}, expected [{n!r}, {p!r}]")
            axis_n, axis_p = cpd.variables.index(n), cpd.variables.index(p)
            pnames = cpd.state_names[p]
            if sorted(map(str, pnames)) != sorted(map(str, self._states[p])):
                raise NetworkError(f"CPD of {n!r} names the states of {p!r} as {pnames}, "
                                   f"but {p!r} has states {list(self._states[p])}")
            order = [list(map(str, pnames)).index(str(s)) for s in self._states[p]]
            rows = []
            for pj in order:
                idx = [0, 0]
                row = []
                for xj in range(len(self._states[n])):
                    idx[axis_n], idx[axis_p] = xj, pj
                    v = float(values[tuple(idx)])
                    if not (math.isfinite(v) and v >= 0):
                        raise NetworkError(f"CPD of {n!r} has the invalid entry {v!r}")
                    row.append(Fraction(v))
                rows.append(tuple(row))
            tables[n] = tuple(rows)
        prior = tables[self._class_var][0]
        if any(not (math.isfinite(float(v)) and v >= 0) for v in prior):
            raise NetworkError(f"CPD of {self._class_var!r} has an invalid entry")
        return tables

    def _check_features(self, features: Sequence[Feature] | None) -> tuple:
        leaves = [n for n, ch in self._children.items() if not ch and n != self._class_var]
        if features is None:
            return tuple(leaves)
        if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
            raise StructureError(f"features must be a sequence of node names, got {features!r}")
        features = tuple(features)
        if not features:
            raise StructureError("features must name at least one leaf")
        seen = set()
        for f in features:
            if f not in self._network:
                raise UnknownFeatureError(f"feature {f!r} is not a node of the network")
            if f == self._class_var:
                raise StructureError(f"the class {f!r} cannot be a feature")
            if self._children[f]:
                raise StructureError(
                    f"unsupported structure: feature {f!r} has children "
                    f"({', '.join(map(repr, self._children[f]))}); features must be leaves, "
                    f"inner nodes are latent")
            if f in seen:
                raise StructureError(f"feature {f!r} is listed twice")
            seen.add(f)
        return features

    def _prune(self) -> None:
        """Keep the nodes with a feature below them; fold the rest into their parents.

        A pruned subtree (a leaf that is not a feature, or an inner node with no
        feature below it) sums out to a vector over its parent's states: exactly 1
        for tables whose rows sum to 1, but pgmpy accepts row sums within 0.01 of 1,
        so the exact sums are multiplied into the parent's table (or the prior).
        """
        feats = set(self._features)
        keep: set = set()
        for f in feats:
            n = f
            while n != self._class_var:
                keep.add(n)
                n = self._parent[n]
        self._tree = {n: [ch for ch in self._children[n] if ch in keep]
                      for n in [self._class_var, *keep] if n not in feats}
        self._latent = tuple(n for n in self._tree if n != self._class_var)
        # post-order of the pruned tree (children before parents), root excluded
        post: list = []
        stack = [(self._class_var, False)]
        while stack:
            n, done = stack.pop()
            if done:
                if n != self._class_var:
                    post.append(n)
                continue
            stack.append((n, True))
            stack.extend((ch, False) for ch in reversed(self._tree.get(n, ())))
        self._postorder = tuple(post)
        for n in (self._class_var, *self._latent):
            dropped = [ch for ch in self._children[n] if ch not in keep]
            if not dropped:
                continue
            factor = [Fraction(1)] * len(self._states[n])
            for ch in dropped:
                msg = self._sum_out(ch)
                factor = [a * b for a, b in zip(factor, msg)]
            if any(f != 1 for f in factor):
                self._tables[n] = tuple(tuple(v * factor[s] for s, v in enumerate(row))
                                        for row in self._tables[n])

    def _sum_out(self, node) -> list[Fraction]:
        """``sum over node's subtree of its CPT products``, as a vector over the parent's states."""
        kids = self._children[node]
        inner = [Fraction(1)] * len(self._states[node])
        for ch in kids:
            msg = self._sum_out(ch)
            inner = [a * b for a, b in zip(inner, msg)]
        return [sum((v * inner[s] for s, v in enumerate(row)), Fraction(0))
                for row in self._tables[node]]

    # ------------------------------------------------------------------ properties
    @property
    def network(self) -> Any:
        """The wrapped pgmpy network."""
        return self._network

    @property
    def class_var(self) -> Feature:
        """The class variable."""
        return self._class_var

    @property
    def positive(self) -> State:
        """The positive state of the class."""
        return self._positive

    @property
    def threshold(self) -> Fraction:
        """The decision threshold, as the exact rational it was given as."""
        return self._threshold

    @property
    def features(self) -> tuple:
        """The features: as given by ``features=``, else the leaves in the network's order."""
        return self._features

    @property
    def latent(self) -> tuple:
        """The latent (never observed) inner nodes that matter to the decision."""
        return self._latent

    @property
    def structure(self) -> str:
        """``"naive_bayes"`` or ``"latent_tree"``."""
        return "latent_tree" if self._latent else "naive_bayes"

    @property
    def class_states(self) -> tuple:
        """The states of the class variable."""
        return self._states[self._class_var]

    def states(self, node: Feature) -> tuple:
        """The state names of a feature (or of any node), in pgmpy's order."""
        try:
            return self._states[node]
        except (KeyError, TypeError):
            raise UnknownFeatureError(f"{node!r} is not a node of the network") from None

    def _node(self, node: Any) -> Any:
        try:
            if node in self._states:
                return node
        except TypeError:
            pass
        raise UnknownFeatureError(f"{node!r} is not a node of the network")

    def children(self, node: Feature) -> tuple:
        """The children of ``node`` that lead to features (the pruned tree)."""
        return tuple(self._tree.get(self._node(node), ()))

    def parent(self, node: Feature) -> Feature:
        """The parent of a non-class node (``None`` for the class)."""
        return self._parent.get(self._node(node))

    def table(self, node: Feature) -> tuple[tuple[Fraction, ...], ...]:
        """Exact CPT of ``node``: ``table[parent_state][state]`` (one row for the class).

        Tables of kept nodes include the exact sums of pruned subtrees below them.
        """
        return self._tables[self._node(node)]

    @cached_property
    def fingerprint(self) -> str:
        """A SHA-256 digest of everything the decision depends on."""
        h = hashlib.sha256()
        parts = [repr(self._class_var), repr(self._positive), repr(self._threshold),
                 repr(self._features)]
        for n in (self._class_var, *self._postorder):
            parts.append(repr((n, self._parent.get(n), self._states[n], self._tables[n])))
        h.update("\n".join(parts).encode())
        return h.hexdigest()

    def __repr__(self) -> str:
        return (f"Classifier({self.structure}, class_var={self._class_var!r}, "
                f"positive={self._positive!r}, threshold={float(self._threshold)!r}, "
                f"features={len(self._features)})")

    # ------------------------------------------------------------------ instances
    def state_index(self, feature: Feature, state: State) -> int:
        """Index of ``state`` among the states of ``feature`` (matching by text too)."""
        try:
            known = feature in self._states and feature in set(self._features)
        except TypeError:
            known = False
        if not known:
            raise UnknownFeatureError(f"{feature!r} is not a feature of this classifier")
        j = _resolve_state(self._states[feature], state)
        if j is None:
            raise UnknownStateError(
                f"{state!r} is not a state of feature {feature!r} "
                f"(states: {', '.join(map(str, self._states[feature]))})")
        return j

    def encode(self, instance: Instance, features: Sequence[Feature] | None = None,
               *, partial: bool = False) -> dict:
        """Validate ``instance`` and return ``{feature: state index}``.

        Raises :class:`~bnx.UnknownFeatureError`, :class:`~bnx.MissingFeatureError`
        or :class:`~bnx.UnknownStateError` naming the offending feature or state.
        """
        instance = as_instance(instance, class_var=self._class_var)
        feats = self._features if features is None else features
        fset = set(feats)
        for f in instance:
            if f not in fset:
                raise UnknownFeatureError(f"{f!r} is not a feature of this classifier")
        out = {}
        for f in feats:
            if f not in instance:
                if partial:
                    continue
                raise MissingFeatureError(f"the instance has no state for feature {f!r}")
            out[f] = self.state_index(f, instance[f])
        return out

    def _class_joint(self, idx: Mapping[Feature, int]) -> list[Fraction]:
        """``[Pr(class = c, x) for c]`` by exact message passing over the tree."""
        msg: dict = {}
        for n in self._postorder:
            table = self._tables[n]
            if n in idx:
                j = idx[n]
                msg[n] = [row[j] for row in table]
            else:
                kids = self._tree.get(n, ())
                inner = [math.prod((msg[ch][s] for ch in kids), start=Fraction(1))
                         for s in range(len(self._states[n]))]
                msg[n] = [sum((row[s] * inner[s] for s in range(len(row))), Fraction(0))
                          for row in table]
        prior = self._tables[self._class_var][0]
        return [prior[c] * math.prod((msg[ch][c] for ch in self._tree[self._class_var]),
                                     start=Fraction(1))
                for c in range(len(prior))]

    def posterior_exact(self, instance: Instance, *, partial: bool = False) -> Fraction | None:
        """``Pr(class = positive | instance)`` as an exact fraction; ``None`` if ``Pr(x) = 0``.

        With ``partial=True`` the instance may leave features out: they are
        unobserved and summed out (e.g. missing votes).
        """
        joint = self._class_joint(self.encode(instance, partial=partial))
        total = sum(joint, Fraction(0))
        if total == 0:
            return None
        return joint[self._positive_index] / total

    def posterior(self, instance: Instance, *, partial: bool = False) -> float:
        """``Pr(class = positive | instance)``, rounded once from the exact value.

        NaN for an instance of probability zero. ``partial`` as in :meth:`posterior_exact`.
        """
        p = self.posterior_exact(instance, partial=partial)
        return math.nan if p is None else float(p)

    def decide(self, instance: Instance, *, partial: bool = False) -> bool:
        """The exact decision: ``(1 - T) Pr(c, x) >= T Pr(not c, x)``.

        ``partial`` as in :meth:`posterior_exact` (the ODD decides complete instances only).
        """
        joint = self._class_joint(self.encode(instance, partial=partial))
        pos = joint[self._positive_index]
        neg = sum(joint, Fraction(0)) - pos
        return (1 - self._threshold) * pos >= self._threshold * neg
