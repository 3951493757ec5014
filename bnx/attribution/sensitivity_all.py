"""Sensitivity of the whole decision function.

The interval of each CPT entry in which no decision of a naive Bayes or TAN classifier
changes.

Change the entry ``theta = Pr(V = v | u)`` to ``t``, its column co-varied
proportionally (the other entries scaled by ``(1 - t) / (1 - theta)``; when
``theta = 1`` they are 0 and each becomes ``(1 - t) / (k - 1)``; an entry at 0 other
than the changed one stays 0). The class joints ``J_c(x)`` of an instance ``x`` are
linear in ``t``, so its decision (one linear inequality under the threshold rule, an
intersection of them under argmax, see :mod:`bnx.classifier._rules`) is kept on an interval
``K(x)`` around ``theta``; the whole decision function is kept exactly on the
intersection of the ``K(x)`` over all instances. That intersection is found without
enumerating instances:

- an entry of a feature ``f``'s column for the class state ``o`` (and, in a TAN, the
  feature parent's state ``w``) changes only ``J_o`` of the instances of that column:
  ``J_o = t a(x)`` for those with ``x_f = v`` (group A), ``(1 - t) b(x)`` for the others
  (group B), ``a`` and ``b`` products of the other factors. Divided by ``a`` (or ``b``),
  an instance is the vector ``y(x) = (J_c(x) / a(x))`` over the other classes ``c``, a
  product of per-feature ratios along its path of the diagram. Instances with
  ``a(x) = 0`` (or ``b(x) = 0``) keep their decision for every ``t``;
- an entry of the class prior ``Pr(C = v)``: ``J_v = t L_v(x)`` and every other
  ``J_c = (1 - t) b_c(x)``; divided by the likelihood ``L_v(x)`` the same vectors appear,
  over all instances. When ``theta = 1``, the instances with ``L_v(x) = 0`` have every
  joint 0 at ``theta`` (decided by the tie rule) and are decided by the other classes for
  every ``t < 1``; if one of them changes, the interval is ``[1, 1]``.

Among the instances of one group and one decision, ``K(x)`` only shrinks when ``y(x)``
moves in one direction per coordinate: up for every class but the positive one, down
for the positive class (under the threshold rule the decision at ``t`` is a threshold on
``<w, y>`` with ``w`` positive on the positive class and negative elsewhere; under
argmax it compares the positive class's joint with each other's). For the negative
decisions the direction is the opposite. So only the Pareto-extreme vectors of each
terminal count (:mod:`bnx.attribution.sensitivity_paths`), and among those only the ones
whose ``K(x)`` can bind (:meth:`_Model.extremes`: the extreme ``<w, y>`` under the
threshold rule; under argmax the largest of each coordinate, the smallest largest
coordinate, or the extreme positive-class coordinate); their ``K(x)``, solved exactly by
:func:`bnx.attribution.flips.flip_interval`, intersect to the answer. With a two-state
class each frontier is one number (max- and min-product passes).

Supported: naive Bayes and TAN networks of the class and the features (the class a
root, each feature's parents the class and at most one feature), any number of class
states, either rule, any threshold in ``[0, 1]``, zero entries; other nodes only barren
ones (no feature below them) whose columns sum to 1 exactly: summed out they are 1
whatever their entries, so each of their entries keeps every decision on ``[0, 1]``.
Anything else
is refused with a :class:`~bnx.StructureError` that says so; with an instance,
:func:`bnx.parameter_sensitivity` takes any classifier.
"""

from __future__ import annotations

from fractions import Fraction

from ..classifier._relevance import exact_cpds
from ..classifier._rules import decides
from ..errors import StructureError
from .entries import entries, sensitivity_frame
from .flips import flip_interval
from .sensitivity_paths import Schedule, backward, forward, pareto, through

__all__ = ["whole_sensitivity"]


def _refuse(why: str):
    raise StructureError(
        f"parameter_sensitivity without an instance (every decision kept) supports naive "
        f"Bayes and TAN networks of the class (a root) and the features (each feature's "
        f"parents the class and at most one feature), other nodes only barren ones whose "
        f"columns sum to 1; {why}. Give an "
        f"instance for any classifier: parameter_sensitivity(classifier, instance)")


def _check(clf, parents, cpds) -> tuple[dict, set]:
    """Each feature's feature parent (or None) and the barren nodes, or a StructureError."""
    c = clf.class_var
    if clf.structure not in ("naive_bayes", "tan"):
        _refuse(f"this classifier's structure is {clf.structure!r}")
    feats = set(clf.features)
    seen, stack = set(), [c, *feats]  # the ancestors of the class and the features
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(parents[n])
    hidden = seen - {c, *feats}
    if hidden:
        _refuse(f"the network has hidden nodes ({', '.join(map(repr, sorted(hidden, key=str)))})")
    barren = set(clf.network.nodes()) - seen
    for n in sorted(barren, key=str):
        # summed out, a barren node is a factor 1 for every value of its entries (their
        # columns co-varied keep summing to 1) only when its columns sum to 1 exactly
        sums = cpds[n][1].sum(axis=0).reshape(-1)
        if any(x != 1 for x in sums):
            _refuse(f"the columns of the barren node {n!r} do not sum to 1 exactly")
    if parents[c]:
        _refuse("the class has parents")
    out = {}
    for f in clf.features:
        rest = [q for q in parents[f] if q != c]
        if c not in parents[f] or len(rest) > 1:
            _refuse(f"the parents of {f!r} are {list(parents[f])}")
        out[f] = rest[0] if rest else None
    return out, barren


