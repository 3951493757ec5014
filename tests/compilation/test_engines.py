"""The engines' contract: every compilation engine, on every classifier it accepts (both
rules), gives the decision function of the brute-force oracle (tests/_support/oracle.py) as arrays
false on every code that names no state; what it does not accept it refuses with a reason;
``compile`` and ``estimate_size`` choose through one function."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.engines import (
    Engine,
    FactorEngine,
    LevelEngine,
    RatioEngine,
    SplitEngine,
    TanEngine,
    TensorEngine,
)
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.builders import ENGINES
from tests._support.strategies import (
    classifier_of,
    general_networks,
    latent_tree,
    naive_bayes,
    tan_networks,
)

#: Each engine with classifiers that it accepts (among others that it may refuse: the
#: strategies draw two class states mostly, three sometimes).
FITS = {LevelEngine: naive_bayes(binary=True), RatioEngine: naive_bayes(binary=True),
        SplitEngine: latent_tree(binary=True),
        TanEngine: tan_networks(max_features=5, max_instances=200),
        TensorEngine: st.one_of(naive_bayes(), latent_tree()),
        FactorEngine: general_networks(max_instances=48)}

ANY = st.one_of(naive_bayes(), latent_tree(), tan_networks(max_features=5, max_instances=200),
                general_networks(max_instances=48))


def _encoding(clf, order) -> Encoding:
    return Encoding(tuple(order), tuple(clf.states(f) for f in order))


def _as_argmax(case):
    return replace(case, threshold=None, rule="argmax")


def _against_oracle(engine, case, order, backend="autoref") -> bool:
    """Run ``engine`` on ``case`` along ``order`` if it accepts it and check the arrays
    against the oracle; a refusal must say why. Whether it accepted."""
    clf = classifier_of(case)
    enc = _encoding(clf, order)
    verdict = engine.accepts(clf, enc)
    assert isinstance(verdict.reason, str) and verdict.reason, engine
    if not verdict:
        return False
    arrays = engine(clf, enc, Budget(None), verdict.given, backend=backend).run()
    odd = bnx.ODD(clf, enc, backend=backend, arrays=arrays)
    f = odd.root  # the arrays in dd form
    assert f == f & odd.domain, f"{engine.__name__}: true on a code that names no state"
    rule = case.rule
    positives = 0
    for x in oracle.all_instances(case.net, case.features):
        want = oracle.decide(case.net, case.class_var, case.positive, case.threshold, x,
                             case.features, rule=rule)
        assert odd.decide(x, within="all") == want, (engine.__name__, x)
        positives += want
    assert odd.count() == positives, engine.__name__
    return True


def test_the_engines_keep_the_contract():
    """Every engine bnx.compilation.engines exports is here, and keeps the contract."""
    import bnx.compilation.engines as engines
    exported = {getattr(engines, n) for n in engines.__all__ if n.endswith("Engine")}
    assert exported - {Engine, engines.DdEngine} == set(FITS) == set(ENGINES)
    assert ENGINES[-1] is FactorEngine
    for engine in ENGINES:
        assert issubclass(engine, Engine) and engine.name


def _chosen(clf, order, **kwargs) -> list:
    """The engines that ran when bnx.compile compiled ``clf`` (each engine's ``run``
    recorded), and the ODD: (engines, odd)."""
    ran = []
    with pytest.MonkeyPatch.context() as mp:
        for engine in ENGINES:
            def spy(self, _run=engine.run, _engine=engine):
                ran.append(_engine)
                return _run(self)
            mp.setattr(engine, "run", spy)
        odd = bnx.compile(clf, order, backend="autoref", **kwargs)
    return ran, odd


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_each_engine_equals_the_oracle_on_what_it_accepts(engine, data):
    case = data.draw(FITS[engine])
    order = data.draw(st.permutations(case.features))
    if case.rule == "threshold" and data.draw(st.booleans()):
        case = _as_argmax(case)  # the same network under the other rule
    assume(_against_oracle(engine, case, order))  # (30 examples that it accepts)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(case=ANY, argmax=st.booleans(), data=st.data())
def test_every_engine_on_any_classifier_accepts_correctly_or_says_why(case, argmax, data):
    if argmax and case.rule == "threshold":
        case = _as_argmax(case)
    order = data.draw(st.permutations(case.features))
    accepted = [e for e in ENGINES if _against_oracle(e, case, order)]
    assert FactorEngine in accepted  # the general engine takes every classifier
    # compile runs the first engine that accepts (a two-class argmax: as a threshold)
    clf = classifier_of(case)
    if not (case.rule == "argmax" and len(clf.class_states) == 2):
        ran, _ = _chosen(clf, order)
        assert ran == [accepted[0]]


def test_refusals_name_the_reason():
    clf = bnx.examples.admissions()
    enc = _encoding(clf, clf.features)
    best = bnx.Classifier(clf.network, clf.class_var, clf.positive, rule="argmax",
                          features=clf.features)
    for engine in (LevelEngine, RatioEngine, SplitEngine, TensorEngine):
        verdict = engine.accepts(best, enc)
        assert not verdict and "argmax" in verdict.reason
    verdict = SplitEngine.accepts(clf, enc)
    assert not verdict and "not a latent tree" in verdict.reason
    assert TanEngine.accepts(best, enc) and FactorEngine.accepts(best, enc)


def test_the_exact_engine_takes_what_doubles_cannot_hold():
    """A probability below the doubles: the level engine refuses, the exact one compiles,
    and compile chooses it; the estimate falls back to the crude bound."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    tiny = 5e-324  # a subnormal double: no float log-odds bound holds for it
    net = DiscreteBayesianNetwork([("C", "X0"), ("C", "X1")])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]]),
                 TabularCPD("X0", 2, [[tiny, 0.5], [1 - tiny, 0.5]], evidence=["C"],
                            evidence_card=[2]),
                 TabularCPD("X1", 2, [[0.25, 0.75], [0.75, 0.25]], evidence=["C"],
                            evidence_card=[2]))
    clf = bnx.Classifier(net, "C", 1)
    enc = _encoding(clf, clf.features)
    verdict = LevelEngine.accepts(clf, enc)
    assert not verdict and "double" in verdict.reason
    ran, odd = _chosen(clf, clf.features)
    assert ran == [RatioEngine]
    assert odd.count() == sum(clf.decide(x, within="all") for x in _instances(clf))
    assert bnx.estimate_size(clf) == 1 + 2 + 2  # sum_i min(prefixes, completions) + 2


def _instances(clf):
    import itertools
    for values in itertools.product(*(clf.states(f) for f in clf.features)):
        yield dict(zip(clf.features, values))


@settings(max_examples=20, deadline=None)
@given(case=naive_bayes(binary=True))
def test_the_estimate_of_a_two_class_argmax_is_its_threshold_forms(case):
    """estimate_size chooses as compile does: the argmax rule over two classes is the
    threshold 1/2 on the first class state (it failed on naive Bayes before)."""
    clf = classifier_of(_as_argmax(case))
    assume(len(clf.class_states) == 2)
    first = bnx.Classifier(case.net, case.class_var, clf.class_states[0],
                           threshold=Fraction(1, 2), features=case.features)
    assert bnx.estimate_size(clf) == bnx.estimate_size(first) >= 1
