"""SHAP and Banzhaf values against brute force over all coalitions, in exact fractions.

The oracle (``tests/_support/oracle.py``) decides every instance by enumeration; the values are
then ``sum_S w(|S|) (v(S + i) - v(S))`` over every coalition ``S``, with ``v(S)`` the
expected decision when the features outside ``S`` take the background's states
(every background row, or every instance weighted by a product distribution).
"""

from __future__ import annotations

import io
import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.strategies import classifier_of as _classifier
from tests._support.strategies import classifiers, general_networks, instances, tan_networks

CASES = st.one_of(classifiers(max_features=5, max_instances=48),
                  general_networks(max_features=4, max_instances=36),
                  tan_networks(max_features=4, max_instances=36))


def _table(case):
    return oracle.decision_table(case.net, case.class_var, case.positive, case.threshold,
                                 case.features, rule=case.rule)


def brute_force(case, x, background, kind):
    """``(values by feature, v(empty))``: ``background`` is a list of rows (dicts) or a
    product distribution ``{feature: {state: Fraction}}``."""
    feats = list(case.features)
    n = len(feats)
    table = _table(case)
    if isinstance(background, dict):
        states = [oracle.node_states(case.net, f) for f in feats]
        points = []
        for combo in itertools.product(*states):
            p = math.prod((background[f][s] for f, s in zip(feats, combo)), start=Fraction(1))
            points.append((dict(zip(feats, combo)), p))
    else:
        points = [(b, Fraction(1, len(background))) for b in background]

    def v(S):
        return sum((p * table[tuple(x[f] if f in S else z[f] for f in feats)]
                    for z, p in points), Fraction(0))

    vals = {}
    for f in feats:
        others = [g for g in feats if g != f]
        total = Fraction(0)
        for k in range(n):
            w = (Fraction(math.factorial(k) * math.factorial(n - k - 1), math.factorial(n))
                 if kind == "shap" else Fraction(1, 2 ** (n - 1)))
            for S in itertools.combinations(others, k):
                S = set(S)
                total += w * (v(S | {f}) - v(S))
        vals[f] = total
    return vals, v(set())


@st.composite
def product_background(draw, case):
    out = {}
    for f in case.features:
        if draw(st.integers(0, 3)) == 0:
            continue  # uniform
        states = oracle.node_states(case.net, f)
        w = draw(st.lists(st.integers(0, 4), min_size=len(states), max_size=len(states)))
        if sum(w) == 0:
            w[0] = 1
        out[f] = {s: Fraction(a, sum(w)) for s, a in zip(states, w)}
    return out


def _full(case, spec):
    return {f: spec.get(f) or {s: Fraction(1, len(oracle.node_states(case.net, f)))
                               for s in oracle.node_states(case.net, f)}
            for f in case.features}


@given(case=CASES, data=st.data(), kind=st.sampled_from(["shap", "banzhaf"]))
@settings(max_examples=40, deadline=None)
def test_exact_values_equal_brute_force(case, data, kind):
    """Exact (fraction) values, base value and local accuracy, against all coalitions;
    the float values within 1e-12."""
    note(repr(case))
    clf = _classifier(case)
    order = data.draw(st.permutations(case.features), label="order")
    odd = bnx.compile(clf, order, backend="autoref")
    x = data.draw(instances(case), label="x")
    fn = bnx.shap_values if kind == "shap" else bnx.banzhaf_values
    if data.draw(st.booleans(), label="rows"):
        rows = data.draw(st.lists(instances(case), min_size=1, max_size=4), label="background")
        background, given_bg = rows, pd.DataFrame(rows, columns=case.features)
    else:
        spec = data.draw(product_background(case), label="product")
        background, given_bg = _full(case, spec), spec
    want, base = brute_force(case, x, background, kind)
    got = fn(odd, x, given_bg, exact=True, within="all")  # (brute force: every instance)
    assert got.feature_names == tuple(case.features)
    assert dict(zip(got.feature_names, got.values)) == want
    assert got.base_values == base
    decision = int(_table(case)[tuple(x[f] for f in case.features)])
    assert got.decisions == decision
    if kind == "shap":
        assert base + sum(want.values()) == decision  # the oracle's own local accuracy
    fl = fn(odd, x, given_bg, within="all")
    assert np.allclose(fl.values.astype(float), [float(want[f]) for f in case.features],
                       atol=1e-12, rtol=0)
    assert abs(float(fl.base_values) - float(base)) < 1e-12