class _Model:
    """The classifier's tables, its diagram's schedule and the frontiers per class.

    Per class ``o``, the frontiers of the vectors ``y`` normalised by ``o`` (made on first
    use).
    """

    def __init__(self, clf, states, parents, cpds, sched, parent):
        self.clf, self.states, self.parents, self.cpds = clf, states, parents, cpds
        self.sched, self.parent, self.c = sched, parent, clf.class_var
        self.nclass = len(states[self.c])
        self.p = states[self.c].index(clf.positive)
        self.prior = list(cpds[self.c][1].reshape(-1))
        self._prob: dict = {}
        self._walks: dict = {}

    def prob(self, f, s, cls, w):
        """``Pr(f = s | class = cls, feature parent = w)``."""
        key = (f, s, cls, w)
        got = self._prob.get(key)
        if got is None:
            col = {self.c: cls}
            if w is not None:
                col[self.parent[f]] = w
            got = self._prob[key] = self.cpds[f][1][(s, *(col[q] for q in self.parents[f]))]
        return got

    def coords(self, o) -> list:
        return [k for k in range(self.nclass) if k != o]

    def sigma(self, o, side: int) -> tuple:
        """Return the direction in which ``K(x)`` shrinks, for the instances decided ``side``."""
        up = tuple(-1 if k == self.p else 1 for k in self.coords(o))
        return up if side else tuple(-x for x in up)

    def walks(self, o):
        """``(mult, {side: (fwd, bwd)})`` for the vectors normalised by class ``o``."""
        got = self._walks.get(o)
        if got is None:
            coords, prob, cache = self.coords(o), self.prob, {}

            def mult(f, s, w):
                key = (f, s, w)
                if key not in cache:
                    den = prob(f, s, o, w)
                    cache[key] = None if den == 0 else tuple(prob(f, s, k, w) / den
                                                             for k in coords)
                return cache[key]

            passes, d = {}, len(coords)
            for side in (0, 1):
                sg = self.sigma(o, side)
                passes[side] = (forward(self.sched, mult, sg, d),
                                backward(self.sched, mult, sg, d, side))
            got = self._walks[o] = (mult, passes)
        return got

    def extremes(self, ys: list, o: int, side: int) -> list:
        """Find the vectors among ``ys`` whose intervals intersect to that of all of them.

        ``ys`` are over the classes but ``o``, decided ``side``.
        """
        if len(ys) <= 1:
            return ys
        coords, p, clf = self.coords(o), self.p, self.clf
        if clf.rule == "threshold":
            # the decision is h0 + h1 t >= 0, h0 = <w, y> and h1 the same for every vector
            # of one group, or (the class prior's entry) (1 - t) h0 + t w >= 0: the
            # interval of a positive shrinks as h0 falls, of a negative as it rises
            T = clf.threshold

            def h0(y):
                return sum(((1 - T) if c == p else -T) * yc for c, yc in zip(coords, y))

            return [min(ys, key=h0) if side else max(ys, key=h0)]
        if o == p:  # p wins while its changed joint beats every other y_c
            if side:  # each y_c bounds it: the largest of each coordinate
                return list({max(ys, key=lambda y: y[i]) for i in range(len(coords))})
            return [min(ys, key=max)]  # a negative flips once it beats its largest y_c
        i = coords.index(p)  # p wins while its y_p beats the changed joint (and the rest)
        if side:
            return [min(ys, key=lambda y: y[i])]

        def rest(y):  # p beats every class but o: only then can the changed joint flip it
            return all(y[i] > yc if c < p else y[i] >= yc
                       for c, yc in zip(coords, y) if c != p)

        runner_up = [y for y in ys if rest(y)]
        return [max(runner_up, key=lambda y: y[i])] if runner_up else []

    def keep(self, lines, theta, lo, hi):
        """Intersect ``(lo, hi)`` with the interval of each instance line ``(a, b)``.

        The lines are the class joints ``a + b t``.
        """
        clf = self.clf
        for a, b in lines:
            low, high, _ = flip_interval(a, b, theta, clf.rule, self.p, clf.threshold)
            lo, hi = max(lo, low), min(hi, high)
        return lo, hi

    def feature_entry(self, f, col: dict, j: int, theta, column) -> tuple:
        o, w = col[self.c], col.get(self.parent[f])
        if self.prior[o] == 0:  # J_o is 0 for every t
            return Fraction(0), Fraction(1)
        mult, passes = self.walks(o)
        coords, pa, k = self.coords(o), self.parent[f], len(column)
        scale = [self.prior[c] / self.prior[o] for c in coords]

        def group_a(known):
            return known[f] == j and (pa is None or known[pa] == w)

        def group_b(known):
            return known[f] != j and (pa is None or known[pa] == w)

        def over_a(known):  # class o's factor is t itself: the vector holds the others'
            return tuple(self.prob(f, j, c, w) for c in coords)

        def over_b(known):  # class o's factor is (1 - t) times the share of x_f
            s = known[f]
            share = column[s] / (1 - theta) if theta != 1 else Fraction(1, k - 1)
            if share == 0:
                return None
            return tuple(self.prob(f, s, c, w) / share for c in coords)

        lo, hi = Fraction(0), Fraction(1)
        for accept, over, ao, bo in ((group_a, over_a, 0, 1), (group_b, over_b, 1, -1)):
            for side in (0, 1):
                fwd, bwd = passes[side]
                ys = through(self.sched, fwd, bwd, mult,
                             self.sigma(o, side), f, accept, over)
                ys = [tuple(yc * sc for yc, sc in zip(y, scale)) for y in ys]
                lines = []
                for y in self.extremes(ys, o, side):
                    a, b = [Fraction(0)] * self.nclass, [Fraction(0)] * self.nclass
                    a[o], b[o] = Fraction(ao), Fraction(bo)
                    for c, yc in zip(coords, y):
                        a[c] = yc
                    lines.append((a, b))
                lo, hi = self.keep(lines, theta, lo, hi)
        return lo, hi

    def prior_entry(self, v: int, theta) -> tuple:
        mult, passes = self.walks(v)
        coords, K = self.coords(v), self.nclass
        scale = [self.prior[c] / (1 - theta) if theta != 1 else Fraction(1, K - 1)
                 for c in coords]
        lo, hi = Fraction(0), Fraction(1)
        for side in (0, 1):
            root = passes[side][1][0].get((0, ()))
            ys = [tuple(yc * sc for yc, sc in zip(y, scale)) for y in root.pts] if root else []
            lines = []
            for y in self.extremes(ys, v, side):
                a, b = [Fraction(0)] * K, [Fraction(0)] * K
                b[v] = Fraction(1)
                for c, yc in zip(coords, y):
                    a[c], b[c] = yc, -yc
                lines.append((a, b))
            lo, hi = self.keep(lines, theta, lo, hi)
        if theta == 1 and self._impossible_changes(v):
            lo = hi = Fraction(1)
        return lo, hi

    def _impossible_changes(self, v: int) -> bool:
        """Tell whether an instance with ``L_v(x) = 0`` is decided otherwise by the other classes.

        ``L_v(x) = 0``: every joint 0 when ``Pr(v) = 1``, decided by the tie rule; the other
        classes decide where ``t < 1``.
        """
        clf, K, p = self.clf, self.nclass, self.p
        tie = decides([0] * K, clf.rule, p, clf.threshold)
        # the other decision is monotone: for ``tie`` positive, look for a negative one
        # (the positive class down, the others up), else for a positive one; coordinate
        # v down keeps the instances with L_v = 0 on the frontier
        want = -1 if tie else 1
        sigma = tuple(-1 if k == v else (want if k == p else -want) for k in range(K))

        def mult(f, s, w):
            return tuple(self.prob(f, s, k, w) for k in range(K))

        root = backward(self.sched, mult, sigma, K, int(tie))[0].get((0, ()))
        for y in pareto(root.pts if root is not None else [], sigma):
            if y[v] == 0:
                joint = [0 if k == v else y[k] for k in range(K)]
                if decides(joint, clf.rule, p, clf.threshold) != tie:
                    return True
        return False


def whole_sensitivity(clf, *, exact: bool = False):
    """Compute the rows of :func:`bnx.parameter_sensitivity` with no instance (see the module)."""
    from ..compilation import compile
    from .shapley import feature_graph
    states, parents, cpds = exact_cpds(clf.network)
    parent, barren = _check(clf, parents, cpds)
    odd = compile(clf)
    kids, value = feature_graph(odd)
    feats = list(odd.features)
    model = _Model(clf, states, parents, cpds, Schedule(kids, value, feats, parent), parent)
    c = clf.class_var
    rows = []
    for var in clf.network.nodes():
        for u, given, j, theta, column in entries(states, parents, cpds, var):
            if len(column) == 1:
                lo = hi = Fraction(1)
            elif var in barren:  # summed out to 1 whatever its entries
                lo, hi = Fraction(0), Fraction(1)
            elif var == c:
                lo, hi = model.prior_entry(j, theta)
            else:
                lo, hi = model.feature_entry(var, dict(zip(parents[var], u)), j, theta, column)
            rows.append((var, states[var][j], given, theta, lo, hi))
    return sensitivity_frame(rows, exact)
