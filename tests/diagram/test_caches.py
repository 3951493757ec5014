"""What questions keep per ODD between calls: bounded, clearable, never a wrong answer.

Answers are checked against brute force (tests/_support/oracle.py) before and after the caches
are cleared, and with caches bounded to one entry per kind.
"""

from __future__ import annotations

import itertools

import pytest

import bnx
from bnx.diagram import _memo  # private: the cache registry, no public face
from tests._support import oracle

BACKENDS = bnx.backends.available_backends()


def _pis(clf, x):
    args = (clf.network, clf.class_var, clf.positive, clf.threshold, list(clf.features))
    return {frozenset(p.items()) for p in
            (dict(p) for p in oracle.pi_explanations(*args, x))}


def _instances(odd):
    for combo in itertools.product(*(odd.states(f) for f in odd.features)):
        yield dict(zip(odd.features, combo))


@pytest.mark.parametrize("backend", BACKENDS)
def test_clear_caches_empties_them_and_answers_stay_exact(backend):
    clf = bnx.examples.admissions()
    odd = bnx.compile(clf, backend=backend)
    xs = list(_instances(odd))
    kept = [bnx.pi_explanations(odd, x) for x in xs]
    mcs = [bnx.mc_explanations(odd, x).count for x in xs]
    support = bnx.support(clf, odd=odd)  # kept per ODD, apart from its arrays' cache
    assert len(odd.arrays.cache) > 0 and bnx.support(clf, odd=odd) is support
    odd.clear_caches()
    assert len(odd.arrays.cache) == 0
    again = bnx.support(clf, odd=odd)  # made anew: the clear dropped it
    assert again is not support and again.to_set() == support.to_set()
    for x, before, count in zip(xs, kept, mcs):
        want = _pis(clf, x)
        # sets returned before the clear still work, and new ones are the same
        assert before.to_set() == want
        assert bnx.pi_explanations(odd, x).to_set() == want
        assert bnx.mc_explanations(odd, x).count == count
    odd.clear_caches()
    odd.clear_caches()  # twice is fine


def test_every_kind_is_bounded(monkeypatch):
    """With every kind bounded to one entry, questions that need several entries of a
    kind (both decisions, both layouts) still answer exactly."""
    clf = bnx.examples.admissions()
    warm = bnx.compile(clf, backend="autoref")  # the questions' modules register their kinds
    x = dict.fromkeys(warm.features, "+")
    bnx.pi_explanations(warm, x), bnx.robustness(warm, x), bnx.prime_implicants(warm)
    tight = {k: v._replace(bound=1) for k, v in _memo.KINDS.items()}
    monkeypatch.setattr(_memo, "KINDS", tight)
    odd = bnx.compile(clf, backend="autoref")
    for x in _instances(odd):
        got = bnx.pi_explanations(odd, x).to_set()
        assert got == _pis(clf, x)
        bnx.robustness(odd, x)
        assert all(n <= 1 for n in odd.arrays.cache.sizes().values())
    assert bnx.prime_implicants(odd).count + bnx.prime_implicants(odd, decision=False).count \
        == oracle_prime_count(clf)


def oracle_prime_count(clf) -> int:
    args = (clf.network, clf.class_var, clf.positive, clf.threshold, list(clf.features))
    return sum(len(oracle.prime_implicants(*args, decision=d)) for d in (True, False))


def test_a_cache_keeps_the_most_recently_used_and_knows_its_kinds():
    from bnx.explanation import _pi_memo  # noqa: F401 (registers the kind "pi_state")
    c = _memo.Caches()
    bound = _memo.KINDS["pi_state"].bound
    for k in range(bound):
        c.put("pi_state", k, k)
    assert c.get("pi_state", 0) == 0  # now the most recently used
    c.put("pi_state", "new", 1)
    assert c.get("pi_state", 1) is None and c.get("pi_state", 0) == 0
    assert c.make("pi_state", 0, lambda: "again") == 0
    with pytest.raises(KeyError, match="unknown cache kind"):
        c.put("no such kind", (), 1)
    c.clear("pi_state")
    assert len(c) == 0 and c.entries("pi_state") == []


def test_every_kind_says_what_it_holds():
    bnx.pi_explanations(bnx.compile(bnx.examples.admissions(), backend="autoref"),
                        dict.fromkeys(bnx.examples.admissions().features, "+"))
    assert {"feature_view", "layout", "node_table", "pi_state"} <= set(_memo.KINDS)
    for name, kind in _memo.KINDS.items():
        assert kind.bound >= 1 and kind.what, name


def test_each_kind_is_registered_by_its_owner_once():
    """The cache module on the diagram's floor names no kind of the floors above: each
    module that keeps something registers its kind when it is imported (in a fresh
    process, the kinds of the MC code appear with it); a second owner of one kind with
    another spec is refused."""
    import subprocess
    import sys
    code = ("from bnx.diagram import _memo; before = set(_memo.KINDS); "
            "import bnx.explanation.mc; print('mc' in before, 'mc' in _memo.KINDS, "
            "'layout' in _memo.KINDS)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "True", "True"], out.stderr
    import bnx.explanation.mc  # noqa: F401
    spec = _memo.KINDS["mc"]
    _memo.register("mc", spec.bound, spec.what)  # the same spec again: the module reloaded
    with pytest.raises(ValueError, match="one kind has one owner"):
        _memo.register("mc", spec.bound + 1, "something else")
    assert _memo.KINDS["mc"] == spec


def test_the_cache_module_names_no_module_of_a_floor_above():
    import inspect
    text = inspect.getsource(_memo)
    above = ["classifier", "odd", "compilation", "question", "probability", "explanation",
             "changes", "attribution", "linear", "tabular", "report", "serve", "cli"]
    assert [p for p in above if f"bnx.{p}" in text or f"bnx/{p}" in text] == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_question_changes_nothing_another_thread_sees(backend):
    """Questions leave the garbage collector and the recursion limit alone: a thread
    that watches them while another thread asks questions sees them as it set them."""
    import gc
    import sys
    import threading

    clf = bnx.examples.admissions()
    seen, errors, answers = set(), [], []
    was = gc.isenabled()
    limit = sys.getrecursionlimit()

    def ask():
        try:
            for _ in range(3):
                odd = bnx.compile(clf, backend=backend)
                for x in _instances(odd):
                    answers.append((x, bnx.pi_explanations(odd, x).to_set()))
                    assert bnx.mc_explanations(odd, x).count >= 1
                    bnx.robustness(odd, x)
                assert bnx.prime_implicants(odd).count >= 1
                odd.clear_caches()
        except Exception as exc:
            errors.append(exc)

    for enabled in (False, True):
        (gc.enable if enabled else gc.disable)()
        try:
            worker = threading.Thread(target=ask)
            worker.start()
            while worker.is_alive():
                seen.add((gc.isenabled(), sys.getrecursionlimit()))
            worker.join()
            seen.add((gc.isenabled(), sys.getrecursionlimit()))
            assert seen == {(enabled, limit)}
            seen.clear()
        finally:
            (gc.enable if was else gc.disable)()
    assert not errors
    for x, got in answers[:16]:
        assert got == _pis(clf, x)
