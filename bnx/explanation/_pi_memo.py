"""What the PI passes (:mod:`.pi`) keep per ODD, in its cache (:mod:`bnx.question._cache`).

The conjunction store of the decision function or its negation, and per layout kind and
decision the pass's memo with the output store it builds into.
"""

from __future__ import annotations

from ..diagram._arrays import negate
from ..diagram._memo import register
from ..diagram.layout import DROPPED, Layout
from ..diagram.store import Store, store_for
from ..odd._odd import ODD
from ..question import _cache

register("pi_state", 4, "the PI-explanation memos per layout and decision")

__all__ = ["CORE_LIMIT", "MEMO_LIMIT"]

#: Nodes plus memo entries a shared node table of explanation sets may hold before it is
#: replaced by a new one.
CORE_LIMIT = 2_000_000


def _store(odd: ODD, decision: bool) -> Store:
    """Return the conjunction store of the decision function (``decision``) or its negation.

    Stars by one gather where the function is unate (:mod:`.unate`).
    """
    least = _cache.least_states(odd, decision)
    if decision:
        return store_for(odd.arrays, odd.encoding, least)
    neg = _cache.store(odd, "negated", lambda: negate(odd.arrays))
    return store_for(neg, odd.encoding, least)


#: Memo entries a PI state keeps before it starts afresh.
MEMO_LIMIT = 1_000_000


class _State:
    """What pi-inst or pi-cover keeps per ODD, layout kind and decision.

    For one output :class:`~bnx.diagram.store.Store` ``core``: the "all dropped" chain, the
    pass's memo (valid across calls: pi-cover's results do not depend on an instance,
    pi-inst's are keyed by the instance's remaining states, named by suffix ids) and the
    suffix table.
    """

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
