"""Shipped example networks, and classic networks compiled against pgmpy's exact inference."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import bnx
from tests import oracle
from tests.conftest import shared_file


def exact_tables(net):
    """node -> {frozenset of (variable, state): Fraction}, read through variables/state_names."""
    out = {}
    for cpd in net.get_cpds():
        names = [list(cpd.state_names[v]) for v in cpd.variables]
        table = {}
        for idx in itertools.product(*(range(len(n)) for n in names)):
            key = frozenset((v, names[k][i]) for k, (v, i) in enumerate(zip(cpd.variables, idx)))
            table[key] = Fraction(float(cpd.values[idx]))
        out[cpd.variables[0]] = table
    return out


# ---------------------------------------------------------------- shipped files


@pytest.mark.parametrize("name, build", [
    ("admission.net", lambda: bnx.examples.admissions_network(("state0", "state1"))),
    ("asia.bif", bnx.examples.asia_network),
])
def test_shipped_files_hold_the_networks_built_in_code(name, build, tmp_path):
    path = bnx.examples.network_path(name)
    assert path.is_file()
    shipped = bnx.read_network(path)
    assert exact_tables(shipped) == exact_tables(build())
    assert set(shipped.edges()) == set(build().edges())
    rewritten = dict(zip(bnx.examples.NETWORKS, bnx.examples.write_example_networks(tmp_path)))
    assert rewritten[name].read_text() == path.read_text()


def test_unknown_example_network_names_the_shipped_ones():
    with pytest.raises(bnx.ArgumentError, match="admission.net, asia.bif"):
        bnx.examples.network_path("alarm.net")


@pytest.mark.parametrize("rule", ["threshold", "argmax"])
def test_asia_example_matches_brute_force(rule, backend):
    clf = bnx.examples.asia(rule=rule, threshold=0.2)
    odd = bnx.compile(clf, backend=backend)
    net, features = clf.network, list(bnx.examples.ASIA_FEATURES)
    table = oracle.decision_table(net, "lung", "yes", 0.2, features, rule=rule)
    for combo, want in table.items():
        assert odd.decide(dict(zip(features, combo))) == want
    assert odd.count() == sum(table.values())


def test_readme_example_runs_from_a_clone():
    clf = bnx.Classifier.from_file(bnx.examples.network_path("admission.net"), "Admit",
                                   "state1", threshold=0.5)
    x = {f: "state1" for f in clf.features}
    assert clf.decide(x) and bnx.compile(clf).decide(x)


# ---------------------------------------------------------------- classic networks


def _check_against_variable_elimination(net, clf, odd):
    """Every instance: the ODD's decision equals the one from pgmpy's joint posterior."""
    from pgmpy.inference import VariableElimination
    c, features = clf.class_var, list(clf.features)
    factor = VariableElimination(net).query([c, *features], joint=True, show_progress=False)
    order = [factor.variables.index(v) for v in [c, *features]]
    values = np.moveaxis(factor.values, order, range(len(order)))
    names = [list(factor.state_names[v]) for v in [c, *features]]
    states = list(clf.states(c))
    positives = 0
    for idx in itertools.product(*(range(len(n)) for n in names[1:])):
        column = values[(slice(None), *idx)]
        total = float(column.sum())
        post = {names[0][i]: float(column[i]) / total if total else math.nan
                for i in range(len(names[0]))}
        x = {f: names[k + 1][j] for k, (f, j) in enumerate(zip(features, idx))}
        if total == 0:
            want = True if clf.rule == "threshold" else states[0] == clf.positive
        elif clf.rule == "threshold":
            p = post[clf.positive]
            if abs(p - float(clf.threshold)) < 1e-9:  # a float tie: pgmpy cannot decide it
                positives += odd.decide(x)
                continue
            want = p >= float(clf.threshold)
        else:
            best = max(post.values())
            if sum(1 for v in post.values() if best - v < 1e-9) > 1:
                positives += odd.decide(x)
                continue
            want = max(states, key=lambda s: post[s]) == clf.positive
        assert odd.decide(x) == want, x
        positives += want
    return positives


@pytest.mark.parametrize("file, class_var, positive, threshold", [
    ("admission.net", "Admit", "state1", 0.5),
    ("nb.uai", "var_0", 1, 0.55),
    ("child.net", "BirthAsphyxia", "yes", 0.9),
    ("child.net", "Disease", "TGA", None),
    ("child.net", "Sick", "yes", 0.5),
])
def test_classic_networks_agree_with_variable_elimination(file, class_var, positive, threshold):
    net = bnx.read_network(shared_file("networks", file))
    if threshold is None:
        clf = bnx.Classifier(net, class_var, positive, rule="argmax")
    else:
        clf = bnx.Classifier(net, class_var, positive, threshold=threshold)
    leaves = [n for n in net.nodes() if not list(net.successors(n)) and n != class_var]
    assert sorted(map(str, clf.features)) == sorted(map(str, leaves))
    odd = bnx.compile(clf, backend="cudd" if "cudd" in bnx.backends.available_backends()
                      else "autoref")
    assert _check_against_variable_elimination(net, clf, odd) == odd.count()
