"""Expand-then-merge compilation of a classifier into its decision function.

Features are observed one at a time in the ODD's order (Algorithm 1 of Shih, Choi
and Darwiche for naive Bayes, Algorithm 2 for latent trees). The classifier that
remains after observing a prefix of the order is summarised by a *state*, and the
compiler keeps one diagram node per class of states with the same decision
function on the features still to come (the merge step). It never enumerates
instances: each node is expanded once per state of its feature.

Two engines, both exact (``docs/compilation.md`` gives the arguments):

* Binary class, naive Bayes: the state is the odds ratio
  ``rho = (1 - T) Pr(c, y) / (T Pr(not c, y))`` of the observed prefix ``y``, a rational
  number (or infinity). The states with the same remaining decision function form
  an interval of ``rho``; the compiler computes that interval exactly while it builds
  the node (it is the intersection of the children's intervals pulled back through
  each feature's likelihood ratio) and finds later states in it by binary search.
  Equivalence is necessary and sufficient: one node per distinct function.
* Binary class, latent tree: the state is ``(rho, K)`` where ``K >= 0`` is the exact
  integer tensor over the class and the latent nodes that separate observed from
  unobserved features. For a fixed ``K`` (up to a positive factor) the remaining
  decision is monotone in ``rho``, so its classes are again exact intervals of
  ``rho``; when a subtree of the class is complete, ``K`` folds into ``rho``. Merging is
  complete among states with proportional ``K`` and at every subtree boundary.
* A class with more than two states: the state is the exact tensor
  ``Pr(c, y, s) * w(c)`` over the class and the separator (``w(positive) = 1 - T``,
  ``w(other) = -T``). States equal up to a positive factor are merged, and a state
  whose decision is settled by exact bounds on the rest becomes a terminal. This
  test is sufficient, not necessary.

In every case ``dd``'s unique table makes the resulting diagram reduced and canonical.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ._types import Feature
from .backends import new_manager, resolve_backend
from .classifier import Classifier
from .diagram import recursion_for
from .encoding import Encoding
from .errors import ArgumentError, CompilationLimitError, OrderError

if TYPE_CHECKING:
    from .odd import ODD

__all__ = ["compile", "default_order", "latent_tree_order", "naive_bayes_order"]

_INF = None  # the state "rho = infinity": positive whatever comes next


# ---------------------------------------------------------------------- orders
def naive_bayes_order(clf: Classifier) -> list:
    """Features by decreasing spread of their log-likelihood ratios (ties: network order).

    The spread of a feature is ``max_v log(p_v / q_v) - min_v log(p_v / q_v)`` with
    ``p_v = Pr(v | positive)`` and ``q_v = Pr(v | not positive)``; a zero makes it
    infinite. Influential features come first, so that many prefixes settle the
    decision early and the diagram stays small.
    """
    prior = clf.table(clf.class_var)[0]
    pos = clf.class_states.index(clf.positive)
    negw = [(c, prior[c]) for c in range(len(prior)) if c != pos]
    total = sum((w for _, w in negw), Fraction(0))

    def spread(f):
        t = clf.table(f)
        ratios = []
        for v in range(len(clf.states(f))):
            p = t[pos][v]
            q = (sum((w * t[c][v] for c, w in negw), Fraction(0)) / total) if total else Fraction(0)
            if p == 0 or q == 0:
                return math.inf if p != q else 0.0
            ratios.append(math.log(p) - math.log(q))
        return max(ratios) - min(ratios)

    feats = list(clf.features)
    return sorted(feats, key=lambda f: -spread(f))


def latent_tree_order(clf: Classifier) -> list:
    """Algorithm 2's order: descend into a lone unprocessed inner child, else take
    the child subtree with the fewest features and emit its leaves (recursively
    in the same order)."""
    feats = set(clf.features)
    size: dict = {}

    def count(n):
        if n in feats:
            size[n] = 1
        else:
            size[n] = sum(count(ch) for ch in clf.children(n))
        return size[n]
    count(clf.class_var)

    def emit(root) -> list:
        if root in feats:
            return [root]
        out: list = []
        processed: set = set()
        r = root
        while True:
            unprocessed = [ch for ch in clf.children(r) if ch not in processed]
            if not unprocessed:
                return out
            if len(unprocessed) == 1 and unprocessed[0] not in feats:
                r = unprocessed[0]
                continue
            c = min(unprocessed, key=lambda ch: size[ch])
            out.extend(emit(c))
            processed.add(c)

    return emit(clf.class_var)


def default_order(clf: Classifier) -> list:
    """The default order: Algorithm 2 for latent trees, :func:`naive_bayes_order` otherwise."""
    return latent_tree_order(clf) if clf.latent else naive_bayes_order(clf)


def _check_order(clf: Classifier, order: Sequence[Feature] | None) -> list:
    if order is None:
        return default_order(clf)
    if isinstance(order, (str, bytes)) or not isinstance(order, Iterable):
        raise OrderError(f"order must be a list of features, got {order!r}")
    order = list(order)
    feats = set(clf.features)
    for f in order:
        try:
            hash(f)
        except TypeError:
            raise OrderError(f"order names {f!r}, which is not a feature") from None
    unknown = [f for f in order if f not in feats]
    if unknown:
        raise OrderError(f"order names {unknown[0]!r}, which is not a feature")
    if len(set(order)) != len(order):
        dup = next(f for f in order if order.count(f) > 1)
        raise OrderError(f"order lists feature {dup!r} twice")
    missing = [f for f in clf.features if f not in set(order)]
    if missing:
        raise OrderError(f"order leaves out feature {missing[0]!r}")
    return order


# ---------------------------------------------------------------------- driver
class _Budget:
    __slots__ = ("limit", "used")

    def __init__(self, limit: int | None):
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ArgumentError(f"max_nodes must be a positive integer, got {limit!r}")
        self.limit = limit
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        if self.limit is not None and self.used > self.limit:
            raise CompilationLimitError(
                f"compilation needed more than max_nodes={self.limit} nodes; raise the "
                f"budget or try another variable order")


def compile(clf: Classifier, order: Sequence[Feature] | None = None, *,
            backend: str = "auto", max_nodes: int | None = None) -> "ODD":
    """Compile a classifier into its decision function, an :class:`~bnx.ODD`.

    Parameters
    ----------
    clf : Classifier
    order : list of features, optional
        The ODD's variable order. Default: :func:`default_order`.
    backend : {"auto", "autoref", "cudd"}
        The ``dd`` backend; ``"auto"`` takes CUDD when it imports.
    max_nodes : int, optional
        Stop with :class:`~bnx.CompilationLimitError` once more than this many
        nodes have been expanded.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> odd.count(), odd.size
    (6, 6)
    """
    from .odd import ODD
    if not isinstance(clf, Classifier):
        from .errors import BnxError
        raise BnxError(f"compile expects a bnx.Classifier, got {type(clf).__name__}")
    order = _check_order(clf, order)
    name = resolve_backend(backend)
    budget = _Budget(max_nodes)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(name, enc.variables)
    with recursion_for(enc.nvars):
        if len(clf.class_states) != 2:
            root = _TensorEngine(clf, enc, bdd, budget).run()
        elif clf.latent:
            root = _SplitEngine(clf, enc, bdd, budget).run()
        else:
            root = _RatioEngine(clf, enc, bdd, budget).run()
        domain = enc.domain(bdd)
        if domain != bdd.true:  # select() already sends unused codes to false
            root = root & domain
    return ODD(clf, enc, bdd, root, domain, backend=name)


# ---------------------------------------------------------------------- intervals
def _prior_odds(clf: Classifier) -> tuple[int, int, Fraction | None]:
    """``(pos, neg, rho)`` for a binary class: the state before any feature,
    ``rho = (1 - T) Pr(c) / (T Pr(not c))`` (``_INF`` when the denominator is 0)."""
    pos = clf.class_states.index(clf.positive)
    neg = 1 - pos
    t = clf.threshold
    prior = clf.table(clf.class_var)[0]
    num, den = (1 - t) * prior[pos], t * prior[neg]
    return pos, neg, (_INF if den == 0 else num / den)


def _approx(x: Fraction) -> float:
    """A float that rounds ``x`` monotonically (saturating at 0 and infinity)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf


