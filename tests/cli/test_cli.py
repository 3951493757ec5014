"""The bnx command, as a new user would drive it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import bnx
from bnx.cli import main
from tests._support.cli import run


def test_compile(capsys, admissions_bif, tmp_path):
    dot = tmp_path / "odd.dot"
    code, out, err = run(capsys, "compile", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--draw", str(dot))
    assert code == 0, err
    assert "ODD size:   6 nodes" in out and "positive:   6 of 16 instances" in out
    assert dot.read_text().startswith("digraph")


@pytest.mark.slow
def test_explain(capsys, admissions_bif):
    x = "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=yes"
    code, out, err = run(capsys, "explain", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--instance", x)
    assert code == 0, err
    assert out.startswith("Decided: Admit = yes (Pr(Admit = yes) = 0.997, threshold 0.5).\n"
                          "Why: GPA = yes and WorkExperience = yes are enough")
    code, out, err = run(capsys, "explain", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--instance", x, "--mc")
    # the single answers lead with the report's sentence, in the class's words
    assert out.startswith("Decided: Admit = yes (Pr(Admit = yes) = 0.997, threshold 0.5).\n")
    assert "decision:" not in out and "Pr(Admit=yes | x)" not in out
    assert "1 MC-explanation of Admit = yes" in out
    code, out, err = run(capsys, "explain", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--instance", x, "--pi")
    assert "3 sufficient reasons for Admit = yes (PI-explanations; length 2: 1, 3: 2)" in out
    code, out, _ = run(capsys, "explain", admissions_bif, "--class", "Admit",
                       "--positive", "yes", "--instance", x, "--pi", "--shortest")
    assert "MC-explanation" not in out and "1 sufficient reason" in out


@pytest.mark.slow
@pytest.mark.parametrize("argv, message", [
    (["explain", "NET", "--class", "Admit", "--positive", "yes", "--instance",
      "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,Age=3"], "'Age'"),
    (["explain", "NET", "--class", "Admit", "--positive", "yes", "--instance",
      "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=high"],
     "'high' is not a state of feature 'GPA'"),
    (["explain", "NET", "--class", "Admit", "--positive", "yes", "--instance", "GPA"],
     "FEATURE=STATE"),
    (["compile", "NET", "--class", "Admission", "--positive", "yes"], "class variable 'Admission'"),
    (["compile", "NET", "--class", "Admit", "--positive", "maybe"], "positive state 'maybe'"),
    (["compile", "NET", "--class", "Admit", "--positive", "yes", "--threshold", "2"],
     "threshold"),
    (["compile", "NET", "--class", "Admit", "--positive", "yes", "--order", "GPA,Nope"],
     "'Nope'"),
    (["compile", "NET", "--class", "Admit", "--positive", "yes", "--max-nodes", "1"],
     "max_nodes=1"),
    (["compile", "missing.bif", "--class", "Admit", "--positive", "yes"], "no such file"),
    (["compile", "NET", "--class", "GPA", "--positive", "yes", "--features", "GPA"],
     "cannot be a feature"),
    (["explain", "NET", "--instance", "GPA=yes"], "--class is required"),
])
def test_errors_are_one_line(capsys, admissions_bif, argv, message):
    argv = [admissions_bif if a == "NET" else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("bnx: error: ") and message in err


@pytest.mark.parametrize("argv", [["compile"], ["explain", "x.bif"], ["frobnicate"],
                                  ["compile", "x.bif", "--class", "C", "--positive", "1",
                                   "--threshold", "half"]])
def test_usage_errors_are_one_line(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    _, err = capsys.readouterr()
    assert info.value.code == 2 and err.count("\n") == 1 and "--help" in err


def test_malformed_network_file(capsys, tmp_path):
    bad = tmp_path / "broken.net"
    bad.write_text("net { node A { states = (\"a\" ")
    code, _, err = run(capsys, "compile", str(bad), "--class", "A", "--positive", "a")
    assert code == 1 and err.count("\n") == 1 and "broken.net" in err


def test_votes_quick(capsys):
    code, out, err = run(capsys, "votes", "--quick", "--no-progress", "--backend", "autoref")
    assert code == 0, err
    study = bnx.case_study.votes_study(backend="autoref", all_positives=False)
    assert f"{study.positives:,} of 65,536 instances are positive" in out
    assert f"Compiled ODD: {study.odd.size} nodes" in out
    assert f"PI-explanations of all decisions: {study.all_pi_count:,}" in out
    # numbered as the data frame's index, which starts at 0 (issue 20)
    line = next(ln for ln in out.splitlines() if ln.startswith("The Congressman of row"))
    row = bnx.case_study.CONGRESSMAN_ROW
    votes = bnx.datasets.load_votes().loc[row, list(bnx.datasets.VOTES_FEATURES)]
    assert line == (f"The Congressman of row {row} (line {row + 1} of house-votes-84.data): "
                    + " ".join(votes))
    assert "n y n y y y n n n n n n y y n y" in line


@pytest.mark.slow
def test_python_dash_m_and_no_traceback(admissions_bif, capsys):
    code, _, err = run(capsys, "compile", admissions_bif, "--class", "Admit", "--positive",
                       "nope")  # (in-process: the same main, the same message)
    assert code == 1 and "Traceback" not in err and err.count("\n") == 1
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    res = subprocess.run([sys.executable, "-m", "bnx", "compile", admissions_bif, "--class",
                          "Admit", "--positive", "yes", "--backend", "autoref"],
                         capture_output=True, text=True, env=env)
    assert res.returncode == 0 and res.stderr == ""  # no dd shutdown noise either


def test_compile_output_then_explain_the_saved_odd(capsys, admissions_bif, tmp_path):
    saved = str(tmp_path / "admissions.bnx")
    code, out, err = run(capsys, "compile", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--output", saved)
    assert code == 0 and f"saved:      {saved}" in out
    x = "WorkExperience=yes,FirstTimeApplicant=no,EntranceExam=no,GPA=yes"
    code, out, err = run(capsys, "explain", saved, "--instance", x, "--pi")
    assert code == 0, err
    assert out.startswith("Decided: Admit = yes (Pr(Admit = yes) = 0.906, threshold 0.5).")
    assert "1 sufficient reason" in out  # the posterior from the file's tables
    (tmp_path / "cut.bnx").write_text(open(saved).read()[:100])
    code, _, err = run(capsys, "explain", str(tmp_path / "cut.bnx"), "--instance", x)
    assert code == 1 and err.count("\n") == 1 and "truncated" in err


@pytest.mark.slow
def test_plain_script_exits_quietly(tmp_path):
    """A script with a module-level function (so __main__'s globals form a cycle) that
    compiles and explains on autoref must not print dd's 'nodes still referenced'."""
    script = tmp_path / "script.py"
    script.write_text(
        "import bnx\n"
        "def helper():\n    pass\n"
        "net = bnx.learn_naive_bayes(bnx.datasets.load_votes(), 'party')\n"
        "clf = bnx.Classifier(net, 'party', 'republican')\n"
        "odd = bnx.compile(clf, backend='autoref')\n"
        "x = dict(zip(clf.features, 'n y n y y y n n n n n n y y n y'.split()))\n"
        "pis = bnx.pi_explanations(odd, x)\n"
        "mc = bnx.mc_explanations(odd, x)\n"
        "print(len(pis), len(mc))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONWARNINGS": "ignore"}
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert res.returncode == 0
    assert "referenced" not in res.stderr and "Exception ignored" not in res.stderr


def test_saved_odd_refuses_options_it_cannot_honour(capsys, admissions_bif, tmp_path):
    saved = str(tmp_path / "a.bnx")
    assert run(capsys, "compile", admissions_bif, "--class", "Admit", "--positive", "yes",
               "--output", saved)[0] == 0
    x = "WorkExperience=yes,FirstTimeApplicant=no,EntranceExam=no,GPA=yes"
    code, _, err = run(capsys, "explain", saved, "--instance", x, "--threshold", "0.99")
    assert code == 1 and err.count("\n") == 1 and "--threshold cannot change a saved ODD" in err


@pytest.mark.parametrize("limit", ["0", "-2", "many"])
def test_limit_must_be_positive(capsys, admissions_bif, limit):
    with pytest.raises(SystemExit) as info:
        main(["explain", admissions_bif, "--class", "Admit", "--positive", "yes",
              "--instance", "GPA=yes", "--limit", limit])
    assert info.value.code == 2 and capsys.readouterr().err.count("\n") == 1


def test_draw_error_is_one_line(capsys, admissions_bif, tmp_path):
    code, _, err = run(capsys, "compile", admissions_bif, "--class", "Admit", "--positive",
                       "yes", "--draw", str(tmp_path / "nope" / "x.dot"))
    assert code == 1 and err.count("\n") == 1 and "cannot write" in err


# ---------------------------------------------------------------------- --data (issue 10)
@pytest.mark.slow
def test_explain_data_file_equals_explain_data(capsys, tmp_path):
    import pandas as pd
    clf = bnx.case_study.votes_classifier()
    odd = bnx.compile(clf, backend="autoref")
    saved = odd.save(tmp_path / "votes.bnx")
    votes = bnx.datasets.load_votes().iloc[::7]
    rows = tmp_path / "rows.csv"
    votes.to_csv(rows, index=False, na_rep="?")
    out = tmp_path / "answers.csv"
    code, text, err = run(capsys, "explain", saved, "--data", str(rows), "--output", str(out),
                          "--jobs", "2")
    assert code == 0, err
    assert "explained 63 rows" in text
    got = pd.read_csv(out, index_col="row")
    want = bnx.explain_data(odd, votes.reset_index(drop=True), progress=False)
    assert list(got.columns) == list(want.columns)
    assert (got.to_numpy() == want.to_numpy()).all()
    code, text, _ = run(capsys, "explain", saved, "--data", str(rows), "--what",
                        "decision,pi_count")
    assert code == 0 and text.splitlines()[0] == "row,decision,pi_count"
    assert len(text.splitlines()) == 64


@pytest.mark.slow
def test_multivalued_default_works(capsys, tmp_path):
    from pgmpy.readwrite import BIFWriter

    from tests._support.builders import multivalued_classifier
    path = str(tmp_path / "multi.bif")
    BIFWriter(multivalued_classifier().network).write(path)
    code, out, err = run(capsys, "explain", path, "--class", "C", "--positive", "yes",
                         "--instance", "A=lo,B=2,D=1", "--shortest")
    assert code == 0, err
    assert "MC-explanations count the features that are 'on'" in out
    assert "'A'" in out and "'B'" in out and "--on" in out
    assert "PI-explanation" in out
    code, out, err = run(capsys, "explain", path, "--class", "C", "--positive", "yes",
                         "--instance", "A=lo,B=2,D=1", "--on", "A=hi,B=2")
    assert code == 0 and "MC-explanation" in out
    rows = tmp_path / "rows.csv"
    rows.write_text("A,B,D\nlo,2,1\nhi,?,0\n")
    code, out, err = run(capsys, "explain", path, "--class", "C", "--positive", "yes",
                         "--data", str(rows))
    assert code == 0, err
    assert out.splitlines()[0] == "row,decision,posterior,pi_count,pi_shortest"


@pytest.mark.slow
@pytest.mark.parametrize("extra, message", [
    (["--output", "x.csv"], "--output goes with --data"),
    (["--data", "no-such.csv"], "cannot read the CSV file"),
])
def test_data_errors(capsys, admissions_bif, extra, message):
    argv = ["explain", admissions_bif, "--class", "Admit", "--positive", "yes"]
    if "--data" not in extra:
        argv += ["--instance", "GPA=yes,WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes"]
    code, _, err = run(capsys, *argv, *extra)
    assert code == 1 and message in err


# ---------------------------------------------------------------- --rule and general networks

ASIA = ["--class", "lung", "--positive", "yes", "--features", "asia,smoke,xray,dysp"]


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["threshold", "argmax"])
def test_compile_with_a_rule_on_a_general_network(capsys, rule):
    from tests._support import oracle
    path = str(bnx.examples.network_path("asia.bif"))
    code, out, err = run(capsys, "compile", path, *ASIA, "--rule", rule)
    assert code == 0, err
    net = bnx.read_network(path)
    want = oracle.count_positive(net, "lung", "yes", 0.5, ["asia", "smoke", "xray", "dysp"],
                                 rule=rule)
    assert f"positive:   {want} of 16 instances" in out
    assert ("most probable" in out) == (rule == "argmax")


