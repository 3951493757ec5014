"""Checks of the TAN engine against the oracle and the general engine (the TAN and k-DB tests)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.engines import _tan_model as tm  # private: the TAN engine's model
from bnx.compilation.engines.general import FactorElimination
from bnx.compilation.engines.tan import TanLevels
from bnx.diagram._dd import to_dd  # private: arrays into the engine's manager
from bnx.diagram.backends import new_manager
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.strategies import classifier_of

__all__ = ["against_oracle", "argmax_through_the_tan_engine", "same_node_as_general"]


def against_oracle(case, clf, backend, order=None):
    odd = bnx.compile(clf, order, backend=backend)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  list(clf.features), rule=case.rule)
    for combo, want in table.items():
        x = dict(zip(clf.features, combo))
        assert odd.decide(x) == want, x
    assert odd.count() == sum(table.values())
    return odd


def same_node_as_general(clf, order, backend):
    """The TAN engine and the general engine build the same node on ``order``."""
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(backend, enc.variables)
    model = tm.tan_model(clf, order)
    assert model is not None
    mine = TanLevels(enc, Budget(None), model).run()  # arrays, false on unused codes
    mine = to_dd(mine, bdd, enc.variables)
    pos = clf.class_states.index(clf.positive)
    t = clf.threshold
    theirs = FactorElimination(clf, enc, bdd, Budget(None), pair=(pos, 1 - pos),
                          weights=(1 - t, t)).run()
    dom = enc.domain(bdd)
    assert mine == (mine & dom)  # already false on unused codes
    assert mine == (theirs & dom)


def _general_argmax(clf, order, backend):
    """The argmax rule's function through the general engine alone (dd root, domain)."""
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    bdd = new_manager(backend, enc.variables)
    pos = clf.class_states.index(clf.positive)
    root = bdd.true
    for c in range(len(clf.class_states)):
        if c != pos:
            pair = (pos, c) if c > pos else (c, pos)
            ge = FactorElimination(clf, enc, bdd, Budget(None), pair=pair, weights=(1, 1)).run()
            root = root & (ge if c > pos else ~ge)
    return enc, bdd, root & enc.domain(bdd)


def argmax_through_the_tan_engine(case, backend, data):
    """The oracle's decisions and the general engine's node, default and random order."""
    clf = classifier_of(case)
    assume(len(clf.class_states) > 2)
    order = data.draw(st.permutations(list(clf.features)))
    pos = clf.class_states.index(clf.positive)
    assert tm.tan_model(clf, order, pair=(pos, (pos + 1) % len(clf.class_states))) is not None
    for o in (None, order):
        odd = against_oracle(case, clf, backend, o)
        enc, bdd, theirs = _general_argmax(clf, list(odd.order), backend)
        assert to_dd(odd.arrays, bdd, enc.variables) == theirs
