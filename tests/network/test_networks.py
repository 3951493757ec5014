"""Shipped example networks, and classic networks compiled against pgmpy's exact inference."""

from __future__ import annotations

import itertools
import math
import pathlib
from fractions import Fraction

import numpy as np
import pytest

import bnx
from tests._support import oracle
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


@pytest.mark.slow
@pytest.mark.parametrize("name, build", [
    ("admission.net", lambda: bnx.examples.admissions_network(("state0", "state1"))),
    ("asia.bif", bnx.examples.asia_network),
    ("illness.bif", bnx.examples.illness_network),
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
        assert odd.decide(dict(zip(features, combo)), within="all") == want
    assert odd.count() == sum(table.values())


def test_readme_example_runs_from_a_clone():
    clf = bnx.Classifier.from_file(bnx.examples.network_path("admission.net"), "Admit",
                                   "state1", threshold=0.5)
    x = {f: "state1" for f in clf.features}
    assert clf.decide(x, within="all") and bnx.compile(clf).decide(x)


# ---------------------------------------------------------------- classic networks


def _ve_decisions(net, clf):
    """{state tuple: decision, or None for a float tie} from pgmpy's joint posterior."""
    from pgmpy.inference import VariableElimination
    c, features = clf.class_var, list(clf.features)
    factor = VariableElimination(net).query([c, *features], joint=True, show_progress=False)
    order = [factor.variables.index(v) for v in [c, *features]]
    values = np.moveaxis(factor.values, order, range(len(order)))
    names = [list(factor.state_names[v]) for v in [c, *features]]
    states = list(clf.states(c))
    table = {}
    for idx in itertools.product(*(range(len(n)) for n in names[1:])):
        column = values[(slice(None), *idx)]
        total = float(column.sum())
        post = {names[0][i]: float(column[i]) / total if total else math.nan
                for i in range(len(names[0]))}
        combo = tuple(names[k + 1][j] for k, j in enumerate(idx))
        if total == 0:
            want = True if clf.rule == "threshold" else states[0] == clf.positive
        elif clf.rule == "threshold":
            p = post[clf.positive]
            near = abs(p - float(clf.threshold)) < 1e-9  # a float tie: pgmpy cannot decide it
            want = None if near else p >= float(clf.threshold)
        else:
            best = max(post.values())
            near = sum(1 for v in post.values() if best - v < 1e-9) > 1
            want = None if near else max(states, key=lambda s: post[s]) == clf.positive
        table[combo] = want
    return table


def _check_against_variable_elimination(net, clf, odd):
    """Every instance: the ODD's decision equals the one from pgmpy's joint posterior
    (float ties excepted); returns the ODD's positive instances counted one by one."""
    features = list(clf.features)
    positives = 0
    for combo, want in _ve_decisions(net, clf).items():
        got = odd.decide(dict(zip(features, combo)), within="all")
        assert want is None or got == want, combo
        positives += got
    return positives


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("class_var, positive, threshold", [
    ("Disease", "TGA", None), ("LVH", "yes", 0.5)])
def test_explanations_on_child_match_brute_force(class_var, positive, threshold, backend):
    """MC, PI and prime implicants of child's ODDs against brute force over pgmpy's decisions."""
    net = bnx.read_network(shared_file("networks", "child.net"))
    if threshold is None:
        clf = bnx.Classifier(net, class_var, positive, rule="argmax")
    else:
        clf = bnx.Classifier(net, class_var, positive, threshold=threshold)
    odd = bnx.compile(clf, backend=backend)
    features = list(clf.features)
    table = _ve_decisions(net, clf)
    assert None not in table.values()
    args = (net, class_var, positive, threshold, features)
    for decision in (True, False):
        got = bnx.prime_implicants(odd, decision=decision)
        want = oracle.prime_implicants(*args, decision=decision, table=table)
        assert got.to_set() == want and got.count == len(want)
    rng = np.random.default_rng(3)
    combos = sorted(table)
    on = {f: [clf.states(f)[-1]] for f in features}
    for k in rng.choice(len(combos), size=4, replace=False):
        x = dict(zip(features, combos[k]))
        assert bnx.pi_explanations(odd, x, within="all").to_set() == oracle.pi_explanations(
            *args, x, table=table)  # (the oracle's total function)
        assert bnx.mc_explanations(odd, x, on=on, within="all").to_set() == \
            oracle.mc_explanations(*args, x, on, table=table)


# ---------------------------------------------------------------------- gzipped files
_UAI = "BAYES\n2\n2 2\n2\n1 0\n2 0 1\n2\n 0.4 0.6\n4\n 0.1 0.9 0.7 0.3\n"


def _plain_files(tmp_path):
    """One plain file per format: the shipped asia.bif and admission.net, asia written as
    XMLBIF by pgmpy, and a small UAI network."""
    from pgmpy.readwrite import XMLBIFWriter
    xml = tmp_path / "asia.xml"
    XMLBIFWriter(bnx.examples.asia_network()).write(str(xml))
    uai = tmp_path / "two.uai"
    uai.write_text(_UAI)
    return {".bif": bnx.examples.network_path("asia.bif"), ".xml": xml, ".xmlbif": xml,
            ".net": bnx.examples.network_path("admission.net"), ".uai": uai}


@pytest.mark.slow
@pytest.mark.parametrize("ext", [".bif", ".xml", ".xmlbif", ".net", ".uai"])
def test_gzipped_network_files_read_as_the_plain_ones(ext, tmp_path):
    import gzip
    plain = _plain_files(tmp_path)[ext]
    packed = tmp_path / f"net{ext}.GZ"  # any case, as the plain extensions
    packed.write_bytes(gzip.compress(pathlib.Path(plain).read_bytes()))
    want, got = bnx.read_network(plain), bnx.read_network(packed)
    assert sorted(got.nodes()) == sorted(want.nodes())
    assert sorted(got.edges()) == sorted(want.edges())
    assert exact_tables(got) == exact_tables(want)
    cls = next(n for n in sorted(want.nodes()) if list(want.successors(n)))
    state = want.get_cpds(cls).state_names[cls][0]
    assert bnx.Classifier.from_file(packed, cls, state).fingerprint == \
        bnx.Classifier(want, cls, state).fingerprint


@pytest.mark.slow
def test_pgmpys_bundled_networks_load_gzipped(tmp_path):
    import gzip
    import os

    import pgmpy
    path = pathlib.Path(os.path.dirname(pgmpy.__file__), "utils", "example_models",
                        "child.bif.gz")
    if not path.exists():
        pytest.skip(f"{path} is not in this pgmpy")
    plain = tmp_path / "child.bif"
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    a = bnx.Classifier.from_file(path, "Disease", "TGA", rule="argmax")
    b = bnx.Classifier.from_file(plain, "Disease", "TGA", rule="argmax")
    assert a.fingerprint == b.fingerprint and len(a.features) == 7


def test_gzipped_files_that_are_not_networks_are_named(tmp_path):
    import gzip
    (tmp_path / "x.csv.gz").write_bytes(gzip.compress(b"a,b\n"))
    with pytest.raises(bnx.NetworkFileError, match="unknown network format '.csv.gz'"):
        bnx.read_network(tmp_path / "x.csv.gz")
    (tmp_path / "x.bif.gz").write_text("network x {}\n")  # not gzip
    with pytest.raises(bnx.NetworkFileError, match="x.bif.gz: cannot decompress as gzip"):
        bnx.read_network(tmp_path / "x.bif.gz")
    (tmp_path / "e.bif.gz").write_bytes(gzip.compress(b"  \n"))
    with pytest.raises(bnx.NetworkFileError, match="e.bif.gz: the decompressed file is empty"):
        bnx.read_network(tmp_path / "e.bif.gz")