class _Intervals:
    """Disjoint intervals of ``rho`` at one level, each with its node, sorted by lower end.

    An entry is ``(node, lo, lo_closed, hi, hi_closed, approx(lo), approx(hi))``;
    ``hi is None`` is +infinity (its approximation ``inf``). Comparisons run on float approximations first: rounding is monotone, so a strict
    float inequality decides the exact one, and only float ties are settled exactly.
    """

    __slots__ = ("flos", "fhis", "keys", "entries")

    def __init__(self) -> None:
        self.flos: list[float] = []
        self.fhis: list[float] = []
        self.keys: list = []
        self.entries: list = []

    def find(self, rho: Fraction):
        """The entry whose interval holds ``rho``, or ``None``."""
        f = _approx(rho)
        keys, flos = self.keys, self.flos
        if f == 0.0 or f == math.inf:  # saturated floats carry no order: search exactly
            j = bisect_right(keys, (rho, 0)) - 1
        else:
            j = bisect_right(flos, f) - 1
        while j >= 0 and flos[j] == f and keys[j] > (rho, 0):  # float ties: settle exactly
            j -= 1
        if j < 0:
            return None
        e = self.entries[j]
        # rho >= lo (strictly above when the interval is open at lo)
        if not (flos[j] < f or rho > e[1] or (e[2] and rho == e[1])):
            return None
        # rho <= hi (strictly below when open at hi)
        fh = self.fhis[j]
        if e[3] is None or f < fh or rho < e[3] or (e[4] and rho == e[3]):
            return e
        return None

    def add(self, entry) -> None:
        lo, f = entry[1], entry[5]
        key = (lo, 0 if entry[2] else 1)
        keys, flos = self.keys, self.flos
        if f == 0.0 or f == math.inf:  # saturated floats carry no order: search exactly
            j = bisect_right(keys, key)
        else:
            j = bisect_right(flos, f)
            while j > 0 and flos[j - 1] == f and keys[j - 1] > key:
                j -= 1
            while j < len(keys) and flos[j] == f and keys[j] <= key:
                j += 1
        keys.insert(j, key)
        flos.insert(j, f)
        self.fhis.insert(j, entry[6])
        self.entries.insert(j, entry)


