"""Hypothesis strategies for random Bayesian network classifiers (pgmpy 1.x).

The strategies build :class:`pgmpy.models.DiscreteBayesianNetwork` objects
with explicit ``state_names`` and bundle them in a :class:`Case` together
with the class variable, the positive class state, a threshold and the
ordered list of features.

Hard cases are generated on purpose:

* zero CPT entries (including whole zero rows and deterministic columns);
* exactly dyadic CPTs (every entry an exact float) so that ties are exact;
* thresholds 0 and 1, "round" thresholds such as 0.5, random floats, the
  exact posterior of some instance (ties; passed as a float only when that
  float is exact, otherwise as a :class:`fractions.Fraction`) and the
  neighbouring floats of such a posterior (near ties);
* symmetric networks with a uniform binary class prior and threshold 1/2,
  where many instances tie exactly;
* string state names that are not in sorted order, and occasionally integer
  state names ``0..k-1`` as pgmpy's UAI reader produces.

Every column of every CPT is a distribution whose float entries sum to 1
within pgmpy's tolerance (exactly 1 for dyadic columns), and every network
passes ``net.check_model()``.

The product of the feature cardinalities is capped (``max_instances``) so
that the brute-force oracle in ``oracle.py`` stays fast.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork

try:  # tests/ is a package (tests/__init__.py)
    from tests._support import oracle as _oracle
except ImportError:  # pragma: no cover - tests/ itself on sys.path
    import oracle as _oracle

__all__ = [
    "Case",
    "make_case",
    "naive_bayes",
    "latent_tree",
    "classifiers",
    "instances",
    "possible_instances",
    "is_possible",
    "on_maps",
    "binary_on_maps",
    "general_networks",
    "tan_networks",
    "multiclass_networks",
    "partial_instances",
    "multiclass_classifier_of",
]


# ---------------------------------------------------------------------------
# The Case container
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Case:
    """A Bayesian network classifier to test.

    Attributes
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network (passes ``check_model()``).
    class_var : str
        Name of the class node.
    positive : str or int
        The positive class state (compared against all other class states).
    threshold : float, int or Fraction
        Decision threshold ``T``.
    features : list
        Ordered feature names (the leaves of the network, or any nodes for
        :func:`general_networks`).
    rule : str
        The decision rule, ``"threshold"`` or ``"argmax"`` (then ``threshold``
        is ``None``).
    """

    net: DiscreteBayesianNetwork
    class_var: str
    positive: object
    threshold: object
    features: list = field(default_factory=list)
    rule: str = "threshold"

    def states(self, node):
        """State names of ``node`` in index order (from its CPD)."""
        return list(self.net.get_cpds(node).state_names[node])

    def __repr__(self):
        lines = [
            "Case(",
            f"  class_var={self.class_var!r}, positive={self.positive!r}, "
            f"threshold={self.threshold!r}, rule={self.rule!r},",
            f"  features={self.features!r},",
            f"  edges={sorted(self.net.edges(), key=repr)!r},",
            "  cpds={",
        ]
        for cpd in sorted(self.net.get_cpds(), key=lambda c: repr(c.variables[0])):
            variables = list(cpd.variables)
            names = {v: list(cpd.state_names[v]) for v in variables}
            vals = np.asarray(cpd.values, dtype=float).reshape(len(names[variables[0]]), -1)
            cols = [[str(Fraction(float(v))) for v in vals[:, j]] for j in range(vals.shape[1])]
            lines.append(f"    {variables[0]!r}: vars={variables!r} states={names!r}")
            lines.append(f"        columns={cols!r},")
        lines.append("  })")
        return "\n".join(lines)


def make_case(edges, cpds, class_var, positive, threshold, features):
    """Build a :class:`Case` from edges and CPDs, checking the model.

    Parameters
    ----------
    edges : list of tuple
        Directed edges ``(parent, child)``.
    cpds : list of TabularCPD
        One CPD per node.
    class_var, positive, threshold, features
        See :class:`Case`.

    Returns
    -------
    Case
        The classifier; ``net.check_model()`` has passed.
    """
    net = DiscreteBayesianNetwork(edges)
    for cpd in cpds:
        if cpd.variables[0] not in net.nodes():
            net.add_node(cpd.variables[0])
    net.add_cpds(*cpds)
    assert net.check_model()
    return Case(net, class_var, positive, threshold, list(features))


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------

_STATE_POOLS = {
    2: [["-", "+"], ["no", "yes"], ["yes", "no"], ["0", "1"], ["off", "on"],
        ["F", "T"], ["b", "a"], ["neg", "pos"]],
    3: [["lo", "mid", "hi"], ["a", "b", "c"], ["0", "1", "2"],
        ["red", "green", "blue"], ["hi", "lo", "mid"]],
    4: [["s0", "s1", "s2", "s3"], ["a", "b", "c", "d"], ["lo", "mid", "hi", "max"],
        ["d", "c", "b", "a"], ["0", "1", "2", "3"]],
    5: [["s0", "s1", "s2", "s3", "s4"], ["e", "d", "c", "b", "a"],
        ["lo", "low", "mid", "high", "hi"], ["0", "1", "2", "3", "4"]],
}

_FEATURE_NAMES = ["W", "F", "E", "G", "gpa", "work-experience", "x_1", "Exam",
                  "U", "B", "S", "f7"]
_CLASS_NAMES = ["C", "A", "class", "Y"]
_LATENT_NAMES = ["H0", "H1", "H2", "latent_a"]


def _state_names(draw, k, int_states):
    if int_states:
        return list(range(k))
    return list(draw(st.sampled_from(_STATE_POOLS[k])))


@st.composite
def _cardinality(draw):
    """2, 3 or 4 with a bias toward binary."""
    return draw(st.sampled_from([2, 2, 2, 2, 3, 3, 4]))


@st.composite
def _column(draw, k, mode, zeros=True):
    """A probability distribution over ``k`` states as a list of floats.

    ``mode`` is one of ``'dyadic'`` (exact dyadic entries summing to exactly
    1), ``'sloppy'`` (dyadic entries summing to exactly 1 +- 1/256, which
    pgmpy's tolerance accepts), ``'small'`` (small integer weights normalised; entries need not be
    exact floats) or ``'float'`` (random float weights).  ``zeros`` allows
    zero entries (each entry is zero with probability about 1/8; columns are
    never all zero).
    """
    if mode == "float":
        weights = []
        for _ in range(k):
            if zeros and draw(st.integers(0, 7)) == 0:
                weights.append(0.0)
            else:
                weights.append(draw(st.floats(0.01, 1.0)))
    else:
        pool = [1, 2, 3, 0, 4, 1, 2, 3] if zeros else [1, 2, 3, 4, 5, 6, 7]
        # offset by position so that the simplest draw is not uniform
        idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=k, max_size=k))
        weights = [pool[(j + i) % len(pool)] for i, j in enumerate(idx)]
    if sum(weights) == 0:
        weights[draw(st.integers(0, k - 1))] = 1
    if mode in ("dyadic", "sloppy"):
        total = 1 << (sum(weights) - 1).bit_length()  # next power of two >= sum
        weights[draw(st.integers(0, k - 1))] += total - sum(weights)
        column = [w / total for w in weights]  # exact: total is a power of two
        if mode == "sloppy":
            # pgmpy accepts sums within 0.01 of 1: make this one sum to exactly
            # 1 +- 1/256, so that summing a pruned node out does not give 1
            j = max(range(k), key=lambda i: column[i])
            column[j] += draw(st.sampled_from([1 / 256, -1 / 256]))
        return column
    total = math.fsum(weights)
    return [w / total for w in weights]


@st.composite
def _cpt_mode(draw):
    return draw(st.sampled_from(["dyadic", "dyadic", "small", "small", "float", "sloppy"]))


def _cpd(node, states, values_columns, parent=None, parent_states=None):
    """TabularCPD from a list of columns (one per parent state).

    Column ``j`` is rotated by ``j`` positions so that identical draws still
    give a child that depends on its parent.
    """
    values_columns = [c[j % len(c):] + c[:j % len(c)] for j, c in enumerate(values_columns)]
    if len(values_columns) > 1 and all(c == values_columns[0] for c in values_columns):
        # All columns equal: the child would be independent of its parent.
        # Move half of the last column's mass onto one state (exact for
        # dyadic columns), or rotate a deterministic column.
        c = values_columns[-1]
        if c[0] == 1.0:
            new = c[1:] + c[:1]
        else:
            new = [v / 2 + (0.5 if i == 0 else 0.0) for i, v in enumerate(c)]
        values_columns[-1] = new
    values = np.array(values_columns, dtype=float).T  # rows = states of node
    if parent is None:
        return TabularCPD(node, len(states), values.reshape(-1, 1).tolist(),
                          state_names={node: list(states)})
    return TabularCPD(
        node, len(states), values.tolist(),
        evidence=[parent], evidence_card=[len(parent_states)],
        state_names={node: list(states), parent: list(parent_states)},
    )


def _exact_or_fraction(p):
    """``float(p)`` if that float equals ``p`` exactly, else ``p`` itself."""
    f = float(p)
    return f if Fraction(f) == p else p


@st.composite
def _threshold(draw, net, class_var, positive, features, symmetric=False):
    """A threshold chosen among the hard cases (see module docstring)."""
    if symmetric and draw(st.booleans()):
        return draw(st.sampled_from([0.5, Fraction(1, 2)]))
    kind = draw(st.sampled_from(
        ["posterior", "float", "near", "round", "posterior", "float", "posterior",
         "near", "round", "float", "zero", "one", "any"]
    ))
    if kind == "zero":
        return draw(st.sampled_from([0, 0.0, Fraction(0)]))
    if kind == "one":
        return draw(st.sampled_from([1, 1.0, Fraction(1)]))
    if kind == "round":
        return draw(st.sampled_from([0.5, 0.25, 0.75, 0.125, Fraction(1, 3), Fraction(2, 3)]))
    if kind == "float":
        return draw(st.floats(0.05, 0.95))
    if kind == "any":
        return draw(st.floats(0.0, 1.0))
    # Posterior of some instance: an exact tie (or a near tie) for it.  The
    # smallest posterior is skipped when possible (it makes f constant).
    posteriors = set()
    for cj in _oracle.class_joint_table(net, class_var, features).values():
        total = sum(cj.values(), Fraction(0))
        if total:
            posteriors.add(cj[positive] / total)
    posteriors = sorted(posteriors)
    if not posteriors:
        return 0.5
    p = draw(st.sampled_from(posteriors[1:] or posteriors))
    if kind == "posterior":
        return _exact_or_fraction(p)
    f = float(p)
    return draw(st.sampled_from([math.nextafter(f, 0.0), math.nextafter(f, 1.0), f]))


# ---------------------------------------------------------------------------
# Public strategies
# ---------------------------------------------------------------------------


@st.composite
def _feature_spec(draw, n, max_instances, int_states, binary=False, states=None):
    """``n`` feature names and their state names; ``states=(lo, hi)``: every feature
    with ``lo`` to ``hi`` states (``max_instances`` then caps nothing)."""
    names = draw(st.permutations(_FEATURE_NAMES))[:n]
    cards = []
    size = 1
    for _ in range(n):
        if states is not None:
            cards.append(draw(st.integers(*states)))
            continue
        k = 2 if binary else draw(_cardinality())
        while k > 2 and size * k > max_instances:
            k -= 1
        cards.append(k)
        size *= k
    states = [_state_names(draw, k, int_states) for k in cards]
    return names, states


@st.composite
def naive_bayes(draw, max_features=6, max_instances=256, binary=False):
    """A naive Bayes classifier.

    Parameters
    ----------
    max_features : int, optional
        Maximum number of features (at least 1 is always generated).
    max_instances : int, optional
        Cap on the product of the feature cardinalities.
    binary : bool, optional
        If true, every feature has exactly two states.

    Returns
    -------
    Case
        Class with 2 or 3 states, 1..``max_features`` features with 2-4 states
        each (mostly binary); features are the leaves, in a random order.
    """
    int_states = draw(st.integers(0, 6)) == 0
    class_var = draw(st.sampled_from(_CLASS_NAMES))
    n_classes = draw(st.sampled_from([2, 2, 2, 3]))
    class_states = _state_names(draw, n_classes, int_states)
    n = draw(st.integers(1, max_features))
    names, states = draw(_feature_spec(n, max_instances, int_states, binary))
    symmetric = n_classes == 2 and draw(st.integers(0, 4)) == 0
    zeros = draw(st.booleans())

    cpds = []
    if symmetric:
        cpds.append(_cpd(class_var, class_states, [[0.5, 0.5]]))
        for name, fs in zip(names, states):
            col = draw(_column(len(fs), "dyadic", zeros))
            cpds.append(_cpd(name, fs, [col, col[::-1]], class_var, class_states))
    else:
        prior_zeros = zeros and draw(st.booleans())
        cpds.append(_cpd(class_var, class_states,
                         [draw(_column(n_classes, draw(_cpt_mode()), prior_zeros))]))
        for name, fs in zip(names, states):
            mode = draw(_cpt_mode())
            cols = [draw(_column(len(fs), mode, zeros)) for _ in class_states]
            cpds.append(_cpd(name, fs, cols, class_var, class_states))

    edges = [(class_var, name) for name in names]
    features = list(draw(st.permutations(names)))
    positive = draw(st.sampled_from(class_states))
    case = make_case(edges, cpds, class_var, positive, None, features)
    case.threshold = draw(_threshold(case.net, class_var, positive, features, symmetric))
    return case


@st.composite
def latent_tree(draw, max_features=6, max_latents=3, max_instances=128, binary=False):
    """A latent-tree classifier.

    The class is the root, 1..``max_latents`` latent internal nodes (2 or 3
    states) hang below it or below each other, and the features are exactly
    the leaves; every latent node has at least one child.

    Parameters
    ----------
    max_features : int, optional
        Maximum number of features.
    max_latents : int, optional
        Maximum number of latent nodes.
    max_instances : int, optional
        Cap on the product of the feature cardinalities.
    binary : bool, optional
        If true, every feature has exactly two states.

    Returns
    -------
    Case
        The classifier, features in a random order.
    """
    int_states = draw(st.integers(0, 6)) == 0
    class_var = draw(st.sampled_from(_CLASS_NAMES))
    n_classes = draw(st.sampled_from([2, 2, 2, 3]))
    class_states = _state_names(draw, n_classes, int_states)

    n_latents = draw(st.integers(1, max_latents))
    latents = _LATENT_NAMES[:n_latents]
    parent = {}
    for j, h in enumerate(latents):
        parent[h] = draw(st.sampled_from([class_var] + latents[:j]))
    childless = [h for h in latents if h not in parent.values()]

    n = draw(st.integers(max(1, len(childless)), max(max_features, len(childless))))
    names, fstates = draw(_feature_spec(n, max_instances, int_states, binary))
    for i, name in enumerate(names):
        if i < len(childless):
            parent[name] = childless[i]
        else:
            parent[name] = draw(st.sampled_from([class_var] + latents))

    states = {class_var: class_states}
    for h in latents:
        states[h] = _state_names(draw, draw(st.sampled_from([2, 2, 3])), int_states)
    for name, fs in zip(names, fstates):
        states[name] = fs

    zeros = draw(st.booleans())
    prior_zeros = zeros and draw(st.booleans())
    cpds = [_cpd(class_var, class_states,
                 [draw(_column(n_classes, draw(_cpt_mode()), prior_zeros))])]
    for node in latents + names:
        p = parent[node]
        mode = draw(_cpt_mode())
        cols = [draw(_column(len(states[node]), mode, zeros)) for _ in states[p]]
        cpds.append(_cpd(node, states[node], cols, p, states[p]))

    edges = [(parent[node], node) for node in latents + names]
    features = list(draw(st.permutations(names)))
    positive = draw(st.sampled_from(class_states))
    case = make_case(edges, cpds, class_var, positive, None, features)
    case.threshold = draw(_threshold(case.net, class_var, positive, features))
    return case


def classifiers(**kwargs):
    """Naive Bayes or latent-tree classifiers.

    Parameters
    ----------
    **kwargs
        ``max_features``, ``max_instances`` and/or ``binary``, passed to both
        strategies.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        ``one_of(naive_bayes(...), latent_tree(...))`` producing :class:`Case`.
    """
    return st.one_of(naive_bayes(**kwargs), latent_tree(**kwargs))


@st.composite
def any_instances(draw, case):
    """A random instance (dict feature -> state) of ``case``, possible or not.

    Parameters
    ----------
    case : Case
        The classifier.

    Returns
    -------
    dict
        One state per feature.
    """
    return {f: draw(st.sampled_from(case.states(f))) for f in case.features}


def is_possible(case, x) -> bool:
    """Whether the network gives the (partial) instance ``x`` a positive probability.

    Exactly, by enumeration; ``None`` states are missing (left out).
    """
    from tests._support import oracle
    x = {f: s for f, s in x.items() if s is not None}
    joint = oracle.class_joint(case.net, case.class_var, x, list(x))
    return sum(joint.values(), Fraction(0)) > 0


@st.composite
def instances(draw, case):
    """A random instance of ``case`` of positive probability (bnx refuses the others).

    Drawn as :func:`any_instances`; one of probability zero is replaced by a drawn instance
    of positive probability.
    """
    x = draw(any_instances(case))
    if is_possible(case, x):
        return x
    from tests._support import oracle
    table = oracle.class_joint_table(case.net, case.class_var, case.features)
    allowed = [k for k, cj in table.items() if sum(cj.values(), Fraction(0)) > 0]
    return dict(zip(case.features, draw(st.sampled_from(allowed))))


#: The same strategy: every instance a question is asked of must be possible.
possible_instances = instances


@st.composite
def on_maps(draw, case):
    """Random on-state sets for the generalised MC-explanations.

    Parameters
    ----------
    case : Case
        The classifier.

    Returns
    -------
    dict
        Feature -> frozenset of on states (any subset, possibly empty or all).
    """
    result = {}
    for f in case.features:
        states = case.states(f)
        result[f] = frozenset(draw(st.lists(st.sampled_from(states), unique=True,
                                            max_size=len(states))))
    return result


@st.composite
def binary_on_maps(draw, case):
    """Feature -> single on state, for cases whose features are all binary.

    Parameters
    ----------
    case : Case
        The classifier (all features must have two states).

    Returns
    -------
    dict
        Feature -> its on state (one of its two states).
    """
    return {f: draw(st.sampled_from(case.states(f))) for f in case.features}


# ---------------------------------------------------------------------------
# General networks: TAN and random DAGs (issue 11)
# ---------------------------------------------------------------------------

_HIDDEN_NAMES = ["H0", "H1", "H2", "H3", "Z"]


def _general_cpd(node, states, columns, parents, parent_states):
    """TabularCPD of ``node`` from one column per parent configuration.

    Columns follow pgmpy's layout (the last parent changes fastest); no column
    is rotated, so symmetric draws stay symmetric.
    """
    values = np.array(columns, dtype=float).T
    names = {node: list(states)}
    for p, ps in zip(parents, parent_states):
        names[p] = list(ps)
    if not parents:
        return TabularCPD(node, len(states), values.reshape(-1, 1).tolist(), state_names=names)
    return TabularCPD(node, len(states), values.tolist(), evidence=list(parents),
                      evidence_card=[len(ps) for ps in parent_states], state_names=names)


@st.composite
def _tied_column(draw, k, mode, zeros, a, b):
    """A column over ``k`` states whose entries ``a`` and ``b`` are equal floats."""
    column = draw(_column(k, "dyadic" if mode == "sloppy" else mode, zeros))
    if mode == "float" or mode == "small":
        weights = list(column)
        weights[b] = weights[a]
        total = math.fsum(weights)
        if total == 0:
            weights = [1.0] * k
            total = float(k)
        column = [w / total for w in weights]
        if column[a] != column[b]:  # pragma: no cover - same float operation
            column[b] = column[a]
        return column
    # dyadic: the entries are multiples of 1/2^m summing to 1 exactly; equalise a and b
    # by moving their total onto both halves (exact unless it is odd, then rescale).
    num = [Fraction(c) for c in column]
    half = (num[a] + num[b]) / 2
    num[a] = num[b] = half
    return [float(v) for v in num]  # halves of dyadics are dyadic: exact


@st.composite
def general_networks(draw, max_nodes=7, max_features=5, max_hidden=3, max_instances=64,
                     max_parents=2, tan=False, rule=None, binary_class=False, kdb=1,
                     states=None):
    """A classifier over a random DAG, or a TAN, with its features and rule.

    The nodes are put in a random topological order: the class may have parents
    (``tan=False``), features may be internal nodes, every other node is hidden
    and summed out (barren leaves, hidden internal nodes, parts disconnected
    from the class). Some draws tie two class states exactly: every CPT is
    symmetric under swapping them, so their joints are equal on every instance.

    Parameters
    ----------
    max_nodes : int, optional
        Maximum number of nodes besides the class.
    max_features, max_hidden : int, optional
        Maximum numbers of features and of hidden (unobserved) nodes.
    max_instances : int, optional
        Cap on the product of the feature cardinalities.
    max_parents : int, optional
        Maximum number of parents of a node (random DAGs only).
    tan : bool, optional
        Generate a tree-augmented naive Bayes instead: the class is the root and
        the parent of every feature, the features form a forest, and there is
        no hidden node.
    kdb : int, optional
        With ``tan=True``: each feature's parents are the class and up to ``kdb`` earlier
        features (a k-dependence Bayesian classifier; the default 1 gives TANs).
    rule : {"threshold", "argmax", None}, optional
        The decision rule; ``None`` draws one.
    binary_class : bool, optional
        Give the class exactly two states.
    states : (int, int), optional
        Give every feature ``lo`` to ``hi`` states (e.g. ``(3, 5)``; keep
        ``max_features`` small: ``max_instances`` does not cap them then).

    Returns
    -------
    Case
        With ``case.rule`` set; ``case.threshold`` is ``None`` under ``"argmax"``.
    """
    int_states = draw(st.integers(0, 6)) == 0
    class_var = draw(st.sampled_from(_CLASS_NAMES))
    n_classes = 2 if binary_class else draw(st.sampled_from([2, 2, 2, 3, 3, 4]))
    class_states = _state_names(draw, n_classes, int_states)
    if rule is None:
        rule = draw(st.sampled_from(["threshold", "argmax"]))
    # an exact tie between two class states, from symmetric tables
    tie = None
    if draw(st.integers(0, 3)) == 0:
        a, b = sorted(draw(st.permutations(range(n_classes)))[:2])
        tie = (a, b)

    n_features = draw(st.integers(1, max_features))
    feat_names, feat_states = draw(_feature_spec(n_features, max_instances, int_states,
                                                 states=states))
    states = {class_var: class_states}
    states.update(zip(feat_names, feat_states))
    if tan:
        hidden = []
    else:
        hidden = _HIDDEN_NAMES[:draw(st.integers(0, min(max_hidden,
                                                         max(0, max_nodes - n_features))))]
        for h in hidden:
            states[h] = _state_names(draw, draw(st.sampled_from([2, 2, 3])), int_states)

    parents = {}
    if tan:
        order = [class_var] + list(draw(st.permutations(feat_names)))
        parents[class_var] = []
        for j, f in enumerate(order[1:]):
            earlier = order[1:1 + j]
            if kdb == 1:
                parent = draw(st.sampled_from([None] + earlier)) if earlier else None
                parents[f] = [class_var] + ([parent] if parent is not None else [])
            else:
                k = draw(st.integers(0, min(kdb, len(earlier))))
                chosen = draw(st.permutations(earlier))[:k] if earlier else []
                parents[f] = [class_var] + list(chosen)
    else:
        order = list(draw(st.permutations([class_var] + feat_names + hidden)))
        for j, node in enumerate(order):
            earlier = order[:j]
            k = draw(st.integers(0, min(max_parents, len(earlier))))
            chosen = draw(st.permutations(earlier))[:k] if earlier else []
            parents[node] = list(chosen)

    zeros = draw(st.booleans())
    sloppy_ok = draw(st.booleans())
    cpds = []
    for node in order:
        ps = parents[node]
        pstates = [states[p] for p in ps]
        mode = draw(_cpt_mode())
        if mode == "sloppy" and not sloppy_ok:
            mode = "dyadic"
        configs = list(itertools.product(*[range(len(s)) for s in pstates]))
        columns = []
        by_config = {}
        for config in configs:
            if tie is not None and class_var in ps:
                # symmetric under swapping class states a < b: reuse the column of
                # the twin configuration, which comes earlier in product order
                ci = ps.index(class_var)
                if config[ci] == tie[1]:
                    twin = config[:ci] + (tie[0],) + config[ci + 1:]
                    columns.append(by_config[twin])
                    continue
            if node == class_var and tie is not None:
                col = draw(_tied_column(len(states[node]), mode, zeros, *tie))
            else:
                col = draw(_column(len(states[node]), mode, zeros))
            by_config[config] = col
            columns.append(col)
        cpds.append(_general_cpd(node, states[node], columns, ps, pstates))

    edges = [(p, node) for node in order for p in parents[node]]
    net = DiscreteBayesianNetwork(edges)
    net.add_nodes_from(order)
    net.add_cpds(*cpds)
    assert net.check_model()
    features = list(draw(st.permutations(feat_names)))
    positive = draw(st.sampled_from(class_states))
    case = Case(net, class_var, positive, None, features, rule)
    if rule == "threshold":
        case.threshold = draw(_threshold(case.net, class_var, positive, features, tie is not None))
    return case


def tan_networks(**kwargs):
    """TAN classifiers (:func:`general_networks` with ``tan=True``).

    Parameters
    ----------
    **kwargs
        Passed to :func:`general_networks`.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Producing :class:`Case` with ``case.rule`` set.
    """
    return general_networks(tan=True, **kwargs)


def kdb_networks(k=2, **kwargs):
    """k-dependence Bayesian classifiers: the class the root and a parent of every
    feature, each feature with up to ``k`` earlier features as parents, no hidden node
    (:func:`general_networks` with ``tan=True, kdb=k``).

    Parameters
    ----------
    k : int, optional
        Most feature parents of a feature.
    **kwargs
        Passed to :func:`general_networks`.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Producing :class:`Case` with ``case.rule`` set.
    """
    return general_networks(tan=True, kdb=k, **kwargs)


def classifier_of(case: Case):
    """The :class:`bnx.Classifier` a :class:`Case` describes (its rule, threshold, features)."""
    import bnx
    kw = {"rule": "argmax"} if case.rule == "argmax" else {"threshold": case.threshold}
    return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features, **kw)


# ---------------------------------------------------------------------------
# Multi-class networks (issue 33)
# ---------------------------------------------------------------------------

_CLASS_POOLS = {
    2: [["no", "yes"], ["b", "a"], ["neg", "pos"]],
    3: [["lo", "mid", "hi"], ["PAIVS", "TGA", "Fallot"], ["c", "a", "b"]],
    4: [["s0", "s1", "s2", "s3"], ["d", "c", "b", "a"], ["none", "mild", "moderate", "severe"]],
    5: [["a", "b", "c", "d", "e"], ["v", "w", "x", "y", "z"], ["e", "d", "c", "b", "a"]],
    6: [["PAIVS", "TGA", "Fallot", "PFC", "TAPVD", "Lung"], ["s0", "s1", "s2", "s3", "s4", "s5"],
        ["f", "e", "d", "c", "b", "a"]],
}


@st.composite
def _friendly_column(draw, k, zeros):
    """A distribution over ``k`` states of rational-friendly floats: dyadic entries such as
    0.5, 0.25 and 0 (exact, summing to exactly 1), a uniform column (equal entries: exact
    ties), a deterministic column, or, now and then, random floats."""
    kind = draw(st.sampled_from(["dyadic", "dyadic", "dyadic", "uniform", "one", "float"]))
    if kind == "uniform":
        return [1 / k] * k
    if kind == "one":
        column = [0.0] * k
        column[draw(st.integers(0, k - 1))] = 1.0
        return column
    if kind == "float":
        weights = [draw(st.floats(0.05, 1.0)) for _ in range(k)]
        total = math.fsum(weights)
        return [w / total for w in weights]
    pool = [0, 0, 1, 1, 2, 3, 4] if zeros else [1, 1, 2, 3, 4]
    weights = [draw(st.sampled_from(pool)) for _ in range(k)]
    if sum(weights) == 0:
        weights[draw(st.integers(0, k - 1))] = 1
    total = 1 << (sum(weights) - 1).bit_length()  # a power of two: the entries are exact
    weights[draw(st.integers(0, k - 1))] += total - sum(weights)
    return [w / total for w in weights]


def _equalise(column, a, b):
    """``column`` with entries ``a`` and ``b`` made equal floats, still a distribution."""
    exact = [Fraction(v) for v in column]
    if sum(exact) == 1:  # dyadic or deterministic: halve their total, still exact
        half = (exact[a] + exact[b]) / 2
        if Fraction(float(half)) == half:
            out = list(column)
            out[a] = out[b] = float(half)
            return out
    weights = list(column)
    weights[b] = weights[a]
    total = math.fsum(weights)
    if total == 0:
        return [1 / len(column)] * len(column)
    return [w / total for w in weights]


@st.composite
def multiclass_networks(draw, min_classes=3, max_classes=6, min_features=2, max_features=5,
                        max_instances=72, max_parents=3):
    """A multi-class classifier (issue 33): 3-6 class states, 2-5 features of 2-4 states.

    The features are children of the class (naive Bayes) with, drawn each time: a hidden
    node (a latent child of the class between it and some features, a root parent of the
    class and of a feature, or a barren leaf), a feature that is the class's parent, and
    edges between features. CPT columns are rational-friendly floats (0.5, 0.25, 0: exact
    ties and all-zero joints), uniform or deterministic, now and then random floats. Some
    draws tie two class states on every instance (every table symmetric under swapping
    them: the first one wins). Every node other than the class and the features is hidden.

    Parameters
    ----------
    min_classes, max_classes : int, optional
        Range of the number of class states.
    min_features, max_features : int, optional
        Range of the number of features.
    max_instances : int, optional
        Cap on the product of the feature cardinalities.
    max_parents : int, optional
        Most parents of a node.

    Returns
    -------
    Case
        ``positive`` and ``threshold`` None, ``rule`` ``"argmax"``; the features in a random
        order. :func:`multiclass_classifier_of` makes its :class:`bnx.Classifier`.
    """
    int_states = draw(st.integers(0, 7)) == 0
    class_var = draw(st.sampled_from(_CLASS_NAMES))
    k = draw(st.integers(min_classes, max_classes))
    class_states = list(range(k)) if int_states else list(draw(st.sampled_from(_CLASS_POOLS[k])))
    n = draw(st.integers(min_features, max_features))
    names, fstates = draw(_feature_spec(n, max_instances, int_states))
    states = {class_var: class_states, **dict(zip(names, fstates))}
    parents = {f: [class_var] for f in names}
    parents[class_var] = []
    before = []  # nodes placed before the class (its parents)
    after = list(names)
    if draw(st.integers(0, 3)) == 0:  # a feature is the class's parent
        f = draw(st.sampled_from(names))
        parents[f] = []
        parents[class_var].append(f)
        before.append(f)
        after.remove(f)
    hidden = None
    if draw(st.integers(0, 2)) == 0:
        hidden = draw(st.sampled_from(_LATENT_NAMES))
        states[hidden] = _state_names(draw, draw(st.sampled_from([2, 3])), int_states)
        role = draw(st.sampled_from(["latent", "latent", "root", "barren"]))
        if role == "latent" and after:
            parents[hidden] = [class_var]
            below = draw(st.sets(st.sampled_from(after), min_size=1))
            for f in below:
                parents[f] = ([class_var, hidden] if draw(st.integers(0, 3)) == 0
                              else [hidden])
            after.insert(0, hidden)
        elif role == "root":
            parents[hidden] = []
            parents[class_var].append(hidden)
            if after and draw(st.booleans()):
                parents[draw(st.sampled_from(after))].append(hidden)
            before.insert(0, hidden)
        else:  # a barren leaf: pruned, never observed
            parents[hidden] = [draw(st.sampled_from([class_var] + names))]
            after.append(hidden)
    order = before + [class_var] + after
    for j, node in enumerate(order):  # edges between features, earlier to later
        if node in names and draw(st.integers(0, 3)) == 0:
            earlier = [g for g in order[:j] if g in names and g not in parents[node]]
            if earlier and len(parents[node]) < max_parents:
                parents[node].append(draw(st.sampled_from(earlier)))
    tie = None
    if draw(st.integers(0, 3)) == 0:
        tie = tuple(sorted(draw(st.permutations(range(k)))[:2]))
    zeros = draw(st.booleans())
    cpds = []
    for node in order:
        ps = parents[node]
        pstates = [states[p] for p in ps]
        columns, by_config = [], {}
        for config in itertools.product(*(range(len(s)) for s in pstates)):
            if tie is not None and class_var in ps:  # symmetric under swapping the tie
                ci = ps.index(class_var)
                if config[ci] == tie[1]:
                    columns.append(by_config[config[:ci] + (tie[0],) + config[ci + 1:]])
                    continue
            column = draw(_friendly_column(len(states[node]), zeros))
            if node == class_var and tie is not None:
                column = _equalise(column, *tie)
            by_config[config] = column
            columns.append(column)
        cpds.append(_general_cpd(node, states[node], columns, ps, pstates))
    edges = [(p, node) for node in order for p in parents[node]]
    net = DiscreteBayesianNetwork(edges)
    net.add_nodes_from(order)
    net.add_cpds(*cpds)
    assert net.check_model()
    features = list(draw(st.permutations(names)))
    return Case(net, class_var, None, None, features, "argmax")


@st.composite
def partial_instances(draw, case, min_size=0):
    """A partial instance of ``case``: some of its features (at least ``min_size``), each
    with a state."""
    kept = draw(st.sets(st.sampled_from(case.features), min_size=min_size))
    return {f: draw(st.sampled_from(case.states(f))) for f in case.features if f in kept}


def multiclass_classifier_of(case: Case):
    """The multi-class :class:`bnx.Classifier` of a :func:`multiclass_networks` case (no
    positive state: the most probable class decides)."""
    import bnx
    return bnx.Classifier(case.net, case.class_var, features=case.features)
