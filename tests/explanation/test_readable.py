"""Answers in the user's words: printed explanation sets, on states, missing values in
odd.decide, and no machine path in the documentation (issue 26)."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.explanation.explanations import positives
from tests._support import oracle
from tests._support.strategies import classifier_of, classifiers, instances, possible_instances
from tests.conftest import ROOT

FEW = settings(max_examples=max(settings.default.max_examples // 4, 10), deadline=None)
X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


@pytest.fixture(scope="module")
def admissions():
    return bnx.compile(bnx.examples.admissions(), backend="autoref")


# ---------------------------------------------------------------- printing in words
@FEW
@given(case=classifiers(max_features=5), data=st.data())
def test_shortest_first_lists_every_member_once_by_length(case, data):
    odd = bnx.compile(classifier_of(case), backend="autoref")
    x = data.draw(possible_instances(case))
    for e in (bnx.pi_explanations(odd, x), bnx.contrastive_explanations(odd, x),
              bnx.counterfactuals(odd, x), bnx.prime_implicants(odd, decision=False)):
        got = list(e.shortest_first())
        assert len(got) == e.count
        assert {frozenset(m.items()) for m in got} == e.to_set()
        if e.kind != "counterfactual":
            assert [len(m) for m in got] == sorted(len(m) for m in got)
        for m in got:  # keys in the classifier's order
            assert list(m) == [f for f in odd.display_order if f in m]


def test_each_kind_prints_lines_naming_the_decision(admissions):
    odd = admissions
    assert str(bnx.contrastive_explanations(odd, X)).splitlines()[0] == (
        "5 contrastive explanations of Admit = + (minimal sets of features whose change can "
        "give Admit = -), shortest first:")
    cfs = str(bnx.counterfactuals(odd, X)).splitlines()
    assert cfs[0] == ("5 closest counterfactuals of Admit = + (the fewest changes that give "
                      "Admit = -):")
    assert cfs[1] == "  WorkExperience = - (was +), EntranceExam = - (was +)"
    assert str(bnx.counterfactuals(odd, X, immutable=["GPA", "WorkExperience"])) == (
        "No closest counterfactual of Admit = + (the fewest changes that give Admit = -)")
    mc = str(bnx.mc_explanations(odd, X)).splitlines()
    assert mc[:2] == ["1 MC-explanation of Admit = + (the fewest on states that keep it):",
                      "  WorkExperience = +, GPA = +"]
    pos = str(positives(odd)).splitlines()
    assert pos[0] == "6 instances decided Admit = +:" and pos[-1] == "  … and 1 more"
    assert str(bnx.prime_implicants(odd)).startswith("3 prime implicants of Admit = + (")
    assert "<li>" in bnx.counterfactuals(odd, X)._repr_html_()


def test_a_negative_decision_is_named_by_the_other_class_state():
    clf = bnx.case_study.votes_classifier()
    odd = bnx.compile(clf)
    votes = bnx.datasets.load_votes().dropna()
    feats = list(odd.features)
    row = votes.iloc[3][feats].to_dict()
    assert not odd.decide(row) and clf.positive == "republican"
    text = str(bnx.pi_explanations(odd, row)).splitlines()
    assert text[0].endswith("sufficient reasons for party = democrat (PI-explanations), "
                            "shortest first:")
    assert len(text) == 1 + 5 + 1 and text[-1].startswith("  … and ")
    assert all(re.fullmatch(r"  ([\w-]+ = [yn])(, [\w-]+ = [yn])*", ln) for ln in text[1:6])
    assert [len(ln.split(", ")) for ln in text[1:6]] == [4] * 5  # the shortest first


def test_a_class_of_three_states_names_a_negative_decision_not_positive():
    frame = pd.DataFrame({"C": list("abcabcab"), "F": list("yynnyynn")})
    odd = bnx.compile(bnx.Classifier(bnx.learn_naive_bayes(frame, "C"), "C", "a"),
                      backend="autoref")
    assert odd.class_states == ("a", "b", "c")
    assert odd.decision_state(False) == "not a" and odd.decision_text(True) == "C = a"
    loaded = bnx.ODD.load(odd.save(str(ROOT / ".pytest-three.bnx")), backend="autoref")
    try:
        assert loaded.class_states == ("a", "b", "c") and loaded._classifier is None
    finally:
        (ROOT / ".pytest-three.bnx").unlink()


# ---------------------------------------------------------------- on states
def _on_of(*state_lists):
    """The on-state indices bnx.explanation.mc.on_states finds for features with these
    states (a naive Bayes, one feature each), or None when it refuses them."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    feats = [f"F{i}" for i in range(len(state_lists))]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    net.add_cpds(TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["p", "q"]}))
    for f, states in zip(feats, state_lists):
        k = len(states)
        col = [(i + 1) / (k * (k + 1) / 2) for i in range(k)]  # C = q: the column reversed
        net.add_cpds(TabularCPD(f, k, [[c, col[k - 1 - i]] for i, c in enumerate(col)],
                                evidence=["C"], evidence_card=[2],
                                state_names={f: list(states), "C": ["p", "q"]}))
    odd = bnx.compile(bnx.Classifier(net, "C", "p"), feats, backend="autoref")
    try:
        return [set(s) for s in bnx.explanation.mc.on_states(odd)]
    except bnx.OnStatesError:
        return None


