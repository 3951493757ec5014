"""bnx.local: one decision explained without compiling, against brute force.

Every answer of :func:`bnx.local.answer` (the reason, the shortest reasons, the
robustness and the closest counterfactuals) is checked against the enumeration of every
instance decided by the brute-force oracle (``tests/_support/oracle.py``: exact
rationals, the joint enumerated) on random networks, binary and multi-class, also with
the exact tables made too small to hold (so every check goes through the bound and its
branches); the partial instance's same-decision probability against the compiled
diagram's, and its proven interval around it.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from bnx.local import _bound, _search, _table, answer, sdp_interval  # private: see below
from tests._support import oracle
from tests._support.strategies import (
    classifier_of,
    general_networks,
    instances,
    multiclass_classifier_of,
    multiclass_networks,
)

# (_table: the decision with features open; _search.MAX_ENTRIES and _bound.MAX_TABLE, the
# search's and the bound's table limits, patched to force the proof by bounds and its
# branches: none has a public face)
FEW = settings(max_examples=30, deadline=None)


class Brute:
    """Every instance of a classifier decided (``label(instance)``), and the answers to
    the questions by enumeration."""

    def __init__(self, features, states, label):
        self.features, self.states = list(features), states
        self.table = {combo: label(dict(zip(self.features, combo)))
                      for combo in itertools.product(*(states[f] for f in self.features))}

    def keeps(self, x, rival=None):
        d = self.table[tuple(x[f] for f in self.features)]
        return (lambda lab: lab != rival) if rival is not None else (lambda lab: lab == d)

    def sufficient(self, x, subset, keep):
        return all(keep(lab) for combo, lab in self.table.items()
                   if all(combo[j] == x[f] for j, f in enumerate(self.features) if f in subset))

    def reasons(self, x, keep):
        found = [frozenset(s) for r in range(len(self.features) + 1)
                 for s in itertools.combinations(self.features, r)
                 if self.sufficient(x, s, keep)]
        return {s for s in found if not any(o < s for o in found)}

    def closest(self, x, keep):
        """``(robustness, {frozenset of (feature, new state): label})``."""
        best, out = math.inf, {}
        for combo, lab in self.table.items():
            if keep(lab):
                continue
            changed = frozenset((f, s) for f, s in zip(self.features, combo) if s != x[f])
            if len(changed) < best:
                best, out = len(changed), {}
            if len(changed) == best:
                out[changed] = lab
        return best, out


def _binary(case):
    clf = classifier_of(case)
    table = oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                  case.features, rule=case.rule)
    states = {f: case.states(f) for f in case.features}
    return clf, Brute(case.features, states,
                      lambda x: table[tuple(x[f] for f in case.features)])


def _check(clf, brute, x, rival=None, timeout=None):
    idx = clf.encode(x)
    r = None if rival is None else list(clf.class_states).index(rival)
    a = answer(clf, idx, rival=r, timeout=timeout, most=10 ** 6)
    label = brute.table[tuple(x[f] for f in brute.features)]
    name = (lambda lab: clf.class_states[lab]) if clf.multiclass else bool
    assert name(a.label) == label
    keep = brute.keeps(x, rival)
    pis = brute.reasons(x, keep)
    note(f"got {a}; brute reasons {pis}")
    for e in a.reasons:  # every reason proven sufficient is sufficient
        assert brute.sufficient(x, set(e), keep)
        if a.minimal:  # and minimal when said so
            assert frozenset(e) in pis
    if a.shortest:
        least = min(len(p) for p in pis)
        assert {frozenset(e) for e in a.reasons} == {p for p in pis if len(p) == least}
    rob, closest = brute.closest(x, keep)
    if a.robustness is not None:
        assert a.robustness == rob
        got = {frozenset((f, clf.states(f)[j]) for f, j in s.items()): name(lab)
               for s, lab in a.changes}
        assert got == closest
    else:
        assert a.searched < rob  # "at least searched + 1" holds
    if a.necessary_known:
        assert set(a.necessary) == set.intersection(*(set(p) for p in pis)) if pis else True
    return a


@given(case=general_networks(max_features=5, max_hidden=3), data=st.data())
@FEW
def test_binary_answers_match_brute_force(case, data):
    clf, brute = _binary(case)
    a = _check(clf, brute, data.draw(instances(case)))
    assert a.shortest and a.minimal and a.robustness is not None  # small: all proven


@given(case=multiclass_networks(max_features=4), data=st.data())
@FEW
def test_multiclass_answers_match_brute_force(case, data):
    clf = multiclass_classifier_of(case)
    brute = Brute(case.features, {f: case.states(f) for f in case.features},
                  lambda x: clf.predict(x))
    x = data.draw(instances(case))
    _check(clf, brute, x)
    decided = clf.predict(x)
    rival = data.draw(st.sampled_from([c for c in clf.classes if c != decided]))
    _check(clf, brute, x, rival=rival)


@pytest.mark.parametrize("largest", [_bound.MAX_TABLE, 2])
@given(case=general_networks(max_features=5, max_hidden=3), data=st.data())
@FEW
def test_the_bound_and_its_branches_prove_the_same(largest, case, data):
    # largest=2: hidden nodes left unsummed, so the bound is relaxed and the checks branch
    # (each branch refining its parent's pool), with the second pass's unbounded budget
    clf, brute = _binary(case)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_search, "MAX_ENTRIES", 0)  # no table: bounds only
        mp.setattr(_bound, "MAX_TABLE", largest)
        _check(clf, brute, data.draw(instances(case)))


@pytest.mark.slow
@given(case=multiclass_networks(max_features=4), data=st.data())
@FEW
def test_the_bound_on_many_classes(case, data):
    clf = multiclass_classifier_of(case)
    brute = Brute(case.features, {f: case.states(f) for f in case.features},
                  lambda x: clf.predict(x))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_search, "MAX_ENTRIES", 0)
        _check(clf, brute, data.draw(instances(case)))


@given(case=general_networks(max_features=5, max_hidden=3), data=st.data())
@FEW
def test_a_deadline_reports_only_what_is_proven(case, data):
    clf, brute = _binary(case)
    x = data.draw(instances(case))
    a = _check(clf, brute, x, timeout=data.draw(st.sampled_from([1e-9, 1e-3, 1e-2])))
    assert a.reasons  # a sufficient reason always (the whole instance at worst)


@given(case=general_networks(max_features=4, max_hidden=2), data=st.data())
@FEW
def test_partial_instances_sdp_equals_the_compiled_one(case, data):
    clf = classifier_of(case)
    x = data.draw(instances(case))
    keep = data.draw(st.sets(st.sampled_from(case.features), max_size=len(case.features) - 1))
    e = {f: x[f] for f in keep}
    if sum(clf.class_joint(e, partial=True)) == 0:
        return
    want = bnx.same_decision_probability(clf, e, exact=True)
    r = bnx.explain(clf, e)
    assert r.method == "search" and not r.complete
    assert r.sdp_exact == want
    lo, hi = sdp_interval(clf, e)
    assert lo <= want <= hi


def test_the_table_reads_the_rule_as_the_classifier_decides():
    clf = bnx.examples.admissions()
    x = dict.fromkeys(clf.features, "+")
    t = _table.open_table(clf, clf.encode(x), ())
    assert bool(_table.Question(clf).labels(t)) == clf.decide(x)


def test_a_report_by_search_on_asia_equals_the_compiled_one():
    asia = bnx.examples.asia()
    feats = ["asia", "smoke", "xray", "dysp"]
    for clf in (bnx.Classifier(asia.network, "lung", features=feats),
                bnx.Classifier(asia.network, "either", "yes", features=feats, threshold=0.3),
                bnx.examples.illness()):
        odd = bnx.compile(clf, backend="autoref")
        for combo in itertools.product(*(clf.states(f) for f in clf.features)):
            x = dict(zip(clf.features, combo))
            got, want = bnx.explain(clf, x), bnx.explain(odd, x)
            assert got.method == "search" and got.reasons_proven == "shortest"
            assert (got.decision, got.class_probabilities, set(got.reasons), got.robustness,
                    set(got.counterfactuals), got.counterfactual_count, set(got.necessary)
                    ) == (want.decision, want.class_probabilities, set(want.reasons),
                          want.robustness, set(want.counterfactuals),
                          want.counterfactual_count, set(want.necessary))
            assert got.methods["reasons"].startswith("search")
            assert bnx.Report.from_dict(got.to_dict()) == got


def test_a_bounded_search_says_so():
    asia = bnx.examples.asia()
    clf = bnx.Classifier(asia.network, "lung", features=["asia", "smoke", "xray", "dysp"])
    x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
    r = bnx.explain(clf, x, timeout=1e-9)
    assert r.reasons_proven == "sufficient" and r.robustness is None
    assert r.robustness_at_least == 1
    assert "did not prove it minimal" in r.text() and "not searched in time" in r.text()
    assert "How this was found" in r.text() and "How" in r._repr_html_()
    assert bnx.Report.from_dict(r.to_dict()) == r


@pytest.mark.slow
def test_hepar2_first_20_findings_without_compiling_equals_the_compiled_report():
    """The exactness target of issue 34: hepar2's class ``Cirrhosis`` with its first 20
    findings compiles (a few seconds); the answers without compiling are the compiled
    diagram's: every shortest reason, the robustness, the closest counterfactuals."""
    import warnings

    from tests._support.bundled import bundled_network
    net = bundled_network("hepar2")
    full = bnx.Classifier(net, "Cirrhosis")
    clf = bnx.Classifier(net, "Cirrhosis", features=full.features[:20])
    odd = bnx.compile(clf)
    from pgmpy.sampling import BayesianModelSampling
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = BayesianModelSampling(net).forward_sample(size=2, seed=1, show_progress=False)
    for k in range(len(rows)):
        x = {f: rows.iloc[k][f] for f in clf.features}
        a = answer(clf, clf.encode(x), most=10 ** 6)
        assert a.shortest and a.robustness is not None
        pis = bnx.pi_explanations(odd, x)
        least = min(pis.lengths())
        shortest = [e for e in pis.shortest() if len(e) == least]
        assert {frozenset(e) for e in a.reasons} == {frozenset(e) for e in shortest}
        report, compiled = bnx.explain(clf, x, timeout=None), bnx.explain(odd, x)
        assert report.reasons_proven == "shortest"
        assert {frozenset(r.items()) for r in report.reasons} <= \
            {frozenset(e.items()) for e in shortest}
        assert (report.robustness, set(report.counterfactuals), report.counterfactual_count,
                report.decision, report.class_probabilities, set(report.necessary)) == (
            compiled.robustness, set(compiled.counterfactuals),
            compiled.counterfactual_count, compiled.decision, compiled.class_probabilities,
            set(compiled.necessary))


