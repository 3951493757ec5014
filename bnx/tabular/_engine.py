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
between threads). :func:`spread` is that one way of sharing rows among workers under
one progress bar, which the rows of a classifier explained without compiling
(:mod:`bnx.tabular._reports`) take too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..changes._robustness import robustness
from ..classifier._classifier import Classifier
from ..compilation import compile as compile_
from ..diagram._memo import detached, register
from ..errors import ArgumentError, ExplanationError
from ..explanation.mc import mc_explanations
from ..explanation.pi import pi_explanations
from ..odd._odd import _unpickle, formula_for
from ..odd.io import dumps_odd

register("marginal_odd", 16, "the ODDs of the classifier restricted "
         "to observed features (rows with missing values)", detached=True)

__all__ = ["RowEngine", "answer_rows", "marginal_odd", "run_chunks", "spread"]



def marginal_odd(odd: Any, observed: Sequence) -> Any:
    """Return the ODD of ``odd.classifier`` restricted to the features ``observed``.

    It is compiled once per set, in ``odd``'s order; ``odd`` itself when nothing is missing,
    ``None`` when nothing is observed.
    """
    observed = tuple(f for f in odd.features if f in set(observed))
    if len(observed) == len(odd.features):
        return odd
    if not observed:
        return None
    cache = detached(odd)  # per ODD and set of observed features
    got = cache.get("marginal_odd", observed)
    if got is None:
        clf = odd.classifier
        if clf is None:
            raise ArgumentError("rows with missing values need the classifier, which this "
                                "ODD does not have (a file of format version 1): compile "
                                "it again")
        rule = getattr(clf, "rule", "threshold")
        extra = {} if rule == "threshold" else {"rule": rule}
        declared = {f: s for f, s in (odd.meta.get("on_states") or {}).items()
                    if f in observed}
        kept = [f for f in clf.features if f in observed]
        if clf.multiclass:  # the most probable class, on the observed features
            sub = Classifier(clf.network, clf.class_var, features=kept,
                             on_states=declared or None)
        else:
            sub = Classifier(clf.network, clf.class_var, clf.positive,
                             threshold=clf.threshold, features=kept,
                             on_states=declared or None, **extra)
        got = cache.put("marginal_odd", observed,
                        compile_(sub, list(observed), backend=odd.backend))
    return got


class RowEngine:
    """Answers about complete rows of state indices of one ODD (in its order).

    By the questions of :mod:`bnx.explanation` on the ODD's arrays.
    """

    def __init__(self, odd: Any, on: Mapping | None = None) -> None:
        self.odd = odd
        self.n = len(odd.encoding.features)
        self._on = {f: s for f, s in (on or {}).items() if f in set(odd.encoding.features)}

    def _instance(self, x: Sequence[int]) -> dict:
        enc = self.odd.encoding
        return {f: enc.states[i][j] for i, (f, j) in enumerate(zip(enc.features, x))}

    def answers(self, x: Sequence[int], what: Sequence[str], *, posterior=None) -> list:
        """Answer the questions ``what`` (see :data:`bnx.batch.WHAT`) about the complete row ``x``.

        On a multi-class ODD, the explanations of the decided class: asked of its class
        formula, as the questions do without ``rival=``.
        """
        odd, inst = self.odd, self._instance(x)
        got: dict = {"decision": odd.decide(inst, within="all"),  # (rows checked)
                     "observed": self.n}
        odd = formula_for(odd, inst)  # a multi-class ODD: the decided class's formula
        if any(w.startswith("mc_") for w in what):
            mcs = mc_explanations(odd, inst, on=self._on or None)
            got["mc_count"], got["mc_shortest"] = mcs.count, min(mcs.lengths(), default=0)
        if any(w.startswith("pi_") for w in what):
            lengths = pi_explanations(odd, inst).lengths()
            best = min(lengths, default=math.inf)
            got["pi_count"] = sum(lengths.values())
            got["pi_shortest"], got["pi_shortest_count"] = best, lengths.get(best, 0)
        if "robustness" in what:
            got["robustness"] = robustness(self.odd, inst)  # to any other class
        if "posterior" in what:
            got["posterior"] = posterior
        return [got[w] for w in what]


