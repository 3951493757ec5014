"""The level model of a TAN (or KDB, BAN): log-odds weights per open context.

A classifier compared on two class states (a binary class, or one pair of the argmax
rule: :func:`tan_model`) whose main factors (after pruning, :func:`.execution.prepare`)
mention no hidden variable decides ``x`` positive iff
``rho0 * prod_e phi_e(pos, x_e) / phi_e(neg, x_e) >= 1`` (a factor with
``phi(neg, .) = 0`` makes the instance positive whatever the rest). TANs are the main
case (pairwise factors over a forest of features; a class with a feature parent, or
summed-out barren nodes, fit too); k-dependence and BAN classifiers (factors over the
class and several features) fit when their open contexts stay small.

Two features are *neighbours* when a factor mentions both. Along an order of the
features, the factors whose features are all observed once feature ``i`` is close at
level ``i``: their product's log-ratio is the level's weight ``w_i(k, v)``, ``v`` the state
of feature ``i`` and ``k`` the *open context*, the states of the observed features that
still have an unobserved neighbour (mixed radix, earliest feature fastest; the factors
closing at ``i`` mention only ``i`` and its earlier neighbours, all open). In a
depth-first order of a feature forest the open features are ancestors of the next
feature, few when the largest subtree of each feature comes last (:func:`tan_order`);
other graphs take a greedy order (:func:`.context_order.narrow_order`). A level with
more than :data:`MAX_CONTEXT` contexts times states makes no model (the general engine
compiles).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from ..._util.rounding import U, log_ratio
from ...classifier._classifier import Classifier
from ._context_order import narrow_order
from ._execution import prepare, prepared_scopes
from ._intervals import INF

__all__ = ["TanModel", "tan_model", "tan_order"]

#: A level may hold at most this many contexts times feature states (else: no model).
MAX_CONTEXT = 1 << 18


def _forest(clf: Classifier, pair: tuple):
    """Return ``(static, const, nbrs, forest)``, or ``None`` if a main factor has a hidden variable.

    Tables restricted to the class states ``pair``: ``nbrs`` the interaction graph of the
    features (two are neighbours when a factor mentions both), ``forest`` whether every
    factor mentions at most two features and those pairs form a forest (a TAN:
    :func:`tan_order`'s depth-first order).
    """
    c = clf.class_var
    feats = set(clf.features)
    scopes, hidden = prepared_scopes(clf)  # a look at the scopes before making tables
    if hidden:
        return None
    static, _, const, hidden, _ = prepare(clf, pair)
    root = {f: f for f in feats}

    def find(v):
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    nbrs: dict = {f: set() for f in feats}
    forest = True
    for scope, _ in static.values():
        fs = [v for v in scope if v != c]
        if not set(fs) <= feats:
            return None
        forest = forest and len(fs) <= 2
        for a, b in itertools.combinations(fs, 2):
            if b in nbrs[a]:
                continue
            ra, rb = find(a), find(b)
            if ra == rb:  # a cycle: not a forest
                forest = False
            root[ra] = rb
            nbrs[a].add(b)
            nbrs[b].add(a)
    return static, const, nbrs, forest


def tan_order(clf: Classifier, *, timeout: float | None = None) -> list:
    """Order the features so that the open contexts stay small: depth-first over a feature forest.

    Each tree is rooted where its largest open context (the product of the open
    features' numbers of states) is least (among its centres and first 64 features
    when it has more than 128), and the children of a feature are visited
    by increasing cost of their subtrees, the costliest last (the parent is closed by
    then); ties keep the features' order. When the features' interaction graph is not a
    forest (k-dependence, BAN classifiers), a greedy order
    (:func:`.context_order.narrow_order`). For
    classifiers with hidden variables, those whose contexts exceed
    :data:`MAX_CONTEXT` on every tried order, or those that the TAN engine does not
    compile (more than two classes under a threshold),
    :func:`~bnx.compilation.engines.general.general_order`.

    Parameters
    ----------
    clf : Classifier
        Any classifier; a TAN, k-dependence or BAN classifier gets its own order.
    timeout : float, optional
        Seconds the order may take, the greedy ones included; past them a
        :class:`~bnx.CompilationLimitError`.

    Returns
    -------
    list
        The features, in the order to compile them.

    See Also
    --------
    bnx.compilation.default_order : The order compile uses, this one for TANs.
    bnx.compilation.general_order : The order for networks with hidden variables.
    bnx.learn_tan : Learns a TAN from data.

    Examples
    --------
    >>> import bnx
    >>> from bnx.tabular.case_study import votes_tan_classifier
    >>> clf = votes_tan_classifier()
    >>> order = bnx.compilation.tan_order(clf)
    >>> tree = {f: [p for p in clf.parents(f) if p != "party"] for f in clf.features}
    >>> all(order.index(p[0]) < order.index(f) for f, p in tree.items() if p)
    True
    """
    from ..budget import order_deadline
    check = order_deadline(timeout)  # the clock starts here, the forest's time counted
    pos = clf.class_states.index(clf.positive)
    pairwise = len(clf.class_states) == 2 or clf.rule == "argmax"  # the TAN engine's cases
    got = _forest(clf, (pos, 1 - pos) if pos < 2 else (pos, 0)) if pairwise else None
    order = None if got is None or got[3] else narrow_order(clf, got[2], limit=MAX_CONTEXT)
    if got is None or not got[3]:  # not a forest: the greedy order when its contexts fit
        if order is None:
            from .general import greedy_order
            return greedy_order(clf, None, check)
        return order
    nbrs = got[2]
    rank = {f: j for j, f in enumerate(clf.features)}
    card = {f: len(clf.states(f)) for f in clf.features}

    seen: set = set()
    order: list = []
    for f in clf.features:
        if f in seen:
            continue
        tree, stack = [], [f]
        while stack:
            g = stack.pop()
            if g not in seen:
                seen.add(g)
                tree.append(g)
                stack.extend(nbrs[g])
        roots = sorted(tree, key=rank.get)
        if len(roots) > _ROOTS:  # large trees: the centres and the first features
            roots = _centres(tree, nbrs) + roots[:_ROOTS // 2]
        best = min((_plan(r, nbrs, rank, card) for r in roots), key=lambda p: p[0])
        order.extend(best[1])
    return order


#: Trees with more features try only their centres and this many first features as roots.
_ROOTS = 128


def _plan(root, nbrs, rank, card) -> tuple:
    """Return (cost, order) of the tree of ``nbrs`` entered at ``root``.

    Each subtree's features in a row, the subtrees of a feature cheapest first, and the cost
    the widest context met. A loop over the tree children first (no recursion, whatever its
    depth).
    """
    done: dict = {}  # feature -> (cost, order) of its subtree
    stack = [(root, None, None)]
    while stack:
        f, parent, below = stack.pop()
        if below is None:  # first visit: its subtrees go first
            below = sorted(nbrs[f] - {parent}, key=rank.get)
            stack.append((f, parent, below))
            stack.extend((g, f, None) for g in reversed(below))
            continue
        kids = [done.pop(g) for g in below]
        kids.sort(key=lambda k: k[0])  # stable: ties in the features' order
        cost = card[f] if kids else 1
        out = [f]
        for j, (kc, ko) in enumerate(kids):
            cost = max(cost, kc if j == len(kids) - 1 else card[f] * kc)
            out.extend(ko)
        done[f] = (cost, out)
    return done[root]


def _centres(tree: list, nbrs: dict) -> list:
    """Find the one or two centres of a tree (the features left after peeling leaves)."""
    degree = {f: len(nbrs[f]) for f in tree}
    layer = [f for f in tree if degree[f] <= 1]
    left = len(tree)
    while left > 2:
        left -= len(layer)
        nxt = []
        for f in layer:
            for g in nbrs[f]:
                degree[g] -= 1
                if degree[g] == 1:
                    nxt.append(g)
        layer = nxt
    return layer


class TanModel:
    """The per-level weights of a pairwise classifier along an order (see the module).

    Attributes
    ----------
    rho0 : Fraction or None
        The exact prior odds ``(1 - T) Pr(pos) / (T Pr(neg))`` (``None``: infinite).
    s0 : float
        ``log rho0`` (``-inf`` for 0).
    nctx : list of int
        Number of open contexts before each level (``nctx[n] == 1``).
    w : list of numpy arrays
        ``w[i][v, k]``: the weight of state ``v`` of feature ``i`` in context ``k``
        (``+inf``: ``phi(neg) = 0``, every completion positive; ``-inf``: ``phi(pos) = 0``).
    nxt : list of numpy arrays
        ``nxt[i][v, k]``: the context of level ``i + 1``.
    err : float
        A bound on the error of the float ``s0`` plus one weight per level.
    """

    def __init__(self, clf: Classifier, order, static, const, nbrs, weights):
        import numpy as np
        c = clf.class_var
        n = self.n = len(order)
        where = {f: i for i, f in enumerate(order)}
        card = self.card = [len(clf.states(f)) for f in order]
        wa, wb = Fraction(weights[0]), Fraction(weights[1])
        for scope, table in const:
            vals = [int(x) for x in table.reshape(-1)]
            wa, wb = wa * vals[0], wb * (vals[1] if scope else vals[0])
        self.rho0 = INF if wb == 0 else wa / wb
        err = 0.0
        if self.rho0 is INF:
            self.s0 = math.inf
        elif self.rho0 == 0:
            self.s0 = -math.inf
        else:
            self.s0, err = _flog(self.rho0)
        terms: dict = {f: [] for f in order}  # the factors closing at each feature
        for scope, table in static.values():
            fs = [v for v in scope if v != c]
            last = max(fs, key=where.get)
            terms[last].append((tuple(fs), bool(scope) and scope[0] == c, table))
        lastn = {f: max((where[g] for g in nbrs[f]), default=-1) for f in order}
        self.nctx, self.w, self.nxt, self.ratio, self.nb = [], [], [], [], []
        opened: list = []  # open features before the level, by position
        for i, f in enumerate(order):
            strides, size = _radix(opened, where, card)
            nctx = size
            if nctx * card[i] > MAX_CONTEXT:
                raise _TooWide
            ks = np.arange(nctx, dtype=np.int64)
            digit = {g: (ks // strides[g]) % card[where[g]] for g in opened}
            earlier = sorted((g for g in nbrs[f] if where[g] < i), key=where.get)
            nb = np.zeros(nctx, dtype=np.int64)
            for g in earlier:
                nb = nb * card[where[g]] + digit[g]
            ratios, wtab = [], []
            level_err = 0.0
            for u in itertools.product(*(range(card[where[g]]) for g in earlier)):
                assign = dict(zip(earlier, u))
                row, wrow = [], []
                for v in range(card[i]):
                    assign[f] = v
                    p = q = 1
                    for fs, has_c, table in terms[f]:
                        at = tuple(assign[x] for x in fs)
                        p *= int(table[(0, *at)] if has_c else table[at])
                        q *= int(table[(1, *at)] if has_c else table[at])
                    if q == 0:
                        row.append(None)
                        wrow.append(math.inf)
                    elif p == 0:
                        row.append(Fraction(0))
                        wrow.append(-math.inf)
                    else:
                        r = Fraction(p, q)
                        x, e = _flog(r)
                        row.append(r)
                        wrow.append(x)
                        level_err = max(level_err, e)
                ratios.append(row)
                wtab.append(wrow)
            err += level_err
            self.ratio.append(ratios)
            self.nb.append(nb)
            self.w.append(np.ascontiguousarray(np.array(wtab, dtype=np.float64)[nb].T))
            self.nctx.append(nctx)
            after = [g for g in opened if lastn[g] > i] + ([f] if lastn[f] > i else [])
            s2, _ = _radix(after, where, card)
            base = np.zeros(nctx, dtype=np.int64)
            for g in after:
                if g != f:
                    base += digit[g] * s2[g]
            step = s2[f] if f in s2 else 0
            self.nxt.append((base[None, :] + step * np.arange(card[i])[:, None]).astype(np.int32))
            opened = after
        self.nctx.append(1)
        self.err = err
        fin = [wi[np.isfinite(wi)] for wi in self.w]
        self.lo_w = [float(x.min()) if len(x) else 0.0 for x in fin]
        self.hi_w = [float(x.max()) if len(x) else 0.0 for x in fin]
        a = (abs(self.s0) if math.isfinite(self.s0) else 0.0) + sum(
            max(abs(lo), abs(hi)) for lo, hi in zip(self.lo_w, self.hi_w))
        self.tol = err + 4 * (n + 2) * U * (a + 1)
        self._rest()

    def _rest(self) -> None:
        """Bound the completions that are not forced positive, per level and context.

        ``min_rest`` / ``max_rest`` of their log-likelihood ratio (``+inf`` / ``-inf`` when
        there is none), and ``true_later``: some completion is forced positive.
        """
        import numpy as np
        n = self.n
        self.min_rest = [None] * (n + 1)
        self.max_rest = [None] * (n + 1)
        self.true_later = [None] * (n + 1)
        self.min_rest[n] = np.zeros(1)
        self.max_rest[n] = np.zeros(1)
        self.true_later[n] = np.zeros(1, dtype=bool)
        with np.errstate(invalid="ignore"):
            for i in reversed(range(n)):
                w, nx = self.w[i], self.nxt[i]
                mn, mx = self.min_rest[i + 1][nx], self.max_rest[i + 1][nx]
                ok = (w < math.inf) & (mn < math.inf)  # some non-forced completion
                self.min_rest[i] = np.where(ok, w + mn, math.inf).min(axis=0)
                self.max_rest[i] = np.where(ok, w + mx, -math.inf).max(axis=0)
                self.true_later[i] = ((w == math.inf) | self.true_later[i + 1][nx]).any(axis=0)

    def exact(self, i: int, k: int, v: int):
        """Return the exact ratio of state ``v`` of feature ``i`` in context ``k``.

        ``None``: forced positive.
        """
        return self.ratio[i][int(self.nb[i][k])][v]


class _TooWide(Exception):
    """A level's contexts exceed :data:`MAX_CONTEXT`."""


def _radix(feats, where, card) -> tuple[dict, int]:
    strides, size = {}, 1
    for g in feats:
        strides[g] = size
        size *= card[where[g]]
    return strides, size


def _flog(r: Fraction) -> tuple[float, float]:
    """``(log r, bound on its error)`` for ``r > 0`` (:func:`bnx._util.rounding.log_ratio`)."""
    return log_ratio(r, Fraction(1))


def tan_model(clf: Classifier, order, *, pair: tuple | None = None,
              weights: tuple = (1, 1)) -> TanModel | None:
    """Make the :class:`TanModel` of a classifier along ``order``, if it fits.

    ``None`` when its factors mention a hidden variable (that pruning does not sum out) or
    some level has more than :data:`MAX_CONTEXT` contexts times states.

    Without ``pair``: a binary-class threshold classifier (positive iff
    ``(1 - T) Pr(pos, x) >= T Pr(neg, x)``; ``None`` for other classifiers). With
    ``pair = (a, b)`` (class state indices, any number of classes): positive iff
    ``weights[0] Pr(a, x) >= weights[1] Pr(b, x)``, one comparison of the argmax rule.
    """
    if pair is None:
        if len(clf.class_states) != 2 or clf.rule != "threshold":
            return None
        pos = clf.class_states.index(clf.positive)
        pair, weights = (pos, 1 - pos), (1 - clf.threshold, clf.threshold)
    got = _forest(clf, pair)
    if got is None:
        return None
    try:
        return TanModel(clf, list(order), *got[:3], weights)
    except _TooWide:
        return None