def test_a_rival_that_is_the_decided_class_is_refused():
    ill = bnx.examples.illness()
    x = {"Season": "spring", "Fever": "no", "Sneezing": "yes", "Aches": "no"}
    with pytest.raises(bnx.ArgumentError, match="decided class"):
        bnx.explain(ill, x, rival=ill.predict(x))


@given(case=general_networks(max_features=5, max_hidden=3), data=st.data())
@FEW
def test_float_tables_give_the_exact_labels_or_defer(case, data):
    clf = classifier_of(case)
    x = clf.encode(data.draw(instances(case)))
    open_ = tuple(data.draw(st.lists(st.sampled_from(case.features), unique=True)))
    fixed = {f: j for f, j in x.items() if f not in open_}
    q = _table.Question(clf)
    got, _ = _table.open_labels(clf, q, fixed, open_)
    want = q.labels(_table.open_table(clf, fixed, open_))
    assert (got == want).all()


def test_the_deletion_tries_the_least_coupled_features_first():
    asia = bnx.examples.asia()
    feats = ["asia", "smoke", "xray", "dysp"]
    clf = bnx.Classifier(asia.network, "lung", features=feats)
    s = bnx.local.Search(clf, clf.encode(dict.fromkeys(feats, "yes")))
    net = asia.network
    hidden = set(net.nodes()) - set(feats) - {"lung"}
    want = {f: sum(sum(1 for g in feats if p in net.get_parents(g))
                   for p in net.get_parents(f) if p in hidden) for f in feats}
    assert s.coupling() == want == {"asia": 0, "smoke": 0, "xray": 2, "dysp": 3}
