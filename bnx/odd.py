"""The compiled decision function of a classifier: an ordered decision diagram."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ._types import Feature, Instance, Manager, Node
from .classifier import Classifier
from .diagram import count as _count
from .diagram import deep, evaluate
from .encoding import Encoding
from .instances import as_instance

__all__ = ["ODD"]


class ODD:
    """A classifier's decision function as a reduced ordered BDD in ``dd``.

    Built by :func:`bnx.compile`; immutable afterwards. Multi-valued features are
    log-encoded (see :mod:`bnx.encoding`): :attr:`root` is false on every code
    that names no state, and :attr:`domain` is the constraint of valid codes.

    Attributes
    ----------
    classifier : Classifier
        The classifier it was compiled from. A loaded ODD rebuilds it from its
        file on first use (``None`` for files of format version 1).
    encoding : Encoding
        The features in order, their states and their BDD variables.
    bdd : dd manager
        The ``dd.autoref.BDD`` or ``dd.cudd.BDD`` that holds the diagram; its
        variable order is fixed (reordering is off).
    root : dd node
        The decision function: true exactly on the positive instances.
    domain : dd node
        True exactly on the codes of complete instances.
    backend : str
        ``"autoref"`` or ``"cudd"``.
    """

    def __init__(self, classifier: Classifier | None, encoding: Encoding, bdd: Manager,
                 root: Node, domain: Node, *, backend: str,
                 meta: dict | None = None) -> None:
        self._classifier = classifier
        self._classifier_doc: dict | None = None  # a loaded classifier, not yet rebuilt
        self._classifier_where = ""
        self.encoding = encoding
        self.bdd = bdd
        self.root = root
        self.domain = domain
        self.backend = backend
        meta = dict(meta or {})
        if classifier is not None:
            meta.setdefault("class_var", classifier.class_var)
            meta.setdefault("positive", classifier.positive)
            meta.setdefault("threshold", classifier.threshold)
            meta.setdefault("rule", classifier.rule)
            meta.setdefault("fingerprint", classifier.fingerprint)
        self.meta = meta
        self._aux: dict = {}
        self._live: dict = {}  # manager id -> its node count after the last collection
        self._view: tuple | None = None  # see view()
        self._codes = None  # see complete_layout()
        self._graphs: dict = {}  # see out_graph()
        self._by_text: list | None = None  # see encode()

    # ------------------------------------------------------------------ basics
    @property
    def classifier(self) -> Classifier | None:
        """The classifier it was compiled from (rebuilt from the file on first use
        for a loaded ODD; ``None`` when the file holds none)."""
        if self._classifier is None and self._classifier_doc is not None:
            from .network_json import classifier_from_document
            self._classifier = classifier_from_document(
                self._classifier_doc, fingerprint=self.meta.get("fingerprint"),
                where=self._classifier_where)
        return self._classifier

    def _set_stored_classifier(self, doc: dict, *, where: str) -> None:
        """Keep a saved classifier's description, rebuilt by :attr:`classifier` when used."""
        self._classifier_doc = doc
        self._classifier_where = where

    def __reduce__(self):
        """Pickle through the saved format (both backends; the classifier included)."""
        from .serialization import dumps_odd
        return (_unpickle, (dumps_odd(self), self.backend))

    @property
    def features(self) -> tuple:
        """The features, in the ODD's order."""
        return self.encoding.features

    order = features

    @property
    def display_order(self) -> tuple:
        """The features in the classifier's order (the ODD's order for a loaded ODD);
        explanations list features in this order."""
        if self._classifier is not None:
            return tuple(self._classifier.features)
        return tuple(self.meta.get("display_order") or self.features)

    @property
    def threshold(self):
        """The threshold of the classifier it was compiled from (an exact fraction)."""
        return self.meta.get("threshold")

    def states(self, feature: Feature) -> tuple:
        """The states of ``feature``."""
        return self.encoding.states[self._position(feature)]

    def _position(self, feature: Feature) -> int:
        from .errors import UnknownFeatureError, closest_first
        try:
            return self.encoding.position(feature)
        except (KeyError, TypeError):
            raise UnknownFeatureError(f"{feature!r} is not a feature of this ODD (features, "
                                      f"closest first: {closest_first(feature, self.features)})"
                                      ) from None

    @property
    @deep
    def size(self) -> int:
        """Number of nodes of the decision diagram, as ``dd`` counts them.

        ``dd`` uses complemented edges, so a function and its negation share nodes
        and there is a single terminal, counted once. :meth:`to_dot` draws the
        diagram with the complements resolved (two sinks), which can show a
        different number of nodes.
        """
        return self.root.dag_size

    def __repr__(self) -> str:
        return (f"ODD(features={len(self.features)}, size={self.size}, "
                f"backend={self.backend!r})")

    def aux_manager(self, variables: Sequence[str]) -> Manager:
        """A manager of this ODD's backend with ``variables`` declared in order, made
        once and shared by the explanation sets that use that layout (a new CUDD
        manager costs milliseconds)."""
        from .backends import new_manager
        key = tuple(variables)
        bdd = self._aux.get(key)
        if bdd is None:
            bdd = self._aux[key] = new_manager(self.backend, key)
        return bdd

    def view(self) -> tuple:
        """``(graph, root, negated root)``: the decision function as a
        :class:`bnx.view.Graph` of integers, read from dd once and kept.

        Traversals may add nodes (conjunctions) and cached results to the graph;
        past a few times its size they are dropped again.
        """
        v = self._view
        if v is None:
            from .view import read
            g, (r, nr) = read([self.root, ~self.root], self.encoding.nvars)
            v = self._view = (g, r, nr, len(g))
        elif len(v[0]) > 4 * v[3] + 100_000 or len(v[0].memo) > 1_000_000:
            v[0].trim(v[3])
        return v[:3]

    def out_graph(self, variables: Sequence[str]):
        """A :class:`bnx.view.Graph` over ``variables`` shared by the explanation sets
        built on this ODD in that layout (their nodes and cached operations are reused
        across calls); replaced by a new one once it has grown large, so sets that hold
        the old one keep it."""
        from .view import Graph
        key = ("graph", tuple(variables))
        g = self._graphs.get(key)
        if g is None or len(g) > 200_000 or len(g.memo) > 1_000_000:
            g = self._graphs[key] = Graph(len(variables))
        return g

    def _decide_indices(self, indices: dict) -> bool:
        """:meth:`decide` for ``{feature: state index}``, on the integer view."""
        g, u, _ = self.view()
        var, lo, hi = g.var, g.lo, g.hi
        for f, codes in zip(self.encoding.features, self.state_codes()):
            for lvl, value in codes[indices[f]][1]:
                if var[u] == lvl:
                    u = hi[u] if value else lo[u]
        return u == 1

    def state_codes(self) -> list:
        """Per feature, ``[(state index, [(level, bit), ...]), ...]``: each state's code
        in the ODD's variables (made once)."""
        return self.complete_layout().choices

    def complete_layout(self):
        """The :class:`~bnx.explain.explanations.Layout` of complete instances in this
        ODD's variables (made once; copy it to change it)."""
        if self._codes is None:
            from .explain.explanations import Layout
            self._codes = Layout("complete", self.encoding)
            self._codes.items  # noqa: B018  (made once, shared by the copies)
        return self._codes

    #: Dead nodes tolerated in an autoref manager before :meth:`tidy` collects them
    #: (a collection also empties dd's operation caches).
    gc_slack = 50_000

    def tidy(self, bdd: Manager) -> None:
        """Collect dead nodes of ``bdd`` (this ODD's manager or an auxiliary one) once it
        has grown well past its size after the last collection.

        dd.autoref frees nodes only when asked; CUDD collects by itself.
        """
        if self.backend != "autoref":
            return
        n = len(bdd)
        if n > 2 * self._live.get(id(bdd), 0) + self.gc_slack:
            bdd.collect_garbage()
            self._live[id(bdd)] = len(bdd)

    # ------------------------------------------------------------------ instances
    def encode(self, instance: Instance, *, partial: bool = False) -> dict:
        """Validate an instance and return ``{feature: state index}``."""
        from .classifier import _resolve_state
        from .errors import MissingFeatureError, UnknownStateError, closest_first
        instance = as_instance(instance, class_var=self.meta.get("class_var"))
        known = self.encoding._index
        for f in instance:
            try:
                ok = f in known
            except TypeError:
                ok = False
            if not ok:
                self._position(f)  # raises
        by_text = self._by_text
        if by_text is None:  # per feature, {state: index} when all its states are str
            by_text = self._by_text = [
                {s: j for j, s in reversed(list(enumerate(states)))}
                if all(type(s) is str for s in states) else None
                for states in self.encoding.states]
        out = {}
        for i, f in enumerate(self.features):
            if f not in instance:
                if partial:
                    continue
                raise MissingFeatureError(f"the instance has no state for feature {f!r}")
            v = instance[f]
            j = by_text[i].get(v) if type(v) is str and by_text[i] is not None else None
            if j is None:
                j = _resolve_state(self.encoding.states[i], v)
            if j is None:
                raise UnknownStateError(
                    f"{instance[f]!r} is not a state of feature {f!r} "
                    f"(states, closest first: {closest_first(v, self.encoding.states[i])})")
            out[f] = j
        return out

    def assignment(self, indices: dict) -> dict[int, bool]:
        """``{level: bit}`` of a complete instance given as ``{feature: state index}``."""
        enc = self.encoding
        values: dict[int, bool] = {}
        for i, f in enumerate(enc.features):
            for b, v in enumerate(enc.code(i, indices[f]).values()):
                values[enc.first_level[i] + b] = v
        return values

    def decide(self, instance: Instance) -> bool:
        """The decision on a complete instance, by one walk down the diagram."""
        return evaluate(self.root, self.assignment(self.encode(instance)))

    def decide_many(self, data):
        """The decisions on the rows of a DataFrame, vectorised; see :func:`bnx.batch.decide_many`."""
        from .batch import decide_many
        return decide_many(self, data)

    @deep
    def count(self) -> int:
        """Number of complete instances decided positive (an exact ``int``).

        Examples
        --------
        >>> import bnx
        >>> bnx.compile(bnx.examples.admissions(), backend="autoref").count()
        6
        """
        return _count(self.root, self.encoding.nvars)

    def positives(self):
        """The positive instances as an :class:`~bnx.Explanations` set (a diagram).

        ``len()`` counts them on the diagram; iterating lists them.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> pos = odd.positives()
        >>> len(pos), all(odd.decide(x) for x in pos)
        (6, True)
        """
        from .explain.explanations import Explanations, Layout
        return Explanations(self.bdd, self.root, Layout("complete", self.encoding),
                            kind="instances", feature_order=self.display_order)

    def total(self) -> int:
        """Number of complete instances."""
        return math.prod(len(s) for s in self.encoding.states)

    # ------------------------------------------------------------------ queries
    def is_monotone(self, *, on=None) -> bool:
        """Whether the decision function is monotone; see :func:`bnx.is_monotone`."""
        from .explain.monotone import is_monotone
        return is_monotone(self, on=on)

    def monotone_counterexample(self, *, on=None):
        """A witness against monotonicity, or ``None``; see :func:`bnx.monotone_counterexample`."""
        from .explain.monotone import monotone_counterexample
        return monotone_counterexample(self, on=on)

    # ------------------------------------------------------------------ files
    @deep
    def save(self, path) -> str:
        """Save the ODD to one JSON file (see ``docs/file-format.md``); returns the path.

        The file holds the diagram, the features, states, encoding, order,
        threshold and the classifier's fingerprint, under a checksum.

        Examples
        --------
        >>> import bnx, os, tempfile
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> path = odd.save(os.path.join(tempfile.mkdtemp(), "admissions.bnx"))
        >>> again = bnx.ODD.load(path, backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
        >>> again.count(), again.decide(x), again.classifier.posterior(x) == odd.classifier.posterior(x)
        (6, True, True)
        """
        from .serialization import save_odd
        return save_odd(self, path)

    @classmethod
    def load(cls, path, *, backend: str = "auto") -> "ODD":
        """Load an ODD saved by :meth:`save` into a new manager of ``backend``.

        A truncated, edited or incompatible file raises :class:`~bnx.ODDFileError`
        saying what is wrong; nothing is half-loaded. The loaded ODD's
        :attr:`classifier` is rebuilt from the file on first use, exactly, so it
        has posteriors (files of format version 1 hold no classifier: ``None``).
        """
        from .serialization import load_odd
        return load_odd(path, backend=backend)

    # ------------------------------------------------------------------ drawing
    def to_dot(self) -> str:
        """The diagram in Graphviz DOT, features and states named on nodes and edges.

        Complemented edges are resolved, so the picture shows plain 0/1 sinks.
        """
        from .dot import to_dot
        return to_dot(self)

    def draw(self, path: str, *, format: str | None = None) -> str:
        """Write the diagram as an image through Graphviz's ``dot`` (SVG, PNG, PDF).

        Raises :class:`~bnx.BnxError` when ``dot`` is not installed.
        """
        from .dot import draw
        return draw(self, path, format=format)

    def plot(self, ax=None, **options):
        """Draw the diagram with matplotlib, levels as rows; see :func:`bnx.plot.plot_odd`."""
        from .plot import plot_odd
        return plot_odd(self, ax, **options)

    def _repr_svg_(self) -> str | None:
        from .dot import svg
        return svg(self)

def _unpickle(text: str, backend: str) -> ODD:
    from .backends import available_backends
    from .serialization import loads_odd
    if backend not in available_backends():  # unpickled where CUDD is missing
        backend = "auto"
    return loads_odd(text, backend=backend, where="<pickled ODD>")


def check_odd(odd) -> None:
    """Refuse anything but a compiled :class:`ODD` with a :class:`~bnx.ArgumentError`."""
    if not isinstance(odd, ODD):
        from .errors import ArgumentError
        hint = " (compile it first: bnx.compile(clf))" if isinstance(odd, Classifier) else ""
        raise ArgumentError(f"expected a bnx.ODD, got {type(odd).__name__}{hint}")

