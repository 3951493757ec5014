"""Deciding and explaining whole data sets: :func:`decide_many` and :func:`explain_data`.

Rows are DataFrame rows (or mappings): one column per feature, the class column
ignored, any other column an error naming it. Missing values (NaN, ``None``) leave
their features unobserved; see :mod:`bnx.tabular._engine` for what the decisions and
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

from ..classifier._instances import _frame, encode_rows
from ..classifier._possible import refuse_impossible_rows
from ..diagram._feature_view import decide_states
from ..errors import ArgumentError, BnxWarning, OnStatesError

__all__ = ["WHAT", "decide_many", "default_what", "encode_rows", "explain_data"]

#: The answers :func:`explain_data` can give, one column each: name -> meaning.
WHAT: dict[str, str] = {
    "decision": "the decision (bool; the decided class state on a multi-class ODD)",
    "posterior": ("Pr(class = positive | observed features), a float (needs the classifier "
                  "and a positive state: not on a multi-class ODD)"),
    "mc_count": "number of MC-explanations",
    "mc_shortest": "cardinality of the MC-explanations (all have the minimum one)",
    "pi_count": "number of PI-explanations",
    "pi_shortest": "length (kept features) of the shortest PI-explanations",
    "pi_shortest_count": "number of shortest PI-explanations",
    "observed": "number of observed (non-missing) features",
    "robustness": ("fewest observed features whose change flips the decision, a float (inf: "
                   "no change does)"),
    "shap": "exact SHAP values, a column 'shap:<feature>' per feature (needs background=)",
    "banzhaf": "exact Banzhaf values, a column 'banzhaf:<feature>' per feature (needs background=)",
    "sensitivity": ("how far the CPT entry closest to flipping the decision may move (its "
                    "column co-varied; inf: no single entry flips it), with a column "
                    "'sensitivity_entry' naming it (needs the classifier; complete rows; "
                    "not on a multi-class ODD)"),
}
_ATTRIBUTIONS = ("shap", "banzhaf")  # many columns each, from bnx.attribution
_DEFAULT_WHAT = ("decision", "posterior", "mc_count", "mc_shortest", "pi_count", "pi_shortest")
_DTYPES = {"decision": bool, "posterior": float, "robustness": float}


# ---------------------------------------------------------------------- deciding
def _decide_codes(odd: Any, codes: np.ndarray) -> np.ndarray:
    """Decide complete rows of state indices in one vectorised walk of the arrays.

    On a multi-class ODD, one walk of each class formula, whose one formula that holds names
    the row's class state.
    """
    if odd.multiclass:
        hits = np.stack([_decide_codes(f, codes) for f in odd.formulas], axis=1)
        out = np.empty(len(codes), dtype=object)
        out[:] = [odd.classes[j] for j in hits.argmax(axis=1).tolist()]
        return out
    return decide_states(odd.arrays, odd.encoding, codes)


def decide_many(odd: Any, data: Any) -> np.ndarray:
    """Decide many rows at once, as a numpy ``bool`` array in row order.

    On a multi-class ODD, an object array of the decided class states.

    ``data`` is a DataFrame (or a list of mappings) with one column per feature; a
    class column is ignored. Complete rows are decided by walking the diagram with
    numpy, one vectorised step per level. A row with missing values is decided on
    its observed features (exactly :meth:`bnx.Classifier.decide` with
    ``partial=True``), by the ODD of the classifier restricted to them, compiled
    once per pattern of missing features (see :mod:`bnx.tabular._engine`).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
    >>> votes = bnx.datasets.load_votes()
    >>> d = bnx.batch.decide_many(odd, votes)    # the restricted classifiers compiled
    >>> int(d.sum()), bool((d == odd.decide_many(votes)).all())
    (184, True)
    """
    from ._engine import marginal_odd
    codes = encode_rows(odd, data)
    out = np.empty(codes.shape[0], dtype=object if odd.multiclass else bool)
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
def default_what(odd: Any, on: Mapping | None = None) -> tuple[tuple, str]:
    """Return the answers :func:`explain_data` gives without ``what=``, and why MC is left out.

    The reason is the empty string when MC answers are not left out.

    The first six of :data:`WHAT`, less ``posterior`` when the ODD has no classifier or
    picks one of several class states (a multi-class ODD), and less ``mc_count`` and
    ``mc_shortest`` when a feature's on states are unknown (neither in ``on``, nor declared
    on the classifier, nor a binary feature's affirmative state:
    :func:`bnx.explanation.mc.on_states`; MC-explanations need them). ``bnx explain
    --data`` uses the same default and prints the same note.

    Returns
    -------
    tuple[tuple, str]
        The answers' names, and the note (``""``: nothing left out).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.batch.default_what(odd)
    (('decision', 'posterior', 'mc_count', 'mc_shortest', 'pi_count', 'pi_shortest'), '')
    """
    what = _DEFAULT_WHAT if odd.classifier is not None and not odd.multiclass else \
        tuple(w for w in _DEFAULT_WHAT if w != "posterior")
    from ..explanation.mc import on_states
    try:
        on_states(odd, on if isinstance(on, Mapping) else None)
    except OnStatesError as exc:
        return tuple(w for w in what if not w.startswith("mc_")), (
            f"MC answers (mc_count, mc_shortest) left out. {exc}; or ask for the answers "
            f"with what=")
    return what, ""


def _check_what(what: Any, odd: Any, on: Mapping | None = None) -> tuple:
    if what is None:
        what, note = default_what(odd, on)
        if note:
            import warnings
            warnings.warn(note, BnxWarning, stacklevel=3)
        return what
    if isinstance(what, str):
        what = (what,)
    what = tuple(what)
    unknown = [w for w in what if w not in WHAT]
    if unknown or not what:
        raise ArgumentError(f"unknown answer(s) {', '.join(map(repr, unknown)) or '(none)'} in "
                            f"what=; expected some of {', '.join(WHAT)}")
    if ("posterior" in what or "sensitivity" in what) and odd.classifier is None:
        raise ArgumentError(f"what={[w for w in what if w in ('posterior', 'sensitivity')]!r} "
                            "needs the classifier, which this ODD does not "
                            "have (a file of format version 1): compile it again")
    refused = [w for w in what if w in ("posterior", "sensitivity")]
    if odd.multiclass and refused:
        raise ArgumentError(f"what={refused!r}: this ODD picks one of {len(odd.classes)} "
                            f"class states; the posterior and the sensitivity of a decision "
                            f"are about one positive state (ask them of a binary classifier, "
                            f"e.g. clf.class_classifier(state))")
    if any(w.startswith("mc_") for w in what):  # refused up front, in the same words
        from ..explanation.mc import on_states
        on_states(odd, on if isinstance(on, Mapping) else None)
    return what


def explain_data(odd: Any, data: Any, *, what: Sequence[str] | str | None = None,
                 on: Mapping | None = None, n_jobs: int = 1, progress: bool = True,
                 client: Any = None, background: Any = None, timeout: float | None = None):
    """Decide and explain every row of a data set; one column per requested answer.

    Parameters
    ----------
    odd : ODD or Classifier
        A compiled decision function, or a :class:`~bnx.Classifier` explained without
        compiling: each distinct row by the report on it, ``bnx.explain(clf, row)``, with
        the answers of :data:`bnx.tabular._reports.REPORT_WHAT` (see below).
    data : pandas.DataFrame or list of mappings
        One column per feature; a class column is ignored; missing values (NaN,
        ``None``) leave features unobserved (see :mod:`bnx.tabular._engine`).
    what : str or sequence of str, optional
        The answers, among :data:`WHAT`: ``decision``, ``posterior``, ``mc_count``,
        ``mc_shortest``, ``pi_count``, ``pi_shortest``, ``pi_shortest_count``,
        ``observed``, ``robustness``, ``shap``, ``banzhaf``, ``sensitivity`` (two columns:
        ``sensitivity`` and ``sensitivity_entry``, see :data:`WHAT`). Default: the first six
        (without ``posterior`` when the ODD has no classifier; without the MC answers, and with a
        warning naming the features, when a feature with more than two states has no on states: see
        :func:`default_what`).
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
    timeout : float, optional
        With a classifier: seconds each row's report may take (``bnx.explain(clf, row,
        timeout=)``, by default its 10 s; what was proven by then is what the row's
        answers say).

    Returns
    -------
    pandas.DataFrame
        The input's index; the columns of ``what`` in that order. Equal rows are
        computed once. Each answer equals the one-row function's: ``decision`` is
        :meth:`ODD.decide`, ``mc_count`` is ``mc_explanations(odd, x, on=on).count``,
        ``pi_shortest`` is ``min(pi_explanations(odd, x).lengths())``, ... On a
        multi-class ODD the ``decision`` column holds the decided class states, and the
        explanations are those of the decided class (its class formula's, as
        :func:`bnx.pi_explanations` and :func:`bnx.robustness` give them without
        ``rival=`` or ``target=``); ``posterior`` and ``sensitivity`` are refused.

        On a classifier the answers come from each row's report: ``decision``,
        ``posterior`` (binary classifiers), ``probabilities`` (a column
        ``"probability:<state>"`` per class state), ``pi_shortest`` and ``reason`` (its
        first sufficient reason, a shortest one, as a length and in words),
        ``robustness``, ``counterfactual`` (a closest change in words), ``observed``,
        ``sdp`` (rows with missing values: how sure their decision is) and ``method``;
        the default is ``decision``, ``posterior`` (``probabilities`` without a
        positive state), ``pi_shortest``, ``reason`` and ``robustness``. Names shared
        with an ODD's answers mean the same thing; a row with missing values is the
        partial instance it is (NaN where its report has no reasons or changes).
        ``on=`` and ``background=`` need the compiled diagram.

    See Also
    --------
    bnx.explain : One decision, in the class's own words.
    bnx.ODD.decide_many : The decisions alone.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> rows = [{"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+",
    ...          "GPA": "+"}]
    >>> frame = bnx.explain_data(odd, rows, progress=False)
    >>> frame.to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'decision': True, 'posterior': 0.9970555168906259, 'mc_count': 1, 'mc_shortest': 2,
    'pi_count': 3, 'pi_shortest': 2}]

    A classifier that picks one of several classes (a missing value: summed out):

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]),
    ...                    backend="autoref")
    >>> rows = [{"xray": "yes", "dysp": "yes"}, {"xray": "no", "dysp": None}]
    >>> bnx.explain_data(many, rows, what=["decision", "pi_shortest", "robustness"],
    ...                  progress=False).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'decision': 'yes', 'pi_shortest': 2, 'robustness': 1.0},
     {'decision': 'no', 'pi_shortest': 1, 'robustness': 1.0}]
    """
    import pandas as pd

    from ..classifier._classifier import Classifier
    from ..odd._odd import check_odd
    from ._engine import run_chunks
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise ArgumentError(f"n_jobs must be a positive integer or -1, got {n_jobs!r}")
    if client is not None and not all(hasattr(client, a) for a in ("submit", "scatter")):
        raise ArgumentError(f"client must be a dask.distributed.Client, got "
                            f"{type(client).__name__}")
    if isinstance(odd, Classifier):
        return _explain_classifier(odd, data, what=what, on=on, n_jobs=n_jobs,
                                   progress=progress, client=client, background=background,
                                   timeout=timeout)
    if timeout is not None:
        raise ArgumentError("timeout= bounds each row's report on a classifier explained "
                            "without compiling; an ODD's answers are walks of its diagram")
    check_odd(odd)
    what = _check_what(what, odd, on)
    frame = _frame(odd, data)
    refuse_impossible_rows(odd, frame, encode_rows(odd, frame), odd.features)
    if "sensitivity" in what:  # two columns, per distinct complete row
        from ..attribution.sensitivity import sensitivity_columns
        encode_rows(odd, frame)  # a state no feature has ends here, its row named
        extra = sensitivity_columns(odd.classifier, odd.features, frame)
        rest = tuple(w for w in what if w != "sensitivity")
        if not rest:
            return extra
        return explain_data(odd, frame, what=rest, on=on, n_jobs=n_jobs, progress=progress,
                            client=client, background=background).join(extra)
    kinds = [w for w in what if w in _ATTRIBUTIONS]
    if kinds:
        from ..attribution.values import attribution_columns
        extra = attribution_columns(odd, frame, kinds, background)
        rest = tuple(w for w in what if w not in _ATTRIBUTIONS)
        if not rest:
            return extra
        return explain_data(odd, frame, what=rest, on=on, n_jobs=n_jobs, progress=progress,
                            client=client).join(extra)
    codes = encode_rows(odd, frame)
    dtypes = {**_DTYPES, "decision": object} if odd.multiclass else _DTYPES
    if len(codes) == 0:
        return pd.DataFrame({w: pd.Series([], dtype=dtypes.get(w, "int64")) for w in what},
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
        out[w] = out[w].astype(dtypes.get(w, "int64"))
    return out


def _explain_classifier(clf: Any, data: Any, *, what: Any, on: Any, n_jobs: int,
                        progress: bool, client: Any, background: Any, timeout: Any):
    """:func:`explain_data` on a classifier: each distinct row's report, without compiling."""
    from ._reports import check_report_what, explain_rows
    for name, given in (("on", on), ("background", background)):
        if given is not None:
            raise ArgumentError(f"{name}= needs the compiled decision function (MC answers, "
                                f"attributions): bnx.explain_data(bnx.compile(clf), data, "
                                f"{name}=...)")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(
            timeout, (int, float)) or not timeout > 0):
        raise ArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
    what = check_report_what(what, clf, WHAT)
    return explain_rows(clf, data, what, n_jobs=n_jobs, progress=progress, client=client,
                        timeout=timeout)
