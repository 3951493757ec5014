"""The level-at-a-time naive Bayes engine: identical diagrams to the exact engine, guards.

``RatioEngine`` (``bnx/compilation/engines/naive_bayes.py``) is the reference: it compares
exact fractions everywhere (float approximations only where they settle a
comparison on their own) and is the fallback when a probability is not a normal
double. Both engines build in the same manager, so the same decision function
gives the very same dd node.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.compilation.budget import Budget
from bnx.compilation.engines.naive_bayes import RatioEngine
from bnx.compilation.engines.naive_bayes_levels import Levels, log_weights
from bnx.compilation.orders import check_order
from bnx.diagram.encoding import Encoding
from tests._support import oracle
from tests._support.strategies import naive_bayes


def _clf(case):
    return bnx.Classifier(case.net, case.class_var, case.positive, threshold=case.threshold,
                          features=case.features)


def _both(clf, backend, order=None):
    order = check_order(clf, order)
    enc = Encoding(tuple(order), tuple(clf.states(f) for f in order))
    # the ratio engine's dd function read into arrays (false on unused codes), and the
    # level engine's arrays: both the canonical form, node for node the same diagram
    ratio = RatioEngine(clf, enc, Budget(None), backend=backend).run()
    weights = log_weights(clf, enc.features)
    assert weights is not None
    levels = Levels(clf, enc, Budget(None), weights).run()
    return (ratio.root, ratio.lists()), (levels.root, levels.lists())


def _nb_from_columns(columns, prior=(0.5, 0.5), threshold=0.5):
    """A binary-class naive Bayes; ``columns[i] = (Pr(X_i | c0), Pr(X_i | c1))``."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork
    names = [f"X{i}" for i in range(len(columns))]
    net = DiscreteBayesianNetwork([("C", f) for f in names])
    cpds = [TabularCPD("C", 2, [[prior[0]], [prior[1]]])]
    for f, (a, b) in zip(names, columns):
        cpds.append(TabularCPD(f, len(a), [list(x) for x in zip(a, b)], evidence=["C"],
                               evidence_card=[2]))
    net.add_cpds(*cpds)
    return bnx.Classifier(net, "C", 1, threshold=threshold)


@pytest.mark.slow
@given(case=naive_bayes(), data=st.data())
def test_level_engine_builds_the_identical_diagram(case, data, backend):
    if len(case.net.get_cpds(case.class_var).state_names[case.class_var]) != 2:
        return
    clf = _clf(case)
    if log_weights(clf, clf.features) is None:
        return
    order = data.draw(st.permutations(case.features))
    old, new = _both(clf, backend, order)
    assert old == new


_POOL = [(0.25, 0.75), (0.75, 0.25), (0.5, 0.5), (0.125, 0.875), (0.875, 0.125),
         (0.375, 0.625), (0.0, 1.0), (1.0, 0.0)]


@settings(max_examples=30)
@given(cols=st.lists(st.tuples(st.sampled_from(_POOL), st.sampled_from(_POOL)),
                     min_size=1, max_size=14),
       prior=st.sampled_from([(0.5, 0.5), (0.25, 0.75), (0.0, 1.0), (1.0, 0.0)]),
       threshold=st.sampled_from([0.5, 0.25, 0.75, Fraction(1, 3), 0, 1]))
def test_many_exact_ties_build_the_identical_diagram(cols, prior, threshold):
    """Dyadic CPTs drawn from a small pool: sums of log-odds coincide exactly and
    nearly everywhere, so the exact tie-breaking runs on most levels."""
    cols = [((a[0], a[1]), (b[0], b[1])) for a, b in cols]
    clf = _nb_from_columns(cols, prior, threshold)
    old, new = _both(clf, "autoref")
    assert old == new


def test_identical_on_wide_random_classifier(backend):
    old, new = _both(_wide(18, seed=7), backend)
    assert old == new and len(old[1][0]) > 100


def test_subnormal_probability_falls_back_to_the_exact_engine(backend):
    tiny = 5e-324  # a subnormal double: no float log-odds bound holds for it
    clf = _nb_from_columns([((tiny, 1 - tiny), (0.5, 0.5)), ((0.25, 0.75), (0.75, 0.25))])
    assert log_weights(clf, clf.features) is None
    odd = bnx.compile(clf, backend=backend)
    for x in oracle.all_instances(clf.network, list(clf.features)):
        assert odd.decide(x) == clf.decide(x, within="all")


# ---------------------------------------------------------------------------- guards

def _wide(n, seed=3):
    import numpy as np
    rng = np.random.default_rng(seed)
    cols = []
    for _ in range(n):
        a, b = rng.uniform(0.02, 0.98, 2)
        cols.append(((1 - a, a), (1 - b, b)))
    return _nb_from_columns(cols, (0.45, 0.55))


@pytest.mark.slow
@pytest.mark.parametrize("limit, message", [({"timeout": 1, "max_nodes": math.inf},
                                             "timeout=1 s"),
                                            ({"max_nodes": 100_000}, "max_nodes=100000")])
def test_guards_stop_a_60_feature_compile_early(limit, message):
    """Unguarded, this compile would run for minutes and gigabytes (the default budget
    refuses it at once: test_default_budget.py; lifted here to time the guards)."""
    t0 = time.monotonic()
    with pytest.raises(bnx.CompilationLimitError, match=message):
        bnx.compile(_wide(60), **limit)
    assert time.monotonic() - t0 < 4


def test_budgets_that_suffice_give_the_same_diagram(backend):
    clf = _wide(12)
    a = bnx.compile(clf, backend=backend)
    b = bnx.compile(clf, backend=backend, timeout=60, max_nodes=10**6, progress=False)
    assert a.count() == b.count() and a.size == b.size


def test_progress_bar_is_shown(capsys):
    odd = bnx.compile(_wide(10), backend="autoref", progress=True)
    assert odd.size > 1
    assert "compiling" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [0, -1, "2", True, float("nan")])
def test_timeout_must_be_positive(bad):
    with pytest.raises(bnx.ArgumentError, match="timeout must be a positive number"):
        bnx.compile(bnx.examples.admissions(), timeout=bad)


def test_progress_must_be_a_bool():
    with pytest.raises(bnx.ArgumentError, match="progress must be True or False"):
        bnx.compile(bnx.examples.admissions(), progress="yes")


def test_estimate_size_is_near_the_real_size():
    clf = _wide(16)
    real = bnx.compile(clf, backend="autoref").size
    est = bnx.estimate_size(clf)
    assert real / 4 <= est <= 4 * real


@pytest.mark.parametrize("bad", [0, -3, "many", True])
def test_estimate_size_checks_samples(bad):
    with pytest.raises(bnx.ArgumentError, match="samples must be a positive integer"):
        bnx.estimate_size(bnx.examples.admissions(), samples=bad)


@pytest.mark.slow
def test_cli_timeout(tmp_path, capsys):
    from bnx.cli import main
    path = tmp_path / "wide.bif"
    from pgmpy.readwrite import BIFWriter
    BIFWriter(_wide(60).network).write(str(path))
    code = main(["compile", str(path), "--class", "C", "--positive", "1", "--timeout", "1",
                 "--max-nodes", "inf", "--no-progress"])  # (reading the BIF takes seconds)
    assert code == 1
    assert "ran out of time (timeout=1 s)" in capsys.readouterr().err


def test_cli_timeout_must_be_positive(capsys):
    from bnx.cli import main
    with pytest.raises(SystemExit):
        main(["compile", "x.bif", "--class", "C", "--positive", "1", "--timeout", "-1"])
    assert "expected a positive number of seconds" in capsys.readouterr().err