class _Meet:
    """The intersection of the children's intervals pulled back to the parent's ``rho``.

    Float approximations decide every comparison they can (rounding is monotone, so
    a strict float inequality holds exactly); float ties are settled exactly.
    """

    __slots__ = ("lo", "lo_closed", "hi", "hi_closed", "flo", "fhi")

    def __init__(self) -> None:
        self.lo, self.lo_closed, self.hi, self.hi_closed = Fraction(0), True, None, False
        self.flo, self.fhi = 0.0, math.inf

    def add(self, child, factor: Fraction | None = None) -> None:
        """Constrain by a child reached with ``rho * factor`` (``factor > 0``; ``None``:
        the child's state is ``rho`` itself)."""
        _, clo, clc, chi, chc, cflo, cfhi = child
        if factor is None:
            plo, phi, fplo, fphi = clo, chi, cflo, cfhi
        else:
            plo = clo / factor
            fplo = _approx(plo)
            if chi is None:
                phi, fphi = None, math.inf
            else:
                phi = chi / factor
                fphi = _approx(phi)
        if fplo > self.flo or (fplo == self.flo and (plo > self.lo or
                                                    (plo == self.lo and not clc))):
            self.lo, self.lo_closed, self.flo = plo, clc, fplo
        if phi is not None and (self.hi is None or fphi < self.fhi or
                                (fphi == self.fhi and (phi < self.hi or
                                                       (phi == self.hi and not chc)))):
            self.hi, self.hi_closed, self.fhi = phi, chc, fphi

    def entry(self, node):
        return (node, self.lo, self.lo_closed, self.hi, self.hi_closed, self.flo, self.fhi)


def _terminal(bdd: Any, rho: Fraction):
    """The last level: the decision is ``rho >= 1``."""
    if rho >= 1:
        return bdd.true, Fraction(1), True, None, False, 1.0, math.inf
    return bdd.false, Fraction(0), True, Fraction(1), False, 0.0, 1.0


