"""PI-explanations and prime implicants (Definition 5, Algorithms 4 and 5).

A PI-explanation of a decision is a minimal subset of the instance's
feature=state pairs that makes every other feature irrelevant to the decision.
Prime implicants of the whole decision function are computed by pi-cover
(Algorithm 4, after Coudert and Madre); the PI-explanations of one instance by
pi-inst (Algorithm 5), which follows only the instance's branch, or by pi-cover
followed by restriction to the instance. Both are memoised passes over the ODD,
feature by feature, with explicit stacks or feature by feature (never a Python recursion
per feature, so a diagram of any depth leaves Python's recursion limit alone): a
multi-valued feature is kept or dropped whole, and its "dropped" branch is the
conjunction of the cofactors of all its states.
The results are decision diagrams, built in a :class:`~bnx.diagram.store.Store` per ODD and
layout (:func:`bnx.question._cache.node_table`) and written into a ``dd`` manager of the ODD's
backend
when a ``dd`` node is asked for.
"""

from __future__ import annotations

import numpy as np

from .._util.guard import question
from .._util.types import Instance
from ..diagram._arrays import cofactor
from ..diagram._depth_first import depth_first
from ..diagram._setops import difference
from ..diagram.store import Store
from ..errors import ArgumentError, ExplanationError
from ..odd._odd import ODD, check_odd
from ..question import _cache
from ..question._classes import ask, of_class
from . import _pi_memo
from ._pi_memo import _state, _store
from ._within import keep_within, within_root
from .explanations import DROPPED, Explanations, Layout, wording_of

__all__ = ["pi_explanations", "prime_implicants"]

