"""Exact ranks of nearly equal floats, for :class:`~.naive_bayes_levels.Levels`.

Values are sorted by their floats, and wherever two neighbours are closer than the proven
rounding bound (``gap``: :func:`bnx._util.rounding.compare_all` cannot tell them apart)
ordered and merged by their exact rationals.
"""

from __future__ import annotations

from ..._util.rounding import compare_all

__all__ = ["Ranks"]


class Ranks:
    """Sorting with exact ties (a base of :class:`~.naive_bayes_levels.Levels`).

    Needs ``np`` (numpy), ``gap`` (the rounding bound) and ``budget`` (its ``check()``) on
    ``self``.
    """

    def _dedupe(self, xs, exact):
        """Sort ``xs`` exactly and merge exactly equal entries.

        Returns ``(order, ids)``: ``order`` sorts ``xs`` (exactly, ties by the
        exact values ``exact(idx)``), ``ids[r]`` is the class of the ``r``-th
        sorted entry (0, 1, ... increasing with the value).
        """
        np = self.np
        order = np.argsort(xs, kind="stable")
        srt = xs[order]
        _, apart = compare_all(srt[1:], srt[:-1], 0.0, strict=True, err=self.gap)
        near = ~apart
        if not near.any():
            return order, np.arange(len(xs))
        return order, self._exact_ranks(order, near, exact)

    def _exact_ranks(self, order, near, exact, skip=None):
        """Return the class ids of the entries in ``order`` (sorted by their floats).

        A new class at every gap that is not ``near``; within a run of near entries, the
        exact values ``exact(idx)`` order them (``order`` is rearranged in place) and equal
        ones share a class. ``skip(start)`` says a run whose entries are all equal anyway.
        """
        np = self.np
        newgrp = np.concatenate(([True], ~near))
        sub = np.zeros(len(order), dtype=np.int64)
        starts = np.flatnonzero(newgrp)
        ends = np.append(starts[1:], len(order))
        for g in np.flatnonzero(ends - starts > 1):
            s, e = int(starts[g]), int(ends[g])
            if skip is not None and skip(s):
                continue
            self.budget.check()
            members = sorted(((exact(int(order[r])), int(order[r])) for r in range(s, e)),
                             key=lambda m: m[0])
            rank, prev = -1, None
            for r, (val, idx) in enumerate(members):
                if prev is None or val != prev:
                    rank += 1
                    prev = val
                order[s + r] = idx
                sub[s + r] = rank
        # class id: runs in float order, exact ranks within a run
        step = newgrp | np.concatenate(([False], np.diff(sub) != 0))
        return np.cumsum(step) - 1

    def _firsts(self, ids):
        """Positions where the sorted class ids start a new class."""
        np = self.np
        return np.flatnonzero(np.diff(ids, prepend=-1) != 0)
