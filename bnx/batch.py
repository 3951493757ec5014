"""Deciding and explaining whole data sets: :func:`decide_many` and :func:`explain_data`.

Rows are DataFrame rows (or mappings): one column per feature, the class column
ignored, any other column an error naming it. Missing values (NaN, ``None``) leave
their features unobserved; see :mod:`bnx.batch_engine` for what the decisions and
explanations of such rows mean.

:func:`decide_many` encodes the rows as one integer array (a column per feature)
and walks the diagram for all rows at once with numpy: one vectorised step per
level, never a Python loop over rows. :func:`explain_data` computes each distinct
row once, with memos shared across rows (results below a node depend only on the
states of the later features), on one process, on local processes through
joblib, or on a Dask cluster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .backends import branches
from .errors import (ArgumentError, MissingFeatureError, UnknownFeatureError,
                     UnknownStateError)
from .instances import is_missing

__all__ = ["WHAT", "decide_many", "encode_rows", "explain_data"]

#: The answers :func:`explain_data` can give, one column each: name -> meaning.
WHAT: dict[str, str] = {
    "decision": "the decision (bool)",
    "posterior": "Pr(class = positive | observed features), a float (needs the classifier)",
    "mc_count": "number of MC-explanations",
    "mc_shortest": "cardinality of the MC-explanations (all have the minimum one)",
    "pi_count": "number of PI-explanations",
    "pi_shortest": "length (kept features) of the shortest PI-explanations",
    "pi_shortest_count": "number of shortest PI-explanations",
    "observed": "number of observed (non-missing) features",
    "robustness": "fewest observed features whose change flips the decision (<NA>: none does)",
    "shap": "exact SHAP values, a column 'shap:<feature>' per feature (needs background=)",
    "banzhaf": "exact Banzhaf values, a column 'banzhaf:<feature>' per feature (needs background=)",
}
_ATTRIBUTIONS = ("shap", "banzhaf")  # many columns each, from bnx.attribution
_DEFAULT_WHAT = ("decision", "posterior", "mc_count", "mc_shortest", "pi_count", "pi_shortest")
_DTYPES = {"decision": bool, "posterior": float, "robustness": "Int64"}


# ---------------------------------------------------------------------- rows
def _frame(odd: Any, data: Any):
    """``data`` as a DataFrame with exactly the ODD's features as columns (ODD order)."""
    import pandas as pd
    if isinstance(data, pd.Series):
        data = data.to_frame().T
    elif not isinstance(data, pd.DataFrame):
        if isinstance(data, Mapping) or not isinstance(data, Sequence) or isinstance(data, str):
            raise ArgumentError(f"data must be a pandas DataFrame or a list of mappings, "
                                f"got {type(data).__name__}")
        if not all(isinstance(r, Mapping) for r in data):
            raise ArgumentError("data given as a list must hold mappings from features to states")
        data = pd.DataFrame(list(data))
    cls = odd.meta.get("class_var")
    feats = set(odd.features)
    unknown = [c for c in data.columns if c not in feats and not (cls is not None and c == cls)]
    if unknown:
        raise UnknownFeatureError(f"the data has columns that are not features of this "
                                  f"ODD: {', '.join(map(repr, unknown))}")
    absent = [f for f in odd.features if f not in data.columns]
    if absent:
        raise MissingFeatureError(f"the data has no column for the features "
                                  f"{', '.join(map(repr, absent))}")
    return data


def encode_rows(odd: Any, data: Any) -> np.ndarray:
    """The rows of ``data`` as state indices, shape ``(rows, features)`` in the ODD's
    feature order; ``-1`` marks a missing value.

    Raises :class:`~bnx.UnknownStateError` for a state the feature does not have,
    naming the row and listing the known states.

    Examples
    --------
    >>> import bnx
    >>> from bnx.batch import encode_rows
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> rows = [{"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "+",
    ...          "GPA": float("nan"), "Admit": "+"}]
    >>> dict(zip(odd.features, encode_rows(odd, rows)[0].tolist()))
    {'GPA': -1, 'WorkExperience': 1, 'FirstTimeApplicant': 0, 'EntranceExam': 1}
    """
    import pandas as pd
    from .classifier import _resolve_state
    frame = _frame(odd, data)
    out = np.empty((len(frame), len(odd.features)), dtype=np.int32, order="F")
    for i, f in enumerate(odd.features):
        column = frame[f]
        if isinstance(column.dtype, pd.CategoricalDtype):  # already coded: no hashing
            codes, uniques = column.cat.codes.to_numpy(), column.cat.categories
        else:
            codes, uniques = pd.factorize(column.to_numpy(), use_na_sentinel=True)
        states = odd.encoding.states[i]
        table = np.empty(len(uniques) + 1, dtype=np.int32)
        table[-1] = -1  # factorize marks NaN/None as -1
        for u, value in enumerate(uniques):
            j = -1 if is_missing(value) else _resolve_state(states, value)
            if j is None:
                row = frame.index[int(np.flatnonzero(codes == u)[0])]
                raise UnknownStateError(
                    f"row {row!r}: {value!r} is not a state of feature {f!r} "
                    f"(states: {', '.join(map(str, states))})")
            table[u] = j
        out[:, i] = table[codes]
    return out


