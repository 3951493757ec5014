"""One public vocabulary: each question's first argument is named for what it reads (``odd``
for the diagram, ``clf`` for the network, which takes an ODD that holds its classifier
too), each concept has one public name, and every type a public function returns is
reachable from ``bnx``."""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

import bnx
from tests._support.words import paper_terms_in, visible_text

#: the modules whose ``__all__`` is public API, besides ``bnx`` itself
MODULES = ("bnx", "bnx.linear", "bnx.compilation", "bnx.report")

X = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}


def _public_functions():
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            value = getattr(module, attr)
            if inspect.isfunction(value):
                yield f"{name}.{attr}", value


def test_a_question_names_its_first_argument_odd_or_clf():
    bad = []
    for name, function in _public_functions():
        params = list(inspect.signature(function).parameters.values())
        if not params:
            continue
        first = params[0]
        reads = str(first.annotation)
        if first.name in ("classifier", "model") or (
                ("ODD" in reads or "Classifier" in reads) and first.name not in ("odd", "clf")):
            bad.append(f"{name}({first.name}: {reads})")
    assert not bad, f"first arguments outside the vocabulary: {bad}"


def test_the_check_sees_a_first_argument_outside_the_vocabulary():
    def question(model: bnx.ODD, instance):  # what the rule above refuses
        return model, instance
    first = next(iter(inspect.signature(question).parameters.values()))
    assert first.name == "model" and "ODD" in str(first.annotation)


@pytest.fixture(scope="module")
def admissions():
    clf = bnx.examples.admissions()
    return clf, bnx.compile(clf, backend="autoref")


NETWORK_QUESTIONS = {
    "same_decision_probability": lambda m: bnx.same_decision_probability(m, {"GPA": "+"},
                                                                         exact=True),
    "next_observations": lambda m: bnx.next_observations(m, {"GPA": "+"}, exact=True).to_dict(),
    "probable_reasons": lambda m: [dict(r) for r in bnx.probable_reasons(m, X, delta=0.9)],
    "group_fairness": lambda m: bnx.group_fairness(m, ["GPA"], exact=True).to_dict(),
    "support": lambda m: bnx.support(m).count,
    "parameter_sensitivity": lambda m: bnx.parameter_sensitivity(m, X, exact=True).to_dict(),
    "parameter_sensitivity (all)": lambda m: bnx.parameter_sensitivity(m, exact=True).to_dict(),
    "linear.decide": lambda m: bnx.linear.decide(m, X),
    "linear.pi_explanations": lambda m: list(bnx.linear.pi_explanations(m, X)),
    "linear.shortest_pi_explanation": lambda m: bnx.linear.shortest_pi_explanation(m, X),
    "linear.check_explanation": lambda m: bnx.linear.check_explanation(m, X, {"GPA": "+"}),
    "linear.mc_explanations": lambda m: bnx.linear.mc_explanations(m, X).to_set(),
    "linear.robustness": lambda m: bnx.linear.robustness(m, X),
    "linear.counterfactuals": lambda m: bnx.linear.counterfactuals(m, X).probabilities(),
    "linear.shortest_contrastive_explanation":
        lambda m: bnx.linear.shortest_contrastive_explanation(m, X),
}


@pytest.mark.parametrize("question", NETWORK_QUESTIONS)
def test_a_network_question_takes_an_odd_that_holds_its_classifier(admissions, question):
    clf, odd = admissions
    ask = NETWORK_QUESTIONS[question]
    assert ask(odd) == ask(clf)


@pytest.mark.parametrize("question", NETWORK_QUESTIONS)
def test_an_odd_without_its_classifier_is_refused_by_name(admissions, tmp_path, question):
    from tests._support.legacy_files import write_legacy
    old = bnx.ODD.load(write_legacy(admissions[1], tmp_path / "a.bnx.json", version=1))
    assert old.classifier is None
    with pytest.raises(bnx.ArgumentError, match=r"odd\.classifier is None"):
        NETWORK_QUESTIONS[question](old)


#: names that left the top level, and where they are now (None: gone, see CHANGES.md)
MOVED = {"sufficient_reasons": None, "necessary_reasons": None,
         "default_order": "bnx.compilation", "general_order": "bnx.compilation",
         "tan_order": "bnx.compilation", "latent_tree_order": "bnx.compilation",
         "naive_bayes_order": "bnx.compilation",
         "theorem3_holds": "bnx.explanation.monotone", "on_states": "bnx.explanation.mc",
         "positives": "bnx.explanation.explanations"}


@pytest.mark.parametrize("name", MOVED)
def test_one_public_name_per_concept(name):
    assert name not in bnx.__all__
    with pytest.raises(AttributeError):
        getattr(bnx, name)
    home = MOVED[name]
    if home is not None:
        module = importlib.import_module(home)
        assert name in module.__all__ and callable(getattr(module, name))


#: types from outside bnx that public functions return
OUTSIDE = {"Any", "Iterator", "Fraction", "DataFrame", "Series", "DiscreteBayesianNetwork",
           "Path", "Counter", "None", "Feature", "State"}