class _PI:
    """The shared pass of pi-inst and pi-cover over a :class:`~bnx.diagram.store.Store`.

    The store holds the ODD's nodes, or its negation's, and their stars; the output is built
    in the :class:`~bnx.diagram.store.Store` ``core`` over ``layout``'s variables.

    Its memo is kept per ODD (:class:`_State`), keyed by node and feature for pi-cover
    and by node and the instance's remaining states for pi-inst, so later calls (other
    instances) find what earlier ones computed.
    """

    def __init__(self, odd: ODD, layout: Layout, instance: list[int] | None, decision: bool):
        self.store = _store(odd, decision)
        self.layout = layout
        state = _state(odd, layout, decision)
        self.core = core = state.core
        self.keep = layout.kind == "keep"
        self._node, self._diff = core.node, core.diff
        self.first = odd.encoding.first_level
        self.nbits = [len(b) for b in odd.encoding.bits]
        self.n = layout.n
        self.stride = self.n + 1
        self.memo = state.memo
        self.dropped = state.dropped
        self._suffixes = state.suffixes
        self.instance = self.suffix = None
        if instance is not None:
            self.retarget(instance)

    def retarget(self, instance: list[int]) -> None:
        """Explain ``instance`` (memo keys carry its remaining states' suffix id)."""
        self.instance = instance
        table = self._suffixes
        sid = [0] * (len(instance) + 1)
        nxt = 0
        for i in range(len(instance) - 1, -1, -1):
            key = (instance[i], nxt)
            got = table.get(key)
            if got is None:
                got = table[key] = len(table) + 1
            sid[i] = nxt = got
        self.suffix = sid

    def _cof(self, u: int, i: int, j: int) -> int:
        """Return the cofactor of store node ``u`` (testing feature ``i``) on state ``j``."""
        st = self.store
        return cofactor(st.var, st.lo, st.hi, u, self.first[i], self.nbits[i], j)

    def _star(self, u: int) -> int:
        """Return the star of store node ``u`` (made on first use)."""
        st = self.store
        star = st.star[u]
        return star if star >= 0 else st.star_of(u)

    def run(self, u: int, i: int) -> int:
        """Return the output for store node ``u`` over features ``i..`` (memoised)."""
        if u <= 1:
            return self.dropped[i] if u else 0
        if not self.keep:
            return self._cover(u, i)
        got = self.memo.get((u, self.suffix[i]))
        return self._inst(u, i) if got is None else got

    def _inst(self, u: int, i: int) -> int:
        """Run pi-inst below ``(u, i)`` (not in the memo), depth first.

        Without a Python recursion per feature. A node's output keeps the instance's state
        with the PI-explanations of its cofactor on that state minus those of its star, and
        drops it with its star's; the star is followed only when the cofactor's output is
        not false, and a node that skips feature ``i`` keeps it dropped.

        The pass goes down from a node while a child's output is not known (a terminal's
        and the memo's are read at once), leaving a frame ``(u, i, g)`` per node on the
        way: ``g`` is ``-2`` while the node skips feature ``i`` and its rest is explained,
        ``-1`` while its cofactor is, else (the cofactor's output) while its star is. When a
        node's output is made, the frames are taken back up until one needs its star.
        """
        memo, sfx, dropped = self.memo, self.suffix, self.dropped
        node, diff, x = self._node, self._diff, self.instance
        first, nbits = self.first, self.nbits
        st = self.store
        level, plo, phi, pstar = st.var, st.lo, st.hi, st.star
        todo: list = []
        push, pop = todo.append, todo.pop
        g = None  # the cofactor's output of (u, i), None while not asked for
        while True:
            while True:  # down from (u, i), not in the memo, until a node's output is made
                i1 = i + 1
                if g is None:
                    if level[u] >= first[i1]:  # u does not test feature i: keep it dropped
                        got = memo.get((u, sfx[i1]))
                        if got is None:
                            push((u, i, -2))
                            i = i1
                            continue
                        got = node(i, got, 0)
                        break
                    if nbits[i] == 1:
                        c = phi[u] if x[i] else plo[u]
                    else:
                        c = self._cof(u, i, x[i])
                    if c <= 1:
                        g = dropped[i1] if c else 0
                    else:
                        g = memo.get((c, sfx[i1]))
                        if g is None:
                            push((u, i, -1))
                            u, i = c, i1
                            continue
                if g == 0:  # the instance's cofactor is false: so is the star, which
                    got = 0  # implies it (no need to make or follow the star)
                    break
                s = pstar[u]
                if s < 0:
                    s = st.star_of(u)
                g_s = (dropped[i1] if s else 0) if s <= 1 else memo.get((s, sfx[i1]))
                if g_s is None:
                    push((u, i, g))
                    u, i, g = s, i1, None
                    continue
                got = node(i, g_s, diff(g, g_s))
                break
            memo[(u, sfx[i])] = got
            g = None
            while todo:  # back up with the output ``got`` of the node just made
                u, i, g = pop()
                if g == -1:  # the cofactor's output is made: on to the star (down)
                    g = got
                    break
                got = node(i, got, 0) if g == -2 else node(i, got, diff(g, got))
                memo[(u, sfx[i])] = got
                g = None
            else:
                return got

    def _cover(self, u: int, i: int) -> int:
        """Run pi-cover below ``(u, i)``, feature by feature (no Python recursion per feature).

        A node's output over features ``i..`` drops feature ``i`` with its star's output and
        keeps each state ``j`` with its cofactor's minus the star's. Down the features, the
        nodes reached that the memo lacks, each with its children (its star and cofactors;
        itself when it skips the feature); then up, their outputs.
        """
        memo, dropped, stride = self.memo, self.dropped, self.stride
        build, core, diff = self.layout.build_table, self.core, self._diff
        first, cof, star = self.first, self._cof, self._star
        st = self.store
        level, nstates = st.var, st.nstates
        rows = []  # per feature from i: [(node, its children's keys), ...]
        reached = [u] if u * stride + i not in memo else []
        k = i
        while reached:
            k1 = k + 1
            row, nxt = [], {}
            t = -1 - dropped[k1]  # a terminal's key: -1 - its output
            for w in reached:
                if level[w] >= first[k1]:  # w does not test feature k: keep it dropped
                    kids = (w,)
                else:
                    kids = [star(w)]
                    for j in range(nstates[k]):
                        kids.append(cof(w, k, j))
                keys = []
                for c in kids:
                    if c > 1:
                        key = c * stride + k1
                        if key not in memo:
                            nxt[c] = None
                    else:
                        key = t if c else -1
                    keys.append(key)
                row.append((w * stride + k, keys))
            rows.append(row)
            reached = list(nxt)
            k = k1
        for k in range(i + len(rows) - 1, i - 1, -1):
            for key, keys in rows[k - i]:
                g_star = memo[keys[0]] if keys[0] >= 0 else -1 - keys[0]
                children = {DROPPED: g_star}
                for j in range(1, len(keys)):
                    c = keys[j]
                    children[j - 1] = diff(memo[c] if c >= 0 else -1 - c, g_star)
                memo[key] = build(core, k, children)
        return memo[u * stride + i]

    def root(self) -> int:
        """Return the output for the whole decision function (or its negation)."""
        if not self.store.closed:
            self._prefetch()
        return self.run(self.store.root, 0)

    def _prefetch(self) -> None:
        """Make the stars the pass will reach, one feature at a time and all of a feature's at once.

        One breadth-first conjunction per feature, not one per node: the nodes reached at
        feature ``i`` are those reached at ``i - 1`` that skip it, and the stars and
        followed cofactors of those that test it.
        """
        st = self.store
        reached = {st.root}
        for i in range(self.n):
            level = st.level
            end = self.first[i + 1]
            test = [u for u in reached if u > 1 and level[u] < end]
            if not test:
                continue
            need = [u for u in test if st.star[u] < 0]
            if need:
                st.make_stars(np.array(need, dtype=np.int64), i)
            nxt = {u for u in reached if u > 1 and level[u] >= end}
            star = st.star
            states = (range(st.nstates[i]) if self.instance is None else (self.instance[i],))
            for u in test:
                nxt.add(int(star[u]))
                for j in states:
                    nxt.add(self._cof(u, i, j))
            reached = nxt

    def explain(self, odd: ODD, decision: bool, **kwargs) -> Explanations:
        """Return the explanations of ``decision`` as an :class:`Explanations` set.

        ``kwargs``: the set's other attributes; the wording is ``odd``'s unless given.
        """
        variables = self.layout.variables
        ref = self.root()
        kwargs.setdefault("wording", wording_of(odd))
        return Explanations(None, None, self.layout, decision=decision,
                            make_manager=lambda: _cache.aux_manager(odd, variables),
                            feature_order=odd.display_order, core=(self.core, ref),
                            **kwargs)