@given(case=classifiers(max_features=4, max_instances=24), data=st.data())
@settings(max_examples=15, deadline=None)
def test_data_frame_rows_in_order(case, data):
    """A DataFrame of instances gives one row of values per row, in the rows' order,
    each equal to the one-instance call; local accuracy on every row."""
    clf = _classifier(case)
    odd = bnx.compile(clf, backend="autoref")
    X = pd.DataFrame(data.draw(st.lists(instances(case), min_size=1, max_size=5)),
                     columns=case.features, index=None)
    X.index = [f"r{j}" for j in range(len(X))][::-1]
    bg = pd.DataFrame(data.draw(st.lists(instances(case), min_size=1, max_size=5)),
                      columns=case.features)
    got = bnx.shap_values(odd, X, bg, exact=True)
    assert got.values.shape == (len(X), len(case.features))
    for j, (_, row) in enumerate(X.iterrows()):
        one = bnx.shap_values(odd, row, bg, exact=True)
        assert list(got.values[j]) == list(one.values)
        assert one.base_values + sum(one.values) == one.decisions
    frame = got.to_frame()
    assert list(frame.index) == list(X.index) and list(frame.columns) == list(case.features)
    fl = bnx.shap_values(odd, X, bg)
    assert np.allclose(fl.base_values + fl.values.sum(axis=1), fl.decisions, atol=1e-12)


def test_multi_valued_feature_is_one_player():
    """A feature with 3 states is one player (a 3-state, 2-bit feature)."""
    from pgmpy.factors.discrete import TabularCPD

    from tests._support.strategies import make_case
    cpds = [TabularCPD("C", 2, [[0.5], [0.5]], state_names={"C": ["n", "y"]}),
            TabularCPD("A", 3, [[0.6, 0.1], [0.3, 0.3], [0.1, 0.6]], evidence=["C"],
                       evidence_card=[2], state_names={"A": ["a", "b", "c"], "C": ["n", "y"]}),
            TabularCPD("B", 2, [[0.7, 0.4], [0.3, 0.6]], evidence=["C"], evidence_card=[2],
                       state_names={"B": ["0", "1"], "C": ["n", "y"]})]
    case = make_case([("C", "A"), ("C", "B")], cpds, "C", "y", 0.5, ["A", "B"])
    odd = bnx.compile(_classifier(case), backend="autoref")
    x = {"A": "c", "B": "1"}
    got = bnx.shap_values(odd, x, {}, exact=True)
    want, _ = brute_force(case, x, _full(case, {}), "shap")
    assert len(got.values) == 2 and dict(zip(got.feature_names, got.values)) == want


def test_errors():
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    with pytest.raises(bnx.InstanceError, match="complete rows"):
        bnx.shap_values(odd, {"GPA": "+"}, {})
    with pytest.raises(bnx.UnknownStateError):
        bnx.shap_values(odd, {**x, "GPA": "?"}, {})
    with pytest.raises(bnx.ArgumentError, match="sum to"):
        bnx.shap_values(odd, x, {"GPA": {"+": 0.3, "-": 0.3}})
    with pytest.raises(bnx.UnknownStateError):
        bnx.shap_values(odd, x, {"GPA": {"?": 1.0}})
    with pytest.raises(bnx.UnknownFeatureError):
        bnx.shap_values(odd, x, {"nope": {"+": 1.0}})
    with pytest.raises(bnx.ArgumentError, match="background must be"):
        bnx.shap_values(odd, x, [x])
    with pytest.raises(bnx.DataError):
        bnx.shap_values(odd, x, pd.DataFrame(columns=list(x)))
    with pytest.raises(bnx.ArgumentError, match="expected a bnx.ODD"):
        bnx.shap_values(odd.classifier, x, {})


@pytest.mark.slow
def test_votes_equals_shap_exact():
    """On votes (16 binary features) against ``shap.explainers.Exact`` within 1e-9."""
    shap = pytest.importorskip("shap")
    from bnx.tabular.case_study import votes_classifier
    odd = bnx.compile(votes_classifier())
    votes = bnx.datasets.load_votes().dropna()
    feats = list(odd.features)
    X = votes[feats].iloc[:1]
    bg = votes[feats].iloc[10:13]
    codes = {f: {s: j for j, s in enumerate(odd.states(f))} for f in feats}

    names = {f: np.asarray(odd.states(f), dtype=object) for f in feats}

    def model(a):  # rows of state indices, decided all at once (shap asks 196,608)
        a = np.asarray(a, dtype=np.int64)
        rows = pd.DataFrame({f: names[f][a[:, j]] for j, f in enumerate(feats)})
        return odd.decide_many(rows).astype(float)

    num = lambda d: np.array([[codes[f][s] for f, s in zip(feats, r)] for r in d.values])
    explainer = shap.explainers.Exact(model, shap.maskers.Independent(num(bg),
                                                                      max_samples=len(bg)))
    ref = explainer(num(X))
    got = bnx.shap_values(odd, X, bg)
    perm = [feats.index(f) for f in got.feature_names]
    assert np.abs(got.values - ref.values[:, perm]).max() < 1e-9
    assert np.abs(got.base_values - ref.base_values).max() < 1e-9
    e = got.to_shap()
    assert e.values.shape == got.values.shape


