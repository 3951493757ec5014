"""Explain the rows of a :class:`~bnx.Classifier` without compiling (:func:`bnx.explain_data`).

Every row is explained by the report on it (:func:`bnx.explain`), one row at a time.

A network too large to compile has no decision function to walk for all rows at once;
each row's report is its own search (the decision and class probabilities by exact
inference, a shortest sufficient reason, the robustness and a closest counterfactual).
Distinct rows are explained once; the rows are shared among local processes (joblib,
``n_jobs``) or the workers of a Dask cluster (``client=``) by
:func:`bnx.tabular._engine.spread`, which ships the classifier to each worker.

The columns are read off the reports; the names shared with an ODD's answers
(:data:`bnx.batch.WHAT`) mean the same thing. A row with missing values is explained as
the partial instance it is: its report gives the decision so far and how sure it is
(``sdp``), not reasons or changes (NaN in those columns).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from .._util.wording import changes, terms
from ..classifier._classifier import Classifier
from ..classifier._instances import _frame, encode_rows
from ..classifier._possible import refuse_impossible_rows
from ..errors import ArgumentError, BnxError

__all__ = ["REPORT_WHAT", "default_report_what", "check_report_what", "explain_rows"]

#: The answers :func:`bnx.explain_data` gives on a classifier (one column each, but
#: ``probabilities``): name -> meaning.
REPORT_WHAT: dict[str, str] = {
    "decision": ("the decision (bool: whether positive; the decided class state for a "
                 "classifier without a positive state)"),
    "posterior": ("Pr(class = positive | observed features), a float (a classifier with a "
                  "positive state)"),
    "probabilities": ("Pr(class = s | observed features) for every class state s, a column "
                      "'probability:<s>' each"),
    "pi_shortest": ("length (kept features) of the report's first sufficient reason, a "
                    "shortest one (NaN for a row with missing values)"),
    "reason": "that reason in words: 'feature = state, ...' (empty for a partial row)",
    "robustness": ("fewest features whose change gives another decision, a float (inf: no "
                   "change does; NaN for a row with missing values)"),
    "counterfactual": ("a closest change in words: 'feature from old to new ... makes it "
                       "state' (empty when none, or for a partial row)"),
    "observed": "number of observed (non-missing) features",
    "sdp": ("for a row with missing values: the probability that its decision stays once "
            "they are known (NaN for a complete row)"),
    "method": "how the report was obtained (the report's method)",
}
_FLOATS = ("posterior", "pi_shortest", "robustness", "sdp")


def default_report_what(clf: Classifier) -> tuple:
    """Return the answers given without ``what=``.

    The decision, its posterior (every class's probability for a classifier without a
    positive state), the shortest reason's length and words, and the robustness.
    """
    odds = "probabilities" if clf.multiclass else "posterior"
    return ("decision", odds, "pi_shortest", "reason", "robustness")


def check_report_what(what: Any, clf: Classifier, diagram_answers: Any = ()) -> tuple:
    """Check ``what`` against :data:`REPORT_WHAT` (``None``: the default).

    ``diagram_answers`` are the names only an ODD answers, refused as needing it.
    """
    if what is None:
        return default_report_what(clf)
    what = (what,) if isinstance(what, str) else tuple(what)
    diagram = [w for w in what if w in diagram_answers and w not in REPORT_WHAT]
    if diagram:
        raise ArgumentError(f"what={diagram!r} needs the compiled decision function: "
                            f"bnx.explain_data(bnx.compile(clf), data, what=...); a "
                            f"classifier explained without compiling answers "
                            f"{', '.join(REPORT_WHAT)}")
    unknown = [w for w in what if w not in REPORT_WHAT]
    if unknown or not what:
        raise ArgumentError(f"unknown answer(s) {', '.join(map(repr, unknown)) or '(none)'} "
                            f"in what=; expected some of {', '.join(REPORT_WHAT)}")
    if "posterior" in what and clf.multiclass:
        raise ArgumentError(f"what=['posterior']: this classifier picks one of "
                            f"{len(clf.classes)} class states; ask for 'probabilities' "
                            f"(one column per class state)")
    return what


def _shape(clf: Classifier) -> SimpleNamespace:
    """Describe the classifier as :func:`encode_rows` reads a model: features, states, class."""
    return SimpleNamespace(
        features=tuple(clf.features), meta={"class_var": clf.class_var},
        encoding=SimpleNamespace(states=tuple(tuple(clf.states(f)) for f in clf.features)))


def _answers(report: Any, what: Sequence[str], classes: tuple, observed: int) -> list:
    """One row's answers, in the order of the columns (``probabilities``: one per class)."""
    out: list = []
    for w in what:
        if w == "decision":
            out.append(report.decision if report.multiclass else bool(report.positive))
        elif w == "posterior":
            out.append(math.nan if report.posterior is None else report.posterior)
        elif w == "probabilities":
            probs = report.class_probabilities or {}
            out.extend(math.nan if probs.get(s) is None else probs[s] for s in classes)
        elif w == "pi_shortest":
            out.append(len(report.reasons[0]) if report.complete and report.reasons
                       else math.nan)
        elif w == "reason":
            out.append(terms(report.reasons[0]) if report.complete and report.reasons
                       else "")
        elif w == "robustness":
            rob = report.robustness
            out.append(math.nan if rob is None or not report.complete else float(rob))
        elif w == "counterfactual":
            cfs = report.counterfactuals if report.complete else ()
            out.append(changes({f: new for f, (_, new) in cfs[0].items()},
                               {f: old for f, (old, _) in cfs[0].items()}, cfs[0].decision)
                       if cfs else "")
        elif w == "observed":
            out.append(observed)
        elif w == "sdp":
            out.append(math.nan if report.sdp is None else report.sdp)
        else:  # "method"
            out.append(report.method)
    return out


