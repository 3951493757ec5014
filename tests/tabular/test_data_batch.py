"""explain_data and decide_many against brute force and against the one-row functions."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.builders import observed_odd
from tests._support.strategies import classifiers, instances, on_maps
from tests.conftest import shared_file

BACKENDS = bnx.backends.available_backends()
ALL = ("decision", "posterior", "mc_count", "mc_shortest", "pi_count", "pi_shortest",
       "pi_shortest_count", "observed", "robustness")


def _args(case, features=None):
    return case.net, case.class_var, case.positive, case.threshold, \
        case.features if features is None else features


def _brute(case, row, on):
    """Every answer of explain_data on ``row`` (a dict, NaN for missing), by brute force."""
    obs = [f for f in case.features if not (isinstance(row[f], float) and row[f] != row[f])]
    x = {f: row[f] for f in obs}
    head = (case.net, case.class_var, case.positive, case.threshold)
    post = oracle.posterior(*head, x, obs)
    got = {"observed": len(obs), "posterior": np.nan if post is None else float(post),
           "decision": oracle.decide(*head, x, obs)}
    if not obs:  # the prior decides
        got.update(mc_count=1, mc_shortest=0, pi_count=1, pi_shortest=0, pi_shortest_count=1,
                   robustness=math.inf)
        return got
    table = oracle.decision_table(*head, obs)
    # every answer among the instances the network allows (the default)
    joint = oracle.class_joint_table(case.net, case.class_var, obs)
    possible = {combo for combo in table if sum(joint[combo].values()) > 0}
    here = tuple(x[f] for f in obs)
    flips = [sum(a != b for a, b in zip(combo, here))
             for combo, d in table.items() if d != got["decision"] and combo in possible]
    got["robustness"] = min(flips) if flips else math.inf
    d = got["decision"]
    # an MC-explanation keeps the decision on a possible instance: the others decided
    # the other way, so that none is one
    witness = {z: v if z in possible else not d for z, v in table.items()}
    mc = oracle.mc_explanations(*_args(case, obs), x, {f: on[f] for f in obs}, table=witness)
    card = {sum(1 for f, s in e if (s in on[f]) == d) for e in mc}
    assert len(card) == 1
    got.update(mc_count=len(mc), mc_shortest=card.pop())
    kept = [frozenset(k) for r in range(len(obs) + 1)
            for k in itertools.combinations(range(len(obs)), r)
            if all(table[z] == d for z in possible if all(z[i] == here[i] for i in k))]
    pis = [k for k in kept if not any(o < k for o in kept)]
    lens = [len(z) for z in pis]
    got.update(pi_count=len(pis), pi_shortest=min(lens), pi_shortest_count=lens.count(min(lens)))
    return got


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@given(case=classifiers(max_features=4, max_instances=64), data=st.data())
@settings(max_examples=25)
def test_explain_data_matches_brute_force(case, data, backend):
    clf = bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                         features=case.features)
    odd = bnx.compile(clf, data.draw(st.permutations(case.features)), backend=backend)
    on = data.draw(on_maps(case))
    rows = [data.draw(instances(case)) for _ in range(4)]
    for r in rows[:3]:  # some missing values, possibly all of them
        for f in data.draw(st.sets(st.sampled_from(case.features))):
            r[f] = np.nan
    rows += [rows[0], rows[-1]]  # duplicates
    frame = pd.DataFrame(rows, columns=case.features, index=[f"r{i}" for i in range(len(rows))])
    frame[case.class_var] = "whatever"  # the class column is ignored
    got = bnx.explain_data(odd, frame, what=ALL, on=on, progress=False)
    assert list(got.index) == list(frame.index) and list(got.columns) == list(ALL)
    assert list(odd.decide_many(frame)) == list(got["decision"])
    for name, row in zip(frame.index, rows):
        want = _brute(case, row, on)
        have = got.loc[name].to_dict()
        assert np.isnan(have.pop("posterior")) == np.isnan(want["posterior"])
        if not np.isnan(want["posterior"]):
            assert got.loc[name, "posterior"] == want.pop("posterior")
        want.pop("posterior", None)
        assert have == want, (name, row)


def test_decide_many_on_every_instance(backend):
    clf = bnx.case_study.votes_classifier(threshold=0.3)
    odd = bnx.compile(clf, backend=backend)
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(rng.choice(["n", "y"], size=(3000, 16)), columns=clf.features)
    got = odd.decide_many(frame)
    assert got.dtype == bool and got.shape == (3000,)
    assert list(got) == [odd.decide(r) for _, r in frame.iterrows()]


@pytest.fixture(scope="module")
def votes():
    clf = bnx.case_study.votes_classifier()
    return clf, bnx.compile(clf, backend="auto"), bnx.datasets.load_votes()


def _one_row(odd, row, rob=True):
    """explain_data's answers by the one-row functions (the marginal ODD for missing values)."""
    x = {f: v for f, v in row.items() if f in odd.features and isinstance(v, str)}
    m = observed_odd(odd, list(x))
    if m is None:  # nothing observed: the prior decides; one empty explanation of each kind
        return {"decision": odd.classifier.decide({}, partial=True),
                "posterior": odd.classifier.posterior({}, partial=True), "mc_count": 1,
                "mc_shortest": 0, "pi_count": 1, "pi_shortest": 0, "pi_shortest_count": 1,
                "observed": 0, "robustness": math.inf}
    mc, pi = bnx.mc_explanations(m, x), bnx.pi_explanations(m, x)
    lens = pi.lengths()
    return {"decision": m.decide(x), "posterior": odd.classifier.posterior(x, partial=True),
            "mc_count": mc.count, "mc_shortest": min(mc.lengths()), "pi_count": pi.count,
            "pi_shortest": min(lens), "pi_shortest_count": lens[min(lens)], "observed": len(x),
            "robustness": _nearest_flip(m, x) if rob else None}