def test_affirmative_states_are_on_whatever_their_order():
    pairs = [("y", "n"), ("Yes", "NO"), ("true", "false"), ("1", "0"), (1, 0),
             ("+", "-"), ("+", "\u2212"), ("present", "absent"),
             ("Positive", "negative"), ("on", "off"), (True, False)]
    assert _on_of(*pairs) == [{0}] * len(pairs)
    assert _on_of(*[(off, on) for on, off in pairs]) == [{1}] * len(pairs)
    for states in [("normal", "abnormal"), ("a", "b"), ("high", "low"), ("y", "n", "maybe")]:
        assert _on_of(states) is None


def _learned():
    frame = pd.DataFrame({"disease": list("yynnynny"),
                          "cholesterol": ["high", "high", "normal", "normal", "high",
                                          "normal", "high", "normal"],
                          "smoker": list("yynnnyny")})
    return bnx.learn_naive_bayes(frame, "disease")


def test_mc_refuses_states_that_do_not_say_on_and_says_how_to_declare_them(tmp_path):
    net = _learned()
    odd = bnx.compile(bnx.Classifier(net, "disease", "y"), backend="autoref")
    x = {"cholesterol": "high", "smoker": "y"}
    with pytest.raises(bnx.OnStatesError) as refused:
        bnx.mc_explanations(odd, x)
    msg = str(refused.value)
    assert "'cholesterol' (high / normal)" in msg and "smoker" not in msg
    assert "on={'cholesterol'" in msg and "on_states=" in msg and "--on" in msg
    assert isinstance(refused.value, bnx.BnxError)
    with pytest.raises(bnx.OnStatesError):  # explain_data, asked for MC answers
        bnx.explain_data(odd, pd.DataFrame([x]), what=["mc_count"], progress=False)
    # declared once on the classifier: used, saved, loaded
    declared = bnx.Classifier(net, "disease", "y", on_states={"cholesterol": "high"})
    odd2 = bnx.compile(declared, backend="autoref")
    given = bnx.mc_explanations(odd, x, on={"cholesterol": "high"})
    assert bnx.mc_explanations(odd2, x).to_set() == given.to_set()
    back = bnx.ODD.load(odd2.save(str(tmp_path / "d.bnx")), backend="autoref")
    assert back.meta["on_states"] == {"cholesterol": ("high",)}
    assert bnx.mc_explanations(back, x).to_set() == given.to_set()
    assert back._classifier is None  # read without rebuilding the classifier
    assert back.classifier.on_states == {"cholesterol": ("high",)}
    assert back.classifier.fingerprint == odd.classifier.fingerprint
    rows = pd.DataFrame([x, {"cholesterol": "normal", "smoker": None}])
    answers = bnx.explain_data(back, rows, what=["mc_count"], progress=False)
    assert answers["mc_count"].tolist()[0] == given.count
    with pytest.raises(bnx.UnknownStateError, match="on state 'hi'"):
        bnx.Classifier(net, "disease", "y", on_states={"cholesterol": "hi"})
    with pytest.raises(bnx.UnknownFeatureError):
        bnx.Classifier(net, "disease", "y", on_states={"age": "old"})


