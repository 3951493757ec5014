"""The one inference path on networks (bnx/classifier/_inference.py): float answers within
their proven bound of the exact ones and exact answers equal to brute force on generated
networks; class probabilities equal to pyAgrum's LazyPropagation on pgmpy's bundled
networks (the independent reference). And a classifier restricted by evidence
(bnx/classifier/_restricted.py, what bnx.local compiles for a partial instance).

The classifier's private units are tested here, and only here: the parts of the inference
path (a float contraction's error bound, an elimination order, a plan cached per pattern)
and the restriction have no public face; a question or a probability reaches them only
whole, where a float within its bound and an exact fallback give the same answer."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx

# private: the inference path's parts, each a unit (the float bound of one contraction...)
from bnx.classifier._inference import FloatRange, Inference, contract, elimination_order, plan
from bnx.classifier._restricted import restrict, threshold_form  # private: the restriction
from tests._support import oracle
from tests._support.bundled import bundled_bif, bundled_network
from tests._support.strategies import classifier_of, general_networks, instances


def _classifier(case):
    if case.rule == "argmax":
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                          features=case.features)


def _value(answer, j) -> Fraction:
    return Fraction(float(answer.table.reshape(-1)[j])) * Fraction(2) ** answer.exponent


@settings(max_examples=40, deadline=None)
@given(general_networks(), st.data())
def test_float_answers_are_within_their_bound_of_brute_force(case, data):
    """On any observed subset of the features: each float ``Pr(c, x)`` within its stated
    ``err`` of the brute-force joint, each float class probability within its stated bound
    of the exact posterior; the exact answers equal brute force; the decision (floats,
    settled exactly when the bound cannot) equals brute force's."""
    note(repr(case))
    clf = _classifier(case)
    x = data.draw(instances(case), label="instance")
    seen = data.draw(st.lists(st.sampled_from(case.features), unique=True), label="observed")
    part = {f: x[f] for f in seen}
    exact = oracle.class_joint(case.net, case.class_var, part, list(part))
    exact = [exact[s] for s in clf.classes]
    idx = clf.encode(part, partial=True)
    assert clf._class_joint(idx) == exact
    try:
        answer = clf._inference.joint((case.class_var,), idx)
    except FloatRange:  # no bound provable: the callers compute exactly
        return
    for j, v in enumerate(exact):
        got = _value(answer, j)
        assert abs(got - v) <= Fraction(answer.err) * v
        assert (got == 0) == (v == 0)
    total = sum(exact)
    if total == 0:
        with pytest.raises(bnx.ExplanationError):
            clf.class_probabilities(part, partial=True)
        return
    probs, err = clf._inference.joint((case.class_var,), idx, whole=False).probabilities()
    assert err < 1e-12
    for p, v in zip(probs, exact):
        assert abs(Fraction(p) - v / total) <= Fraction(err) * v / total
    shown = clf.class_probabilities(part, partial=True)
    assert all(abs(Fraction(shown[s]) - v / total) <= Fraction(err) * v / total
               for s, v in zip(clf.classes, exact))
    assert clf.class_probabilities(part, partial=True, exact=True) == {
        s: float(v / total) for s, v in zip(clf.classes, exact)}
    if len(part) == len(case.features):
        assert clf.decide(part, within="all") == oracle.decide(
            case.net, case.class_var, case.positive, case.threshold, part, case.features,
            rule=case.rule)


