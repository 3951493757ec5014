"""PI-explanations and prime implicants (Definition 5, Algorithms 4 and 5).

A PI-explanation of a decision is a minimal subset of the instance's
feature=state pairs that makes every other feature irrelevant to the decision.
Prime implicants of the whole decision function are computed by pi-cover
(Algorithm 4, after Coudert and Madre); the PI-explanations of one instance by
pi-inst (Algorithm 5), which follows only the instance's branch, or by pi-cover
followed by restriction to the instance. Both are memoised recursions over the
ODD, feature by feature: a multi-valued feature is kept or dropped whole, and
its "dropped" branch is the conjunction of the cofactors of all its states.
The results are decision diagrams, built in a :class:`~.store.Store` per ODD and
layout (:func:`._cache.node_table`) and written into a ``dd`` manager of the ODD's backend
when a ``dd`` node is asked for.
"""

from __future__ import annotations

import lazy_loader

from .._types import Instance
from ..diagram._arrays import cofactor, negate
from ..diagram._passes import deep, recursion_for
from ..errors import ExplanationError
from ..odd._odd import ODD, check_odd
from . import _cache
from .explanations import DROPPED, Explanations, Layout, wording_of
from .store import Store, store_for

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["pi_explanations", "prime_implicants"]

#: Nodes plus memo entries a shared node table of explanation sets may hold before it is
#: replaced by a new one.
CORE_LIMIT = 2_000_000


def _store(odd: ODD, decision: bool) -> Store:
    """The conjunction store of the decision function (``decision``) or its negation
    (stars by one gather where the function is unate, :mod:`.unate`)."""
    least = _cache.least_states(odd, decision)
    if decision:
        return store_for(odd.arrays, odd.encoding, least)
    neg = _cache.store(odd, "negated", lambda: negate(odd.arrays))
    return store_for(neg, odd.encoding, least)


#: Memo entries a PI state keeps before it starts afresh.
MEMO_LIMIT = 1_000_000


class _State:
    """What pi-inst or pi-cover keeps per ODD, layout kind and decision, for one output
    :class:`~.store.Store` ``core``: the "all dropped" chain, the recursion's
    memo (valid across calls: pi-cover's results do not depend on an instance, pi-inst's
    are keyed by the instance's remaining states, named by suffix ids) and the suffix
    table."""

    __slots__ = ("core", "dropped", "memo", "suffixes")

    def __init__(self, core, layout: Layout) -> None:
        self.core = core
        self.memo: dict = {}
        self.suffixes: dict = {}  # (state, next suffix id) -> suffix id (0: no feature)
        n = layout.n
        dropped = [1] * (n + 1)  # dropped[i]: features i.. all dropped
        for i in reversed(range(n)):
            dropped[i] = layout.build_table(core, i, {DROPPED: dropped[i + 1]})
        self.dropped = dropped


def _state(odd: ODD, layout: Layout, decision: bool) -> _State:
    core = _cache.node_table(odd, layout.variables, limit=CORE_LIMIT)
    key = (layout.kind, decision)
    st = odd.arrays.cache.get("pi_state", key)
    if st is None or st.core is not core or len(st.memo) > MEMO_LIMIT:
        st = odd.arrays.cache.put("pi_state", key, _State(core, layout))
    return st


