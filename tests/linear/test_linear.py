"""bnx.linear against the compiled ODD and against brute force over every instance.

The brute force here reads the decision of every instance from tests/_support/oracle.py (which
never imports bnx) and answers each question by enumeration; bnx.linear never compiles.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import bnx
from bnx import linear
from bnx.classifier._possible import may_be_impossible  # private: the zero test
from bnx.linear._mc import one_mc_explanation  # private: the report's one member
from tests._support import oracle
from tests._support.linear_brute import (
    Brute,
    check_all,
    classifier,
    threshold_brute,
    two_class,
)
from tests._support.strategies import instances, naive_bayes, on_maps
from tests._support.zero_networks import linear_zero_networks


# ---------------------------------------------------------------------- brute force
def argmax_brute(case):
    first = case.states(case.class_var)[0]
    table = {}
    for combo in itertools.product(*[case.states(f) for f in case.features]):
        joint = oracle.class_joint(case.net, case.class_var, dict(zip(case.features, combo)),
                                   case.features)
        pos, neg = joint[case.positive], sum(v for c, v in joint.items() if c != case.positive)
        table[combo] = pos > neg or (pos == neg and case.positive == first)
    return Brute(case, table)


@pytest.mark.slow
@given(case=naive_bayes(max_features=5, max_instances=96), data=st.data())
def test_everything_matches_brute_force(case, data):
    assume(two_class(case))
    clf = classifier(case)
    brute = threshold_brute(case)
    x = data.draw(instances(case))
    want = check_all(clf, brute, x)
    subset = data.draw(st.sets(st.sampled_from(case.features)))
    partial = {f: x[f] for f in subset}
    chk = linear.check_explanation(clf, x, partial, within="all")  # the brute force's world
    assert chk.sufficient == brute.sufficient(x, partial)
    assert chk.minimal == (frozenset(subset) in want)
    if chk.sufficient:
        assert set(chk.redundant) == {f for f in subset if brute.sufficient(
            x, {g: x[g] for g in subset if g != f})}
        assert list(chk.redundant) == [f for f in case.features if f in chk.redundant]
        assert chk.reason.items() <= partial.items() and frozenset(chk.reason) in want
        assert chk.counterexample is None
    else:
        assert chk.redundant == () and chk.reason is None
        cx = chk.counterexample
        assert partial.items() <= cx.items() and brute.decide(cx) != brute.decide(x)
    assert chk.decision == brute.decide(x)


@settings(max_examples=40)
@given(case=naive_bayes(max_features=4, max_instances=64), data=st.data())
def test_argmax_rule_matches_brute_force(case, data):
    assume(two_class(case))
    clf = classifier(case, "argmax")
    check_all(clf, argmax_brute(case), data.draw(instances(case)))


@settings(max_examples=30)
@given(case=naive_bayes(max_features=5, max_instances=96), data=st.data())
def test_pi_and_mc_match_the_odd(case, data, backend):
    assume(two_class(case))
    clf = classifier(case)
    odd = bnx.compile(clf, backend=backend)
    x = data.draw(instances(case))
    # every instance (the oracle's total function); within the support, the diagram's
    # questions within bnx.support (when the network allows x)
    want = oracle.pi_explanations(case.net, case.class_var, case.positive, case.threshold,
                                  case.features, x)
    got = [frozenset(e.items()) for e in linear.pi_explanations(clf, x, within="all")]
    assert set(got) == want and len(got) == len(want)
    possible = sum(clf.class_joint(x)) > 0
    if possible:
        kappa = bnx.support(clf, odd=odd)
        want = bnx.pi_explanations(odd, x, within=kappa).to_set()
        got = [frozenset(e.items()) for e in linear.pi_explanations(clf, x)]
        assert set(got) == want and len(got) == len(want)
    on = data.draw(on_maps(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    mc = linear.mc_explanations(clf, x, on=on, fixed=fixed, within="all")
    if may_be_impossible(clf) and case.threshold == 0:  # every possible instance positive
        with pytest.raises(bnx.StructureError, match="zero entry"):
            linear.mc_explanations(clf, x, on=on, fixed=fixed)
    elif may_be_impossible(clf) and possible:  # the race of witnesses: the diagram's answer
        mine = linear.mc_explanations(clf, x, on=on, fixed=fixed)  # within the support
        want = bnx.mc_explanations(odd, x, on=on, fixed=fixed, within=bnx.support(clf, odd=odd))
        assert mine.to_set() == want.to_set() and mine.lengths() == want.lengths()
        assert one_mc_explanation(clf, x, on=on) in \
            list(bnx.mc_explanations(odd, x, on=on).shortest())
    elif not may_be_impossible(clf):  # the support is every instance
        assert linear.mc_explanations(clf, x, on=on, fixed=fixed).to_set() == mc.to_set()
    assert mc.to_set() == oracle.mc_explanations(
        case.net, case.class_var, case.positive, case.threshold, case.features, x, on, fixed)
    if not possible:  # the diagram's questions refuse an instance the network cannot produce
        with pytest.raises(bnx.ImpossibleInstanceError):
            bnx.mc_explanations(odd, x, on=on, fixed=fixed, within="all")
        return
    on_diagram = bnx.mc_explanations(odd, x, on=on, fixed=fixed, within="all")
    assert type(mc) is type(on_diagram) and mc.to_set() == on_diagram.to_set()
    assert (mc.lengths(), mc.on, mc.decision_text, str(mc).splitlines()[0]) == (
        on_diagram.lengths(), on_diagram.on, on_diagram.decision_text,
        str(on_diagram).splitlines()[0])
    cfs, cfs_diagram = linear.counterfactuals(clf, x), bnx.counterfactuals(odd, x,
                                                                           within=kappa)
    assert type(cfs) is type(cfs_diagram)
    assert cfs.to_set() == cfs_diagram.to_set() and cfs.cost == cfs_diagram.cost
    # the same order, most probable first (ties in the diagram's order, which may differ)
    assert [p for _, p in cfs.probabilities()] == [p for _, p in cfs_diagram.probabilities()]
    default = bnx.counterfactuals(odd, x)  # (the support by default: the same, named alike)
    assert default.to_set() == cfs.to_set() and default.decisions == cfs.decisions


def _network(class_var, prior, tables):
    """A naive Bayes network from ``prior`` and ``{feature: rows}``, one row per state of the
    feature and one column per class state; states are 0, 1, ..."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([(class_var, f) for f in tables])
    cstates = list(range(len(prior)))
    net.add_cpds(TabularCPD(class_var, len(prior), [[p] for p in prior],
                            state_names={class_var: cstates}),
                 *[TabularCPD(f, len(rows), rows, evidence=[class_var],
                              evidence_card=[len(prior)],
                              state_names={f: list(range(len(rows))), class_var: cstates})
                   for f, rows in tables.items()])
    assert net.check_model()
    return net