def test_every_type_a_public_function_returns_is_public():
    public = set(bnx.__all__) | {f"report.{n}" for n in bnx.report.__all__}
    missing = {}
    for name, function in _public_functions():
        returns = inspect.signature(function).return_annotation
        text = returns if isinstance(returns, str) else getattr(returns, "__name__", "")
        for word in re.findall(r"\b[A-Z]\w*", text):
            if word not in OUTSIDE and word not in public:
                missing.setdefault(word, []).append(name)
    assert not missing, f"returned but not reachable from bnx: {missing}"
    assert {"Counterfactuals", "InstanceSet", "ExplanationCheck"} <= set(bnx.__all__)
    assert isinstance(bnx.support(bnx.examples.admissions()), bnx.InstanceSet)


def test_bnx_linear_speaks_the_diagram_s_words(admissions):
    """Each answer of bnx.linear is the diagram question's answer (the same type and content)
    or, for a ``shortest_`` name, one of its shortest members."""
    clf, odd = admissions
    for gone in ("contrastive_explanation", "ExplanationCheck", "mc_explanation",
                 "counterfactual"):
        assert gone not in bnx.linear.__all__ and not hasattr(bnx.linear, gone)
    linear = bnx.linear
    for x in _instances(clf):
        assert {frozenset(p.items()) for p in linear.pi_explanations(clf, x)} == \
            bnx.pi_explanations(odd, x).to_set()
        mc, on_diagram = linear.mc_explanations(clf, x), bnx.mc_explanations(odd, x)
        assert type(mc) is type(on_diagram) and mc.to_set() == on_diagram.to_set()
        assert linear.robustness(clf, x) == bnx.robustness(odd, x)
        cfs, on_diagram = linear.counterfactuals(clf, x), bnx.counterfactuals(odd, x)
        assert type(cfs) is type(on_diagram) is bnx.Counterfactuals
        assert cfs.probabilities() == on_diagram.probabilities() and cfs.cost == on_diagram.cost
        shortest = [dict(c) for c in bnx.contrastive_explanations(odd, x).shortest()]
        assert linear.shortest_contrastive_explanation(clf, x) in shortest
        check = linear.check_explanation(clf, x, x)
        assert type(check) is bnx.ExplanationCheck
        on_diagram = bnx.check_explanation(odd, x, x)
        assert (check.sufficient, check.minimal, check.redundant) == \
            (on_diagram.sufficient, on_diagram.minimal, on_diagram.redundant)


def _instances(clf):
    import itertools
    for states in itertools.product(*(clf.states(f) for f in clf.features)):
        yield dict(zip(clf.features, states))


def test_the_check_sees_a_paper_term():
    assert paper_terms_in("the shortest PI-explanations (robustness 1)") == [
        "PI-explanation", "robustness", "PI"]
    assert paper_terms_in("an ODD") == ["ODD"] and paper_terms_in("odds") == []
    assert visible_text('<p title="robustness: ...">how many <b>change</b></p>'
                        '<svg><title>SHAP values</title></svg>') == "how many  change"


@pytest.fixture(scope="module")
def child():
    """pgmpy's child, class Disease (six states), compiled."""
    from tests._support.bundled import bundled_network
    return bnx.compile(bnx.Classifier(bundled_network("child"), "Disease"))


def _reports(child):
    """Reports of every kind: complete and partial, binary and multi-class, with a rival,
    a constant classifier, a close call, and by search without compiling."""
    clf = bnx.examples.admissions()
    odd = bnx.compile(clf, backend="autoref")
    yield bnx.explain(odd, X)
    yield bnx.explain(odd, X, background={})
    yield bnx.explain(odd, {"GPA": "+"})
    yield bnx.explain(clf, X)  # bnx.linear
    asia = bnx.Classifier(bnx.examples.asia().network, "either")
    yield bnx.explain(asia, {"xray": "yes", "dysp": "no"})  # by search, without compiling
    yield bnx.explain(asia, {"xray": "yes"})
    x = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
         "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}
    yield bnx.explain(child, x)
    yield bnx.explain(child, x, rival="TGA")
    yield bnx.explain(child, {})  # a close call
    from tests._support.words import constant_classifier
    constant = bnx.compile(constant_classifier(), backend="autoref")
    yield bnx.explain(constant, {"A": "a1", "B": "b0"})
    yield bnx.explain(constant, {})


@pytest.mark.slow
def test_the_words_people_read_hold_no_paper_term(child):
    for r in _reports(child):
        assert paper_terms_in(r.text()) == [], r.text()
        assert paper_terms_in(visible_text(r._repr_html_())) == [], r._repr_html_()
        glossary = r.to_dict()["glossary"]
        assert glossary == {k: {"term": t.term, "label": t.label, "definition": t.definition}
                            for k, t in bnx.report.GLOSSARY.items()}


@pytest.mark.slow
def test_the_explorer_page_holds_no_paper_term(child):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient
    client = TestClient(bnx.serve.create_app(child))
    x = {"LVHreport": "yes", "LowerBodyO2": "<5", "RUQO2": "<5", "CO2Report": "<7.5",
         "XrayReport": "Normal", "GruntingReport": "yes", "Age": "0-3_days"}
    for params in ({}, x, {"LVHreport": "yes"}, {**x, "rival": "TGA"}):
        page = client.get("/", params=params)
        assert page.status_code == 200
        assert paper_terms_in(visible_text(page.text)) == [], params
        assert "title=" in page.text  # the terms are on hover
