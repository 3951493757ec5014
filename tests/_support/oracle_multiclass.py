"""Brute-force oracle for multi-class classifiers (issue 33), in exact fractions.

Independent of ``bnx``: it never imports it. The class joint ``Pr(c, x)`` of every complete
instance comes from :func:`tests._support.oracle.class_joint_table` (one enumeration of
every assignment of every node, hidden nodes summed out, each CPT entry the exact
:class:`fractions.Fraction` its float is); everything else here is plain enumeration of
instances, subsets and completions.

The decision. An instance ``x`` is decided the most probable class state: the first state
``c``, in the class CPD's state order, whose ``Pr(c, x)`` is largest (``numpy.argmax`` of
the exact posterior). Ties go to the first state; an instance of probability zero ties
every class at 0 and is decided the first state. A partial instance ``e`` (features left
out) is decided the same way on ``Pr(c, e)``, the sum over its completions.

The questions, for ``x`` decided ``a``. Each is the binary question on the indicator of one
class (``Classifier(net, class_var, s, rule="argmax")``): the decided class ``a`` (decision
True) when no rival is given, the rival ``b`` (decision False) with ``rival=b``:

* PI-explanations: minimal parts ``z`` of ``x`` such that every completion of ``z`` is
  decided ``a``; with ``rival=b``, such that no completion is decided ``b``;
* contrastive explanations: minimal sets of features whose change can make ``x`` decided
  other than ``a``; with ``rival=b``, decided ``b`` (their duals: the minimal hitting sets
  of the PI-explanations with the same ``rival``);
* MC-explanations: the binary ones (``tests._support.oracle.mc_explanations``) of the
  class's indicator: without a rival, on states may turn off while the decision stays
  ``a`` and the fewest on states are kept; with ``rival=b``, off states may turn on while
  the decision stays other than ``b`` and the fewest off states are kept;
* counterfactuals: the complete instances closest to ``x`` (Hamming distance) decided other
  than ``a``, or decided ``target``; robustness: that distance (``math.inf``: none);
* same-decision probability of ``e``: ``Pr(decide(z) = d | e)`` over the completions ``z``
  of ``e``, ``d`` the class decided on ``e``; the expected one after observing a feature
  ``F``: ``sum_v Pr(F = v | e) SDP(e + {F = v})``, each outcome's SDP for its own decision;
* SHAP and Banzhaf values per class ``c``: the game ``v_c(S)`` = the mean over background
  rows ``z`` of ``[decide(x_S, z_rest) = c]`` (or its expectation under a product
  distribution).

A rival equal to the decided class, a target equal to it, or a state that is not a class
state raise :class:`ValueError`.

Usage::

    from tests._support.oracle_multiclass import MultiOracle
    brute = MultiOracle(net, "C", ["F1", "F2"])   # or MultiOracle.of(case)
    brute.decide(x), brute.class_probabilities(x), brute.count()
    brute.pi_explanations(x, rival="b")           # {frozenset({("F1", "lo")}), ...}
    brute.counterfactuals(x, target="b")          # {frozenset(changes): decided state}

Instances are dicts ``feature -> state``; explanations are ``frozenset(dict.items())``,
as in :mod:`tests._support.oracle`. Everything is exponential: networks of a few hundred
instances at most.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

try:
    from tests._support import oracle
except ImportError:  # pragma: no cover - tests/_support itself on sys.path
    import oracle

__all__ = ["MultiOracle", "argmax", "minimal_hitting_sets"]


def argmax(joint, classes):
    """The first class state of largest ``joint[c]`` (the first state when all are 0).

    Parameters
    ----------
    joint : mapping
        Class state -> exact joint (or posterior).
    classes : sequence
        The class states in order.

    Returns
    -------
    state
    """
    best = classes[0]
    for c in classes[1:]:
        if joint[c] > joint[best]:
            best = c
    return best


def minimal_hitting_sets(family, universe):
    """The minimal subsets of ``universe`` that meet every set of ``family``."""
    family = [set(s) for s in family]
    hits = [frozenset(s) for r in range(len(universe) + 1)
            for s in itertools.combinations(sorted(universe, key=repr), r)
            if all(set(s) & e for e in family)]
    return {s for s in hits if not any(o < s for o in hits)}


def _minimal(sets):
    sets = list(sets)
    return {s for s in sets if not any(o < s for o in sets)}


class MultiOracle:
    """Every multi-class answer of one network by enumeration (see the module docstring).

    Parameters
    ----------
    net : pgmpy.models.DiscreteBayesianNetwork
        The network; every node that is neither the class nor a feature is summed out.
    class_var : node name
        The class node (any number of states; two work too).
    features : sequence
        The feature nodes, in order (instance tuples follow it).

    Attributes
    ----------
    classes : tuple
        The class states in the class CPD's order.
    features : tuple
    states : dict
        Feature -> tuple of its states.
    """

    def __init__(self, net, class_var, features, within="all"):
        self.net = net
        self.within = within  # "support": questions range over the instances of Pr > 0
        self.class_var = class_var
        self.features = tuple(features)
        self.classes = tuple(oracle.node_states(net, class_var))
        self.states = {f: tuple(oracle.node_states(net, f)) for f in self.features}
        self._joint = oracle.class_joint_table(net, class_var, self.features)
        self._table = {combo: argmax(cj, self.classes) for combo, cj in self._joint.items()}

    @classmethod
    def of(cls, case):
        """The oracle of a :class:`tests._support.strategies.Case` (its positive state and
        rule are ignored: the decision is always the most probable class)."""
        return cls(case.net, case.class_var, case.features)

    # ----------------------------------------------------------------- instances

    def _key(self, x):
        for f in self.features:
            if f not in x:
                raise ValueError(f"instance misses feature {f!r}")
            if x[f] not in self.states[f]:
                raise ValueError(f"{x[f]!r} is not a state of {f!r}")
        return tuple(x[f] for f in self.features)

    def _check_partial(self, e):
        for f, s in e.items():
            if f not in self.states:
                raise ValueError(f"{f!r} is not a feature")
            if s not in self.states[f]:
                raise ValueError(f"{s!r} is not a state of {f!r}")

    def _completions(self, e):
        """The keys of every complete instance that agrees with the partial ``e``."""
        self._check_partial(e)
        domains = [[e[f]] if f in e else self.states[f] for f in self.features]
        return itertools.product(*domains)

    def _as_dict(self, key):
        return dict(zip(self.features, key))

    def _class_state(self, state, what):
        if state not in self.classes:
            raise ValueError(f"{what} {state!r} is not a class state {self.classes!r}")
        return state

    def instances(self):
        """Every complete instance, the first feature the most significant (list of dicts)."""
        return [self._as_dict(k) for k in itertools.product(*(self.states[f]
                                                              for f in self.features))]

    # ----------------------------------------------------------------- decisions

    def joint(self, x, partial=False):
        """``{c: Pr(c, x)}``; with ``partial=True``, ``x`` may leave features out (summed)."""
        if not partial:
            return dict(self._joint[self._key(x)])
        total = {c: Fraction(0) for c in self.classes}
        for key in self._completions(x):
            for c, p in self._joint[key].items():
                total[c] += p
        return total

    def probability(self, x, partial=False):
        """``Pr(x)`` (summed over the completions of a partial ``x``)."""
        return sum(self.joint(x, partial).values(), Fraction(0))

    def class_probabilities(self, x, partial=False):
        """``{c: Pr(c | x)}`` in class order, or ``None`` when ``Pr(x) = 0``."""
        joint = self.joint(x, partial)
        total = sum(joint.values(), Fraction(0))
        if total == 0:
            return None
        return {c: joint[c] / total for c in self.classes}

    def decide(self, x, partial=False):
        """The decided class state of ``x`` (complete, or partial with ``partial=True``)."""
        if not partial:
            return self._table[self._key(x)]
        return argmax(self.joint(x, partial=True), self.classes)

    def decisions(self):
        """``{instance tuple (features order): decided state}``; do not mutate."""
        return self._table

    def count(self):
        """``{c: number of complete instances decided c}``, every class state, in order."""
        out = {c: 0 for c in self.classes}
        for d in self._table.values():
            out[d] += 1
        return out

    def indicator(self, state):
        """``{instance tuple: decided state == state}``: the decision table of the binary
        classifier of ``state`` under the argmax rule."""
        self._class_state(state, "state")
        return {k: d == state for k, d in self._table.items()}

    # ----------------------------------------------------------------- reasons

    def _goal(self, x, rival):
        """``(a, keep)``: the decided class of ``x`` and the predicate on decisions that an
        explanation keeps (``== a`` without a rival, ``!= rival`` with one)."""
        a = self.decide(x)
        if rival is None:
            return a, (lambda d: d == a)
        self._class_state(rival, "rival")
        if rival == a:
            raise ValueError(f"the rival {rival!r} is the decided class itself")
        return a, (lambda d: d != rival)

    def _allowed(self, key):
        """Whether a question ranges over the complete instance ``key`` (``within``)."""
        return self.within == "all" or sum(self._joint[key].values()) > 0

    def _all_keep(self, part, keep):
        return all(keep(self._table[k]) for k in self._completions(part) if self._allowed(k))

    def sufficient(self, x, part, rival=None):
        """Whether every completion of ``part`` (a part of ``x``) keeps the decision
        (is decided ``a``; with ``rival=b``: is not decided ``b``)."""
        _, keep = self._goal(x, rival)
        return self._all_keep(part, keep)

    def pi_explanations(self, x, rival=None):
        """Minimal parts of ``x`` every completion of which is decided ``x``'s class
        (``rival=b``: none of whose completions is decided ``b``)."""
        _, keep = self._goal(x, rival)
        valid = []
        for r in range(len(self.features) + 1):
            for subset in itertools.combinations(self.features, r):
                z = {f: x[f] for f in subset}
                if self._all_keep(z, keep):
                    valid.append(frozenset(z.items()))
        return _minimal(valid)

    def prime_implicants(self, decision):
        """Minimal partial instances every completion of which is decided ``decision``."""
        self._class_state(decision, "decision")
        found = set()
        for combo in itertools.product(*([None] + list(self.states[f])
                                         for f in self.features)):
            part = {f: s for f, s in zip(self.features, combo) if s is not None}
            if self._all_keep(part, lambda d: d == decision):
                found.add(frozenset(part.items()))
        return {z for z in found if not any(z - {lit} in found for lit in z)}

    def _changes_reach(self, x, free, keep):
        """Whether changing the features in ``free`` can give a decision ``keep`` rejects."""
        part = {f: x[f] for f in self.features if f not in free}
        return not self._all_keep(part, keep)

    def contrastive_explanations(self, x, rival=None):
        """Minimal sets of features whose change can make ``x`` decided other than its class
        (``rival=b``: decided ``b``), each as ``frozenset({(f, x[f]), ...})``."""
        _, keep = self._goal(x, rival)
        good = [frozenset(s) for r in range(len(self.features) + 1)
                for s in itertools.combinations(self.features, r)
                if self._changes_reach(x, set(s), keep)]
        return {frozenset((f, x[f]) for f in s) for s in _minimal(good)}

    def feature_roles(self, x, rival=None):
        """``{feature: "necessary" | "relevant" | "irrelevant"}``: in every, some or no
        PI-explanation (with the same ``rival``)."""
        pis = [dict(p) for p in self.pi_explanations(x, rival)]
        out = {}
        for f in self.features:
            inside = sum(1 for p in pis if f in p)
            out[f] = ("irrelevant" if inside == 0 else
                      "necessary" if inside == len(pis) else "relevant")
        return out

    def check_explanation(self, x, part, rival=None):
        """``(sufficient, minimal, redundant features)`` of a part of ``x``."""
        _, keep = self._goal(x, rival)
        if not self._all_keep(part, keep):
            return False, False, set()
        redundant = {f for f in part
                     if self._all_keep({g: s for g, s in part.items() if g != f}, keep)}
        return True, not redundant, redundant

    def mc_explanations(self, x, on, fixed=(), rival=None):
        """MC-explanations of the class's indicator (module docstring), each a complete
        instance ``frozenset(x_star.items())``.

        ``on`` maps every feature to its on state or a collection of on states; the
        features in ``fixed`` keep their states.
        """
        _, keep = self._goal(x, rival)
        positive = rival is None  # the indicator's decision on x
        on = {f: frozenset(v) if isinstance(v, (set, frozenset, list, tuple))
              else frozenset([v]) for f, v in ((f, on[f]) for f in self.features)}
        fixed = set(fixed)
        choices = []
        for f in self.features:
            s = x[f]
            movable = f not in fixed and ((s in on[f]) if positive else (s not in on[f]))
            if not movable:
                choices.append([s])
                continue
            targets = [t for t in self.states[f] if (t not in on[f]) == positive and t != s]
            choices.append([s] + targets)

        def cost(key):
            return sum(1 for f, s in zip(self.features, key) if f not in fixed
                       and ((s in on[f]) if positive else (s not in on[f])))

        candidates = [k for k in itertools.product(*choices)
                      if keep(self._table[k]) and self._allowed(k)]
        best = min(cost(k) for k in candidates)  # x itself is one
        return {frozenset(self._as_dict(k).items()) for k in candidates if cost(k) == best}

    # ----------------------------------------------------------------- distance

    def _targets(self, x, target, immutable):
        """The complete instances (keys) decided ``target`` (or other than ``x``'s class)
        that keep the ``immutable`` features."""
        a = self.decide(x)
        if target is None:
            wanted = lambda d: d != a
        else:
            self._class_state(target, "target")
            if target == a:
                raise ValueError(f"the target {target!r} is the decided class itself")
            wanted = lambda d: d == target
        here = self._key(x)
        fixed = [i for i, f in enumerate(self.features) if f in set(immutable)]
        return [k for k, d in self._table.items()
                if wanted(d) and all(k[i] == here[i] for i in fixed) and self._allowed(k)]

    def _distance(self, x, key):
        return sum(1 for f, s in zip(self.features, key) if x[f] != s)

    def robustness(self, x, target=None, immutable=()):
        """Fewest feature changes that make ``x`` decided other than its class (or
        ``target``); ``math.inf`` when no instance keeping ``immutable`` is."""
        return min((self._distance(x, k) for k in self._targets(x, target, immutable)),
                   default=math.inf)

    def counterfactuals(self, x, target=None, immutable=()):
        """The closest such instances: ``{frozenset({(f, new state), ...}): decided state}``
        (empty when there is none)."""
        keys = self._targets(x, target, immutable)
        r = min((self._distance(x, k) for k in keys), default=math.inf)
        return {frozenset((f, s) for f, s in zip(self.features, k) if x[f] != s):
                self._table[k] for k in keys if self._distance(x, k) == r}

    def robustness_profile(self, immutable=(), decision=None):
        """``{k: number of instances of robustness k}`` (to any other class; ``math.inf``
        last), over the instances decided ``decision`` when it is given."""
        counts = {}
        for key, d in self._table.items():
            if decision is not None and d != decision:
                continue
            r = self.robustness(self._as_dict(key), immutable=immutable)
            counts[r] = counts.get(r, 0) + 1
        return {k: counts[k] for k in sorted(counts)}

    def biased(self, x, protected):
        """Whether changing only the ``protected`` features can change ``x``'s class."""
        a = self.decide(x)
        return self._changes_reach(x, set(protected), lambda d: d == a)

    def count_biased(self, protected):
        """Number of complete instances that :meth:`biased` holds for."""
        return sum(1 for x in self.instances() if self.biased(x, protected))

    # ----------------------------------------------------------------- probability

    def same_decision_probability(self, e, decision=None):
        """``Pr(decide(z) = decision | e)`` over the completions ``z`` of the partial
        ``e``; ``decision`` defaults to the class decided on ``e``. ``None`` when
        ``Pr(e) = 0``."""
        if decision is None:
            decision = self.decide(e, partial=True)
        else:
            self._class_state(decision, "decision")
        total = same = Fraction(0)
        for key in self._completions(e):
            p = sum(self._joint[key].values(), Fraction(0))
            total += p
            if self._table[key] == decision:
                same += p
        return None if total == 0 else same / total

    def next_observations(self, e):
        """``{F: (expected_sdp, flip_probability)}`` for every feature ``F`` not in ``e``:
        ``sum_v Pr(F = v | e) SDP(e + {F = v})`` (each outcome's SDP for the class decided
        on it) and ``sum_v Pr(F = v | e) [decided(e + {F = v}) != decided(e)]``. ``None``
        when ``Pr(e) = 0``."""
        total = self.probability(e, partial=True)
        if total == 0:
            return None
        d = self.decide(e, partial=True)
        out = {}
        for f in self.features:
            if f in e:
                continue
            expected = flip = Fraction(0)
            for v in self.states[f]:
                ev = {**e, f: v}
                mass = self.probability(ev, partial=True)
                if mass == 0:
                    continue
                dv = self.decide(ev, partial=True)
                expected += mass * self.same_decision_probability(ev, dv)
                if dv != d:
                    flip += mass
            out[f] = (expected / total, flip / total)
        return out

    def decision_rates(self, group, class_state=None):
        """``{d: Pr(decided d | group)}`` (``group`` a partial instance), or given also
        ``class = class_state``; ``None`` when the condition has probability zero."""
        if class_state is not None:
            self._class_state(class_state, "class state")
        rates = {c: Fraction(0) for c in self.classes}
        for key in self._completions(group):
            cj = self._joint[key]
            p = cj[class_state] if class_state is not None else sum(cj.values(), Fraction(0))
            rates[self._table[key]] += p
        total = sum(rates.values(), Fraction(0))
        return None if total == 0 else {c: r / total for c, r in rates.items()}

    # ----------------------------------------------------------------- attributions

    def _points(self, background):
        """``[(row dict, weight)]``: background rows (equal weights) or every complete
        instance weighted by a product distribution ``{feature: {state: probability}}``
        (a feature left out uniform, a state left out 0)."""
        if isinstance(background, dict):
            dist = {}
            for f in self.features:
                given = background.get(f)
                if not given:
                    given = {s: Fraction(1, len(self.states[f])) for s in self.states[f]}
                dist[f] = {s: oracle.to_fraction(given.get(s, 0)) for s in self.states[f]}
            return [(self._as_dict(k),
                     math.prod((dist[f][s] for f, s in zip(self.features, k)),
                               start=Fraction(1)))
                    for k in itertools.product(*(self.states[f] for f in self.features))]
        if hasattr(background, "to_dict"):  # a pandas DataFrame
            background = background.to_dict("records")
        rows = list(background)
        if not rows:
            raise ValueError("an empty background")
        return [({f: row[f] for f in self.features}, Fraction(1, len(rows))) for row in rows]

    def _attributions(self, x, background, kind):
        n = len(self.features)
        points = self._points(background)
        self._key(x)
        memo = {}

        def v(S):
            S = frozenset(S)
            if S not in memo:
                value = {c: Fraction(0) for c in self.classes}
                for z, w in points:
                    d = self._table[tuple(x[f] if f in S else z[f] for f in self.features)]
                    value[d] += w
                memo[S] = value
            return memo[S]

        values = {}
        for f in self.features:
            others = [g for g in self.features if g != f]
            total = {c: Fraction(0) for c in self.classes}
            for k in range(n):
                w = (Fraction(math.factorial(k) * math.factorial(n - k - 1), math.factorial(n))
                     if kind == "shap" else Fraction(1, 2 ** (n - 1)))
                for S in itertools.combinations(others, k):
                    with_f, without = v(set(S) | {f}), v(S)
                    for c in self.classes:
                        total[c] += w * (with_f[c] - without[c])
            values[f] = total
        return values, v(())

    def shap_values(self, x, background):
        """Exact SHAP values per class: ``(values, base)`` with ``values[f][c]`` and
        ``base[c] = v_c(empty)``; ``base[c] + sum_f values[f][c]`` is ``[decide(x) = c]``.
        ``background``: complete rows (a list of dicts or a DataFrame), or a product
        distribution. :meth:`as_array` lays the values out as bnx and shap do."""
        return self._attributions(x, background, "shap")

    def as_array(self, values):
        """``values[f][c]`` as a list of rows, one per feature (in :attr:`features` order),
        each with one entry per class (in :attr:`classes` order): the class axis last, as
        ``Attributions.values`` of one instance and shap's multi-output explanations."""
        return [[values[f][c] for c in self.classes] for f in self.features]

    def banzhaf_values(self, x, background):
        """Exact Banzhaf values per class, ``(values, base)`` as :meth:`shap_values`."""
        return self._attributions(x, background, "banzhaf")
