"""``bnx explain`` with the question flags of issue 8 (--cxp, --robustness, --bias, ...)."""

from __future__ import annotations

import pytest

from tests._support.cli import run

X = "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=yes"
NET = ["--class", "Admit", "--positive", "yes", "--instance", X]


def test_questions(capsys, admissions_bif):
    code, out, err = run(capsys, "explain", admissions_bif, *NET, "--cxp", "--roles",
                         "--robustness", "--bias", "WorkExperience", "--check",
                         "GPA=yes,WorkExperience=yes,EntranceExam=yes", "--sdp", "GPA",
                         "--profile")
    assert code == 0, err
    assert "MC-explanation" not in out and "PI-explanation" not in out
    assert ("5 contrastive explanations of Admit = yes (minimal sets of features whose change "
            "can give Admit = no; length 2: 5)") in out
    assert "GPA                 relevant" in out
    assert "robustness: 2 (the fewest features to change for the other decision)" in out
    assert "5 closest counterfactuals" in out
    assert "bias: Unbiased: no change of WorkExperience alone" in out
    assert "biased instances: 8 of 16" in out
    assert "check: sufficient, not minimal" in out and "redundant: EntranceExam" in out
    assert ("(that the decision on GPA alone, Admit = yes, stays when the rest is observed): "
            "0.794560") in out
    assert "1           12" in out and "2           4" in out


@pytest.mark.slow
def test_questions_with_mc_and_immutable(capsys, admissions_bif):
    code, out, err = run(capsys, "explain", admissions_bif, *NET, "--robustness",
                         "--immutable", "GPA,WorkExperience", "--mc")
    assert code == 0, err
    assert "MC-explanation" in out and "PI-explanation" not in out
    assert "robustness: infinite (no change keeping GPA, WorkExperience flips the decision)" in out
    code, out, _ = run(capsys, "explain", admissions_bif, *NET, "--check", "GPA=yes")
    assert "check: NOT sufficient" in out and "counterexample: " in out


@pytest.mark.slow
@pytest.mark.parametrize("extra, message", [
    (["--immutable", "GPA"], "--immutable needs --robustness"),
    (["--bias", "Age"], "'Age' is not a feature"),
    (["--sdp", "Age"], "Age not in the instance"),
    (["--check", "GPA=no"], "the explanation gives feature 'GPA' the state 'no'"),
])
def test_question_errors(capsys, admissions_bif, extra, message):
    code, _, err = run(capsys, "explain", admissions_bif, *NET, *extra)
    assert code == 1 and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_sdp_from_a_saved_odd(capsys, admissions_bif, tmp_path):
    """A saved ODD holds its classifier, so the same-decision probability needs no network."""
    saved = str(tmp_path / "a.bnx")
    run(capsys, "compile", admissions_bif, "--class", "Admit", "--positive", "yes",
        "--output", saved)
    code, out, _ = run(capsys, "explain", saved, "--instance", X, "--sdp", "GPA")
    code2, out2, _ = run(capsys, "explain", admissions_bif, "--class", "Admit", "--positive",
                         "yes", "--instance", X, "--sdp", "GPA")
    assert code == code2 == 0
    sdp = [line for line in out.splitlines() if "same-decision" in line.lower()]
    assert sdp and sdp == [line for line in out2.splitlines() if "same-decision" in line.lower()]


@pytest.mark.slow
def test_partial_instance_shows_what_to_observe_next(capsys, admissions_bif):
    code, out, err = run(capsys, "explain", admissions_bif, "--class", "Admit", "--positive",
                         "yes", "--instance", "GPA=yes")
    assert code == 0, err  # the report: how sure, and what to find out next
    assert out.startswith("So far: Admit = yes (Pr(Admit = yes) = 0.791, threshold 0.5).\n"
                          "How sure: with probability 0.795")
    assert "What to find out next: WorkExperience: it changes the decision with probability" in out
    code, out, err = run(capsys, "explain", admissions_bif, "--class", "Admit", "--positive",
                         "yes", "--instance", "GPA=yes", "--pi")  # the table of every feature
    assert code == 0, err
    assert out.startswith("So far: Admit = yes (Pr(Admit = yes) = 0.791, threshold 0.5).\n")
    assert "same-decision probability (it stays when the rest is observed): 0.794560" in out
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("feature "))
    assert lines[head].split() == ["feature", "expected", "SDP", "Pr(flip)"]
    table = lines[head + 2:]
    names = [ln.split()[0] for ln in table]
    assert names[0] == "WorkExperience"  # then a tie, in the classifier's feature order
    assert sorted(names[1:]) == ["EntranceExam", "FirstTimeApplicant"]