def test_a_decision_the_bound_cannot_settle_is_decided_exactly():
    """A posterior exactly at the threshold: the floats cannot tell, the exact tie decides
    positive (``>=``)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "H"), ("H", "X")])
    net.add_cpds(TabularCPD("C", 2, [[0.3], [0.7]]),
                 TabularCPD("H", 2, [[0.1, 0.6], [0.9, 0.4]], evidence=["C"],
                            evidence_card=[2]),
                 TabularCPD("X", 2, [[0.25, 0.5], [0.75, 0.5]], evidence=["H"],
                            evidence_card=[2]))
    clf = bnx.Classifier(net, "C", 1, features=["X"])
    for x in (0, 1):
        t = clf.posterior_exact({"X": x})
        tied = bnx.Classifier(net, "C", 1, threshold=t, features=["X"])
        assert tied.decide({"X": x}) is True
        above = bnx.Classifier(net, "C", 1, threshold=t + Fraction(1, 10 ** 30),
                               features=["X"])
        assert above.decide({"X": x}) is False


def test_contract_is_one_body_for_exact_and_float():
    """The same plan on integers and on floats: equal up to the float's bound, and equal to
    the brute-force sum of products."""
    rng = np.random.default_rng(7)
    card = {"A": 2, "B": 3, "C": 2, "D": 4}
    scopes = [("A", "B"), ("B", "C"), ("C", "D"), ("A", "D"), ("D",)]
    ints = [rng.integers(0, 9, size=[card[v] for v in s]).astype(object) for s in scopes]
    p = plan(scopes, ("A",), card)
    exact, _, _ = contract(p, ints, exact=True)
    floats, e, err = contract(p, [t.astype(np.float64) for t in ints])
    for a in range(2):
        brute = sum(math.prod(int(t[tuple({"A": a, "B": b, "C": c, "D": d}[v] for v in s)])
                              for s, t in zip(scopes, ints))
                    for b, c, d in itertools.product(range(3), range(2), range(4)))
        assert exact[a] == brute
        assert abs(Fraction(float(floats[a])) * 2 ** e - brute) <= Fraction(err) * brute


def test_a_large_exact_product_ticks_between_slices(monkeypatch):
    """An exact contraction's matrix products run in slices with the budget's tick between
    (diabetes' tail table: one product of big integers ran past any timeout): the same
    table, and a tick that raises stops it midway."""
    from bnx.classifier import _inference as I
    monkeypatch.setattr(I, "TICK_ENTRIES", 64)
    rng = np.random.default_rng(11)
    card = {"A": 6, "B": 9, "C": 5, "D": 4}
    scopes = [("A", "B"), ("B", "C"), ("C", "D"), ("A", "D")]
    ints = [rng.integers(0, 1 << 40, size=[card[v] for v in s]).astype(object) << 40
            for s in scopes]  # big integers
    p = plan(scopes, ("A", "D"), card)
    whole, _, _ = contract(p, ints, exact=True)
    ticks = []
    sliced, _, _ = contract(p, ints, exact=True, tick=lambda: ticks.append(1))
    assert (sliced == whole).all() and len(ticks) > len(p.steps)

    class Stop(Exception):
        pass

    def stop():
        raise Stop

    with pytest.raises(Stop):
        contract(p, ints, exact=True, tick=stop)


def test_a_product_of_long_integers_is_sliced_by_their_words():
    """A product of few entries whose integers have thousands of digits (diabetes' tail
    table: 23,000 multiply-adds took 1.5 s) is sliced too, each entry counted once per
    64-bit word of each operand; a short one of the same shape is one slice."""
    from bnx.classifier import _inference as I
    rng = np.random.default_rng(5)
    a = rng.integers(1, 1 << 30, size=(2, 16, 11)).astype(object)
    b = rng.integers(1, 1 << 30, size=(2, 11, 66)).astype(object)
    ticks = []
    I._matmul(a, b, lambda: ticks.append(1))
    assert len(ticks) == 1  # 23,232 multiply-adds of one word: one slice
    long_a, long_b = a << 4000, b << 4000  # 64 words each
    ticks.clear()
    got = I._matmul(long_a, long_b, lambda: ticks.append(1))
    assert len(ticks) == 16 and (got == np.matmul(long_a, long_b)).all()  # a row a slice


def test_tables_over_kept_variables_are_one_broadcast_product():
    """Tables left over kept variables only (no variable to sum) are multiplied as one
    broadcast product, axes transposed and missing ones added: equal to the exact product
    within the float bound; a product below the float range is rescaled by powers of two,
    and one still out of range is refused (FloatRange)."""
    rng = np.random.default_rng(3)
    card = {"A": 2, "B": 3, "C": 4}
    scopes = [("B", "A"), ("C",), ("A", "C", "B"), ("A",), ()]
    ints = [rng.integers(1, 9, size=[card[v] for v in s]).astype(object) for s in scopes]
    p = plan(scopes, ("A", "B", "C"), card)
    assert [s[0] for s in p.steps] == ["product"] and p.depth == len(scopes) - 1
    exact, _, _ = contract(p, ints, exact=True)
    for a, b, c in itertools.product(range(2), range(3), range(4)):
        at = {"A": a, "B": b, "C": c}
        want = math.prod(int(t[tuple(at[v] for v in s)]) for s, t in zip(scopes, ints))
        assert exact[a, b, c] == want
    for scale in (1.0, 2.0 ** -600):  # the second: every product near 2**-3000
        floats = [t.astype(np.float64) * scale for t in ints]
        got, e, err = contract(p, floats)
        for idx in itertools.product(range(2), range(3), range(4)):
            want = Fraction(int(exact[idx])) * Fraction(scale) ** len(scopes)
            assert abs(Fraction(float(got[idx])) * Fraction(2) ** e - want) <= Fraction(err) * want
    wide = [np.array([2.0 ** -1060, 1.0]), np.array([2.0 ** -1000, 1.0])]
    with pytest.raises(FloatRange):
        contract(plan([("A",), ("A",)], ("A",), card), wide)


def test_the_order_is_min_fill_on_a_chain():
    """A chain is eliminated from its ends (no fill-in), never from the middle."""
    card = dict.fromkeys("ABCDE", 3)
    order = elimination_order([("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")], "CBDAE", card)
    width = 0
    adj = {v: set() for v in card}
    for a, b in [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")]:
        adj[a].add(b)
        adj[b].add(a)
    for v in order:
        width = max(width, len(adj[v]))
        for w in adj[v]:
            adj[w] |= adj[v] - {w}
            adj[w].discard(v)
        del adj[v]
    assert width == 1


def test_plans_are_cached_per_pattern_of_observed_features():
    clf = bnx.examples.asia()
    clf = bnx.Classifier(clf.network, "either", "yes", features=["xray", "dysp"])
    clf._plans_clear()
    clf.class_probabilities({"xray": "yes", "dysp": "no"})
    clf.class_probabilities({"xray": "no", "dysp": "yes"})
    clf.class_probabilities({"xray": "no"}, partial=True)
    assert len(clf._inference.plans) == 2


def _sample(network, n: int, seed: int) -> list[dict]:
    """``n`` joint states of every node, by forward sampling."""
    import networkx as nx
    rng = np.random.default_rng(seed)
    cpds = {c.variable: c for c in network.get_cpds()}
    rows = []
    for _ in range(n):
        row: dict = {}
        for v in nx.topological_sort(network):
            cpd = cpds[v]
            index = tuple(list(cpd.state_names[p]).index(row[p]) for p in cpd.variables[1:])
            column = np.asarray(cpd.values)[(slice(None), *index)]
            row[v] = cpd.state_names[v][rng.choice(len(column), p=column / column.sum())]
        rows.append(row)
    return rows


def _against_pyagrum(name: str, class_var: str, tmp_path, n: int, halves: bool = True) -> None:
    gum = pytest.importorskip("pyagrum")
    path = bundled_bif(name, tmp_path)  # for pyAgrum; ours read once per run (the cache)
    network = bundled_network(name)
    clf = bnx.Classifier(network, class_var)
    bn = gum.loadBN(str(path))
    for row in _sample(network, n, seed=len(name)):
        for observed in (clf.features, clf.features[: len(clf.features) // 2])[:1 + halves]:
            x = {f: row[f] for f in observed}
            ours = clf.class_probabilities(x, partial=True)
            ie = gum.LazyPropagation(bn)
            ie.addTarget(class_var)  # the class alone: pyAgrum prunes what it cannot reach
            ie.setEvidence({f: str(s) for f, s in x.items()})
            ie.makeInference()
            post = ie.posterior(class_var)
            labels = list(post.variable(0).labels())
            for s in clf.classes:
                assert ours[s] == pytest.approx(post[{class_var: labels.index(str(s))}],
                                                abs=1e-6), (name, x, s)


@pytest.mark.slow
@pytest.mark.parametrize("name,class_var", [
    ("asia", "either"), ("alarm", "INTUBATION"),
    ("insurance", "Accident"), ("hailfinder", "Scenario"), ("hepar2", "Cirrhosis")])
def test_class_probabilities_equal_pyagrums(name, class_var, tmp_path):
    _against_pyagrum(name, class_var, tmp_path, 3)


@pytest.mark.slow
@pytest.mark.parametrize("name,class_var", [("pathfinder", "Fault"),
                                            ("munin1", "DIFFN_TYPE")])
def test_class_probabilities_equal_pyagrums_on_large_networks(name, class_var, tmp_path):
    _against_pyagrum(name, class_var, tmp_path, 1, halves=False)  # every finding observed


def _chain(n: int, tiny: Fraction) -> Inference:
    """``V0 -> V1 -> ...``, every node in state 0 with probability ``tiny``."""
    card = {f"V{j}": 2 for j in range(n)}
    parents = {f"V{j}": ((f"V{j - 1}",) if j else ()) for j in range(n)}
    factors = {"V0": (("V0",), np.array([tiny, 1 - tiny], dtype=object))}
    for j in range(1, n):
        t = np.array([[tiny, tiny], [1 - tiny, 1 - tiny]], dtype=object)
        factors[f"V{j}"] = ((f"V{j}", f"V{j - 1}"), t)
    return Inference(card, parents, factors)


def test_tiny_joints_keep_their_bound_through_exponents():
    """``Pr = 2**-1200``: below every float64, yet the answer (a table and a power of two)
    is within its bound."""
    tiny = Fraction(1, 1 << 40)
    inf = _chain(30, tiny)
    evidence = {f"V{j}": 0 for j in range(1, 30)}
    exact = inf.joint(("V0",), evidence, exact=True).table.tolist()
    assert exact == [tiny ** 30, tiny ** 29 * (1 - tiny)]
    answer = inf.joint(("V0",), evidence)
    for j, v in enumerate(exact):
        assert abs(_value(answer, j) - v) <= Fraction(answer.err) * v


def test_a_table_wider_than_floats_is_refused_not_returned_unbounded():
    """The joint of six nodes whose entries span ``2**-1200`` to about 1 cannot be one
    float table: FloatRange (the callers then compute exactly)."""
    inf = _chain(6, Fraction(1, 1 << 200))
    with pytest.raises(FloatRange):
        inf.joint(tuple(f"V{j}" for j in range(6)), {})
    assert inf.joint(tuple(f"V{j}" for j in range(6)), {}, exact=True).table.size == 64


# ---------------------------------------------------------------------- the restriction
@given(case=general_networks(max_features=4, max_hidden=2), data=st.data())
@settings(max_examples=30, deadline=None)
def test_restricted_decisions_and_joints_are_the_whole_ones(case, data):
    clf = classifier_of(case)
    x = data.draw(instances(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    e = {f: x[f] for f in fixed}
    part = restrict(clf, e)
    assert part.features == tuple(f for f in clf.features if f not in fixed)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  case.features, rule=case.rule)
    for combo in itertools.product(*(part.states(f) for f in part.features)):
        y = dict(zip(part.features, combo))
        whole = {**e, **y}
        assert part.decide(y, within="all") == table[tuple(whole[f] for f in case.features)]
        assert part.class_joint(y) == clf.class_joint(whole)


def test_a_two_state_argmax_classifier_as_a_threshold():
    asia = bnx.examples.asia()
    feats = ["asia", "smoke", "xray", "dysp"]
    for clf in (bnx.Classifier(asia.network, "lung", "yes", features=feats, rule="argmax"),
                bnx.Classifier(asia.network, "lung", features=feats)):
        same, negated = threshold_form(clf)
        assert same.rule == "threshold" and same.positive == clf.class_states[0]
        for combo in itertools.product(*(clf.states(f) for f in feats)):
            x = dict(zip(feats, combo))
            if clf.multiclass:
                assert (clf.predict(x, within="all") == clf.class_states[0]) == same.decide(x)
            else:
                assert clf.decide(x, within="all") == (same.decide(x) != negated)