def answer_rows(odd: Any, rows: Sequence[tuple], what: Sequence[str], on: Mapping | None,
                bar: Any = None) -> list[list]:
    """Answer about rows of state indices of ``odd`` (``-1``: missing), row by row."""
    engines: dict = {}
    clf = odd.classifier if "posterior" in what else None
    out = []
    for x in rows:
        keep = tuple(i for i, j in enumerate(x) if j >= 0)
        post = None
        if clf is not None:
            try:
                post = clf.posterior({odd.features[i]: odd.encoding.states[i][x[i]]
                                      for i in keep}, partial=True)
            except ExplanationError:  # a row of probability zero: undefined, a NaN cell
                post = math.nan
        engine = engines.get(keep)
        if engine is None:
            m = marginal_odd(odd, [odd.features[i] for i in keep])
            engine = engines[keep] = None if m is None else RowEngine(m, on)
        if engine is None:
            decision = odd.classifier.decide({}, partial=True)
            got = {"decision": decision, "posterior": post, "observed": 0, "mc_count": 1,
                   "mc_shortest": 0, "pi_count": 1, "pi_shortest": 0,
                   "pi_shortest_count": 1, "robustness": math.inf}
            out.append([got[w] for w in what])
        else:
            out.append(engine.answers([x[i] for i in keep], what, posterior=post))
        if bar is not None:
            bar.update(1)
    return out


def _chunk(data: bytes, rows: list, backend: str, what: tuple, on: Mapping | None) -> list:
    """Answer a worker's share: load a private copy of the ODD, answer its rows."""
    return answer_rows(_unpickle(data, backend), rows, what, on)


def run_chunks(odd: Any, rows: list, what: tuple, on: Mapping | None, *, n_jobs: int,
               progress: bool, client: Any) -> list[list]:
    """Answer ``rows`` here (``n_jobs=1``), on joblib workers, or on a Dask ``client``."""
    return spread(rows, lambda part, bar: answer_rows(odd, part, what, on, bar),
                  _chunk, lambda: dumps_odd(odd), (odd.backend, what, on),
                  n_jobs=n_jobs, progress=progress, client=client)


def spread(rows: list, here: Callable, work: Callable, shared: Callable, extra: tuple, *,
           n_jobs: int, progress: bool, client: Any) -> list:
    """Answer ``rows``, in order, under one progress bar, here or on workers.

    ``here(rows, bar)`` in this process (``n_jobs=1``, no client), else ``work(shared(),
    chunk, *extra)`` on a few chunks of rows on joblib workers or on a Dask ``client``
    (``shared()`` sent to each Dask worker once); each returns one answer per row of its
    chunk.
    """
    from tqdm.auto import tqdm
    bar = tqdm(total=len(rows), desc="explaining rows", unit="row", disable=not progress,
               leave=False)
    try:
        if client is None and n_jobs == 1:
            return here(rows, bar)
        payload = shared()
        workers = _workers(n_jobs, client)
        size = max(1, -(-len(rows) // (2 * workers)))  # few chunks: each warms its memos
        chunks = [rows[k:k + size] for k in range(0, len(rows), size)]
        results: list = [None] * len(chunks)
        if client is not None:
            from dask.distributed import as_completed
            scattered = client.scatter(payload, broadcast=True)
            futures = {client.submit(work, scattered, c, *extra, pure=False): k
                       for k, c in enumerate(chunks)}
            for fut in as_completed(list(futures)):
                k = futures[fut]
                results[k] = fut.result()
                bar.update(len(chunks[k]))
        else:
            from joblib import Parallel, delayed
            jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
                delayed(work)(payload, c, *extra) for c in chunks)
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
