"""``bnx explain NETWORK`` without compiling (``--compile auto|yes|no``): a network whose
decision function is large is explained one decision at a time by ``bnx.explain`` on its
classifier (``--data``: ``bnx.explain_data`` on it), ``--timeout`` bounding the report;
``bnx serve NETWORK`` likewise; and the progress bar of a large compile. The command's size
limits (COMPILE_UP_TO, PROGRESS_FROM) are constants with no public face, and a network past
them takes seconds to estimate or compile: they are patched, here and nowhere else."""

from __future__ import annotations

import sys
import time

import pandas as pd
import pytest

import bnx
from bnx import report
from bnx.cli import _main  # private: its size limits, patched (no public face; see docstring)
from tests._support.bundled import bundled_bif
from tests._support.cli import run

EXPLAIN = report.explain  # the real one, kept before a test patches bnx.report's name
X = "WorkExperience=yes,FirstTimeApplicant=yes,EntranceExam=yes,GPA=yes"
ADMIT = ["--class", "Admit", "--positive", "yes"]


def _x():
    return dict(pair.split("=") for pair in X.split(","))


@pytest.fixture
def calls(monkeypatch):
    """bnx.explain, recording each call's model and keywords before the real one answers."""
    seen = []

    def recording(model, x, **kwargs):
        seen.append((model, dict(x), dict(kwargs)))
        return EXPLAIN(model, x, **kwargs)

    monkeypatch.setattr(report, "explain", recording)
    return seen


@pytest.mark.slow
def test_no_compiles_nothing_and_prints_the_classifiers_report(capsys, admissions_bif, calls):
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X,
                         "--compile", "no")
    assert code == 0, err
    clf = bnx.Classifier.from_file(admissions_bif, "Admit", "yes")
    assert out == EXPLAIN(clf, _x()).text() + "\n"
    assert "Other reasons may exist" in out  # not counted: no diagram
    (model, x, kwargs), = calls
    assert isinstance(model, bnx.Classifier) and x == _x()
    # no --timeout: none forwarded (bnx.explain's default, 10 s); no terminal: no bar
    assert kwargs == {"rival": None, "background": None, "progress": False}


@pytest.mark.slow
def test_the_timeout_is_forwarded_when_given(capsys, admissions_bif, calls):
    code, _, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X,
                       "--compile", "no", "--timeout", "2.5")
    assert code == 0, err
    assert calls[0][2]["timeout"] == 2.5


def test_auto_compiles_a_small_network(capsys, admissions_bif, calls):
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X)
    assert code == 0, err
    assert "3 such reasons in all" in out and err == ""  # counted on the diagram
    assert isinstance(calls[0][0], bnx.ODD)
    assert 0 < calls[0][2]["timeout"] <= 10  # what the compile left of the default 10 s


def test_a_compile_past_its_share_gives_way_to_the_report_without_compiling(
        capsys, admissions_bif, calls, monkeypatch):
    """The report has 10 s by default and the compile half of it: a compile that does not
    finish in its share (made so here: a share of a microsecond) gives way to the search
    over the network, with what is left (a naive Bayes or TAN to bnx.linear instead)."""
    monkeypatch.setattr(_main, "_compile_share", lambda args: 1e-6)
    asia = str(bnx.examples.network_path("asia.bif"))  # a general network: hidden nodes
    code, out, err = run(capsys, "explain", asia, "--class", "lung", "--positive", "yes",
                         "--instance", "xray=yes,dysp=yes")
    assert code == 0, err
    assert err.startswith("bnx: note: not compiled (compilation ran out of time")
    assert "explained without compiling" in err and err.count("\n") == 1
    (model, x, kwargs), = calls
    assert isinstance(model, bnx.Classifier) and x == {"xray": "yes", "dysp": "yes"}
    assert 0 < kwargs["timeout"] <= 10
    assert "search over the network" in out  # the search's report
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X)
    assert code == 0 and "by bnx.linear" in out  # a naive Bayes: bnx.linear at once


@pytest.mark.slow
def test_auto_explains_a_large_one_without_compiling(capsys, admissions_bif, calls,
                                                     monkeypatch):
    monkeypatch.setattr(_main, "COMPILE_UP_TO", 5)  # admissions' ODD is estimated larger
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X,
                         "--timeout", "7")
    assert code == 0, err
    assert "bnx: note: the decision function is estimated at" in err
    assert "explained without compiling" in err and err.count("\n") == 1
    assert isinstance(calls[0][0], bnx.Classifier) and calls[0][2]["timeout"] == 7
    assert "Other reasons may exist" in out
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X, "--pi")
    assert code == 0 and "3 sufficient reasons" in out  # asked of the diagram: compiled


@pytest.mark.slow
def test_hepar2_is_not_compiled(capsys, tmp_path, monkeypatch):
    """All 41 findings: estimated at 145,944,531 nodes, so the report is asked of the classifier
    at once (it used to compile for minutes, or be refused past the budget)."""
    path = bundled_bif("hepar2", tmp_path)
    seen = []

    def fake(model, x, **kwargs):  # the report itself is the general path's (issue 34)
        seen.append((model, kwargs))
        raise bnx.ArgumentError("recorded")

    monkeypatch.setattr(report, "explain", fake)
    t0 = time.monotonic()
    code, out, err = run(capsys, "explain", str(path), "--class", "Cirrhosis", "--instance",
                         "Steatosis=absent", "--timeout", "4")
    assert time.monotonic() - t0 < 30
    assert code == 1 and out == "" and "bnx: error: recorded" in err
    assert "estimated at 145,944,531 nodes" in err
    (model, kwargs), = seen
    assert isinstance(model, bnx.Classifier) and len(model.features) == 41
    assert model.multiclass and kwargs["timeout"] == 4