def test_plots():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    a = bnx.shap_values(odd, x, {})
    assert a.plot() is not None and a.plot(kind="waterfall") is not None
    rows = pd.DataFrame([x, {**x, "GPA": "+"}])
    many = bnx.banzhaf_values(odd, rows, {})
    assert many.plot() is not None and many.plot(kind="bar") is not None
    with pytest.raises(bnx.ArgumentError):
        many.plot(kind="waterfall")


@pytest.mark.slow
def test_explain_data_and_command_line(tmp_path, capsys):
    """explain_data(what=["shap"]) and ``bnx explain --shap --background`` give the
    values of shap_values; rows with missing values get NaN."""
    from pgmpy.readwrite import BIFWriter

    from bnx.cli import main
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    feats = list(odd.display_order)
    rows = pd.DataFrame([{"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "+",
                          "GPA": "-"},
                         {"WorkExperience": "-", "FirstTimeApplicant": "-", "EntranceExam": "+",
                          "GPA": "+"},
                         {"WorkExperience": "-", "FirstTimeApplicant": None, "EntranceExam": "+",
                          "GPA": "+"}])
    bg = rows.iloc[:2]
    got = bnx.explain_data(odd, rows, what=["decision", "shap", "banzhaf"], background=bg,
                           progress=False)
    want = bnx.shap_values(odd, rows.iloc[:2], bg).values
    assert np.allclose(got[[f"shap:{f}" for f in feats]].to_numpy()[:2], want)
    assert got[[f"shap:{f}" for f in feats]].iloc[2].isna().all()
    assert list(got.columns[:1]) == ["decision"]
    with pytest.raises(bnx.ArgumentError, match="background"):
        bnx.explain_data(odd, rows, what="shap", progress=False)
    net = tmp_path / "adm.bif"
    BIFWriter(bnx.examples.admissions_network()).write(str(net))
    bg.to_csv(tmp_path / "bg.csv", index=False)
    x = "WorkExperience=+,FirstTimeApplicant=+,EntranceExam=+,GPA=-"
    assert main(["explain", str(net), "--class", "Admit", "--positive", "+", "--instance", x,
                 "--shap", "--background", str(tmp_path / "bg.csv"), "--sensitivity"]) == 0
    out = capsys.readouterr().out
    one = bnx.shap_values(odd, dict(p.split("=") for p in x.split(",")), bg)
    for _, v in zip(one.feature_names, one.values):
        assert f"{v:+.6f}" in out
    assert "closest to flipping" in out
    assert main(["explain", str(net), "--class", "Admit", "--positive", "+", "--data",
                 str(tmp_path / "bg.csv"), "--what", "decision", "--shap", "--background",
                 str(tmp_path / "bg.csv")]) == 0
    assert "shap:GPA" in capsys.readouterr().out
    assert main(["explain", str(net), "--class", "Admit", "--positive", "+", "--data",
                 str(tmp_path / "bg.csv"), "--what", "decision", "--sensitivity"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    want = bnx.explain_data(odd, bg, what="sensitivity", progress=False)
    assert list(table.columns) == ["row", "decision", "sensitivity", "sensitivity_entry"]
    assert np.allclose(table["sensitivity"], want["sensitivity"])
    assert list(table["sensitivity_entry"]) == list(want["sensitivity_entry"])
    assert main(["explain", str(net), "--class", "Admit", "--positive", "+", "--instance", x,
                 "--shap"]) == 1
    assert "--background" in capsys.readouterr().err


def test_to_shap_one_instance_and_many():
    """to_shap() gives shap's own Explanation: a float base value for one instance (shap's
    waterfall plot draws it), one per row for many; shap is in the test extra, not skipped."""
    import matplotlib
    import shap
    matplotlib.use("Agg")
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    one = bnx.shap_values(odd, x, {})
    e = one.to_shap()
    assert isinstance(e, shap.Explanation)
    assert e.values.shape == (4,) and isinstance(e.base_values, float)
    assert e.base_values == pytest.approx(float(one.base_values))
    assert e.base_values + e.values.sum() == pytest.approx(one.decisions)
    shap.plots.waterfall(e, show=False)
    rows = pd.DataFrame([x, {**x, "GPA": "-"}, {**x, "EntranceExam": "+"}])
    many = bnx.shap_values(odd, rows, {}).to_shap()
    assert many.values.shape == (3, 4) and np.shape(many.base_values) == (3,)
    assert np.allclose(many.base_values + many.values.sum(axis=1),
                       bnx.shap_values(odd, rows, {}).decisions)
    assert list(many.feature_names) == list(odd.display_order)


def test_plot_names_the_classes_and_has_a_legend():
    import matplotlib
    matplotlib.use("Agg")
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    a = bnx.shap_values(odd, x, {})
    assert a.classes == ("Admit = +", "Admit = -")
    for kind in ("bar", "waterfall"):
        ax = a.plot(kind=kind)
        assert ax.get_title() == "Decided Admit = + (base value 0.375)"
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend[:2] == ["towards Admit = +", "towards Admit = -"]
    text = str(a)
    assert text.splitlines()[0] == ("SHAP values of the decision Admit = + (1 = Admit = +, "
                                    "0 = Admit = -); base value 0.375:")
    assert "  GPA = +: +0.365 (towards Admit = +)" in text


def test_rows_the_network_cannot_produce_are_refused_by_name():
    # asia: either is tub or lung, so tub = yes with either = no has probability zero
    import pandas as pd
    clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
                         features=["tub", "either", "smoke"])
    odd = bnx.compile(clf, backend="autoref")
    bad = {"tub": "yes", "either": "no", "smoke": "yes"}
    ok = {"tub": "no", "either": "no", "smoke": "yes"}
    both = pd.DataFrame([ok, bad], index=["a", "b"])
    for values in (bnx.shap_values, bnx.banzhaf_values):
        with pytest.raises(bnx.ImpossibleInstanceError, match="^background row 'b': tub = yes"):
            values(odd, ok, both)
        with pytest.raises(bnx.ImpossibleInstanceError, match="^X row 'b': tub = yes"):
            values(odd, both, pd.DataFrame([ok]))
        with pytest.raises(bnx.ImpossibleInstanceError, match="^tub = yes and either = no"):
            values(odd, bad, pd.DataFrame([ok]), within="all")  # X: refused either way
        # every instance: the background row counts as any other (the total function)
        got = values(odd, ok, both, within="all", exact=True)
        one = [values(odd, ok, pd.DataFrame([z]), within="all", exact=True) for z in (ok, bad)]
        assert list(got.values) == [(a + b) / 2 for a, b in zip(one[0].values, one[1].values)]
    with pytest.raises(bnx.ArgumentError, match="within must be"):
        bnx.shap_values(odd, ok, both, within="possible")


def test_the_sensitivity_of_an_impossible_instance_is_refused():
    clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
                         features=["tub", "either", "smoke"])
    with pytest.raises(bnx.ImpossibleInstanceError, match="tub = yes and either = no"):
        bnx.parameter_sensitivity(clf, {"tub": "yes", "either": "no", "smoke": "yes"})
    got = bnx.parameter_sensitivity(clf, {"tub": "no", "either": "no", "smoke": "yes"})
    assert len(got) > 0


