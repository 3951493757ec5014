"""``bnx compile`` and ``bnx explain`` on a classifier that picks one of several class
states (issue 33): ``--class`` without ``--positive``, from a network file and from a saved
multi-class ODD, and ``--rival``."""

from __future__ import annotations

import pytest

import bnx
from tests._support.bundled import bundled_network
from tests._support.cli import run

X = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
     "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}
XS = ",".join(f"{f}={s}" for f, s in X.items())


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    """Child as a BIF file, and its multi-class ODD compiled in Python."""
    from pgmpy.readwrite import BIFWriter
    net = bundled_network("child")
    path = tmp_path_factory.mktemp("nets") / "child.bif"
    BIFWriter(net).write(str(path))
    clf = bnx.Classifier(bnx.read_network(str(path)), "Disease")
    return str(path), bnx.compile(clf)


@pytest.mark.slow
def test_compile_without_positive_saves_a_multiclass_odd(capsys, child, tmp_path):
    path, odd = child
    out_file = tmp_path / "child.bnx"
    code, out, err = run(capsys, "compile", path, "--class", "Disease", "--output",
                         str(out_file))
    assert code == 0, err
    counts = odd.count()
    assert "the most probable state of Disease" in out
    assert ("decided:    " + ", ".join(f"{s} {n:,}" for s, n in counts.items())
            + " of 1,080 instances") in out
    loaded = bnx.ODD.load(str(out_file))
    assert loaded.multiclass and loaded.classes == odd.classes and loaded.count() == counts


@pytest.mark.slow
def test_explain_a_network_file_prints_the_report(capsys, child):
    path, odd = child
    code, out, err = run(capsys, "explain", path, "--class", "Disease", "--instance", XS)
    assert code == 0, err
    assert out == bnx.explain(odd, X).text() + "\n"
    assert out.startswith("Decided: Disease = PAIVS (0.589; next TGA 0.280).")
    assert "makes it TGA" in out


@pytest.mark.slow
def test_explain_a_saved_odd_with_a_rival(capsys, child, tmp_path):
    path, odd = child
    saved = odd.save(str(tmp_path / "child.bnx"))
    code, out, err = run(capsys, "explain", saved, "--rival", "TGA", "--instance", XS)
    assert code == 0, err
    want = bnx.explain(bnx.ODD.load(saved), X, rival="TGA")
    assert out == want.text() + "\n"
    assert "Why Disease = PAIVS and not TGA:" in out and "What would make it TGA:" in out
    # single answers: led by the report's first sentence, asked of the rival's formula
    code, out, err = run(capsys, "explain", saved, "--pi", "--rival", "TGA", "--instance", XS)
    assert code == 0, err
    assert "Decided: Disease = PAIVS (0.589; next TGA 0.280)." in out
    pis = bnx.pi_explanations(odd, X, rival="TGA")
    assert f"{pis.count} sufficient reason" in out
    assert "for Disease = PAIVS and not TGA" in out


@pytest.mark.slow
def test_partial_instance_gets_the_report(capsys, child):
    path, odd = child
    code, out, err = run(capsys, "explain", path, "--class", "Disease", "--pi",
                         "--instance", "Age=0-3_days")
    assert code == 0, err
    assert out == bnx.explain(odd, {"Age": "0-3_days"}).text() + "\n"
    assert out.startswith("So far: Disease = ")


@pytest.mark.slow
@pytest.mark.parametrize("extra, message", [
    (["--rival", "PAIVS"], "rival='PAIVS' is the class this instance is decided"),
    (["--rival", "Flu"], "'Flu' is not a state of the class 'Disease'"),
    (["--threshold", "0.3"], "--threshold needs --positive"),
])
def test_errors_are_one_line(capsys, child, extra, message):
    path, _ = child
    code, out, err = run(capsys, "explain", path, "--class", "Disease", "--instance", XS,
                         *extra)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("bnx: error: ") and message in err


@pytest.mark.slow
def test_binary_rival_is_only_the_other_decision(capsys, admissions_bif):
    x = "WorkExperience=yes,FirstTimeApplicant=no,EntranceExam=no,GPA=yes"
    base = ["explain", admissions_bif, "--class", "Admit", "--positive", "yes",
            "--instance", x]
    code, plain, _ = run(capsys, *base)
    code2, out, _ = run(capsys, *base, "--rival", "no")
    assert code == code2 == 0 and out == plain
    code, out, err = run(capsys, *base, "--rival", "yes")
    assert code == 1 and "the only other decision here is 'no'" in err


@pytest.mark.parametrize("rival", [None, "TGA"])
def test_the_question_flags_speak_of_classes(capsys, child, tmp_path, rival):
    """--cxp, --roles, --robustness, --check and --bias take the multi-class ODD (and the
    rival): their answers are the Python API's, worded by classes, never "not PAIVS"."""
    path, odd = child
    saved = odd.save(str(tmp_path / "child.bnx"))
    more = ["--rival", rival] if rival else []
    code, out, err = run(capsys, "explain", saved, "--instance", XS, "--cxp", "--roles",
                         "--robustness", "--check", "LVHreport=yes", "--bias", "Age", *more)
    assert code == 0, err
    assert "not PAIVS" not in out and "other decision" not in out
    cfs = bnx.counterfactuals(odd, X, target=rival)
    assert f"each makes it, in order: {', '.join(map(str, cfs.decisions))}" in out
    want = f"Disease = {rival}" if rival else "another class than PAIVS"
    assert f"robustness: {bnx.robustness(odd, X, target=rival)} (the fewest features to " \
           f"change for {want})" in out
    cxp = bnx.contrastive_explanations(odd, X, rival=rival)
    assert f"{cxp.count} contrastive explanations" in out
    roles = bnx.feature_roles(odd, X, rival=rival)
    assert all(f"{f:<14}  {r}" in out for f, r in roles.items())
    c = bnx.check_explanation(odd, X, {"LVHreport": "yes"}, rival=rival)
    assert ("check: sufficient" in out) == c.sufficient