@pytest.mark.slow
def test_a_question_past_the_budget_says_the_report_needs_no_diagram(capsys):
    asia = str(bnx.examples.network_path("asia.bif"))
    code, out, err = run(capsys, "explain", asia, "--class", "lung", "--positive", "yes",
                         "--features", "asia,smoke,xray,dysp", "--instance",
                         "asia=no,smoke=yes,xray=yes,dysp=yes", "--cxp", "--max-nodes", "2")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "past max_nodes=2" in err
    assert ("--cxp, --max-nodes need the whole decision function; without them, bnx explain "
            "reports on this one decision without compiling") in err


@pytest.mark.slow
def test_rows_without_compiling(capsys, admissions_bif, tmp_path, calls):
    clf = bnx.Classifier.from_file(admissions_bif, "Admit", "yes")
    rows = pd.DataFrame([_x(), {**_x(), "GPA": "no"}, {**_x(), "EntranceExam": "no"}])
    path = tmp_path / "rows.csv"
    rows.to_csv(path, index=False)
    expected = bnx.explain_data(clf, rows, progress=False).to_csv(index_label="row")
    calls.clear()
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--data", str(path),
                         "--compile", "no", "--timeout", "3")
    assert code == 0, err
    assert out == expected
    assert {c[2].get("timeout") for c in calls} == {3}
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--data", str(path),
                         "--what", "decision,reason,counterfactual")
    assert code == 0, err  # report-only answers: not compiled, even when small
    assert out.splitlines()[0] == "row,decision,reason,counterfactual"
    assert "makes it no" in out


@pytest.mark.parametrize("extra, message", [
    (["--instance", X, "--compile", "no", "--cxp"],
     "--cxp needs the compiled decision function, which --compile no does not build"),
    (["--instance", X, "--compile", "no", "--order", "GPA"], "--order needs the compiled"),
    (["--data", "rows.csv", "--what", "pi_count,reason"], "ask for them in two runs"),
    (["--data", "rows.csv", "--compile", "no", "--what", "mc_count"],
     "--what mc_count needs the compiled decision function"),
])
def test_refusals_are_one_line(capsys, admissions_bif, extra, message):
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, *extra)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("bnx: error: ") and message in err


@pytest.mark.slow
def test_a_saved_odd_takes_no_compile_option(capsys, admissions_bif, tmp_path):
    saved = str(tmp_path / "a.bnx")
    assert run(capsys, "compile", admissions_bif, *ADMIT, "--output", saved)[0] == 0
    code, _, err = run(capsys, "explain", saved, "--instance", X, "--compile", "no")
    assert code == 1 and "--compile cannot change a saved ODD" in err
    code, out, err = run(capsys, "explain", saved, "--instance", X, "--compile", "auto")
    assert code == 0 and "3 such reasons in all" in out


@pytest.mark.slow
def test_yes_compiles_what_auto_would_not(capsys, admissions_bif, monkeypatch, calls):
    monkeypatch.setattr(_main, "COMPILE_UP_TO", 5)
    code, out, err = run(capsys, "explain", admissions_bif, *ADMIT, "--instance", X,
                         "--compile", "yes")
    assert code == 0 and err == "" and isinstance(calls[0][0], bnx.ODD)


@pytest.fixture
def served(monkeypatch):
    """bnx.serve.run, recording what it was asked to serve instead of serving."""
    seen = []
    monkeypatch.setattr(bnx.serve, "run", lambda model, **kw: seen.append((model, kw)))
    return seen


def test_serve_auto_serves_a_large_network_without_compiling(capsys, served, monkeypatch):
    pytest.importorskip("starlette")
    path = bnx.examples.network_path("admission.net")
    argv = ["serve", str(path), "--class", "Admit", "--positive", "state1"]
    monkeypatch.setattr(_main, "COMPILE_UP_TO", 5)
    code, _, err = run(capsys, *argv)
    assert code == 0 and "explained without compiling" in err
    assert isinstance(served[-1][0], bnx.Classifier) and served[-1][1]["timeout"] is None


@pytest.mark.slow
def test_no_progress_frames_where_stderr_is_not_a_terminal(capsys, admissions_bif,
                                                           monkeypatch):
    """`bnx votes > file 2>&1` must not fill the file with a bar's carriage-return frames;
    on a terminal the bar is drawn."""
    code, out, err = run(capsys, "votes", "--quick", "--backend", "autoref")  # no terminal
    assert code == 0 and "PI-explanations of all decisions" in out
    assert "\r" not in out + err
    monkeypatch.setattr(_main, "PROGRESS_FROM", 0)  # a bar for every compile
    argv = ["compile", admissions_bif, "--class", "Admit", "--positive", "yes"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and "\r" not in out + err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = run(capsys, *argv)
    assert code == 0 and "compiling" in err and "\r" not in out
    code, out, err = run(capsys, *argv, "--no-progress")
    assert code == 0 and err == ""


def test_a_bar_of_the_seconds_spent_against_the_bound(capsys):
    """bnx.explain(progress=True), as bnx explain asks on a terminal: a bar of the seconds
    spent out of the timeout, drawn from half a second on and erased at the end."""
    from bnx._util.waiting import waiting
    with waiting(10, enabled=True):
        time.sleep(0.9)
    err = capsys.readouterr().err
    assert "explaining: " in err and " of 10 s" in err
    with waiting(10, enabled=True):  # a quick call: nothing drawn
        pass
    with waiting(10, enabled=False):
        time.sleep(0.6)
    assert capsys.readouterr().err == ""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    with pytest.raises(bnx.ArgumentError, match="progress"):
        bnx.explain(odd, dict.fromkeys(odd.features, "+"), progress="yes")