# ---------------------------------------------------------------------- deciding
def _layers(odd: Any) -> dict:
    """The diagram as one numpy table per level (made once per ODD).

    At level ``l`` the walk is in one of a few *states*: the references (node and
    polarity) that a path can reach when it crosses level ``l``; a node below ``l``
    passes through. ``tables[l][2 * s + b]`` is the state reached from state ``s``
    when level ``l``'s bit is ``b``; ``value[s]`` is the decision of a final state
    (a terminal). Every level is then one gather for all rows at once.
    """
    cache = odd.__dict__.setdefault("_batch", {})
    got = cache.get("layers")
    if got is not None:
        return got
    enc = odd.encoding
    states = [odd.root]
    tables = []
    for lvl in range(enc.nvars):
        index: dict = {}
        nxt: list = []
        table = np.empty(2 * len(states), dtype=np.int32)
        for s, u in enumerate(states):
            kids = branches(u) if u.var is not None and u.level == lvl else (u, u)
            for b, c in enumerate(kids):
                k = index.get(c)
                if k is None:
                    k = index[c] = len(nxt)
                    nxt.append(c)
                table[2 * s + b] = k
        tables.append(table)
        states = nxt
    value = np.array([u == odd.bdd.true for u in states], dtype=bool)
    feature = [i for i in range(len(enc.features)) for _ in enc.bits[i]]
    shift = [len(enc.bits[i]) - 1 - b for i in range(len(enc.features))
             for b in range(len(enc.bits[i]))]
    states.clear()
    got = cache["layers"] = {"tables": tables, "value": value, "feature": feature,
                             "shift": shift}
    return got


def _decide_codes(odd: Any, codes: np.ndarray) -> np.ndarray:
    """Decisions on complete rows of state indices: one vectorised gather per level."""
    lay = _layers(odd)
    state = np.zeros(codes.shape[0], dtype=np.int32)
    for table, i, sh in zip(lay["tables"], lay["feature"], lay["shift"]):
        bit = codes[:, i] if sh == 0 and len(odd.encoding.states[i]) <= 2 else \
            (codes[:, i] >> sh) & 1
        state = table[2 * state + bit]
    if not lay["tables"]:  # no variables: a constant
        return np.full(codes.shape[0], bool(lay["value"][0]))
    return lay["value"][state]


def decide_many(odd: Any, data: Any) -> np.ndarray:
    """The decisions on many rows at once, as a numpy ``bool`` array in row order.

    ``data`` is a DataFrame (or a list of mappings) with one column per feature; a
    class column is ignored. Complete rows are decided by walking the diagram with
    numpy, one vectorised step per level. A row with missing values is decided on
    its observed features (exactly :meth:`bnx.Classifier.decide` with
    ``partial=True``), by the ODD of the classifier restricted to them, compiled
    once per pattern of missing features (see :mod:`bnx.batch_engine`).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    >>> votes = bnx.datasets.load_votes()
    >>> d = odd.decide_many(votes)
    >>> int(d.sum()), all(d[i] == odd.classifier.decide(row, partial=True)
    ...                   for i, row in votes.iterrows())
    (184, True)
    """
    from .batch_engine import marginal_odd
    codes = encode_rows(odd, data)
    out = np.empty(codes.shape[0], dtype=bool)
    missing = codes < 0
    full = ~missing.any(axis=1)
    if full.any():
        out[full] = _decide_codes(odd, codes[full])
    if not full.all():
        patterns, inverse = np.unique(missing[~full], axis=0, return_inverse=True)
        part = np.flatnonzero(~full)
        for p, pattern in enumerate(patterns):
            sub = part[inverse.reshape(-1) == p]
            keep = np.flatnonzero(~pattern)
            m = marginal_odd(odd, [odd.features[i] for i in keep])
            if m is None:
                out[sub] = odd.classifier.decide({}, partial=True)
            else:
                out[sub] = _decide_codes(m, codes[np.ix_(sub, keep)])
    return out


