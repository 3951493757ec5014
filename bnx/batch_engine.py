"""The row-by-row engine behind :func:`bnx.explain_data`, missing values, and parallel runs.

Missing values
--------------
A row whose features ``M`` are missing is decided and explained by the classifier
*restricted to its observed features* ``O``: the same network with ``features=O``,
in which the missing leaves are summed out exactly (``bnx.Classifier`` folds their
exact column sums into their parents). Its decision on the observed part ``x_O`` is
``Classifier.decide(x_O, partial=True)``, the exact decision on the partial evidence.
Its explanations are those of that classifier's decision function, a function of
``O`` only:

- an MC-explanation turns off as many of the observed active features as possible
  while keeping the decision with the missing features still unobserved;
- a PI-explanation is a minimal subset of ``x_O`` whose every completion over ``O``
  (the missing features still unobserved) keeps the decision.

The restricted classifier is compiled once per pattern of missing features (kept on
the ODD; in the ODD's variable order) and needs ``odd.classifier``. A row with no
observed feature has the constant decision of the prior: one MC- and one
PI-explanation, both empty.

Work on many rows
-----------------
:class:`RowEngine` answers rows of state indices. Its memos outlive a row: below
feature ``i`` the MC minimum and the PI-explanation diagram depend only on the
node reached and on the states of features ``i, i+1, ...``, so they are keyed by
that suffix and rows sharing suffixes share work. :func:`run_chunks` runs it in
this process, on joblib workers or on a Dask cluster; workers receive the ODD as
the text of its saved file and load a private copy (dd managers are not shared
between threads).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .diagram import evaluate, recursion_for, restrict

__all__ = ["RowEngine", "answer_rows", "marginal_odd", "run_chunks"]

#: Memo entries kept before a :class:`RowEngine` starts afresh (bounds memory).
MEMO_LIMIT = 400_000


def marginal_odd(odd: Any, observed: Sequence) -> Any:
    """The ODD of ``odd.classifier`` restricted to the features ``observed``
    (compiled once per set, in ``odd``'s order); ``odd`` itself when nothing is
    missing, ``None`` when nothing is observed."""
    observed = tuple(f for f in odd.features if f in set(observed))
    if len(observed) == len(odd.features):
        return odd
    if not observed:
        return None
    cache = odd.__dict__.setdefault("_batch", {}).setdefault("marginals", {})
    got = cache.get(observed)
    if got is None:
        clf = odd.classifier
        if clf is None:
            from .errors import ArgumentError
            raise ArgumentError("rows with missing values need the classifier, which this "
                                "ODD does not have (a file of format version 1): compile "
                                "it again")
        from .classifier import Classifier
        from .compilation import compile as compile_
        rule = getattr(clf, "rule", "threshold")
        extra = {} if rule == "threshold" else {"rule": rule}
        sub = Classifier(clf.network, clf.class_var, clf.positive, threshold=clf.threshold,
                         features=[f for f in clf.features if f in observed], **extra)
        got = cache[observed] = compile_(sub, list(observed), backend=odd.backend)
    return got


class RowEngine:
    """Answers about complete rows of state indices of one ODD (in its order)."""

    def __init__(self, odd: Any, on: Mapping | None = None) -> None:
        self.odd = odd
        enc = odd.encoding
        self.n = len(enc.features)
        self._on = {f: s for f, s in (on or {}).items() if f in set(enc.features)}
        self._ons: list | None = None
        self.codes = [[[(enc.first_level[i] + b, v) for b, v in enumerate(enc.code(i, j).values())]
                       for j in range(len(enc.states[i]))] for i in range(self.n)]
        self._mc_memo: dict = {}
        self._child: dict = {}
        self._rob_memo: dict = {}
        self._pi = None

    def decide(self, x: Sequence[int]) -> bool:
        """The decision on ``x`` (one walk down the diagram)."""
        return evaluate(self.odd.root, dict(b for i in range(self.n) for b in self.codes[i][x[i]]))

    def mc(self, x: Sequence[int], decision: bool) -> tuple[int, int]:
        """``(number, cardinality)`` of the MC-explanations of ``x``."""
        if self._ons is None:
            from .explain.mc import on_states
            self._ons = on_states(self.odd, self._on)  # the one-row function's errors
            # plan[d][i][state] = [(state allowed in an explanation, its weight), ...]
            self._plan = {}
            for d in (False, True):
                self._plan[d] = []
                for i in range(self.n):
                    k = len(self.codes[i])
                    counted = self._ons[i] if d else frozenset(range(k)) - self._ons[i]
                    self._plan[d].append([
                        [(xi, int(xi in counted))] + ([(j, 0) for j in range(k) if j not in counted]
                                                      if xi in counted else [])
                        for xi in range(k)])
        if len(self._mc_memo) > MEMO_LIMIT:
            self._mc_memo.clear()
            self._child.clear()
        sfx = [tuple(x[i:]) for i in range(self.n + 1)]
        h = self.odd.root if decision else ~self.odd.root
        best, count = self._mc(h, 0, decision, x, sfx)
        return count, best

    def _mc(self, u, i, d, x, sfx):
        """(minimum cardinality, number of minima) of the allowed paths from ``u``."""
        if u.var is None and u != u.bdd.true:
            return math.inf, 0
        if i == self.n:
            return 0, 1
        key = (u, i, d, sfx[i])
        got = self._mc_memo.get(key)
        if got is not None:
            return got
        best, count = math.inf, 0
        for j, weight in self._plan[d][i][x[i]]:
            child = self._child.get((u, i, j))
            if child is None:
                child = self._child[(u, i, j)] = restrict(u, self.codes[i][j],
                                                          self.odd.encoding.nvars)
            m, c = self._mc(child, i + 1, d, x, sfx)
            m += weight
            if c and m < best:
                best, count = m, c
            elif c and m == best:
                count += c
        got = self._mc_memo[key] = (best, count)
        return got

    def robustness(self, x: Sequence[int], decision: bool) -> float:
        """The fewest features whose states must change to flip the decision on ``x``
        (``inf`` when no instance has the other decision)."""
        if len(self._rob_memo) > MEMO_LIMIT:
            self._rob_memo.clear()
        sfx = [tuple(x[i:]) for i in range(self.n + 1)]
        return self._rob(~self.odd.root if decision else self.odd.root, 0, x, sfx)

    def _rob(self, u, i, x, sfx):
        """Fewest changes to ``x[i:]`` on a path from ``u`` to true (valid states only)."""
        if u.var is None and u != u.bdd.true:
            return math.inf
        if i == self.n:
            return 0
        key = (u, i, sfx[i])
        got = self._rob_memo.get(key)
        if got is None:
            got = math.inf
            for j, bits in enumerate(self.codes[i]):
                child = self._child.get((u, i, j))
                if child is None:
                    child = self._child[(u, i, j)] = restrict(u, bits, self.odd.encoding.nvars)
                got = min(got, (j != x[i]) + self._rob(child, i + 1, x, sfx))
            self._rob_memo[key] = got
        return got

    def pi(self, x: Sequence[int], decision: bool) -> tuple[int, int, int]:
        """``(number, shortest length, number of shortest)`` of the PI-explanations."""
        from .explain.pi import PIEngine
        if self._pi is None or self._pi.size() > MEMO_LIMIT:
            self._pi = PIEngine(self.odd)
        return self._pi.stats(list(x), decision)

    def answers(self, x: Sequence[int], what: Sequence[str], *, posterior=None) -> list:
        """The answers ``what`` (see :data:`bnx.batch.WHAT`) about the complete row ``x``."""
        d = self.decide(x)
        got: dict = {"decision": d, "observed": self.n}
        if any(w.startswith("mc_") for w in what):
            got["mc_count"], got["mc_shortest"] = self.mc(x, d)
        if any(w.startswith("pi_") for w in what):
            got["pi_count"], got["pi_shortest"], got["pi_shortest_count"] = self.pi(x, d)
        if "robustness" in what:
            r = self.robustness(x, d)
            got["robustness"] = None if r == math.inf else r
        if "posterior" in what:
            got["posterior"] = posterior
        return [got[w] for w in what]


def answer_rows(odd: Any, rows: Sequence[tuple], what: Sequence[str], on: Mapping | None,
                bar: Any = None) -> list[list]:
    """The answers about rows of state indices of ``odd`` (``-1``: missing), row by row."""
    engines: dict = {}
    clf = odd.classifier if "posterior" in what else None
    out = []
    with recursion_for(odd.encoding.nvars):
        for x in rows:
            keep = tuple(i for i, j in enumerate(x) if j >= 0)
            post = None
            if clf is not None:
                post = clf.posterior({odd.features[i]: odd.encoding.states[i][x[i]]
                                      for i in keep}, partial=True)
            engine = engines.get(keep)
            if engine is None:
                m = marginal_odd(odd, [odd.features[i] for i in keep])
                engine = engines[keep] = None if m is None else RowEngine(m, on)
            if engine is None:
                decision = odd.classifier.decide({}, partial=True)
                got = {"decision": decision, "posterior": post, "observed": 0, "mc_count": 1,
                       "mc_shortest": 0, "pi_count": 1, "pi_shortest": 0,
                       "pi_shortest_count": 1, "robustness": None}
                out.append([got[w] for w in what])
            else:
                out.append(engine.answers([x[i] for i in keep], what, posterior=post))
            if bar is not None:
                bar.update(1)
    return out


def _chunk(text: str, backend: str, rows: list, what: tuple, on: Mapping | None) -> list:
    """A worker's share: load a private copy of the ODD, answer its rows."""
    from .odd import _unpickle
    return answer_rows(_unpickle(text, backend), rows, what, on)


def run_chunks(odd: Any, rows: list, what: tuple, on: Mapping | None, *, n_jobs: int,
               progress: bool, client: Any) -> list[list]:
    """Answer ``rows`` here (``n_jobs=1``), on joblib workers, or on a Dask ``client``."""
    from tqdm.auto import tqdm
    bar = tqdm(total=len(rows), desc="explaining rows", unit="row", disable=not progress,
               leave=False)
    try:
        if client is None and n_jobs == 1:
            return answer_rows(odd, rows, what, on, bar)
        from .serialization import dumps_odd
        text = dumps_odd(odd)
        workers = _workers(n_jobs, client)
        size = max(1, -(-len(rows) // (2 * workers)))  # few chunks: each warms its memos
        chunks = [rows[k:k + size] for k in range(0, len(rows), size)]
        results: list = [None] * len(chunks)
        if client is not None:
            from dask.distributed import as_completed
            shared = client.scatter(text, broadcast=True)
            futures = {client.submit(_chunk, shared, odd.backend, c, what, on, pure=False): k
                       for k, c in enumerate(chunks)}
            for fut in as_completed(list(futures)):
                k = futures[fut]
                results[k] = fut.result()
                bar.update(len(chunks[k]))
        else:
            from joblib import Parallel, delayed
            jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
                delayed(_chunk)(text, odd.backend, c, what, on) for c in chunks)
            for k, res in enumerate(jobs):
                results[k] = res
                bar.update(len(chunks[k]))
        return [a for res in results for a in res]
    finally:
        bar.close()


def _workers(n_jobs: int, client: Any) -> int:
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # a client that cannot tell: chunk as for a few workers
            return 4
    if n_jobs == -1:
        import os
        return os.cpu_count() or 1
    return n_jobs
