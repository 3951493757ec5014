"""The rough edges a new user hit (issue 20), each pinned by a test."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest

from tests.conftest import ROOT

VOTES_WORKFLOW = """
import warnings
warnings.simplefilter("error")      # any warning at all, FutureWarning and Deprecation too
import bnx
votes = bnx.datasets.load_votes()
clf = bnx.Classifier(bnx.learn_naive_bayes(votes, "party"), "party", "republican")
odd = bnx.compile(clf)
x = {f: votes.loc[369, f] for f in clf.features}
bnx.mc_explanations(odd, x), bnx.pi_explanations(odd, x).count
bnx.explain_data(odd, votes.head(5), n_jobs=1, progress=False)
tan = bnx.learn_tan(votes, "party")
bnx.compile(bnx.Classifier(tan, "party", "republican",
                           features=list(bnx.datasets.VOTES_FEATURES))).size
print("ok")
"""


@pytest.mark.slow
def test_the_votes_workflow_warns_nothing():
    """learn, compile, explain, explain_data, learn_tan: no warning (pgmpy's FutureWarning
    about ``pgmpy.estimators.StructureScore`` is filtered where bnx imports TreeSearch).
    A fresh process: a module imported earlier by another test would not warn again."""
    run = subprocess.run([sys.executable, "-c", VOTES_WORKFLOW], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]


# ---------------------------------------------------------------- misspelled names
import pytest  # noqa: E402

import bnx  # noqa: E402

X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


@pytest.fixture(scope="module")
def admissions_odd():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


def test_closest_first_ranks_by_spelling():
    from bnx.errors import closest_first
    assert closest_first("GAP", ["WorkExperience", "GPA", "EntranceExam"]).startswith("GPA, ")
    assert closest_first("x", [f"f{i}" for i in range(30)], limit=3).endswith("(27 more)")


@pytest.mark.parametrize("call", [
    lambda odd, clf: odd.decide({**X, "GPAA": "+"}),
    lambda odd, clf: clf.decide({**X, "GPAA": "+"}, within="all"),
    lambda odd, clf: bnx.mc_explanations(odd, X, fixed=["GPAA"]),
    lambda odd, clf: bnx.explain_data(odd, [{**X, "GPAA": "+"}], progress=False),
    lambda odd, clf: bnx.Classifier(clf.network, "Admit", "+", features=["GPAA"]),
    lambda odd, clf: bnx.linear.robustness(clf, {**X, "GPAA": "+"}),
], ids=["odd", "classifier", "mc-fixed", "explain_data", "features", "linear"])
def test_a_misspelled_feature_lists_the_features_closest_first(admissions_odd, call):
    with pytest.raises(bnx.UnknownFeatureError, match=r"closest first: GPA, "):
        call(admissions_odd, admissions_odd.classifier)


@pytest.mark.parametrize("call", [
    lambda odd, clf: odd.decide({**X, "GPA": "++"}),
    lambda odd, clf: clf.decide({**X, "GPA": "++"}, within="all"),
    lambda odd, clf: bnx.explain_data(odd, [{**X, "GPA": "++"}], progress=False),
    lambda odd, clf: bnx.mc_explanations(odd, X, on={"GPA": "++"}),
    lambda odd, clf: bnx.Classifier(clf.network, "Admit", "++"),
], ids=["odd", "classifier", "explain_data", "on", "positive"])
def test_a_misspelled_state_lists_the_states_closest_first(admissions_odd, call):
    with pytest.raises(bnx.BnxError, match=r"states, closest first: \+, -"):
        call(admissions_odd, admissions_odd.classifier)


def test_a_misspelled_class_lists_the_nodes_closest_first():
    with pytest.raises(bnx.NetworkError, match=r"closest first: Admit, "):
        bnx.Classifier(bnx.examples.admissions_network(), "Admt", "+")


# ---------------------------------------------------------------- MC-explanations' on states
def test_mc_explanations_say_which_states_are_on():
    odd = bnx.compile(bnx.examples.asia(), backend="autoref")
    x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
    mc = bnx.mc_explanations(odd, x, fixed=["xray"])  # yes/no: "yes" is on
    assert mc.on == {"asia": ("yes",), "smoke": ("yes",), "dysp": ("yes",)}
    text = str(mc)
    assert "on states: asia = yes, smoke = yes, dysp = yes" in text.splitlines()[-1]
    assert mc.to_frame().attrs["on"] == mc.on
    assert mc.shortest().on == mc.on
    assert "on states: asia = yes" in mc._repr_html_()
    multi = bnx.mc_explanations(odd, x, on={"asia": ["yes", "no"]})
    assert multi.on["asia"] == ("yes", "no") and "asia = yes or no" in str(multi)
    assert bnx.pi_explanations(odd, x).on is None  # only MC-explanations count on states


@pytest.mark.slow
def test_the_command_line_prints_the_on_states(capsys):
    from bnx.cli import main
    path = str(bnx.examples.network_path("asia.bif"))
    assert main(["explain", path, "--class", "lung", "--positive", "yes", "--mc",
                 "--features", "asia,smoke,xray,dysp",
                 "--instance", "asia=no,smoke=yes,xray=yes,dysp=yes"]) == 0
    assert "on states: asia = yes, smoke = yes, xray = yes, dysp = yes" in capsys.readouterr().out


# ---------------------------------------------------------------- multi-valued MC, API and CLI
@pytest.fixture(scope="module")
def three_states(tmp_path_factory):
    import pandas as pd
    frame = pd.DataFrame({"C": list("aabbabba"), "F": list("xyzxyzzx"),
                          "G": list("uvuvvuvu")})
    odd = bnx.compile(bnx.Classifier(bnx.learn_naive_bayes(frame, "C"), "C", "b"),
                      backend="autoref")
    where = tmp_path_factory.mktemp("three")
    odd.save(where / "three.bnx")
    frame.drop(columns="C").to_csv(where / "rows.csv", index=False)
    return odd, frame.drop(columns="C"), where


def test_explain_data_and_the_command_line_agree_on_multi_valued_mc(three_states, capsys):
    from bnx.cli import main
    from bnx.tabular.batch import default_what
    odd, rows, where = three_states
    what, note = default_what(odd)
    assert "mc_count" not in what and "'F' (x / y / z)" in note and "'G' (u / v)" in note
    assert "on=" in note and "on_states=" in note and "--on" in note
    with pytest.warns(bnx.BnxWarning) as caught:
        answers = bnx.explain_data(odd, rows, progress=False)
    assert [str(w.message) for w in caught] == [note]
    assert list(answers.columns) == list(what)
    assert main(["explain", str(where / "three.bnx"), "--data", str(where / "rows.csv")]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == f"bnx: note: {note}"
    assert out.splitlines()[0] == ",".join(["row", *what])
    # asked for explicitly, both refuse with the same error
    with pytest.raises(bnx.ExplanationError) as refused:
        bnx.explain_data(odd, rows, what=["mc_count"], progress=False)
    assert main(["explain", str(where / "three.bnx"), "--data", str(where / "rows.csv"),
                 "--what", "mc_count"]) == 1
    assert capsys.readouterr().err.strip() == f"bnx: error: {refused.value}"
    # with on states, both give the MC answers
    with_on = bnx.explain_data(odd, rows, on={"F": ["x"], "G": "v"}, progress=False)
    assert "mc_count" in with_on.columns


# ---------------------------------------------------------------- command-line help
def _options_without_help(monkeypatch):
    import argparse

    from bnx.cli import main
    parsers = []  # the parser bnx.cli.main builds, caught as it parses
    parse = argparse.ArgumentParser.parse_args

    def caught(self, *args, **kwargs):
        parsers.append(self)
        return parse(self, *args, **kwargs)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", caught)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([]) == 0  # no command: the help, exit code 0
    missing = []

    def walk(parser, name):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(sub, f"{name} {sub_name}")
            elif action.help in (None, "") and action.dest != "help":
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    walk(parsers[0], "bnx")
    return missing


def test_every_command_line_option_has_help_text(monkeypatch):
    assert _options_without_help(monkeypatch) == []


# ---------------------------------------------------------------- malformed files, one-state class
def test_a_truncated_net_file_names_the_table(tmp_path, capsys):
    from bnx.cli import main
    text = bnx.examples.network_path("admission.net").read_text()
    cut = text.index("(0.6  0.4 ));")  # inside the table of EntranceExam
    bad = tmp_path / "cut.net"
    bad.write_text(text[:cut + len("(0.6")])
    with pytest.raises(bnx.NetworkFileError) as err:
        bnx.read_network(bad)
    message = str(err.value)
    assert "cut.net" in message and "reshape" not in message
    assert "the table of 'EntranceExam' given Admit has 3 numbers" in message
    assert "need 4" in message
    assert main(["compile", str(bad), "--class", "Admit", "--positive", "state1"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_a_net_table_with_too_many_numbers_is_named(tmp_path):
    text = bnx.examples.network_path("admission.net").read_text()
    bad = tmp_path / "long.net"
    bad.write_text(text.replace("data = (0.7 0.3);", "data = (0.7 0.2 0.1);"))
    with pytest.raises(bnx.NetworkFileError, match="the table of 'Admit' has 3 numbers"):
        bnx.read_network(bad)


def test_a_class_with_a_single_state_is_refused():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    net = DiscreteBayesianNetwork([("C", "F")])
    net.add_cpds(TabularCPD("C", 1, [[1.0]], state_names={"C": ["only"]}),
                 TabularCPD("F", 2, [[0.3], [0.7]], evidence=["C"], evidence_card=[1],
                            state_names={"F": ["a", "b"], "C": ["only"]}))
    with pytest.raises(bnx.NetworkError, match="'C' has a single state .'only'."):
        bnx.Classifier(net, "C", "only")
    with pytest.raises(bnx.BnxError):
        bnx.Classifier(net, "C", "only", rule="argmax")


# ---------------------------------------------------------------- learn_tan's features
def test_a_learned_tan_keeps_every_feature_by_default():
    votes = bnx.datasets.load_votes()
    tan = bnx.learn_tan(votes, "party", features=list(bnx.datasets.VOTES_FEATURES)[:6])
    inner = [n for n in tan.nodes() if n != "party" and list(tan.successors(n))]
    assert inner  # a TAN's features are inner nodes, which the leaves default left out
    clf = bnx.Classifier(tan, "party", "republican")
    assert clf.features == tuple(bnx.datasets.VOTES_FEATURES)[:6]
    assert clf.structure == "tan"
    # another class variable: the recorded features are not its features
    other = bnx.Classifier(tan, inner[0], tan.get_cpds(inner[0]).state_names[inner[0]][0])
    assert inner[0] not in other.features and "party" not in other.features