@pytest.mark.parametrize("x, on, want", [
    # E's only off state vanishes: E stays on, nothing else is counted, so the instance
    # itself is the only MC-explanation (this raised "no MC-explanation found")
    ({"W": 0, "E": 2, "F": 1, "G": 1}, {"W": (), "E": (0, 2), "F": (), "G": ()},
     {"W": 0, "E": 2, "F": 1, "G": 1}),
    # E stays on, and that alone keeps the decision with F off (this kept F on too)
    ({"W": 1, "E": 2, "F": 2, "G": 1}, {"W": (), "E": (0, 2), "F": (1, 2, 3), "G": ()},
     {"W": 1, "E": 2, "F": 0, "G": 1}),
])
def test_mc_explanation_when_a_forced_feature_alone_keeps_the_decision(backend, x, on, want):
    """Regression (found by hypothesis): Pr(E=1 | C=0) = 0, so turning E off (its only off
    state is 1) loses the positive decision whatever the rest is, and E must stay on.
    When keeping E alone (with the uncounted features) keeps the decision, nothing else
    may be kept; the greedy search tried only non-empty prefixes of the other candidates,
    so it kept one too many, or found none when there were no other candidates."""
    net = _network("C", [0.5, 0.5], {
        "W": [[0.5, 0.75], [0.5, 0.25]],
        "E": [[0.25, 0.0], [0.0, 0.25], [0.75, 0.75]],
        "F": [[0.375, 0.6875], [0.25, 0.125], [0.375, 0.1875], [0.0, 0.0]],
        "G": [[0.5, 0.75], [0.5, 0.25]]})
    features = ["W", "E", "F", "G"]
    clf = bnx.Classifier(net, "C", 0, threshold=0.5, features=features)
    assert clf.decide(x, within="all") and not clf.decide({**x, "E": 1}, within="all")
    odd = bnx.compile(clf, backend=backend)
    expected = bnx.mc_explanations(odd, x, on=on, within="all").to_set()
    assert expected == {frozenset(want.items())}
    assert expected == oracle.mc_explanations(net, "C", 0, 0.5, features, x, on)
    assert linear.mc_explanations(clf, x, on=on, within="all").to_set() == {
        frozenset(want.items())}



