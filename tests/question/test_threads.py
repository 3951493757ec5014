"""Every question on one shared ODD or Classifier, from eight threads at once.

Each thread asks every public question of the same model about the same instances, in its
own shuffled order; every answer must equal the one a single thread gets, and afterwards
the model must still answer right (bnx.ODD's caches, the stores of its explanation sets
and its dd managers are shared: :mod:`bnx._util.guard`). Before the guard, the votes test
failed on both backends (PI-explanations and feature roles wrong, dd's "node index ... is
already used").
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from tests._support.bundled import bundled_network
from tests._support.strategies import classifier_of, general_networks, instances, naive_bayes
from tests.conftest import BACKENDS

THREADS = 8


def _rows(model, seed: int, n: int) -> list:
    """``n`` complete instances of ``model``, drawn from ``seed``."""
    rng = random.Random(seed)
    return [{f: rng.choice(model.states(f)) for f in model.features} for _ in range(n)]


def _listed(answer) -> tuple:
    """An explanation set as its count and its members, sorted (comparable across calls)."""
    return answer.count, sorted(sorted(map(repr, e.items())) for e in answer)


def _on_odd(odd, x, heavy=True):
    """The questions asked of a compiled ODD about ``x``: name -> function of nothing.

    ``heavy=False`` leaves out those that take tenths of a second on votes.
    """
    feats = list(odd.features)
    half = {f: x[f] for f in feats[: len(feats) // 2]}
    binary = not odd.multiclass
    qs = {
        "decide": lambda: odd.decide(x),
        "pi": lambda: _listed(bnx.pi_explanations(odd, x)),
        "mc": lambda: _listed(bnx.mc_explanations(odd, x)),
        "contrastive": lambda: _listed(bnx.contrastive_explanations(odd, x)),
        "roles": lambda: str(bnx.feature_roles(odd, x)),
        "robustness": lambda: bnx.robustness(odd, x),
        "counterfactuals": lambda: _listed(bnx.counterfactuals(odd, x)),
        "check": lambda: str(bnx.check_explanation(odd, x, half)),
    }
    if heavy:
        qs["report"] = lambda: str(bnx.explain(odd, x))
        qs["sdp"] = lambda: bnx.same_decision_probability(odd, half)
        qs["next"] = lambda: str(bnx.next_observations(odd, half))
        qs["general"] = lambda: str(bnx.general_reasons(odd, x))
    if binary and heavy:
        qs["bias"] = lambda: str(bnx.decision_bias(odd, x, feats[:1]))
        qs["implicants"] = lambda: _listed(bnx.prime_implicants(odd, decision=odd.decide(x)))
    if heavy:  # the questions about the classifier as a whole, and the attributions
        background = {f: {odd.states(f)[0]: 0.75, odd.states(f)[-1]: 0.25} for f in feats}
        qs["shap"] = lambda: bnx.shap_values(odd, x, background, exact=True).values.tolist()
        qs["banzhaf"] = lambda: bnx.banzhaf_values(odd, x, background).values.tolist()
        qs["monotone"] = lambda: str(bnx.check_monotone(odd, feats[:2]))
        qs["rule"] = lambda: str(bnx.check_rule(odd, half, odd.decide(x)))
        qs["profile"] = lambda: repr(bnx.robustness_profile(odd))
        qs["support"] = lambda: bnx.support(odd).count
        qs["forbid"] = lambda: bnx.forbid(odd, [{feats[0]: x[feats[0]]}]).count
    if binary and heavy:
        qs["biased"] = lambda: bnx.count_biased(odd, feats[:1])
    return qs


def _on_classifier(clf, x):
    """The questions asked of a Classifier without compiling it (the search over the
    network, :mod:`bnx.local`; a naive Bayes's also by :mod:`bnx.linear`)."""
    feats = list(clf.features)
    half = {f: x[f] for f in feats[: len(feats) // 2]}
    qs = {
        "posterior": lambda: clf.posterior(x) if not clf.multiclass else
        clf.class_probabilities(x),
        "decide": lambda: clf.decide(x, within="all"),
        "partial": lambda: clf.decide(half, partial=True, within="all"),
        "report": lambda: str(bnx.explain(clf, x)),
        "probable": lambda: str(bnx.probable_reasons(clf, x)),
        "sdp": lambda: bnx.same_decision_probability(clf, half),
        "fairness": lambda: repr(bnx.group_fairness(clf, feats[:1])),
        "sensitivity": lambda: repr(bnx.parameter_sensitivity(clf, x)),
        "local": lambda: repr(bnx.local.answer(clf, clf.encode(x), timeout=30)),
        "local partial": lambda: repr(bnx.local.partial_answer(clf, half, timeout=30)),
        "local sdp": lambda: bnx.local.sdp_interval(clf, half, timeout=30),
    }
    if clf.structure == "naive_bayes":
        qs.update({
            "linear decide": lambda: bnx.linear.decide(clf, x),
            "linear pi": lambda: bnx.linear.shortest_pi_explanation(clf, x),
            "linear mc": lambda: _listed(bnx.linear.mc_explanations(clf, x)),
            "linear check": lambda: str(bnx.linear.check_explanation(clf, x, half)),
            "linear robustness": lambda: bnx.linear.robustness(clf, x),
            "linear counterfactuals": lambda: _listed(bnx.linear.counterfactuals(clf, x)),
            "linear contrastive":
                lambda: bnx.linear.shortest_contrastive_explanation(clf, x),
        })
    return qs


def _ask(questions: dict) -> dict:
    out = {}
    for name, q in questions.items():
        try:
            out[name] = q()
        except bnx.BnxError as e:  # an answer too: the same error every time
            out[name] = f"{type(e).__name__}: {e}"
    return out


def _threaded(model, rows, make) -> list:
    """Ask the questions ``make(model, row)`` about ``rows`` from :data:`THREADS` threads.

    One question at a time on fresh caches (each thread its own shuffled order of the
    rows), then all of them mixed; return the answers that differ from one thread's,
    during and after the threads.
    """
    want = [_ask(make(model, x)) for x in rows]
    names = sorted({name for w in want for name in w})
    wrong: list = []

    def work(seed, asked, start):
        order = [(i, name) for i in range(len(rows)) for name in asked if name in want[i]]
        random.Random(seed).shuffle(order)
        start.wait()
        for i, name in order:
            try:
                got = _ask({name: make(model, rows[i])[name]})[name]
            except Exception as e:  # a crash is a wrong answer here
                got = repr(e)
            if got != want[i][name]:
                wrong.append((i, name, got, want[i][name]))

    for asked in [[name] for name in names] + [names]:
        if hasattr(model, "clear_caches"):
            model.clear_caches()
        start = threading.Barrier(THREADS)
        threads = [threading.Thread(target=work, args=(s, asked, start))
                   for s in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    after = [_ask(make(model, x)) for x in rows]
    wrong += [(i, name, "after the threads: " + repr(after[i][name]), want[i][name])
              for i in range(len(rows)) for name in want[i] if after[i][name] != want[i][name]]
    return wrong


def _some_heavy(model, x, rows):
    return _on_odd(model, x, heavy=x is rows[0])


@pytest.fixture(scope="module")
def votes():
    from bnx.tabular.case_study import votes_classifier
    return votes_classifier()


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_a_votes_odd_in_eight_threads(votes, backend, seed):
    rows = _rows(votes, seed, 4)
    odd = bnx.compile(votes, backend=backend)
    assert _threaded(odd, rows, lambda o, x: _some_heavy(o, x, rows)) == []


@pytest.mark.slow
def test_the_votes_classifier_in_eight_threads(votes):
    assert _threaded(votes, _rows(votes, 3, 1), _on_classifier) == []


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_generated_classifiers_in_eight_threads(backend, data):
    case = data.draw(st.one_of(naive_bayes(max_instances=64), general_networks(max_instances=48)))
    odd = bnx.compile(classifier_of(case), backend=backend)
    rows = [data.draw(instances(case)) for _ in range(3)]
    assert _threaded(odd, rows, _on_odd) == []


@pytest.mark.slow
def test_a_multiclass_odd_and_its_classifier_in_eight_threads():
    clf = bnx.Classifier(bundled_network("child"), "Disease")
    odd = bnx.compile(clf, backend="autoref")
    rows = _rows(clf, 1, 1)
    assert _threaded(odd, rows, lambda o, x: _some_heavy(o, x, rows)) == []
    assert _threaded(clf, rows[:1], _on_classifier) == []
