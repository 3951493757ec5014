"""What questions keep per ODD between calls: bounded, clearable, never a wrong answer.

Answers are checked against brute force (tests/_support/oracle.py) before and after the caches
are cleared, and with caches bounded to one entry per kind.
"""

from __future__ import annotations

import itertools

import pytest

import bnx
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