# ---------------------------------------------------------------------- engine 1
class _RatioEngine:
    """Binary-class naive Bayes: states are odds ratios, merged by exact intervals."""

    def __init__(self, clf: Classifier, enc: Encoding, bdd: Any, budget: _Budget):
        self.enc, self.bdd, self.budget = enc, bdd, budget
        pos, neg, self.start = _prior_odds(clf)
        # per position: per state, the ratio p/q (None: q == 0, the state forces positive)
        self.ratios = []
        for f in enc.features:
            table = clf.table(f)
            self.ratios.append([None if table[neg][v] == 0 else table[pos][v] / table[neg][v]
                                for v in range(len(clf.states(f)))])
        self.n = len(enc.features)
        self.levels = [_Intervals() for _ in range(self.n)]

    def run(self):
        if self.start is _INF:
            return self.bdd.true
        return self.visit(0, self.start)[0]

    def visit(self, i: int, rho: Fraction):
        """(node, lo, lo_closed, hi, hi_closed): the function at level ``i`` and its interval.

        ``hi is None`` means +infinity (finite states only reach here).
        """
        bdd = self.bdd
        if i == self.n:
            return _terminal(bdd, rho)
        level = self.levels[i]
        hit = level.find(rho)
        if hit is not None:
            return hit
        self.budget.spend()
        meet = _Meet()
        children = []
        for r in self.ratios[i]:
            if r is None:  # Pr(v | not c) = 0: positive whatever comes next
                children.append(bdd.true)
                continue
            child = self.visit(i + 1, rho * r)
            children.append(child[0])
            if r != 0:  # r == 0: the child state is 0 for every rho, no constraint
                meet.add(child, r)
        entry = meet.entry(self.enc.select(bdd, i, children, bdd.false))
        level.add(entry)
        return entry


# ---------------------------------------------------------------------- engine 2
def _obj(values) -> np.ndarray:
    a = np.empty(len(values), dtype=object)
    a[:] = list(values)
    return a


def _table_array(table) -> np.ndarray:
    out = np.empty((len(table), len(table[0])), dtype=object)
    for a, row in enumerate(table):
        for b, v in enumerate(row):
            out[a, b] = v
    return out


def _advance(m: np.ndarray, opens, pax: int, column: np.ndarray, closes) -> np.ndarray:
    """One observation on a separator tensor: open latent nodes (a new last axis times
    their CPT along the parent's axis), multiply in the feature's column along its
    parent's axis, then sum out the nodes that are now fully observed."""
    for paxis, cpt in opens:
        shape = [1] * m.ndim + [cpt.shape[1]]
        shape[paxis] = cpt.shape[0]
        m = m[..., np.newaxis] * cpt.reshape(shape)
    shape = [1] * m.ndim
    shape[pax] = column.shape[0]
    m = m * column.reshape(shape)
    for ax in closes:
        m = m.sum(axis=ax)
    return m