def test_the_command_line_says_the_same(tmp_path, capsys):
    from bnx.cli import main
    odd = bnx.compile(bnx.Classifier(_learned(), "disease", "y"), backend="autoref")
    path = odd.save(str(tmp_path / "h.bnx"))
    assert main(["explain", path, "--instance", "cholesterol=high,smoker=y"]) == 0
    out = capsys.readouterr().out  # the report needs no "on" states
    assert out.startswith("Decided: disease = y") and "MC-explanation" not in out
    assert main(["explain", path, "--instance", "cholesterol=high,smoker=y", "--pi"]) == 0
    assert "sufficient reason" in capsys.readouterr().out
    assert main(["explain", path, "--instance", "cholesterol=high,smoker=y", "--mc"]) == 1
    assert "bnx: error: MC-explanations count" in capsys.readouterr().err
    assert main(["explain", path, "--instance", "cholesterol=high,smoker=y", "--mc",
                 "--on", "cholesterol=high"]) == 0


def test_the_examples_keep_their_mc_explanations():
    """votes (y/n) and admissions (+/-) need no declaration: on is y and +."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    assert [e for e in bnx.mc_explanations(odd, X)] == [
        {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}]
    votes = bnx.compile(bnx.case_study.votes_classifier())
    assert all(v.on == {f: ("y",) for f in votes.display_order} for v in
               [bnx.mc_explanations(votes, dict.fromkeys(votes.features, "y"))])


# ---------------------------------------------------------------- decide on missing values
@FEW
@given(case=classifiers(max_features=4), data=st.data())
def test_decide_leaves_a_missing_value_unobserved_as_decide_many(case, data):
    clf = classifier_of(case)
    odd = bnx.compile(clf, backend="autoref")
    x = data.draw(instances(case))
    gone = data.draw(st.sets(st.sampled_from(case.features)))
    row = {f: (None if f in gone else s) for f, s in x.items()}
    kept = {f: s for f, s in x.items() if f not in gone}
    cj = oracle.class_joint(case.net, case.class_var, kept, list(kept))
    if sum(cj.values()) == 0:
        return
    want = oracle._decide_from_joint(cj, case.positive, case.threshold, case.rule)
    assert odd.decide(row) == want
    assert odd.decide(pd.Series({f: (np.nan if v is None else v) for f, v in row.items()},
                                dtype=object)) == want
    assert bool(odd.decide_many([row])[0]) == want


def test_decide_agrees_with_decide_many_on_the_votes_rows():
    odd = bnx.compile(bnx.case_study.votes_classifier())
    votes = bnx.datasets.load_votes()
    many = odd.decide_many(votes)
    assert votes.isna().any(axis=1).sum() > 100
    assert [odd.decide(row) for _, row in votes.drop(columns="party").iterrows()] == many.tolist()
    with pytest.raises(bnx.MissingFeatureError):  # a feature left out altogether
        odd.decide({f: "y" for f in odd.features[1:]})


# ---------------------------------------------------------------- documentation
def test_no_machine_path_in_the_documentation():
    """No tracked page, notebook or README shows a path of the machine it was made on."""
    try:
        files = subprocess.run(["git", "ls-files", "docs", "notebooks", "README.md",
                                "CHANGES.md"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    pattern = re.compile(r"(?<![\w.])/(root|work|home|tmp|Users)/|[A-Z]:\\\\Users")
    bad = []
    for name in files:
        path = ROOT / name
        if path.suffix not in (".md", ".ipynb", ".rst", ".py", ".txt") or not path.exists():
            continue
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{name}:{k}: {line.strip()[:100]}")
    assert not bad, "machine paths:\n" + "\n".join(bad)


def test_no_notebook_stores_a_warning():
    import json
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for out in cell.get("outputs", []):
                if out.get("name") == "stderr":
                    text = "".join(out.get("text", ""))
                    assert "Warning" not in text, f"{path.name}: {text[:200]}"


def test_the_readme_counts_the_notebooks():
    n = len(list((ROOT / "notebooks").glob("*.ipynb")))
    words = {3: "three", 4: "four", 5: "five", 6: "six"}
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    counts = re.findall(r"\b(two|three|four|five|six) notebooks\b", text)
    assert counts and set(counts) == {words[n]}
