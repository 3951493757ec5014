"""The compiled decision function of a classifier: an ordered decision diagram."""

from __future__ import annotations

import math
from typing import Any

from .._util.guard import guarded
from .._util.types import Feature, Instance, Manager, Node
from .._util.wording import decision_state
from ..classifier._classifier import Classifier
from ..classifier._possible import network_evidence
from ..classifier._unate import least_pair
from ..diagram import _memo
from ..diagram._arrays import DiagramArrays, dd_size
from ..diagram._arrays import count as count_models
from ..diagram._dd import from_dd, to_dd
from ..diagram.backends import available_backends, new_manager, resolve_backend
from ..diagram.encoding import Encoding
from ..errors import (
    ArgumentError,
    UnknownFeatureError,
    closest_first,
)
from . import _rows
from ._classifier_json import classifier_from_document
from .io import load_odd, loads_odd

__all__ = ["ODD"]


@guarded(own=True)
class ODD:
    """A classifier's decision function as a reduced ordered BDD in ``dd``.

    Built by :func:`bnx.compile`; immutable afterwards. Multi-valued features are
    log-encoded (see :mod:`bnx.diagram.encoding`): :attr:`root` is false on every code
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

    #: False: a yes/no decision about one class state (see :class:`MulticlassODD`).
    multiclass = False

    def __init__(self, classifier: Classifier | None, encoding: Encoding, *, backend: str,
                 arrays: DiagramArrays | None = None, bdd: Manager | None = None,
                 root: Node | None = None, meta: dict | None = None,
                 classifier_doc: dict | None = None, where: str = "",
                 manager_of: Any = None) -> None:
        if arrays is None and root is None:
            raise ValueError("an ODD needs its arrays or its dd root")
        meta = self._hold(classifier, encoding, backend, meta, classifier_doc, where, bdd)
        self._arrays = arrays
        self._root = root
        self._manager_of = manager_of  # the multi-class ODD whose dd manager this one shares
        if classifier is not None:
            meta.setdefault("positive", classifier.positive)
            meta.setdefault("threshold", classifier.threshold)
            meta.setdefault("rule", classifier.rule)
            if "least_states" not in meta:
                meta["least_states"] = least_pair(classifier, encoding.features)
        self.meta = meta

    def _hold(self, classifier, encoding: Encoding, backend: str, meta: dict | None,
              classifier_doc: dict | None, where: str, bdd: Manager | None = None) -> dict:
        """Keep the parts every ODD has (binary or multi-class), and return its metadata so far.

        The metadata is the given one, with what the classifier says of itself.
        """
        self._classifier = classifier
        self._classifier_doc = classifier_doc  # a loaded classifier, rebuilt on first use
        self._classifier_where = where
        self.encoding = encoding
        self._backend = backend
        self._bdd = bdd
        self._domain = None
        self._by_text: list | None = None  # see encode()
        meta = dict(meta or {})
        if classifier is not None:
            meta.setdefault("class_var", classifier.class_var)
            meta.setdefault("fingerprint", classifier.fingerprint)
            meta.setdefault("on_states", classifier.on_states)
            meta.setdefault("ordinal", classifier.ordinal)
        return meta

    @property
    def backend(self) -> str:
        """``"autoref"`` or ``"cudd"``.

        An ODD loaded with ``backend="auto"`` picks it when first asked, which imports
        ``dd``.
        """
        if self._backend == "auto":
            self._backend = resolve_backend("auto")
        return self._backend

    # ------------------------------------------------------------------ the two forms
    @property
    def arrays(self) -> DiagramArrays:
        """The decision function in array form (:class:`bnx.diagram._arrays.DiagramArrays`).

        Per node its level and two children, complemented edges resolved. Every question is
        a pass over it; made once (by the compiler or the loader, or read from :attr:`root`
        on first use).
        """
        a = self._arrays
        if a is None:
            a = self._arrays = from_dd([self._root], self.encoding.nvars)[0]
        return a

    def clear_caches(self) -> None:
        """Drop everything kept between questions on this ODD.

        Questions keep what they derive from the diagram (per-feature views, layouts,
        the stores and ``dd`` managers explanation sets are built in, memos of earlier
        answers) for the next question; each kind is bounded (see
        :mod:`bnx.diagram._memo`), and all of it goes with the ODD. Clearing frees that
        memory now; answers stay the same, and explanation sets already returned keep
        working. Safe to call at any time, also while another thread asks questions.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> x = {"GPA": "+", "EntranceExam": "+", "FirstTimeApplicant": "+", "WorkExperience": "+"}
        >>> before = bnx.pi_explanations(odd, x).to_set()
        >>> odd.clear_caches()
        >>> bnx.pi_explanations(odd, x).to_set() == before
        True
        """
        _memo.clear(self)
        if self._arrays is not None:
            _memo.clear(self._arrays)

    @property
    def bdd(self) -> Manager:
        """The ``dd.autoref.BDD`` or ``dd.cudd.BDD`` that holds :attr:`root`.

        Made from the arrays on first use, with the encoding's variables in order and
        reordering off.
        """
        if self._bdd is None:
            self._bdd = (self._manager_of.bdd if self._manager_of is not None
                         else new_manager(self.backend, self.encoding.variables))
        return self._bdd

    @property
    def root(self) -> Node:
        """The decision function as a ``dd`` node: true exactly on the positive instances.

        Made from the arrays on first use, in one bottom-up pass.
        """
        if self._root is None:
            self._root = to_dd(self._arrays, self.bdd, self.encoding.variables)
        return self._root

    @property
    def domain(self) -> Node:
        """True exactly on the codes of complete instances (a ``dd`` node)."""
        if self._domain is None:
            self._domain = self.encoding.domain(self.bdd)
        return self._domain

    # ------------------------------------------------------------------ basics
    @property
    def classifier(self) -> Classifier | None:
        """The classifier it was compiled from.

        Rebuilt from the file on first use for a loaded ODD; ``None`` when the file holds
        none.
        """
        if self._classifier is None and self._classifier_doc is not None:
            self._classifier = classifier_from_document(
                self._classifier_doc, fingerprint=self.meta.get("fingerprint"),
                where=self._classifier_where)
        return self._classifier

    @property
    def owner(self) -> ODD:
        """The ODD whose classifier and ``dd`` manager this one shares.

        Itself, or for a class formula (:meth:`MulticlassODD.class_formula`) its
        multi-class ODD.
        """
        return self._manager_of if self._manager_of is not None else self

    def _network_evidence(self) -> tuple | None:
        """``(inference, evidence of)`` of the network this ODD holds, or ``None``.

        For :mod:`bnx.classifier._possible`: a class formula asks its multi-class ODD; else
        the classifier when built, else the tables of the file (no pgmpy); ``evidence
        of(named)`` turns ``{feature: state}`` into evidence on that network.
        """
        if self._manager_of is not None:
            return self._manager_of._network_evidence()
        clf = self._classifier
        if clf is not None:
            return network_evidence(clf)
        if self._classifier_doc is None:
            return None
        from ._tables import document_evidence, document_inference
        return document_inference(self), lambda named: document_evidence(
            self, self.encode(named, partial=True))

    def __reduce__(self):
        """Pickle through the saved format (both backends; the classifier included)."""
        from .io.save import dumps_odd
        return (_unpickle, (dumps_odd(self), self.backend))

    @property
    def features(self) -> tuple:
        """The features, in the ODD's order."""
        return self.encoding.features

    order = features

    @property
    def display_order(self) -> tuple:
        """The features in the classifier's order (the ODD's order for a loaded ODD).

        Explanations list features in this order.
        """
        if self._classifier is not None:
            return tuple(self._classifier.features)
        return tuple(self.meta.get("display_order") or self.features)

    @property
    def class_var(self):
        """The class variable of the classifier it was compiled from."""
        return self.meta.get("class_var")

    @property
    def classes(self) -> tuple | None:
        """The class states, in order (as :attr:`class_states`)."""
        return self.class_states

    @property
    def ordinal(self) -> dict:
        """The ordered features, ``{feature: its states in increasing order}``.

        As :attr:`bnx.Classifier.ordinal`; kept in saved files.
        """
        return dict(self.meta.get("ordinal") or {})

    @property
    def class_states(self) -> tuple | None:
        """The states of the class variable.

        Read from the saved classifier of a loaded ODD without rebuilding it; ``None`` for
        files of format version 1. A diagram a question derives from an ODD keeps them in
        its ``meta["class_states"]``.
        """
        if "class_states" in self.meta:
            return self.meta["class_states"]
        if self._classifier is not None:
            return tuple(self._classifier.class_states)
        doc, c = self._classifier_doc, self.meta.get("class_var")
        for cpd in (doc or {}).get("cpds", ()):
            variables = cpd.get("variables") if isinstance(cpd, dict) else None
            if variables and variables[0] == c:
                return tuple(cpd["states"][0])
        return None

    def decision_state(self, decision: bool) -> str:
        """Name the class state a decision stands for, in the class's own words.

        The positive state for a positive decision; for a negative one, the other
        state of a two-state class, or ``"not <positive>"`` when the class has more
        states.

        Returns
        -------
        str

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> odd.decision_state(True), odd.decision_state(False)
        ('+', '-')
        """
        return decision_state(self.class_states, self.meta.get("positive"), bool(decision))

    def decision_text(self, decision: bool) -> str:
        """``"class = state"`` for a decision, e.g. ``"Admit = +"``.

        Returns
        -------
        str
        """
        return f"{self.class_var} = {self.decision_state(decision)}"

    @property
    def threshold(self):
        """The threshold of the classifier it was compiled from (an exact fraction)."""
        return self.meta.get("threshold")

    def states(self, feature: Feature) -> tuple:
        """Return the states of ``feature``.

        Returns
        -------
        tuple
        """
        return self.encoding.states[self._position(feature)]

    def _position(self, feature: Feature) -> int:
        try:
            return self.encoding.position(feature)
        except (KeyError, TypeError):
            raise UnknownFeatureError(f"{feature!r} is not a feature of this ODD (features, "
                                      f"closest first: {closest_first(feature, self.features)})"
                                      ) from None

    # ------------------------------------------------------- answers on instances
    # (validated, decided one by one or row by row, counted; the work is in
    # bnx.odd._rows and bnx.diagram._arrays)

    def encode(self, instance: Instance, *, partial: bool = False) -> dict:
        """Validate an instance and return ``{feature: state index}``.

        Returns
        -------
        dict
        """
        return _rows.encode(self, instance, partial)

    def assignment(self, indices: dict) -> dict[int, bool]:
        """``{level: bit}`` of a complete instance given as ``{feature: state index}``.

        Returns
        -------
        dict
        """
        enc = self.encoding
        values: dict[int, bool] = {}
        for i, f in enumerate(enc.features):
            for b, v in enumerate(enc.code(i, indices[f]).values()):
                values[enc.first_level[i] + b] = v
        return values

    def decide(self, instance: Instance, *, within: str = "support") -> bool:
        """Decide an instance, by one walk down the diagram.

        A missing value (``None`` or NaN, as in a row of a data set with gaps) leaves
        its feature unobserved: the instance is then decided on its observed features,
        as :meth:`decide_many` decides such a row (:meth:`bnx.Classifier.decide` with
        ``partial=True``). A feature left out of the instance altogether raises
        :class:`~bnx.MissingFeatureError`, as a missing column does in
        :meth:`decide_many`.

        Parameters
        ----------
        instance : mapping, pandas.Series or one-row DataFrame
            ``{feature: state}``.
        within : {"support", "all"}, default "support"
            ``"support"``: an instance the network cannot produce is refused, its
            conflicting findings named, as :meth:`bnx.Classifier.decide` and every question
            refuse it (checked against which table entries are zero; no check where the
            network has none, or where the ODD holds no network: a file of format version
            1). ``"all"``: the diagram is the total decision function, which decides such an
            instance by the rule's tie, as ``Classifier.decide(x, within="all")`` does.

        Returns
        -------
        bool
            True for a positive decision.

        Raises
        ------
        ImpossibleInstanceError
            Within the support, the network cannot produce the instance.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
        >>> odd.decide(x), odd.decide({**x, "WorkExperience": None})
        (True, True)
        >>> bool(odd.decide_many([{**x, "WorkExperience": None}])[0])
        True
        """
        return _rows.decide(self, instance, within)

    def decide_many(self, data, *, within: str = "support"):
        """Decide many rows at once; return a numpy ``bool`` array in row order.

        ``data`` is a DataFrame (or a list of mappings) with one column per feature; a
        class column is ignored. Complete rows are decided by walking the diagram's
        arrays for all rows at once. A row with missing values is decided on its
        observed features, exactly as :meth:`bnx.Classifier.decide` with
        ``partial=True`` (by the classifier, once per distinct row;
        :func:`bnx.batch.decide_many` compiles the restricted classifiers instead,
        which is faster when many rows miss the same features).

        Parameters
        ----------
        data : pandas.DataFrame or list of mappings
            One column per feature.
        within : {"support", "all"}, default "support"
            As for :meth:`decide`: the first row the network cannot produce is refused by
            its index label, its conflicting findings named (each distinct row is checked
            once, where the network has a zero entry: 0.1-1 ms a distinct row on pgmpy's
            networks); ``"all"`` decides it by the rule's tie.

        Returns
        -------
        numpy.ndarray
            One decision per row (True: positive), in row order.

        Raises
        ------
        ImpossibleInstanceError
            Within the support, a row the network cannot produce.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
        >>> votes = bnx.datasets.load_votes()
        >>> d = odd.decide_many(votes)
        >>> int(d.sum()), all(d[i] == odd.classifier.decide(row, partial=True)
        ...                   for i, row in votes.drop(columns="party").iterrows())
        (184, True)
        """
        return _rows.decide_many(self, data, within)

    def count(self) -> int:
        """Count the complete instances decided positive (an exact ``int``).

        Every complete instance, possible or not: the models of the decision function
        (what its file records). :func:`bnx.count` counts among the instances the network
        allows, by default.

        Returns
        -------
        int
            The exact number of positive instances.

        Examples
        --------
        >>> import bnx
        >>> bnx.compile(bnx.examples.admissions(), backend="autoref").count()
        6
        """
        return count_models(self.arrays)

    def total(self) -> int:
        """Count the complete instances.

        Returns
        -------
        int
            The exact number of complete instances.
        """
        return math.prod(len(s) for s in self.encoding.states)

    @property
    def size(self) -> int:
        """Number of nodes of the decision diagram, as ``dd`` counts them.

        ``dd`` uses complemented edges, so a function and its negation share nodes
        and there is a single terminal, counted once. :meth:`to_dot` draws the
        diagram with the complements resolved (two sinks), which can show a
        different number of nodes.
        """
        return dd_size(self.arrays)  # (dd's dag_size recurses once per level)

    def __repr__(self) -> str:
        return (f"ODD(features={len(self.features)}, size={self.size}, "
                f"backend={self.backend!r})")

    # ------------------------------------------------------------------ files
    def save(self, path) -> str:
        """Save the ODD to one file (see ``docs/file-format.md``); returns the path.

        The file holds a readable header (features, states, encoding, order, threshold,
        the classifier's fingerprint and the classifier itself) and the diagram's arrays
        in binary, under a checksum.

        Returns
        -------
        str
            The path written.

        Examples
        --------
        >>> import bnx, os, tempfile
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> path = odd.save(os.path.join(tempfile.mkdtemp(), "admissions.bnx"))
        >>> again = bnx.ODD.load(path, backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
        >>> same = again.classifier.posterior(x) == odd.classifier.posterior(x)
        >>> again.count(), again.decide(x), same
        (6, True, True)
        """
        from .io.save import save_odd
        return save_odd(self, path)

    @classmethod
    def load(cls, path, *, backend: str = "auto") -> ODD:
        """Load an ODD saved by :meth:`save`.

        Its ``dd`` nodes are made in a new manager of ``backend`` when first needed.

        A truncated, edited or incompatible file raises :class:`~bnx.ODDFileError`
        saying what is wrong; nothing is half-loaded. The loaded ODD's
        :attr:`classifier` is rebuilt from the file on first use, exactly, so it
        has posteriors (files of format version 1 hold no classifier: ``None``).

        Returns
        -------
        'ODD'
            The loaded ODD.
        """
        return _from_parts(load_odd(path, backend=backend, resolve=False))

    # ------------------------------------------------------------------ drawing
    def to_dot(self) -> str:
        """Write the diagram in Graphviz DOT, features and states named on nodes and edges.

        Complemented edges are resolved, so the picture shows plain 0/1 sinks.

        Returns
        -------
        str
        """
        from ..diagram import drawing
        return drawing.to_dot(self)

    def draw(self, path: str, *, format: str | None = None) -> str:
        """Write the diagram as an image through Graphviz's ``dot`` (SVG, PNG, PDF).

        Raises :class:`~bnx.BnxError` when ``dot`` is not installed.

        Returns
        -------
        str
        """
        from ..diagram import drawing
        return drawing.draw(self, path, format=format)

    def plot(self, ax=None, **options):
        """Draw the diagram with matplotlib, levels as rows; see :func:`bnx.plot.plot_odd`.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ..diagram import drawing
        return drawing.plot_odd(self, ax, **options)

    def _repr_svg_(self) -> str | None:
        from ..diagram import drawing
        return drawing.svg(self)

def _unpickle(data, backend: str) -> ODD:
    if backend not in available_backends():  # unpickled where CUDD is missing
        backend = "auto"
    return _from_parts(loads_odd(data, backend=backend, where="<pickled ODD>"))


def _from_parts(parts: dict) -> ODD:
    """Make the ODD of a file's parts (:func:`bnx.odd.io.load_odd`).

    A :class:`MulticlassODD` when they hold one formula per class.
    """
    formulas = parts.pop("formulas", None)
    if formulas is None:
        return ODD(None, **parts)
    odd = MulticlassODD(None, **parts, formulas=formulas)
    recorded = odd.meta.pop("size", None)
    if recorded != odd.size:
        from ..errors import ODDFileError
        raise ODDFileError(f"{parts['where']} is not a valid ODD file: its class formulas have "
                           f"{odd.size} nodes together, but the file records {recorded}")
    return odd



def check_odd(odd) -> None:
    """Refuse anything but a compiled :class:`ODD` with a :class:`~bnx.ArgumentError`."""
    if not isinstance(odd, ODD):
        hint = " (compile it first: bnx.compile(clf))" if isinstance(odd, Classifier) else ""
        raise ArgumentError(f"expected a bnx.ODD, got {type(odd).__name__}{hint}")


def classifier_and_odd(clf: Classifier | ODD, odd: ODD | None = None
                       ) -> tuple[Classifier, ODD | None]:
    """Return ``(classifier, its ODD or None)`` of a network question's first argument.

    A classifier (with ``odd=`` as given) or an ODD that holds its classifier (refused with
    an :class:`~bnx.ArgumentError` naming ``odd.classifier`` when it does not).
    """
    if isinstance(clf, Classifier):
        return clf, odd
    if isinstance(clf, ODD):
        if odd is not None and odd is not clf:
            raise ArgumentError("an ODD was given twice (as the first argument and as odd=): "
                                "give it once")
        if clf.classifier is None:
            raise ArgumentError("this ODD does not hold its classifier (odd.classifier is "
                                "None: a file of format version 1); pass the bnx.Classifier, "
                                "or compile it again")
        return clf.classifier, clf
    raise ArgumentError(f"expected a bnx.Classifier or an ODD that holds one "
                        f"(odd.classifier), got {type(clf).__name__}")



@guarded(own=True)
class MulticlassODD(ODD):
    """The decision function of a classifier that picks one of several class states.

    One *class formula* per state, each a binary :class:`ODD` true exactly on the instances
    decided that state (the instances of one class are disjoint from the others', and
    together they cover every instance).

    Made by :func:`bnx.compile` from a classifier without a positive state (the argmax
    rule's pairwise comparisons compiled once and shared by the formulas); their ``dd``
    views share one manager, so common sub-diagrams are one node. Every question on a
    decision takes it: a question about the decided class ``a`` is asked of
    ``class_formula(a)``, and "why ``a`` and not ``b``" (``rival=b``) of
    ``class_formula(b)``, on which the instance is not decided ``b``.

    Attributes
    ----------
    classes : tuple
        The class states, in order.
    classifier : Classifier
        The multi-class classifier it was compiled from (rebuilt from a loaded file on
        first use).

    Examples
    --------
    >>> import bnx
    >>> asia = bnx.examples.asia()
    >>> clf = bnx.Classifier(asia.network, "either", features=["xray", "dysp"])
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> odd.classes, odd.count()
    (('yes', 'no'), {'yes': 1, 'no': 3})
    >>> odd.decide({"xray": "yes", "dysp": "yes"}), odd.class_formula("yes").count()
    ('yes', 1)
    """

    multiclass = True

    def __init__(self, classifier: Classifier | None, encoding: Encoding, *, backend: str,
                 arrays=None, formulas=None, meta: dict | None = None,
                 classifier_doc: dict | None = None, where: str = "") -> None:
        if classifier is not None and not classifier.multiclass:
            raise ArgumentError("a MulticlassODD needs a classifier without a positive state")
        meta = self._hold(classifier, encoding, backend, meta, classifier_doc, where)
        self._manager_of = None
        if classifier is not None:
            meta.setdefault("classes", tuple(classifier.classes))
        meta.update(positive=None, threshold=None, rule="argmax", least_states=None)
        self.meta = meta
        if formulas is None:  # compiled: one array form per class state
            formulas = [ODD(classifier.class_classifier(s), encoding, backend=backend,
                            arrays=a, manager_of=self)
                        for s, a in zip(classifier.classes, arrays)]
        else:  # loaded: each formula's parts, its classifier rebuilt from ours on first use
            formulas = [f if isinstance(f, ODD) else ODD(None, **f, manager_of=self)
                        for f in formulas]
        self._formulas = tuple(formulas)
        if len(self._formulas) != len(self.classes):
            raise ValueError("a MulticlassODD needs one formula per class state")

    # ------------------------------------------------------------------ the classes
    @property
    def classes(self) -> tuple:
        """The class states, in order."""
        return tuple(self.meta["classes"])

    class_states = classes

    def class_formula(self, state) -> ODD:
        """Return the binary ODD true exactly on the instances decided ``state``.

        It decides as ``bnx.compile(clf.class_classifier(state))`` and takes every question
        of a binary ODD.

        Parameters
        ----------
        state : state name
            A class state.

        Returns
        -------
        ODD
            Its :attr:`~ODD.classifier` is ``Classifier(network, class_var, state,
            rule="argmax")``.

        Raises
        ------
        UnknownStateError
            ``state`` is not a class state.
        """
        return self._formulas[self.class_index(state)]

    def class_index(self, state) -> int:
        """Find the position of a class state in :attr:`classes` (matching by text too).

        Returns
        -------
        int
        """
        from ..classifier._instances import resolve_state
        from ..errors import UnknownStateError
        j = resolve_state(self.classes, state)
        if j is None:
            raise UnknownStateError(f"{state!r} is not a state of the class {self.class_var!r} "
                                    f"(states, closest first: "
                                    f"{closest_first(state, self.classes)})")
        return j

    @property
    def formulas(self) -> tuple:
        """The class formulas, one binary :class:`ODD` per class state, in order."""
        return self._formulas

    # ------------------------------------------------------------------ decisions
    def decide(self, instance, *, within: str = "support"):
        """Decide the class state: the most probable one, the first in the class's order on ties.

        A missing value leaves its feature unobserved, and an instance the network cannot
        produce is refused (``within="all"``: decided by the tie), as in :meth:`ODD.decide`.

        Returns
        -------
        state
            One of :attr:`classes`.
        """
        for k, (state, formula) in enumerate(zip(self.classes, self._formulas)):
            if formula.decide(instance, within=within if k == 0 else "all"):  # (checked once)
                return state
        raise AssertionError("no class formula holds: the formulas do not cover the instance")

    def decide_many(self, data, *, within: str = "support"):
        """Decide the class states of many rows, as a numpy object array in row order.

        Rows with missing values are decided on their observed features; a row the network
        cannot produce is refused (``within="all"``: decided by the tie), as in
        :meth:`ODD.decide_many`.

        Returns
        -------
        numpy.ndarray
        """
        import numpy as np
        hits = np.stack([f.decide_many(data, within=within if k == 0 else "all")
                         for k, f in enumerate(self._formulas)], axis=1)  # (checked once)
        out = np.empty(hits.shape[0], dtype=object)
        out[:] = [self.classes[j] for j in hits.argmax(axis=1).tolist()]
        return out

    def count(self) -> dict:
        """Count the complete instances decided each class state, ``{state: int}``.

        Returns
        -------
        dict
        """
        return {s: f.count() for s, f in zip(self.classes, self._formulas)}

    def decision_state(self, decision) -> str:
        """Name the class state of a decision (a multi-class decision is its state).

        Returns
        -------
        str
        """
        return self.classes[self.class_index(decision)]

    def decision_text(self, decision) -> str:
        """``"class = state"`` for a decided state.

        Returns
        -------
        str
        """
        return f"{self.class_var} = {self.decision_state(decision)}"

    # ------------------------------------------------------------------ the diagram
    @property
    def arrays(self) -> DiagramArrays:
        raise ArgumentError(f"this ODD picks one of {len(self.classes)} class states and holds "
                            f"one diagram per class: ask odd.class_formula(state)")

    @property
    def root(self) -> Node:
        raise ArgumentError(f"this ODD picks one of {len(self.classes)} class states and holds "
                            f"one diagram per class: odd.class_formula(state).root")

    @property
    def shared(self) -> tuple[DiagramArrays, list[int]]:
        """The class formulas as one reduced diagram: the arrays and each class's root."""
        got = self.__dict__.get("_shared")
        if got is None:
            import numpy as np

            from ..diagram._arrays import canonical
            n = self.encoding.nvars
            cols = [[np.array([n, n])], [np.array([0, 1])], [np.array([0, 1])]]
            roots, base = [], 2
            for f in self._formulas:  # node i >= 2 of a formula: base + i - 2
                a = f.arrays
                level, lo, hi = (np.asarray(c, dtype=np.int64) for c in a.columns)
                cols[0].append(level[2:])
                for col, c in ((cols[1], lo), (cols[2], hi)):
                    col.append(np.where(c[2:] < 2, c[2:], c[2:] + base - 2))
                roots.append(a.root if a.root < 2 else a.root + base - 2)
                base += a.size - 2
            got = canonical(n, *(np.concatenate(c) for c in cols), roots)
            self.__dict__["_shared"] = got
        return got

    @property
    def size(self) -> int:
        """The nodes of the class formulas together, as ``dd`` counts them in one manager.

        Nodes the formulas share, and a node and its negation, are one node.
        """
        arrays, _ = self.shared
        if arrays.size <= 2:
            return 1
        import numpy as np

        from ..diagram._arrays import negations
        paired = int(np.count_nonzero(negations(arrays)[2:] >= 0))
        return 1 + arrays.size - 2 - paired // 2

    def clear_caches(self) -> None:
        """Drop what questions keep between calls, on every class formula too."""
        _memo.clear(self)
        for f in self._formulas:
            f.clear_caches()

    def __repr__(self) -> str:
        return (f"MulticlassODD(classes={len(self.classes)}, features={len(self.features)}, "
                f"size={self.size}, backend={self.backend!r})")

    def to_dot(self) -> str:
        raise ArgumentError("draw one class formula: odd.class_formula(state).to_dot()")

    def draw(self, path: str, *, format: str | None = None) -> str:
        raise ArgumentError("draw one class formula: odd.class_formula(state).draw(path)")

    def plot(self, ax=None, **options):
        raise ArgumentError("plot one class formula: odd.class_formula(state).plot()")

    def _repr_svg_(self) -> str | None:
        return None


def formula_for(odd: ODD, instance=None, *, rival=None, target=None) -> ODD:
    """Return the binary ODD a question about ``instance`` is asked of.

    A binary ODD is its own (``rival=`` and ``target=`` may name the state of the other
    decision, which says nothing more). On a :class:`MulticlassODD`, the class formula of
    ``rival`` ("why the decided class and not ``rival``": on it the instance is not
    decided ``rival``, and the question keeps it so), of ``target`` (the closest instances
    decided ``target``), or else of the decided class. ``instance`` may be partial (as
    :meth:`ODD.decide` takes it) and is needed only when neither is given or to check
    that ``rival``/``target`` is not the decided class.

    Raises
    ------
    ArgumentError
        Both ``rival`` and ``target``, a rival or target that is the decided class, or
        one that is not the other decision of a binary ODD.
    UnknownStateError
        A rival or target that is no class state.
    """
    other = rival if target is None else target
    what = "rival" if target is None else "target"
    if rival is not None and target is not None:
        raise ArgumentError("give rival= (why this decision and not that class) or target= "
                            "(the closest instances decided that class), not both")
    if not odd.multiclass:
        if other is not None and instance is not None:
            want = odd.decision_state(not odd.decide(instance))
            if other != want and str(other) != str(want):
                raise ArgumentError(f"{what}={other!r}: this ODD decides yes or no about "
                                    f"{odd.class_var} = {odd.meta.get('positive')}; the only "
                                    f"other decision here is {want!r}")
        return odd
    if other is None:
        if instance is None:
            raise ArgumentError("a question on a multi-class ODD needs the instance, or the "
                                "class to ask about")
        return odd.class_formula(odd.decide(instance))
    formula = odd.class_formula(other)
    if instance is not None and odd.decide(instance) == odd.classes[odd.class_index(other)]:
        raise ArgumentError(f"{what}={other!r} is the class this instance is decided: name "
                            f"another of {', '.join(map(str, odd.classes))}")
    return formula