class _TensorEngine:
    """Any class, naive Bayes or latent tree: exact tensors over the separator."""

    with_bounds = True

    def __init__(self, clf: Classifier, enc: Encoding, bdd: Any, budget: _Budget):
        self.clf, self.enc, self.bdd, self.budget = clf, enc, bdd, budget
        self.n = len(enc.features)
        root = clf.class_var
        pos = clf.class_states.index(clf.positive)
        t = clf.threshold
        prior = clf.table(root)[0]
        self.start = _obj([(1 - t) * p if c == pos else -t * p for c, p in enumerate(prior)])
        self.memo: list[dict] = [dict() for _ in range(self.n)]
        self._plan(clf)

    # -- static plan of separators, transitions and bounds
    def _plan(self, clf: Classifier) -> None:
        root = clf.class_var
        feats = set(clf.features)
        remaining: dict = {}

        def count(n):
            remaining[n] = 1 if n in feats else sum(count(ch) for ch in clf.children(n))
            return remaining[n]
        count(root)
        # static bounds of max/min Pr(z_T | parent state) for every subtree T
        ub: dict = {}
        lb: dict = {}
        for n in reversed(self._preorder(clf)):
            if n == root:
                continue
            table = clf.table(n)
            if n in feats:
                ub[n] = [max(row) for row in table]
                lb[n] = [min(row) for row in table]
            else:
                kids = clf.children(n)
                inner_u = [math.prod((ub[ch][s] for ch in kids), start=Fraction(1))
                           for s in range(len(clf.states(n)))]
                inner_l = [math.prod((lb[ch][s] for ch in kids), start=Fraction(1))
                           for s in range(len(clf.states(n)))]
                ub[n] = [sum((r[s] * inner_u[s] for s in range(len(r))), Fraction(0))
                         for r in table]
                lb[n] = [sum((r[s] * inner_l[s] for s in range(len(r))), Fraction(0)) for r in table]
        sep = [root]
        opened = {root}
        self.steps = []
        for f in self.enc.features:
            # bounds on what is still to come, for the separator before this step (the
            # tensor engine's terminal test; the interval engine does not need them)
            maxg = ming = None
            if self.with_bounds:
                maxg, ming = self._bounds(clf, sep, opened, remaining, ub, lb)
            # ancestors to open, top-down
            chain = []
            a = clf.parent(f)
            while a not in opened:
                chain.append(a)
                a = clf.parent(a)
            opens = []
            for u in reversed(chain):
                opens.append((u, sep.index(clf.parent(u)), clf.table(u)))
                sep.append(u)
                opened.add(u)
            p = clf.parent(f)
            observe = (sep.index(p), clf.table(f))
            closes = []
            remaining[f] -= 1
            u = p
            while u != root:
                remaining[u] -= 1
                if remaining[u] > 0:
                    break
                closes.append(sep.index(u))
                sep.pop(sep.index(u))
                u = clf.parent(u)
            # every ancestor of u still has unobserved features: decrement them too
            while u != root:
                u = clf.parent(u)
                if u != root:
                    remaining[u] -= 1
            self.steps.append((maxg, ming, opens, observe, closes,
                               len(clf.states(f))))
        self.tables = {u: _table_array(clf.table(u)) for u in clf.latent}
        for i, step in enumerate(self.steps):
            self.tables[("column", i)] = _table_array(step[3][1])

    @staticmethod
    def _bounds(clf: Classifier, sep: list, opened: set, remaining: dict, ub: dict,
                lb: dict) -> tuple[np.ndarray, np.ndarray]:
        """Flat upper and lower bounds of ``Pr(rest | separator state)`` per separator state."""
        maxg = np.ones(tuple(len(clf.states(u)) for u in sep), dtype=object)
        ming = np.ones(tuple(len(clf.states(u)) for u in sep), dtype=object)
        for ax, u in enumerate(sep):
            pending = [ch for ch in clf.children(u) if ch not in opened and remaining[ch] > 0]
            shape = [1] * len(sep)
            shape[ax] = len(clf.states(u))
            vu = [math.prod((ub[ch][s] for ch in pending), start=Fraction(1))
                  for s in range(shape[ax])]
            vl = [math.prod((lb[ch][s] for ch in pending), start=Fraction(1))
                  for s in range(shape[ax])]
            maxg = maxg * _obj(vu).reshape(shape)
            ming = ming * _obj(vl).reshape(shape)
        return maxg.reshape(-1), ming.reshape(-1)

    @staticmethod
    def _preorder(clf: Classifier) -> list:
        out = []
        stack = [clf.class_var]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(clf.children(n))
        return out

    def run(self):
        return self.visit(0, self.start)

    def transition(self, i: int, m: np.ndarray, v: int) -> np.ndarray:
        _, _, opens, (pax, ftable), closes, _ = self.steps[i]
        return _advance(m, [(paxis, self.tables[u]) for u, paxis, _ in opens],
                        pax, self.tables[("column", i)][:, v], closes)

    def visit(self, i: int, m: np.ndarray):
        bdd = self.bdd
        flat = m.reshape(-1)
        if i == self.n:
            return bdd.true if sum(flat, Fraction(0)) >= 0 else bdd.false
        scale = max((abs(x) for x in flat), default=Fraction(0))
        if scale == 0:
            return bdd.true  # 0 >= 0 whatever comes next
        key = tuple(x / scale for x in flat)
        memo = self.memo[i]
        hit = memo.get(key)
        if hit is not None:
            return hit
        maxg, ming = self.steps[i][0], self.steps[i][1]
        low = sum((x * (ming[j] if x > 0 else maxg[j]) for j, x in enumerate(flat)), Fraction(0))
        if low >= 0:
            memo[key] = bdd.true
            return bdd.true
        high = sum((x * (maxg[j] if x > 0 else ming[j]) for j, x in enumerate(flat)), Fraction(0))
        if high < 0:
            memo[key] = bdd.false
            return bdd.false
        self.budget.spend()
        k = self.steps[i][5]
        children = [self.visit(i + 1, self.transition(i, m, v)) for v in range(k)]
        node = self.enc.select(bdd, i, children, bdd.false)
        memo[key] = node
        return node