@settings(max_examples=30)
@given(case=naive_bayes(max_features=4, max_instances=64), data=st.data())
def test_mc_explanation_under_the_argmax_rule(case, data):
    """The fewest counted features (fixed ones stay and count nothing), by brute force over
    every allowed instance."""
    assume(two_class(case))
    clf = classifier(case, "argmax")
    brute = argmax_brute(case)
    x = data.draw(instances(case))
    on = data.draw(on_maps(case))
    fixed = data.draw(st.sets(st.sampled_from(case.features)))
    got = linear.mc_explanations(clf, x, on=on, fixed=fixed, within="all")
    d = brute.decide(x)

    def counted(f, s):
        return f not in fixed and (s in on[f]) == d

    choices = [[x[f]] + ([s for s in case.states(f) if (s in on[f]) != d]
                         if counted(f, x[f]) else []) for f in case.features]
    best = min(sum(map(counted, case.features, c)) for c in itertools.product(*choices)
               if brute.table[c] == d)
    want = {frozenset(zip(case.features, c)) for c in itertools.product(*choices)
            if brute.table[c] == d and sum(map(counted, case.features, c)) == best}
    assert got.to_set() == want and got.count == len(want)

def test_zero_entries_force_decisions():
    """Pr(v | neg) = 0 forces positive; both zero gives Pr(x) = 0, decided positive."""
    from tests._support.strategies import _cpd, make_case
    cpds = [_cpd("C", ["n", "p"], [[0.5, 0.5]]),
            _cpd("A", ["a0", "a1", "a2"], [[0.5, 0.0, 0.5], [0.25, 0.75, 0.0]], "C", ["n", "p"]),
            _cpd("B", ["b0", "b1"], [[0.0, 1.0], [0.0, 1.0]], "C", ["n", "p"]),
            _cpd("D", ["d0", "d1"], [[0.9, 0.1], [0.2, 0.8]], "C", ["n", "p"])]
    case = make_case([("C", "A"), ("C", "B"), ("C", "D")], cpds, "C", "p", 0.5,
                     ["A", "B", "D"])
    clf, brute = classifier(case), threshold_brute(case)
    for combo in itertools.product(*[case.states(f) for f in case.features]):
        check_all(clf, brute, dict(zip(case.features, combo)))
    x = {"A": "a1", "B": "b0", "D": "d0"}
    assert brute.decide(x)
    assert list(linear.pi_explanations(clf, x, within="all")) == [{"A": "a1"}, {"B": "b0"}]
    with pytest.raises(bnx.InstanceError, match="probability zero"):
        linear.pi_explanations(clf, x)  # within the support: no such instance
    # A = a1 with B = b1 cannot occur: a counterfactual of every instance, not a possible one
    y = {"A": "a0", "B": "b1", "D": "d0"}
    assert linear.counterfactuals(clf, y, within="all").to_set() == {
        frozenset({("B", "b0")}), frozenset({("A", "a1")})}
    assert linear.counterfactuals(clf, y).to_set() == {frozenset({("B", "b0")})}


def test_refuses_what_is_not_linear():
    from tests._support.strategies import _cpd, make_case
    cpds = [_cpd("C", ["a", "b", "c"], [[0.2, 0.3, 0.5]]),
            _cpd("F", ["0", "1"], [[0.5, 0.5], [0.1, 0.9], [0.7, 0.3]], "C", ["a", "b", "c"])]
    clf = classifier(make_case([("C", "F")], cpds, "C", "a", 0.5, ["F"]))
    with pytest.raises(bnx.StructureError, match="two states"):
        linear.robustness(clf, {"F": "0"})
    tree = bnx.examples.admissions()
    with pytest.raises(bnx.InstanceError):
        linear.robustness(tree, ["GPA"])


X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


