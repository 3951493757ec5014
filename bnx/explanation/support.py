"""The instances a network allows, and the instances a user allows.

:func:`support` is the set of complete instances ``x`` with ``Pr(x) > 0`` under the
classifier's network (hidden nodes and the class summed out), exactly. ``Pr(x) =
sum_h prod_F F(x, h)`` over the assignments ``h`` of the class and the hidden nodes, a
sum of nonnegative products: it is positive exactly when one product is, that is when
some ``h`` puts a positive entry of every table along ``(x, h)``. So the support is
compiled from the tables' zero patterns only (a classifier's, or those of the file an ODD
was loaded from), with the ODD's bit encoding:

* each table ``F`` with a zero entry, of a feature or an ancestor of one
  (:meth:`bnx.classifier._possible.ZeroPatterns.zero_tables`: the other nodes sum out to
  one, and a table positive everywhere never vanishes), becomes the Boolean relation
  ``F > 0`` over its scope's bits (codes that name no state excluded);
* the class and the hidden nodes are eliminated one at a time, in a greedy order
  (:func:`bnx.classifier._inference.elimination_order`): the relations that mention the node are
  conjoined and its bits existentially quantified (``dd``'s ``&`` and ``exist``);
* what is left, over the features' bits only, is conjoined and copied into the ODD's
  manager.

The work happens in a manager of its own whose order is the ODD's order of the features
with each other node's bits placed just before the first feature it touches.

:func:`forbid` is the set of instances that match none of a list of forbidden
combinations (partial instances). Both return an
:class:`~bnx.explanation.instance_set.InstanceSet`; they combine with ``&``.

Examples
--------
>>> import bnx
>>> clf = bnx.examples.admissions()
>>> odd = bnx.compile(clf, backend="autoref")
>>> bnx.support(clf, odd=odd).count           # every instance has positive probability
16
>>> bnx.forbid(odd, [{"GPA": "+", "EntranceExam": "-"}]).count
12
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Iterable, Mapping, Sequence

from .._util.guard import question
from .._util.types import Manager, Node
from ..classifier._classifier import Classifier
from ..classifier._inference import elimination_order
from ..classifier._possible import network_evidence, zero_patterns
from ..diagram import _setops as sets
from ..diagram._memo import detached, register
from ..diagram.backends import is_cudd, new_manager
from ..diagram.encoding import Encoding, bits_for
from ..errors import ArgumentError, InstanceError
from ..odd._odd import ODD
from .instance_set import InstanceSet

register("support", 1, "the classifier's support as an instance set of the ODD", detached=True)

__all__ = ["forbid", "support"]

#: Per classifier (an ODD keeps its own in its caches: bnx.diagram._memo).
_BY_CLF: weakref.WeakKeyDictionary[Classifier, InstanceSet] = weakref.WeakKeyDictionary()


@question
def support(clf: Classifier | ODD, *, odd: ODD | None = None) -> InstanceSet:
    """Return the complete instances ``x`` with ``Pr(x) > 0`` under the classifier's network.

    Exact: compiled from which table entries are zero (see the module docstring), never
    by visiting instances. Kept per classifier (or per ODD), so a second call is free.

    Parameters
    ----------
    clf : Classifier or ODD
        A classifier, or an ODD that holds its network (the ODD is then ``odd=`` too):
        its classifier, or the tables of the file it was loaded from (read without
        pgmpy).
    odd : ODD, optional
        ``clf``'s compiled decision function: the set is then over its encoding and in
        its manager (ready to conjoin with :attr:`ODD.root`). Without it, over the
        features in :func:`bnx.compilation.default_order` (the order :func:`bnx.compile` uses by
        default), in a manager of its own; it is copied into an ODD's manager when used
        with one.

    Returns
    -------
    InstanceSet
        ``.count`` is the number of instances of positive probability; ``x in s``
        tests one; pass it as ``within=`` to the explanation functions.

    See Also
    --------
    bnx.forbid : The instances left after removing some.
    bnx.pi_explanations : Explanations within such a set (``within=``).

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.asia()
    >>> s = bnx.support(clf)
    >>> s.count, s.layout.encoding.features == clf.features or sorted(s.features)
    (16, ['asia', 'dysp', 'smoke', 'xray'])
    """
    if isinstance(clf, ODD):  # its network: the classifier's, or the file's tables
        if odd is not None and odd is not clf:
            raise ArgumentError("an ODD was given twice (as the first argument and as odd=): "
                                "give it once")
        odd = clf
        if network_evidence(odd) is None:
            raise ArgumentError("this ODD does not hold its classifier (odd.classifier is "
                                "None: a file of format version 1); pass the bnx.Classifier, "
                                "or compile it again")
    elif not isinstance(clf, Classifier):
        raise ArgumentError(f"expected a bnx.Classifier or an ODD that holds one "
                            f"(odd.classifier), got {type(clf).__name__}")
    if odd is not None:
        if clf is not odd:
            _check_match(clf, odd)
        return detached(odd).make("support", (), lambda: _support(
            odd, odd.encoding, odd.bdd, odd.display_order))
    got = _BY_CLF.get(clf)
    if got is None:
        enc = _encoding(clf)
        got = _BY_CLF[clf] = _support(clf, enc, new_manager("auto", enc.variables),
                                      clf.features)
    return got


def _check_match(clf: Classifier, odd) -> None:
    if not isinstance(odd, ODD):
        raise ArgumentError(f"odd must be a bnx.ODD, got {type(odd).__name__}")
    if odd.classifier is not clf and odd.meta.get("fingerprint") != clf.fingerprint:
        raise ArgumentError("odd was not compiled from this classifier")


def _encoding(clf: Classifier) -> Encoding:
    from ..compilation import default_order
    order = tuple(default_order(clf))
    return Encoding(order, tuple(clf.states(f) for f in order))


def _support(source: Classifier | ODD, enc: Encoding, bdd: Manager,
             order: Sequence) -> InstanceSet:
    inference, _ = network_evidence(source)
    root = _compile_support(zero_patterns(inference).zero_tables(enc.features),
                            inference.card, enc, bdd)
    return InstanceSet(bdd, root, enc, feature_order=order, what="positive probability")


def _compile_support(factors: list, card: dict, enc: Encoding, bdd: Manager) -> Node:
    """Build the support's node in ``bdd`` from the tables with a zero entry.

    ``factors`` are ``(scope, positive)`` pairs.

    Each table's axes are in its nodes' state order (a feature's is the encoding's).
    """
    feats = enc._index
    others = list(dict.fromkeys(v for scope, _ in factors for v in scope if v not in feats))
    # the work manager: the features in the ODD's order, each other node just before the
    # first feature it touches (through other nodes when it touches none)
    anchor = {v: len(enc.features) for v in others}
    for scope, _ in factors:
        first = min((feats[v] for v in scope if v in feats), default=None)
        if first is not None:
            for v in scope:
                if v in anchor:
                    anchor[v] = min(anchor[v], first)
    changed = True
    while changed:
        changed = False
        for scope, _ in factors:
            low = min(anchor.get(v, feats.get(v)) for v in scope)
            for v in scope:
                if v in anchor and anchor[v] > low:
                    anchor[v], changed = low, True
    bits = {f: enc.bits[i] for f, i in feats.items()}
    for k, v in enumerate(others):
        bits[v] = tuple(f"h{k}_{b}" for b in range(bits_for(card[v])))
    slots = sorted([(i, 1, 0, f) for f, i in feats.items()]
                   + [(anchor[v], 0, k, v) for k, v in enumerate(others)])
    names = [name for *_, v in slots for name in bits[v]]
    work = new_manager(_backend_of(bdd), names)
    level = {v: sets.level_of(work, bits[v][0]) for v in bits if bits[v]}
    items = [(_relation(work, scope, table, bits, level, card),
              {v for v in scope if v not in feats}) for scope, table in factors]
    for v in elimination_order([s for s, _ in factors], others, card):
        inside = [it for it in items if v in it[1]]
        items = [it for it in items if v not in it[1]]
        u = sets.intersect_all(work, [g for g, _ in inside])
        scope: set = set().union(*(s for _, s in inside))
        if bits[v]:
            u = sets.exist(bits[v], u)
        items.append((u, scope - {v}))
    u = sets.intersect(sets.intersect_all(work, [g for g, _ in items]), enc.domain(work))
    from .instance_set import transfer
    return transfer(u, enc, bdd, enc)


def _backend_of(bdd: Manager) -> str:
    return "cudd" if is_cudd(bdd) else "autoref"


def _relation(work: Manager, scope: tuple, table, bits: dict, level: dict,
              card: dict) -> Node:
    """Build the relation ``table > 0`` over the bits of ``scope`` (codes naming no state false).

    The leaves (one per combination of the states of the scope's nodes that have bits, taken
    in level order), then one level of :func:`~bnx.diagram._setops.select` per node, from
    the deepest up (a loop: no recursion).
    """
    axes = sorted((v for v in scope if bits[v]), key=level.get)
    pos = {v: k for k, v in enumerate(scope)}
    index = [0] * len(scope)
    yes, no = sets.true(work), sets.false(work)
    layer = []
    for states in itertools.product(*(range(card[v]) for v in axes)):
        for v, j in zip(axes, states):
            index[pos[v]] = j
        layer.append(yes if table[tuple(index)] > 0 else no)
    for v in reversed(axes):  # each run of card[v] nodes branches on v's bits
        k = card[v]
        layer = [sets.select(work, bits[v], layer[i:i + k], no) for i in range(0, len(layer), k)]
    return layer[0]


@question
def forbid(odd: ODD | Classifier, combinations: Iterable[Mapping]) -> InstanceSet:
    """Return the complete instances that match none of the forbidden ``combinations``.

    Each combination is a partial instance ``{feature: state}``: an instance that agrees
    with it on every feature it names is forbidden. Pass the result (or its ``&`` with
    :func:`bnx.support`) as ``within=`` to the explanation functions.

    Parameters
    ----------
    odd : ODD or Classifier
        The set is over the ODD's encoding, in its manager (a classifier: as
        :func:`support` without ``odd``).
    combinations : iterable of mappings
        The forbidden combinations, each naming at least one feature.

    Returns
    -------
    InstanceSet
        The complete instances that match no forbidden combination.

    Raises
    ------
    UnknownFeatureError, UnknownStateError
        A combination names a feature or a state that does not exist.
    ArgumentError
        ``combinations`` is not an iterable of non-empty mappings.

    See Also
    --------
    bnx.support : The instances a network gives a positive probability.
    bnx.pi_explanations : Explanations within such a set (``within=``).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> s = bnx.forbid(odd, [{"GPA": "+", "EntranceExam": "-"}, {"WorkExperience": "-"}])
    >>> s.count, {"WorkExperience": "-", "FirstTimeApplicant": "+", "EntranceExam": "+",
    ...           "GPA": "+"} in s
    (6, False)
    """
    if isinstance(odd, ODD):
        enc, bdd, order, encode = (odd.encoding, odd.bdd, odd.display_order,
                                   lambda c: odd.encode(c, partial=True))
    elif isinstance(odd, Classifier):
        enc = _encoding(odd)
        bdd, order = new_manager("auto", enc.variables), odd.features
        encode = lambda c: odd.encode(c, partial=True)
    else:
        raise ArgumentError(f"expected a bnx.ODD or a bnx.Classifier, got {type(odd).__name__}")
    if isinstance(combinations, Mapping) or not isinstance(combinations, Iterable):
        raise ArgumentError("combinations must be a list of mappings {feature: state}, got "
                            f"{type(combinations).__name__}")
    bad = sets.false(bdd)
    for c in combinations:
        if not isinstance(c, Mapping):
            raise InstanceError(f"a forbidden combination must be a mapping {{feature: "
                                f"state}}, got {type(c).__name__}")
        if not c:
            raise ArgumentError("an empty combination would forbid every instance: name "
                                "at least one feature")
        idx = encode(c)
        lits: dict = {}
        for f, j in idx.items():
            lits.update(enc.code(enc.position(f), j))
        bad = sets.union(bad, sets.cube(bdd, lits))
    root = sets.difference(enc.domain(bdd), bad)
    return InstanceSet(bdd, root, enc, feature_order=order, what="allowed")

