"""A deep ODD, from compiling to its file and back, leaves Python's recursion limit alone
(under ``limit_untouched``): counting, deciding, its ``dd`` form, its size, saving and
loading (format 3, the legacy all-JSON format 2, pickling), checked against what the
networks decide, computed without a diagram."""

from __future__ import annotations

import pickle

import pytest

import bnx
from tests._support.deep import (
    dd_count,
    limit_untouched,
    majority,
    majority_count,
    majority_decides,
    one_matters,
)
from tests._support.legacy_files import write_legacy

BACKENDS = bnx.backends.available_backends()


def _instances(features, ks):
    """Instances with the first ``k`` features on, for each ``k`` of ``ks``."""
    return [{f: int(i < k) for i, f in enumerate(features)} for k in ks]


def _same(odd, again, xs) -> None:
    assert again.features == odd.features and again.count() == odd.count()
    assert [again.decide(x) for x in xs] == [odd.decide(x) for x in xs]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deep_majority_end_to_end(backend, tmp_path):
    n = 200
    with limit_untouched():
        odd = bnx.compile(majority(n), backend=backend)
        xs = _instances(odd.features, (0, 1, 99, 100, 101, 150, n))
        assert odd.count() == majority_count(n)
        assert [odd.decide(x) for x in xs] == [majority_decides(x) for x in xs]
        assert list(odd.decide_many(xs)) == [majority_decides(x) for x in xs]
        root = odd.root  # the dd form, made from the arrays
        assert dd_count(root, odd.encoding.nvars) == majority_count(n)
        assert odd.size == root.dag_size
        again = bnx.ODD.load(odd.save(str(tmp_path / "m.bnx")), backend=backend)
        _same(odd, again, xs)
        _same(odd, pickle.loads(pickle.dumps(odd)), xs)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_diagram_deeper_than_the_limit_end_to_end(backend, tmp_path):
    """500 features, only ``f0`` informative (the shape of the 500-feature test in
    tests/explanation/test_explanations.py)."""
    n = 500
    with limit_untouched():
        odd = bnx.compile(one_matters(n), backend=backend)
        assert odd.count() == 2 ** (n - 1)
        xs = [dict.fromkeys(odd.features, 0), dict.fromkeys(odd.features, 1)]
        assert [odd.decide(x) for x in xs] == [False, True]
        assert dd_count(odd.root, odd.encoding.nvars) == 2 ** (n - 1) and odd.size == 2
        again = bnx.ODD.load(odd.save(str(tmp_path / "d.bnx")), backend=backend)
        _same(odd, again, xs)
        assert again.size == 2 and again.root.var == odd.root.var


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_legacy_files_of_deep_diagrams_load(backend, tmp_path):
    """Format 2 (a ``dd`` JSON dump, rebuilt node by node and checked on the arrays)."""
    for clf, want in ((majority(200), majority_count(200)), (one_matters(500), 2 ** 499)):
        odd = bnx.compile(clf, backend="autoref")
        path = write_legacy(odd, tmp_path / "old.bnx.json")
        with limit_untouched():
            again = bnx.ODD.load(path, backend=backend)
            assert again.count() == want and again.size == odd.size
            xs = _instances(odd.features, (0, 100, 101, len(odd.features)))
            _same(odd, again, xs)