@pytest.mark.parametrize("call, error, match", [
    (lambda c: linear.check_explanation(c, X, {"GPA": "-"}), bnx.ExplanationError,
     "instance has"),
    (lambda c: linear.check_explanation(c, X, {"Nope": "+"}), bnx.UnknownFeatureError, "Nope"),
    (lambda c: linear.check_explanation(c, X, ["GPA"]), bnx.InstanceError, "mapping"),
    (lambda c: linear.pi_explanations(c, {**X, "GPA": "?"}), bnx.UnknownStateError, "'\\?'"),
    (lambda c: linear.robustness(c, {"GPA": "+"}), bnx.MissingFeatureError, "WorkExperience"),
    (lambda c: linear.mc_explanations(c, X, fixed="GPA"), bnx.ArgumentError, "fixed must be"),
    (lambda c: linear.mc_explanations(c, X, fixed=["Nope"]), bnx.UnknownFeatureError, "Nope"),
    (lambda c: linear.mc_explanations(c, X, on={"Nope": "+"}), bnx.UnknownFeatureError, "Nope"),
    (lambda c: linear.mc_explanations(c, X, on={"GPA": "?"}), bnx.UnknownStateError, "GPA"),
    (lambda c: linear.mc_explanations(c, X, on=["GPA"]), bnx.ArgumentError, "on must map"),
    (lambda c: linear.shortest_pi_explanation("clf", X), bnx.StructureError, "naive Bayes"),
])
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call(bnx.examples.admissions())


def test_latent_trees_are_refused():
    from tests._support.strategies import _cpd, make_case
    cpds = [_cpd("C", ["n", "p"], [[0.5, 0.5]]),
            _cpd("H", ["h0", "h1"], [[0.3, 0.7], [0.6, 0.4]], "C", ["n", "p"]),
            _cpd("F", ["0", "1"], [[0.5, 0.5], [0.1, 0.9]], "H", ["h0", "h1"]),
            _cpd("G", ["0", "1"], [[0.2, 0.8], [0.4, 0.6]], "H", ["h0", "h1"])]
    clf = classifier(make_case([("C", "H"), ("H", "F"), ("H", "G")], cpds, "C", "p", 0.5,
                               ["F", "G"]))
    with pytest.raises(bnx.StructureError, match="latent_tree"):
        list(linear.pi_explanations(clf, {"F": "0", "G": "1"}))


def test_ties_at_the_threshold_are_exact():
    """An instance exactly on the threshold is positive, one ulp above it too."""
    clf = bnx.examples.admissions()
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    p = clf.posterior_exact(x)
    for t in (p, Fraction(float(p)), p + Fraction(1, 10 ** 30)):
        c = bnx.Classifier(bnx.examples.admissions_network(), "Admit", "+", threshold=t)
        assert linear.decide(c, x) == c.decide(x)
        for e in linear.pi_explanations(c, x):
            assert linear.check_explanation(c, x, e).minimal


# ---------------------------------------------------------------------- the command
@pytest.fixture(scope="module")
def admissions_bif(tmp_path_factory):
    from pgmpy.readwrite import BIFWriter
    path = tmp_path_factory.mktemp("nets") / "admissions.bif"
    BIFWriter(bnx.examples.admissions_network(states=("no", "yes"))).write(str(path))
    return str(path)


CLI_X = "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=yes"


@pytest.mark.slow
def test_cli_explains_wide_naive_bayes_without_compiling(capsys, tmp_path):
    """Past 30 features a naive Bayes is explained from its tables, not compiled."""
    from pgmpy.readwrite import BIFWriter

    from bnx.cli import main
    from tests._support.deep import one_matters
    path = str(tmp_path / "wide.bif")
    BIFWriter(one_matters(31).network).write(path)
    x = ",".join(f"f{i}=1" for i in range(31))
    code = main(["explain", path, "--class", "C", "--positive", "1", "--instance", x])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "31 features are too many to compile (more than 30)" in out and "bnx.linear" in out
    assert "Decided: C = 1 (Pr(C = 1) = 0.75, threshold 0.5)." in out
    assert "f0 = 1" in out  # the one reason: the only informative feature