def test_explain_with_argmax(capsys):
    path = str(bnx.examples.network_path("asia.bif"))
    x = "asia=no,smoke=yes,xray=yes,dysp=yes"
    code, out, err = run(capsys, "explain", path, *ASIA, "--rule", "argmax", "--instance", x,
                         "--pi")
    assert code == 0, err
    assert out.startswith("Decided: lung = yes (Pr(lung = yes) = ")
    assert "the most probable state decides)." in out
    assert "1 sufficient reason for lung = yes (PI-explanations; length 3: 1)" in out


def test_argmax_refuses_a_threshold_on_the_command_line(capsys):
    path = str(bnx.examples.network_path("asia.bif"))
    code, _, err = run(capsys, "compile", path, *ASIA, "--rule", "argmax", "--threshold", "0.3")
    assert code == 1 and "--threshold cannot be used with --rule argmax" in err
    with pytest.raises(SystemExit) as info:
        main(["compile", path, *ASIA, "--rule", "most-probable"])
    assert info.value.code == 2 and "--rule" in capsys.readouterr().err


@pytest.mark.slow
def test_explain_reads_a_gzipped_network(capsys, tmp_path):
    import gzip
    plain = bnx.examples.network_path("asia.bif")
    packed = tmp_path / "asia.bif.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    x = "asia=no,smoke=yes,xray=yes,dysp=yes"
    want = run(capsys, "explain", str(plain), *ASIA, "--instance", x)
    got = run(capsys, "explain", str(packed), *ASIA, "--instance", x)
    assert got == want and want[0] == 0 and want[1].startswith("Decided: lung = ")