#: ``id(odd)`` -> ``(odd, every instance, its decisions)``; the ODD is kept so its id stays its own
_EVERY: dict = {}


def _nearest_flip(odd, x):
    """Hamming distance from ``x`` to the nearest instance of the other decision, over all
    instances of ``odd`` (decided once per ODD with decide_many, itself checked above)."""
    key = id(odd)
    _cache = _EVERY
    if key not in _cache:
        every = np.array(list(itertools.product(*(range(len(s)) for s in odd.encoding.states))))
        frame = pd.DataFrame({f: np.array(odd.encoding.states[i], dtype=object)[every[:, i]]
                              for i, f in enumerate(odd.features)})
        _cache[key] = (odd, every, odd.decide_many(frame))
    _, every, decisions = _cache[key]
    mine = np.array([odd.encoding.states[i].index(x[f]) for i, f in enumerate(odd.features)])
    other = every[decisions != odd.decide(x)]
    return int((other != mine).sum(axis=1).min()) if len(other) else math.inf


@pytest.mark.slow
def test_votes_row_by_row(votes):
    clf, odd, data = votes
    got = bnx.explain_data(odd, data, what=ALL, progress=False)
    assert (got["observed"] < 16).sum() == 203
    for i, row in data.iloc[::4].iterrows():  # every fourth row by the one-row functions
        want = _one_row(odd, row, rob=i % 28 == 0)
        have = got.loc[i].to_dict()
        if i % 28:  # the brute-force robustness (by enumeration) on a seventh of them
            have.pop("robustness"), want.pop("robustness")
        assert have == want, i
        assert got.loc[i, "decision"] == clf.decide(row.drop("party"), partial=True, within="all")
    some = data.iloc[::4]
    twice = bnx.explain_data(odd, some, what=ALL, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(twice, got.loc[some.index])


@pytest.mark.slow
def test_votes_on_a_dask_cluster(votes):
    distributed = pytest.importorskip("dask.distributed")
    clf, odd, data = votes
    want = bnx.explain_data(odd, data.iloc[::3], progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = bnx.explain_data(odd, data.iloc[::3], client=client, progress=False)
    pd.testing.assert_frame_equal(got, want)


def test_spect_row_by_row():
    train = shared_file("spect", "SPECT.train")
    names = ["OVERALL_DIAGNOSIS", *(f"F{i}" for i in range(1, 23))]
    data = pd.read_csv(train, header=None, names=names, dtype=str)
    net = bnx.learn_naive_bayes(train, "OVERALL_DIAGNOSIS", header=False, names=names)
    clf = bnx.Classifier(net, "OVERALL_DIAGNOSIS", "1")
    odd = bnx.compile(clf, backend="auto")
    got = bnx.explain_data(odd, data, what=ALL[:-1], progress=False)
    for i, row in data.iterrows():
        want = _one_row(odd, row, rob=False)
        del want["robustness"]
        assert got.loc[i].to_dict() == want, i


@pytest.mark.parametrize("call, error, match", [
    (lambda o, d: bnx.explain_data(o, d.assign(age=3)), bnx.UnknownFeatureError, "'age'"),
    (lambda o, d: o.decide_many(d.drop(columns="crime")), bnx.MissingFeatureError, "'crime'"),
    (lambda o, d: o.decide_many(d.replace({"crime": {"y": "maybe"}}).rename(lambda i: f"m{i}")),
     bnx.UnknownStateError, "row 'm0'.*'maybe'.*states, closest first: y, n"),
    (lambda o, d: bnx.explain_data(o, d, what=["decision", "colour"]), bnx.ArgumentError,
     "'colour'"),
    (lambda o, d: bnx.explain_data(o, d, n_jobs=0), bnx.ArgumentError, "n_jobs"),
    (lambda o, d: bnx.explain_data(o, "votes.csv"), bnx.ArgumentError, "got str"),
    (lambda o, d: bnx.explain_data(o.classifier.network, d), bnx.ArgumentError, "got "),
    (lambda o, d: bnx.explain_data(o, d, client="tcp://x"), bnx.ArgumentError, "Client"),
])
def test_bad_data_names_the_problem(votes, call, error, match):
    _, odd, data = votes
    with pytest.raises(error, match=match):
        call(odd, data.iloc[:5])


def test_multivalued_features_need_on_states():
    from tests._support.builders import multivalued_classifier
    odd = bnx.compile(multivalued_classifier(), backend="autoref")
    rows = [dict(zip(odd.features, c)) for c in itertools.product(*odd.encoding.states)]
    got = bnx.explain_data(odd, rows, what=("decision", "pi_count"), progress=False)
    assert list(got["pi_count"]) == [bnx.pi_explanations(odd, x).count for x in rows]
    with pytest.raises(bnx.ExplanationError, match="on="):
        bnx.explain_data(odd, rows, what="mc_count", progress=False)


def test_no_rows(votes):
    _, odd, data = votes
    got = bnx.explain_data(odd, data.iloc[:0], what=ALL, progress=False)
    assert got.shape == (0, len(ALL)) and got["decision"].dtype == bool
    assert odd.decide_many(data.iloc[:0]).shape == (0,)