# ---------------------------------------------------------------------- engine 3
def _int_table(table) -> np.ndarray:
    """A CPT scaled by the common denominator of its entries: exact Python ints.

    Every state is multiplied by the same table at a step, so the factor cancels in
    every ratio and in the normalised keys.
    """
    den = 1
    for row in table:
        for v in row:
            den = den * v.denominator // math.gcd(den, v.denominator)
    out = np.empty((len(table), len(table[0])), dtype=object)
    for a, row in enumerate(table):
        for b, v in enumerate(row):
            out[a, b] = v.numerator * (den // v.denominator)
    return out


class _SplitEngine(_TensorEngine):
    """Binary class, latent tree: states ``(rho, K)`` with exact intervals of ``rho``.

    The separator tensor is ``m(c, s) = w(c) K(c, s)`` with ``w(positive) = rho``,
    ``w(negative) = -1`` and ``K >= 0`` in exact integers. For a fixed ``K`` (up to a
    positive factor) the remaining decision ``rho A(z) - B(z) >= 0`` (``A, B >= 0``) is
    monotone in ``rho``, so its classes are intervals, computed from the children's
    intervals exactly as in the naive Bayes engine. When the separator shrinks to
    the class alone, ``K`` folds into ``rho`` (``rho *= K(pos) / K(neg)``).
    """

    with_bounds = False

    def __init__(self, clf: Classifier, enc: Encoding, bdd: Any, budget: _Budget):
        super().__init__(clf, enc, bdd, budget)
        self.pos, self.neg, self.rho0 = _prior_odds(clf)
        self.one = np.array([1, 1], dtype=object)
        # integer versions of the plan's tables
        self.isteps = []
        for (_, _, opens, (pax, ftable), closes, k) in self.steps:
            iopens = [(u, paxis, _int_table(table)) for u, paxis, table in opens]
            self.isteps.append((iopens, pax, _int_table(ftable), closes, k))
        self.imemo: list[dict] = [dict() for _ in range(self.n)]

    def run(self):
        if self.rho0 is _INF:
            return self.bdd.true
        return self.visit2(0, self.rho0, self.one)[0]

    def step(self, i: int, K: np.ndarray, v: int) -> np.ndarray:
        opens, pax, ftable, closes, _ = self.isteps[i]
        return _advance(K, [(paxis, cpt) for _, paxis, cpt in opens], pax, ftable[:, v], closes)

    def visit2(self, i: int, rho: Fraction, K: np.ndarray):
        """(node, lo, lo_closed, hi, hi_closed) for the state ``(rho, K)`` at level ``i``."""
        bdd = self.bdd
        if i == self.n:  # K was folded: the decision is rho >= 1
            return _terminal(bdd, rho)
        flat = K.reshape(-1)
        g = math.gcd(*flat)
        if g == 0:  # K = 0: S = 0 >= 0 whatever rho and whatever comes next
            return bdd.true, Fraction(0), True, None, False, 0.0, math.inf
        key = tuple(x // g for x in flat) if g != 1 else tuple(flat)
        level = self.imemo[i].get(key)
        if level is None:
            level = self.imemo[i][key] = _Intervals()
        hit = level.find(rho)
        if hit is not None:
            return hit
        self.budget.spend()
        meet = _Meet()
        children = []
        for v in range(self.isteps[i][4]):
            K2 = self.step(i, K, v)
            if K2.ndim == 1:  # only the class is left: fold K into rho
                kp, kn = K2[self.pos], K2[self.neg]
                if kn == 0:  # m(neg) = 0: S = rho K(pos) >= 0 for every rho
                    children.append(bdd.true)
                    continue
                r = Fraction(kp, kn)
                child = self.visit2(i + 1, rho * r, self.one)
                if r != 0:
                    meet.add(child, r)
            else:  # inside a subtree: rho is unchanged
                child = self.visit2(i + 1, rho, K2)
                meet.add(child)
            children.append(child[0])
        entry = meet.entry(self.enc.select(bdd, i, children, bdd.false))
        level.add(entry)
        return entry