def test_a_product_background_that_weighs_impossible_instances_is_refused():
    from bnx.serve.explorer import Explorer
    clf = bnx.Classifier(bnx.examples.asia().network, "lung", "yes",
                         features=["tub", "either", "smoke"])
    odd = bnx.compile(clf, backend="autoref")
    x = {"tub": "no", "either": "no", "smoke": "yes"}
    for values in (bnx.shap_values, bnx.banzhaf_values):
        with pytest.raises(bnx.ArgumentError, match=r"weighs instances the network cannot "
                           r"produce \(2 of them: tub = yes and either = no cannot both"):
            values(odd, x, {})  # uniform: tub = yes with either = no weighs 1/8
        # a product without tub = yes weighs possible instances only: as over every instance
        fine = {"tub": {"no": 1}}
        assert list(values(odd, x, fine, exact=True).values) == \
            list(values(odd, x, fine, exact=True, within="all").values)
        assert values(odd, x, {}, within="all").values.shape == (3,)
    with pytest.raises(bnx.ArgumentError, match="weighs instances"):
        bnx.explain(odd, x, background={})
    assert bnx.explain(odd, x, background={}, within="all").attributions is not None
    # the explorer offers the products only where they pass
    assert set(Explorer(odd).backgrounds()) == {"none"}  # (and asia's is no latent tree)
    admissions = bnx.compile(bnx.examples.admissions(), backend="autoref")
    assert {"uniform", "marginals"} <= set(Explorer(admissions).backgrounds())