@pytest.mark.slow
def test_an_instance_with_the_class_is_refused(capsys, admissions_bif, tmp_path):
    x = "Admit=yes,WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=yes"
    saved = str(tmp_path / "a.bnx")
    assert run(capsys, "compile", admissions_bif, "--class", "Admit", "--positive", "yes",
               "--output", saved)[0] == 0
    for argv in (["explain", admissions_bif, "--class", "Admit", "--positive", "yes"],
                 ["explain", saved], ["explain", saved, "--pi"]):
        for given in (x, "Admit=yes,GPA=yes"):
            code, out, err = run(capsys, *argv, "--instance", given)
            assert code == 1 and out == "" and err.count("\n") == 1
            assert err.startswith("bnx: error: the instance gives the class variable 'Admit' "
                                  "a state ('yes')")


def test_a_file_that_is_not_a_network_is_named_before_the_options(capsys, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: milk\n")
    for argv in (["explain", str(notes), "--instance", "A=a"],
                 ["serve", str(notes), "--port", "0"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and out == "" and err.count("\n") == 1
        assert "notes.txt: neither a network file" in err and "nor a saved ODD" in err
        assert "--class" not in err


def test_the_help_of_on_states_the_rule_mc_follows(capsys):
    """--on's help names the default on states that MC-explanations use: a binary
    feature's affirmative state (not simply its second), others declared."""
    import re

    import pandas as pd
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    helped = re.search(r"--on \"F1=s1\|s2,...\" (.*?) --mc", text).group(1)
    assert "second state" not in helped
    pairs = re.findall(r"(\S+) of (\S+?)/(\S+?)[,;:)]", helped)
    assert pairs and all(on in (a, b) for on, a, b in pairs)
    for on, a, b in pairs:
        for states in ((a, b), (b, a)):  # either order: the affirmative one
            net = bnx.learn_naive_bayes(pd.DataFrame({"C": ["p", "q"], "F": list(states)}), "C")
            odd = bnx.compile(bnx.Classifier(net, "C", "p"), backend="autoref")
            got = bnx.explanation.mc.on_states(odd)[0]
            assert got == {odd.states("F").index(on)}, (on, states)
    net = bnx.learn_naive_bayes(pd.DataFrame({"C": ["p", "q"], "F": ["<7.5", ">=7.5"]}),
                                "C")  # two states that do not say which is on: declared
    with pytest.raises(bnx.OnStatesError, match="'F'"):
        bnx.explanation.mc.on_states(bnx.compile(bnx.Classifier(net, "C", "p"),
                                                 backend="autoref"))


def test_explain_answers_among_the_instances_the_network_allows(capsys):
    """The report on a compiled diagram of a network with zeros says its world, and
    ``--within all`` asks every instance; ``--within`` with a single question is refused."""
    path = str(bnx.examples.network_path("asia.bif"))
    args = ["--class", "lung", "--positive", "yes", "--features", "tub,either,smoke,xray",
            "--compile", "yes", "--instance", "tub=no,either=yes,smoke=yes,xray=yes"]
    code, out, err = run(capsys, "explain", path, *args)
    assert code == 0, err
    assert "Among the instances the network allows" in out
    code, out, err = run(capsys, "explain", path, *args, "--within", "all")
    assert code == 0, err
    assert "Over every instance, whether or not the network allows it" in out
    code, _, err = run(capsys, "explain", path, *args, "--within", "all", "--pi")
    assert code == 1 and "--within goes with the report" in err