@pytest.mark.slow
def test_cli_explains_without_compiling_in_the_class_words(capsys, admissions_bif):
    """The linear fallback's answers (here after the compilation budget ran out)."""
    from bnx.cli import main
    code = main(["explain", admissions_bif, "--class", "Admit", "--positive", "yes",
                     "--instance", CLI_X, "--limit", "2", "--max-nodes", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max_nodes=1" in out and "bnx.linear" in out
    assert "Decided: Admit = yes (Pr(Admit = yes) = 0.997, threshold 0.5)." in out
    assert "What would change it: at least two features would have to change" in out
    # the options select single answers, in the class's words too
    code = main(["explain", admissions_bif, "--class", "Admit", "--positive", "yes",
                     "--instance", CLI_X, "--limit", "2", "--on", "GPA=yes", "--max-nodes", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.count("Decided: Admit = yes (Pr(Admit = yes) = 0.997, threshold 0.5).") == 1
    assert "sufficient reasons for Admit = yes (PI-explanations; the first 2, not counted)" in out
    assert "an MC-explanation of Admit = yes (one of possibly many; 2 features changed)" in out
    assert ("robustness: 2 changes give Admit = no: GPA = no (was yes), "
            "WorkExperience = no (was yes)") in out
    assert "decision:" not in out and "=yes" not in out


@pytest.mark.slow
def test_cli_falls_back_when_compilation_hits_its_budget(capsys, admissions_bif):
    from bnx.cli import main
    code = main(["explain", admissions_bif, "--class", "Admit", "--positive", "yes",
                     "--instance", CLI_X, "--max-nodes", "1", "--pi", "--shortest"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max_nodes=1" in out and "explained without compiling" in out
    assert ("a shortest sufficient reason for Admit = yes (a PI-explanation; 2 features):\n"
            "  GPA = yes, WorkExperience = yes") in out
    assert "MC-explanation" not in out
    code = main(["compile", admissions_bif, "--class", "Admit", "--positive", "yes",
                     "--max-nodes", "1"])  # compile itself does not fall back
    assert code == 1 and "max_nodes=1" in capsys.readouterr().err


# ---------------------------------------------------------------------- exact arithmetic
def test_near_ties_are_settled_exactly():
    """A threshold one part in 10**30 off a posterior: floats cannot tell, the products do
    (a float verdict would be wrong on one side or the other)."""
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    p = bnx.examples.admissions().posterior_exact(x)
    for t, want in ((p, True), (p + Fraction(1, 10 ** 30), False)):
        c = bnx.Classifier(bnx.examples.admissions_network(), "Admit", "+", threshold=t)
        assert linear.decide(c, x) is want is c.decide(x)


@settings(max_examples=40, deadline=None)
@given(case=linear_zero_networks(), data=st.data())
def test_within_the_support_of_networks_with_many_zeros(case, data):
    """Naive Bayes and TAN with many zero entries, both rules: every answer of
    bnx.linear equals the brute force's, over every instance (``within="all"``) and over
    the instances the network allows (the default), in exact fractions."""
    if case.threshold is None or data.draw(st.booleans()):
        kw = {"rule": "argmax"}
    else:
        kw = {"threshold": data.draw(st.sampled_from([case.threshold, 0, 1]))}
    clf = bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                         **kw)
    assume(clf.structure in ("naive_bayes", "tan") and len(clf.class_states) == 2)
    table = {combo: clf.decide(dict(zip(case.features, combo)), within="all")
             for combo in itertools.product(*[case.states(f) for f in case.features])}
    check_all(clf, Brute(case, table), data.draw(instances(case)))


@settings(max_examples=40, deadline=None)
@given(case=linear_zero_networks(), data=st.data())
def test_mc_explanations_within_the_support_of_networks_with_many_zeros(case, data):
    """A naive Bayes or TAN with many zero entries: its MC-explanations among the instances
    the network allows (the race of witnesses) are the diagram's within its support
    (checked against brute force in tests/explanation/test_within.py)."""
    kw = ({"rule": "argmax"} if case.threshold is None or data.draw(st.booleans())
          else {"threshold": data.draw(st.sampled_from([case.threshold, 1]))})
    clf = bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                         **kw)
    assume(len(clf.class_states) == 2 and may_be_impossible(clf))
    x = data.draw(instances(case))
    assume(sum(clf.class_joint(x)) > 0)
    on = {f: {data.draw(st.sampled_from(case.states(f)))} for f in case.features}
    if kw.get("threshold") == 0:  # every possible instance positive: no one race
        with pytest.raises(bnx.StructureError, match="when a table has a zero entry"):
            linear.mc_explanations(clf, x, on=on)
        return
    assume(clf.structure in ("naive_bayes", "tan"))
    odd = bnx.compile(clf, backend="autoref")
    want = bnx.mc_explanations(odd, x, on=on)
    got = linear.mc_explanations(clf, x, on=on)
    assert got.to_set() == want.to_set() and got.lengths() == want.lengths()
    assert one_mc_explanation(clf, x, on=on) in list(want)
