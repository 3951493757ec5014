"""``bnx check``: rules and monotonicity on the command line, as a user would write them."""

from __future__ import annotations

import pytest

import bnx
from tests._support.cli import run


@pytest.fixture(scope="module")
def graded_bif(tmp_path_factory):
    """Naive Bayes with an ordered three-state feature: Pr(sick) grows with the level."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.readwrite import BIFWriter
    net = DiscreteBayesianNetwork([("C", "level"), ("C", "flag")])
    net.add_cpds(
        TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["well", "sick"]}),
        TabularCPD("level", 3, [[0.6, 0.1], [0.3, 0.3], [0.1, 0.6]], evidence=["C"],
                   evidence_card=[2], state_names={"level": ["low", "mid", "high"],
                                                   "C": ["well", "sick"]}),
        TabularCPD("flag", 2, [[0.2, 0.7], [0.8, 0.3]], evidence=["C"], evidence_card=[2],
                   state_names={"flag": ["no", "yes"], "C": ["well", "sick"]}))
    path = tmp_path_factory.mktemp("nets") / "graded.bif"
    BIFWriter(net).write(str(path))
    return str(path)


@pytest.mark.slow
def test_rules_and_monotonicity(capsys, admissions_bif, tmp_path):
    code, out, err = run(capsys, "check", admissions_bif, "--class", "Admit", "--positive",
                         "yes", "--rule", "GPA=yes, WorkExperience=yes => Admit=yes",
                         "--rule", "GPA=yes => yes", "--monotone")
    assert code == 0, err
    first, second, third = out.strip().split("\n\n")
    assert first == ("Holds: all 4 instances with GPA = yes, WorkExperience = yes are decided "
                     "Admit = yes.")
    assert second.startswith("Broken: 3 of the 8 instances with GPA = yes are not decided "
                             "Admit = yes (probability 0.0756 in all); the most probable of "
                             "them, ")
    assert third == ("Monotone: raising EntranceExam, FirstTimeApplicant, GPA or WorkExperience "
                     "never lowers the decision (Admit = no below Admit = yes).")
    # the same from a saved ODD, with a class order that makes it fail
    saved = str(tmp_path / "admit.bnx")
    bnx.compile(bnx.Classifier.from_file(admissions_bif, "Admit", "yes")).save(saved)
    code, out, err = run(capsys, "check", saved, "--monotone", "GPA",
                         "--class-order", "yes,no")
    assert code == 0, err
    assert out.startswith("Not monotone (") and "raising GPA from no to yes" in out


@pytest.mark.slow
def test_ordinal_features(capsys, graded_bif):
    code, out, err = run(capsys, "check", graded_bif, "--class", "C", "--positive", "sick",
                         "--ordinal", "level=low<mid<high", "--rule",
                         "level>=mid, flag=no => sick", "--rule", "level<=mid => C=well",
                         "--monotone", "level")
    assert code == 0, err
    first, second, third = out.strip().split("\n\n")
    assert first == "Holds: all 2 instances with flag = no, level ≥ mid are decided C = sick."
    assert second.startswith("Broken: 1 of the 4 instances with level ≤ mid are not decided "
                             "C = well (probability 0.135 in all); the most probable of them, "
                             "flag = no, level = mid, is decided C = sick.")
    assert third.startswith("Monotone: raising level never lowers the decision (C = well "
                            "below C = sick).")


@pytest.mark.slow
@pytest.mark.parametrize("argv, words", [
    ([], "nothing to check"),
    (["--rule", "GPA=yes"], "one '=>'"),
    (["--rule", "GPA=maybe => yes"], "'maybe' is not a state of 'GPA'"),
    (["--rule", "GPA>=yes => yes"], "'GPA' is not ordinal"),
    (["--rule", "GPA=yes => Class=yes"], "the class is 'Admit'"),
    (["--rule", "GPA=yes => maybe"], "'maybe' is not a decision"),
    (["--monotone", "Nope"], "Nope"),
    (["--class-order", "yes,no"], "--class-order goes with --monotone"),
    (["--monotone", "--class-order", "yes,yes"], "class_order must list"),
    (["--ordinal", "GPA", "--monotone"], "--ordinal reads"),
])
def test_errors_are_one_line(capsys, admissions_bif, argv, words):
    code, out, err = run(capsys, "check", admissions_bif, "--class", "Admit", "--positive",
                         "yes", *argv)
    assert code == 1 and out == ""
    assert err.startswith("bnx: error: ") and words in err and err.count("\n") == 1


def test_a_saved_multiclass_odd(capsys, tmp_path):
    clf = bnx.Classifier(bnx.examples.asia_network(), "lung",
                         features=["asia", "smoke", "xray", "dysp"])
    saved = str(tmp_path / "lung.bnx")
    bnx.compile(clf).save(saved)
    code, out, err = run(capsys, "check", saved, "--rule", "xray=yes, smoke=yes => lung=yes",
                         "--monotone", "--class-order", "no,yes")
    assert code == 0, err
    rule, monotone = out.strip().split("\n\n")
    assert rule.startswith("Broken: 2 of the 4 instances with smoke = yes, xray = yes are not "
                           "decided lung = yes (probability 0.0203 in all)")
    assert monotone == ("Monotone: raising asia, smoke, xray or dysp never lowers the decision "
                        "(lung = no below lung = yes).")
    code, out, err = run(capsys, "check", saved, "--monotone", "--class-order", "yes,no")
    assert code == 0 and out.startswith("Not monotone (")