# ---------------------------------------------------------------------- explaining
def _check_what(what: Any, odd: Any) -> tuple:
    if what is None:
        return _DEFAULT_WHAT if odd.classifier is not None else \
            tuple(w for w in _DEFAULT_WHAT if w != "posterior")
    if isinstance(what, str):
        what = (what,)
    what = tuple(what)
    unknown = [w for w in what if w not in WHAT]
    if unknown or not what:
        raise ArgumentError(f"unknown answer(s) {', '.join(map(repr, unknown)) or '(none)'} in "
                            f"what=; expected some of {', '.join(WHAT)}")
    if "posterior" in what and odd.classifier is None:
        raise ArgumentError("what='posterior' needs the classifier, which this ODD does not "
                            "have (a file of format version 1): compile it again")
    return what


def explain_data(odd: Any, data: Any, *, what: Sequence[str] | str | None = None,
                 on: Mapping | None = None, n_jobs: int = 1, progress: bool = True,
                 client: Any = None, background: Any = None):
    """Decide and explain every row of a data set; one column per requested answer.

    Parameters
    ----------
    odd : ODD
    data : pandas.DataFrame or list of mappings
        One column per feature; a class column is ignored; missing values (NaN,
        ``None``) leave features unobserved (see :mod:`bnx.batch_engine`).
    what : str or sequence of str, optional
        The answers, among :data:`WHAT`: ``decision``, ``posterior``, ``mc_count``,
        ``mc_shortest``, ``pi_count``, ``pi_shortest``, ``pi_shortest_count``,
        ``observed``, ``robustness``. Default: the first six (without ``posterior`` when the ODD
        has no classifier).
    on : mapping, optional
        On states for MC-explanations, as in :func:`bnx.mc_explanations`.
    n_jobs : int, default 1
        Worker processes (joblib; ``-1``: one per core).
    progress : bool, default True
        Show a tqdm progress bar.
    client : dask.distributed.Client, optional
        Run on this Dask cluster instead (``n_jobs`` is then ignored).
    background : DataFrame or mapping, optional
        With ``"shap"`` or ``"banzhaf"`` in ``what``: the background of
        :func:`bnx.shap_values` (rows or a product distribution). Those answers
        give one column per feature, ``"shap:<feature>"``, NaN on rows with missing
        values.

    Returns
    -------
    pandas.DataFrame
        The input's index; the columns of ``what`` in that order. Equal rows are
        computed once. Each answer equals the one-row function's: ``decision`` is
        :meth:`ODD.decide`, ``mc_count`` is ``mc_explanations(odd, x, on=on).count``,
        ``pi_shortest`` is ``min(pi_explanations(odd, x).lengths())``, ...

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> rows = [{"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+",
    ...          "GPA": "+"}]
    >>> bnx.explain_data(odd, rows, progress=False).to_dict("records")
    [{'decision': True, 'posterior': 0.9970555168906259, 'mc_count': 1, 'mc_shortest': 2, 'pi_count': 3, 'pi_shortest': 2}]
    """
    import pandas as pd
    from .batch_engine import run_chunks
    from .odd import check_odd
    check_odd(odd)
    what = _check_what(what, odd)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise ArgumentError(f"n_jobs must be a positive integer or -1, got {n_jobs!r}")
    if client is not None and not all(hasattr(client, a) for a in ("submit", "scatter")):
        raise ArgumentError(f"client must be a dask.distributed.Client, got "
                            f"{type(client).__name__}")
    frame = _frame(odd, data)
    kinds = [w for w in what if w in _ATTRIBUTIONS]
    if kinds:
        from .attribution.values import attribution_columns
        extra = attribution_columns(odd, frame, kinds, background)
        rest = tuple(w for w in what if w not in _ATTRIBUTIONS)
        if not rest:
            return extra
        return explain_data(odd, frame, what=rest, on=on, n_jobs=n_jobs, progress=progress,
                            client=client).join(extra)
    codes = encode_rows(odd, frame)
    if len(codes) == 0:
        return pd.DataFrame({w: pd.Series([], dtype=_DTYPES.get(w, "int64")) for w in what},
                            index=frame.index)
    unique, inverse = np.unique(codes, axis=0, return_inverse=True)
    # rows sharing their last states side by side: the engine's memos are keyed by the
    # remaining states, and contiguous chunks for workers then share little
    order = np.lexsort(unique.T)
    rows = [tuple(r) for r in unique[order].tolist()]
    answers = run_chunks(odd, rows, what, on, n_jobs=n_jobs, progress=progress, client=client)
    table = np.empty((len(rows), len(what)), dtype=object)
    table[order] = np.array(answers, dtype=object).reshape(len(rows), len(what))
    table = table[inverse.reshape(-1)]
    out = pd.DataFrame(table, index=frame.index, columns=list(what))
    for w in what:
        out[w] = out[w].astype(_DTYPES.get(w, "int64"))
    return out