@question
def prime_implicants(odd: ODD, *, decision=True, within="support") -> Explanations:
    """All prime implicants of the decision function (pi-cover, Algorithm 4).

    With ``decision=False``, those of its complement. Together they are the
    PI-explanations of all decisions of the classifier. On a :class:`~bnx.MulticlassODD`,
    ``decision`` names a class state: the prime implicants of its class formula, the
    minimal partial instances every completion of which is decided that class.

    Parameters
    ----------
    odd : ODD
    decision : bool or class state, default True
        On a binary ODD, ``True`` (the decision function) or ``False`` (its complement);
        on a multi-class ODD, one of :attr:`~bnx.MulticlassODD.classes` (required).
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances the conditions are about: a prime implicant is a minimal partial
        instance every instance of the world that completes it gets ``decision``, and
        that some instance of the world completes (a condition no possible patient meets
        settles nothing). By default the instances the network allows (its support,
        :func:`bnx.support`); ``"all"``: every complete instance (the total decision
        function, the paper's); or a set (:func:`bnx.forbid`, an ``&`` of sets).

    Returns
    -------
    Explanations
        Partial instances; ``print`` lists them shortest first. On a multi-class ODD,
        :attr:`~bnx.Explanations.decided` is the class.

    Raises
    ------
    ArgumentError
        A multi-class ODD and no class named.
    UnknownStateError
        ``decision`` is not a class state.

    See Also
    --------
    pi_explanations : those that agree with one instance.
    bnx.MulticlassODD.class_formula : the binary ODD of one class.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> pis = bnx.prime_implicants(odd)
    >>> len(pis), pis.lengths()
    (3, {2: 1, 3: 2})

    Of one class of a multi-class classifier (a cold, the flu or an allergy):

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> print(bnx.prime_implicants(odd, decision="allergy"))  # doctest: +NORMALIZE_WHITESPACE
    2 prime implicants of Illness = allergy (the minimal conditions that settle it),
    shortest first:
      Season = spring, Fever = no, Aches = no
      Season = summer, Fever = no, Sneezing = yes, Aches = no
    """
    check_odd(odd)
    extra = {}
    if odd.multiclass:
        if isinstance(decision, bool):
            raise ArgumentError(f"this ODD picks one of {len(odd.classes)} class states: name "
                                f"the class whose prime implicants you want, decision= one of "
                                f"{', '.join(map(str, odd.classes))}")
        q = of_class(odd, decision)
        odd, decision = q.formula, True
        extra = dict(decided=q.decided, wording=q.wording)
    decision = _check_decision(decision)
    kappa = within_root(odd, within)
    if kappa is None:
        return _PI(odd, _cache.layout(odd, "partial"), None, decision).explain(
            odd, decision, kind="prime implicants", **extra)
    # the primes of g (f widened by the instances outside κ), less those of ¬κ alone:
    # a prime of g inside ¬κ is one of ¬κ's (¬κ implies g), and only those are met by no
    # instance of κ
    g = keep_within(odd, not decision, within)
    layout = _cache.layout(g, "partial")
    pass_ = _PI(g, layout, None, decision)
    ref = pass_.root()
    outside = ODD(None, odd.encoding, backend=odd.backend, bdd=odd.bdd,
                  root=difference(odd.domain, kappa), meta={"least_states": None})
    vacuous = _PI(outside, _cache.layout(outside, "partial"), None, True).explain(
        outside, True, kind="prime implicants").root
    core = pass_.core
    ref = core.diff(ref, core.read_dd(vacuous))
    variables = layout.variables
    extra.setdefault("wording", wording_of(odd))
    return Explanations(None, None, layout, decision=decision, kind="prime implicants",
                        make_manager=lambda: _cache.aux_manager(odd, variables),
                        feature_order=odd.display_order, core=(core, ref), **extra)


