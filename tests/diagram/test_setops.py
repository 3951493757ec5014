"""The ``dd`` operations the questions use (:mod:`bnx.diagram._setops`) on a diagram too
deep for ``dd.autoref``'s recursion: a typed error that says what to do, never a
``RecursionError``; CUDD answers."""

from __future__ import annotations

import pytest

import bnx
from bnx.diagram import _setops as sets  # private: dd set operations (a unit)
from bnx.diagram.backends import available_backends, new_manager, write_nodes
from tests._support.deep import limit_untouched

N = 1500


def _chains(backend: str):
    """Two functions ``N`` levels deep: "every variable on" and "every variable on but
    the last", written node by node (no recursion)."""
    names = [f"x{i}" for i in range(N)]
    bdd = new_manager(backend, names)
    var = [0, 0] + list(range(N - 1, -1, -1))  # node 2 + k tests level N - 1 - k
    lo = [0, 0] + [0] * N
    on = write_nodes(bdd, names, var, lo, [0, 0, 1] + list(range(2, N + 1)), N + 1)
    hi_last_off = [0, 0, 0] + list(range(2, N + 1))
    lo_last_off = [0, 0, 1] + [0] * (N - 1)
    but_last = write_nodes(bdd, names, var, lo_last_off, hi_last_off, N + 1)
    return bdd, on, but_last


@pytest.mark.parametrize("backend", available_backends())
def test_operations_too_deep_for_autoref_say_so(backend):
    bdd, on, but_last = _chains(backend)
    with limit_untouched():
        if backend == "autoref":
            for op in (lambda: sets.intersect(on, but_last), lambda: sets.union(on, but_last),
                       lambda: sets.difference(on, but_last)):
                with pytest.raises(bnx.BackendError, match="backend='cudd'"):
                    op()
        else:
            assert sets.intersect(on, but_last) == sets.false(bdd)
            assert sets.union(on, but_last) != on
            assert sets.difference(on, but_last) == on