def report_rows(clf: Classifier, rows: list, what: tuple, timeout: float | None,
                bar: Any = None) -> list[list]:
    """Answer ``rows``, each by ``bnx.explain(clf, row)``.

    ``rows`` are ``(label, {feature: state})``, missing features left out; ``timeout=`` is
    passed only when given; a bad row's error names its label.
    """
    from ..report import explain
    more = {} if timeout is None else {"timeout": timeout}
    out = []
    for label, x in rows:
        try:
            report = explain(clf, x, **more)
        except BnxError as exc:
            raise type(exc)(f"row {label!r}: {exc}") from None
        out.append(_answers(report, what, clf.class_states, len(x)))
        if bar is not None:
            bar.update(1)
    return out


def _chunk(clf: Classifier, rows: list, what: tuple, timeout: float | None) -> list:
    """Answer a worker's share of the rows."""
    return report_rows(clf, rows, what, timeout)


def explain_rows(clf: Classifier, data: Any, what: tuple, *, n_jobs: int, progress: bool,
                 client: Any, timeout: float | None):
    """Answer ``what`` about every row of ``data``, one report per distinct row.

    ``data`` is checked as an ODD's rows are (its columns the classifier's features, its
    states theirs); the answers are a DataFrame with ``data``'s index.
    """
    import pandas as pd

    from ._engine import spread
    shape = _shape(clf)
    frame = _frame(shape, data)
    codes = encode_rows(shape, frame)  # an unknown state ends here, its row named
    refuse_impossible_rows(clf, frame, codes, clf.features)  # and a row that cannot occur
    states = shape.encoding.states
    columns = [c for w in what for c in (
        [f"probability:{s}" for s in clf.class_states] if w == "probabilities" else [w])]
    if len(codes) == 0:
        return pd.DataFrame({c: pd.Series([], dtype=object) for c in columns},
                            index=frame.index)
    unique, first, inverse = np.unique(codes, axis=0, return_index=True, return_inverse=True)
    rows = [(frame.index[k], {f: states[i][j] for i, (f, j) in enumerate(zip(clf.features, r))
                              if j >= 0})
            for k, r in zip(first.tolist(), unique.tolist())]
    answers = spread(rows, lambda part, bar: report_rows(clf, part, what, timeout, bar),
                     _chunk, lambda: clf, (what, timeout), n_jobs=n_jobs, progress=progress,
                     client=client)
    table = np.empty((len(rows), len(columns)), dtype=object)
    for k, got in enumerate(answers):
        table[k, :] = got
    out = pd.DataFrame(table[inverse.reshape(-1)], index=frame.index, columns=columns)
    for c in columns:
        if c in _FLOATS or c.startswith("probability:"):
            out[c] = out[c].astype(float)
        elif c == "decision" and not clf.multiclass:
            out[c] = out[c].astype(bool)
        elif c == "observed":
            out[c] = out[c].astype("int64")
    return out
