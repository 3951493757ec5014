"""The paper's running example: Tables 1 and 2, Theorem 3, admission.net."""

from __future__ import annotations

import pytest

import bnx
from bnx.explanation.monotone import theorem3_holds
from tests.conftest import shared_file

W, F, E, G = "WorkExperience", "FirstTimeApplicant", "EntranceExam", "GPA"
ORDER = (W, F, E, G)

# Table 1: instance (W F E G), posterior, decision, MC-explanations
TABLE1 = [
    ("----", 0.0002, "-", ["--++", "-+-+", "-++-", "+-+-", "++--"]),
    ("---+", 0.0426, "-", ["--++", "-+-+"]),
    ("--+-", 0.0006, "-", ["--++", "-++-", "+-+-"]),
    ("--++", 0.1438, "-", ["--++"]),
    ("-+--", 0.0016, "-", ["-+-+", "-++-", "++--"]),
    ("-+-+", 0.2933, "-", ["-+-+"]),
    ("-++-", 0.0060, "-", ["-++-"]),
    ("-+++", 0.6105, "+", ["-+++"]),
    ("+---", 0.0354, "-", ["++--", "+-+-"]),
    ("+--+", 0.9057, "+", ["+--+"]),
    ("+-+-", 0.1218, "-", ["+-+-"]),
    ("+-++", 0.9732, "+", ["+--+"]),
    ("++--", 0.2552, "-", ["++--"]),
    ("++-+", 0.9890, "+", ["+--+"]),
    ("+++-", 0.5642, "+", ["+++-"]),
    ("++++", 0.9971, "+", ["+--+"]),
]

# Table 2: PI-explanations; a lower-case letter is the feature positive, "~x" negative
TABLE2 = {
    "----": ["~w~f", "~w~e", "~w~g", "~f~g", "~e~g"],
    "---+": ["~w~f", "~w~e"],
    "--+-": ["~w~f", "~w~g", "~f~g"],
    "--++": ["~w~f"],
    "-+--": ["~w~e", "~w~g", "~e~g"],
    "-+-+": ["~w~e"],
    "-++-": ["~w~g"],
    "-+++": ["feg"],
    "+---": ["~f~g", "~e~g"],
    "+--+": ["wg"],
    "+-+-": ["~f~g"],
    "+-++": ["wg"],
    "++--": ["~e~g"],
    "++-+": ["wg"],
    "+++-": ["wfe"],
    "++++": ["wg", "wfe", "feg"],
}


def _instance(code: str) -> dict:
    return dict(zip(ORDER, code))


def _term(text: str) -> frozenset:
    letters = {"w": W, "f": F, "e": E, "g": G}
    out, neg = {}, False
    for ch in text:
        if ch == "~":
            neg = True
            continue
        out[letters[ch]] = "-" if neg else "+"
        neg = False
    return frozenset(out.items())


@pytest.fixture(scope="module", params=bnx.backends.available_backends())
def odd(request):
    return bnx.compile(bnx.examples.admissions(), backend=request.param)


@pytest.mark.parametrize("code, posterior, decision, mcs", TABLE1)
def test_table1(odd, code, posterior, decision, mcs):
    clf = odd.classifier
    x = _instance(code)
    assert round(clf.posterior(x), 4) == posterior
    assert odd.decide(x) == (decision == "+") == clf.decide(x, within="all")
    got = bnx.mc_explanations(odd, x)
    assert got.to_set() == {frozenset(_instance(m).items()) for m in mcs}


@pytest.mark.parametrize("code", sorted(TABLE2))
@pytest.mark.parametrize("method", ["inst", "cover"])
def test_table2(odd, code, method):
    got = bnx.pi_explanations(odd, _instance(code), method=method)
    assert got.to_set() == {_term(t) for t in TABLE2[code]}


def test_monotone_and_theorem3(odd):
    assert bnx.check_monotone(odd).holds
    for code, *_ in TABLE1:
        assert theorem3_holds(odd, _instance(code))


def test_counts(odd):
    assert odd.count() == 6
    assert len(bnx.prime_implicants(odd, decision=True)) == 3  # wg, wfe, feg
    assert len(bnx.prime_implicants(odd, decision=False)) == 5


def test_admission_net_has_the_same_decision_function(backend):
    """The SamIam file of the example (../shared) encodes the same classifier."""
    path = shared_file("networks", "admission.net")
    clf = bnx.Classifier.from_file(path, "Admit", "state1", threshold=0.5)
    assert set(clf.features) == set(ORDER) and clf.structure == "naive_bayes"
    odd = bnx.compile(clf, list(ORDER), backend=backend)
    ref = bnx.compile(bnx.examples.admissions(), list(ORDER), backend=backend)
    assert odd.count() == ref.count() == 6
    for code, posterior, decision, _ in TABLE1:
        x = {f: ("state1" if c == "+" else "state0") for f, c in zip(ORDER, code)}
        assert round(clf.posterior(x), 4) == posterior
        assert odd.decide(x) == (decision == "+")