@question
def pi_explanations(odd: ODD, instance: Instance, *, rival=None, method: str = "inst",
                    within="support") -> Explanations:
    """Every PI-explanation of the decision on ``instance``, as partial instances.

    A PI-explanation is a minimal part ``S`` of the instance (no proper subset
    qualifies) such that every complete instance agreeing with it on ``S`` gets its
    decision. *Within* a set ``κ`` of instances (``within=``), only the instances of
    ``κ`` count: every ``z`` in ``κ`` that agrees with the instance on ``S`` gets its
    decision; instances outside ``κ`` (of probability zero, or forbidden) may take
    either, so the explanations are never longer, and often shorter.

    On a :class:`~bnx.MulticlassODD`, the decision is the class ``a`` decided on the
    instance: every completion of ``S`` is decided ``a``. With ``rival=b``, "why ``a``
    and not ``b``": minimal parts ``S`` with which no completion is decided ``b`` (they
    may be decided ``a`` or a third class). They are the PI-explanations of ``x`` on the
    class formula of ``a`` (of ``b``), asked of it with the same passes.

    Parameters
    ----------
    odd : ODD or MulticlassODD
    instance : mapping
        A complete instance.
    rival : class state, optional
        On a multi-class ODD, a class other than the one decided on ``instance``. On a
        binary ODD, its other decision, which asks the same question as without it.
    method : {"inst", "cover"}
        ``"inst"``: Algorithm 5 (pi-inst). ``"cover"``: Algorithm 4 (pi-cover),
        then the prime implicants that agree with the instance. Same result.
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The set ``κ``. ``"support"``: the instances the network allows (positive
        probability, :func:`bnx.support`; every instance where no table of the features
        or their ancestors has a zero entry, or where the ODD holds no network);
        ``"all"``: every instance, the paper's total decision function (an instance of
        probability zero decided by the rule's tie). Or a set: :func:`bnx.support`,
        :func:`bnx.forbid` (those matching no forbidden combination), their ``&``; a
        classifier stands for its support, a list of mappings for
        ``bnx.forbid(odd, list)``. The instance must be in it
        (:class:`~bnx.ExplanationError` otherwise).

    Returns
    -------
    Explanations
        Partial instances; ``print`` lists them shortest first, named by the decision
        (``"for Illness = allergy and not flu"``); on a multi-class ODD,
        :attr:`~bnx.Explanations.decided` and :attr:`~bnx.Explanations.rival` say the
        question.

    Raises
    ------
    ArgumentError
        ``rival`` is the decided class (or not the other decision of a binary ODD).
    UnknownStateError
        ``rival`` is not a class state.

    See Also
    --------
    contrastive_explanations : their minimal hitting sets (what to change).
    check_explanation : whether a given part is one.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> for e in sorted(sorted(e) for e in bnx.pi_explanations(odd, x)):
    ...     print(e)
    ['EntranceExam', 'FirstTimeApplicant', 'GPA']
    ['EntranceExam', 'FirstTimeApplicant', 'WorkExperience']
    ['GPA', 'WorkExperience']

    When no applicant lacks both work experience and a good entrance exam, a first-time
    applicant's good GPA explains the admission without the exam:

    >>> rare = [{"WorkExperience": "-", "EntranceExam": "-"}]
    >>> for e in sorted(sorted(e) for e in bnx.pi_explanations(odd, x, within=rare)):
    ...     print(e)
    ['EntranceExam', 'FirstTimeApplicant', 'WorkExperience']
    ['FirstTimeApplicant', 'GPA']
    ['GPA', 'WorkExperience']

    A multi-class classifier picks a cold, the flu or an allergy. Why an allergy, and why
    an allergy rather than the flu:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}
    >>> print(bnx.pi_explanations(odd, x))
    1 sufficient reason for Illness = allergy (PI-explanations):
      Season = spring, Fever = no, Aches = no
    >>> print(bnx.pi_explanations(odd, x, rival="flu"))
    4 sufficient reasons for Illness = allergy and not flu (PI-explanations), shortest first:
      Sneezing = yes, Aches = no
      Fever = no, Aches = no
      Fever = no, Sneezing = yes
      Season = spring, Fever = no
    """
    check_odd(odd)
    if method not in ("inst", "cover"):
        raise ExplanationError(f"unknown method {method!r}: expected 'inst' or 'cover'")
    q = ask(odd, instance, rival)
    odd = q.formula
    from ._within import within_odd
    odd = within_odd(odd, instance, within)
    x = _cache.indices(odd, instance)
    enc = odd.encoding
    decision = _cache.decide(odd, x)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    layout = Layout("keep", enc, instance=x)
    asked = dict(wording=q.wording, decided=q.decided, rival=q.rival)
    if method == "inst":
        return _PI(odd, layout, x, decision).explain(odd, decision, kind="PI", instance=named,
                                                     **asked)
    cover = prime_implicants(odd, decision=decision, within="all")  # (g: already within)
    g, u = cover.nodes
    core = _cache.node_table(odd, layout.variables, limit=_pi_memo.CORE_LIMIT)
    root = _project(g, u, cover.layout, layout, core, x)
    variables = layout.variables
    return Explanations(None, None, layout,
                        make_manager=lambda: _cache.aux_manager(odd, variables),
                        kind="PI", decision=decision, instance=named,
                        feature_order=odd.display_order, core=(core, root), **asked)


def _project(g: Store, u: int, src: Layout, dst: Layout, core, x: list[int]) -> int:
    """Keep the members of ``u`` (in layout ``src``) that are subsets of instance ``x``.

    Built in the :class:`~bnx.diagram.store.Store` ``core`` in the keep layout ``dst`` (one
    depth-first pass, :func:`bnx.diagram._depth_first.depth_first`).
    """
    choices, restrict, build = src.choice_map, g.restrict, dst.build_table

    def kids(w: int, i: int) -> tuple:  # dropped, the instance's state
        bits = choices[i]
        return restrict(w, bits[DROPPED]), restrict(w, bits[x[i]])

    def combine(i: int, _, outs: list) -> int:
        return build(core, i, {DROPPED: outs[0], x[i]: outs[1]})

    return depth_first(u, src.n, 0, kids, combine)


def _check_decision(decision) -> bool:
    if not isinstance(decision, bool):
        raise ExplanationError(f"decision must be True or False, got {decision!r}")
    return decision