class _PI:
    """The shared recursion of pi-inst and pi-cover over a :class:`~.store.Store` (the
    ODD's nodes, or its negation's, and their stars); the output is built in the
    :class:`~.store.Store` ``core`` over ``layout``'s variables.

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
        """The cofactor of store node ``u`` (testing feature ``i``) on state ``j``."""
        st = self.store
        level, lo, hi = (st.py[0], st.py[1], st.py[2]) if st.py is not None else \
            (st.level, st.lo, st.hi)
        return int(cofactor(level, lo, hi, u, self.first[i], self.nbits[i], j))

    def _star(self, u: int) -> int:
        """The star of store node ``u`` (made on first use)."""
        st = self.store
        star = st.py[3][u] if st.py is not None else -1
        return star if star >= 0 else st.star_of(u)

    def run(self, u: int, i: int) -> int:
        if u <= 1:
            return self.dropped[i] if u else 0
        key = u * self.stride + i if self.suffix is None else (u, self.suffix[i])
        got = self.memo.get(key)
        if got is not None:
            return got
        st = self.store
        py = st.py
        lvl = py[0][u] if py is not None else int(st.level[u])
        if lvl >= self.first[i + 1]:  # u does not test feature i: keep it dropped
            rest = self.run(u, i + 1)
            got = self._node(i, rest, 0) if self.keep else \
                self.layout.build_table(self.core, i, {DROPPED: rest})
        elif self.keep:  # pi-inst: the instance's state only
            j = self.instance[i]
            if py is not None and self.nbits[i] == 1:
                c = py[2][u] if j else py[1][u]
            else:
                c = self._cof(u, i, j)
            g_c = self.run(c, i + 1)
            if g_c == 0:  # the instance's cofactor is false: so is the star, which
                got = 0  # implies it (no need to make or follow the star)
            else:
                g_star = self.run(self._star(u), i + 1)
                got = self._node(i, g_star, self._diff(g_c, g_star))
        else:  # pi-cover: every state
            g_star = self.run(self._star(u), i + 1)
            children = {DROPPED: g_star}
            for j in range(st.nstates[i]):
                children[j] = self._diff(self.run(self._cof(u, i, j), i + 1), g_star)
            got = self.layout.build_table(self.core, i, children)
        self.memo[key] = got
        return got

    def root(self) -> int:
        """The output for the whole decision function (or its negation)."""
        if not self.store.closed:
            self._prefetch()
        with recursion_for(self.n):
            return self.run(self.store.root, 0)

    def _prefetch(self) -> None:
        """Make the stars the recursion will reach, one feature at a time and all of a
        feature's at once (one breadth-first conjunction per feature, not one per node):
        the nodes reached at feature ``i`` are those reached at ``i - 1`` that skip it,
        and the stars and followed cofactors of those that test it."""
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
        """The explanations of ``decision`` as an :class:`Explanations` set."""
        variables = self.layout.variables
        ref = self.root()
        return Explanations(None, None, self.layout, decision=decision,
                            make_manager=lambda: _cache.aux_manager(odd, variables),
                            feature_order=odd.display_order, core=(self.core, ref),
                            wording=wording_of(odd), **kwargs)


@deep
def prime_implicants(odd: ODD, *, decision: bool = True) -> Explanations:
    """All prime implicants of the decision function (pi-cover, Algorithm 4).

    With ``decision=False``, those of its complement. Together they are the
    PI-explanations of all decisions of the classifier.

    Returns
    -------
    Explanations
        Partial instances; ``print`` lists them shortest first.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> pis = bnx.prime_implicants(odd)
    >>> len(pis), pis.lengths()
    (3, {2: 1, 3: 2})
    """
    check_odd(odd)
    decision = _check_decision(decision)
    return _PI(odd, _cache.layout(odd, "partial"), None, decision).explain(
        odd, decision, kind="prime implicants")


@deep
def pi_explanations(odd: ODD, instance: Instance, *, method: str = "inst",
                    within=None) -> Explanations:
    """Every PI-explanation of the decision on ``instance``, as partial instances.

    A PI-explanation is a minimal part ``S`` of the instance (no proper subset
    qualifies) such that every complete instance agreeing with it on ``S`` gets its
    decision. *Within* a set ``κ`` of instances (``within=``), only the instances of
    ``κ`` count: every ``z`` in ``κ`` that agrees with the instance on ``S`` gets its
    decision; instances outside ``κ`` (of probability zero, or forbidden) may take
    either, so the explanations are never longer, and often shorter.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    method : {"inst", "cover"}
        ``"inst"``: Algorithm 5 (pi-inst). ``"cover"``: Algorithm 4 (pi-cover),
        then the prime implicants that agree with the instance. Same result.
    within : instance set, classifier or list of mappings, optional
        The set ``κ``: :func:`bnx.support` (the instances the network allows),
        :func:`bnx.forbid` (those matching no forbidden combination), their ``&``; a
        classifier stands for its support, a list of mappings for
        ``bnx.forbid(odd, list)``. The instance must be in it
        (:class:`~bnx.ExplanationError` otherwise).

    Returns
    -------
    Explanations
        Partial instances; ``print`` lists them shortest first.

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
    """
    check_odd(odd)
    if within is not None:
        from ._within import within_odd
        odd = within_odd(odd, instance, within)
    if method not in ("inst", "cover"):
        raise ExplanationError(f"unknown method {method!r}: expected 'inst' or 'cover'")
    x = _cache.indices(odd, instance)
    enc = odd.encoding
    decision = _cache.decide(odd, x)
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    layout = Layout("keep", enc, instance=x)
    if method == "inst":
        return _PI(odd, layout, x, decision).explain(odd, decision, kind="PI", instance=named)
    cover = prime_implicants(odd, decision=decision)
    g, u = cover.nodes
    core = _cache.node_table(odd, layout.variables, limit=CORE_LIMIT)
    with recursion_for(len(x)):
        root = _project(g, u, 0, cover.layout, layout, core, x, {})
    variables = layout.variables
    return Explanations(None, None, layout,
                        make_manager=lambda: _cache.aux_manager(odd, variables),
                        kind="PI", decision=decision, instance=named,
                        feature_order=odd.display_order, core=(core, root),
                        wording=wording_of(odd))


def _project(g: Store, u: int, i: int, src: Layout, dst: Layout, core, x: list[int],
             memo: dict) -> int:
    """The members of ``u`` (in layout ``src``) that are subsets of instance ``x``,
    built in the :class:`~.store.Store` ``core`` in the keep layout ``dst``."""
    if u == 0:
        return 0
    if i == src.n:
        return 1
    key = (u, i)
    got = memo.get(key)
    if got is None:
        choices = src.choice_map[i]
        children = {label: _project(g, g.restrict(u, choices[label]), i + 1, src, dst, core,
                                    x, memo)
                    for label in (DROPPED, x[i])}
        got = memo[key] = dst.build_table(core, i, children)
    return got


def _check_decision(decision) -> bool:
    if not isinstance(decision, bool):
        raise ExplanationError(f"decision must be True or False, got {decision!r}")
    return decision
