"""Learning naive Bayes and TAN classifiers from data with pgmpy's own estimators."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:  # pgmpy is imported when it is used: `import bnx` stays quick
    from pgmpy.models import DiscreteBayesianNetwork

from .errors import DataError

__all__ = ["learn_naive_bayes", "learn_tan"]

#: Accepted spellings (compared case-insensitively) of the ``prior`` argument.
_PRIORS = {"k2": "K2", "bdeu": "BDeu", "mle": "MLE"}
#: pgmpy's own default equivalent sample size for the BDeu prior.
_DEFAULT_ESS = 5
#: Cells of a CSV file read as missing values.
_CSV_MISSING = ["?", ""]
#: Default most distinct values of a column used as a variable (more: discretise it).
MAX_STATES = 32


def learn_naive_bayes(
    data: pd.DataFrame | str | os.PathLike[str],
    class_var: Hashable,
    *,
    features: Iterable[Hashable] | None = None,
    prior: str | None = "K2",
    equivalent_sample_size: float | None = None,
    header: bool | None = None,
    names: Iterable[Hashable] | None = None,
    max_states: int = MAX_STATES,
    bins: int | Mapping[Hashable, int] | None = None,
) -> DiscreteBayesianNetwork:
    """Learn a naive Bayes classifier, a network with an edge from the class to each feature.

    The structure is fixed: ``class_var -> feature`` for every feature, and no other
    edge. The conditional probability tables are fitted by pgmpy's parameter
    estimators (:class:`pgmpy.parameter_estimator.DiscreteBayesianEstimator` or
    :class:`pgmpy.parameter_estimator.DiscreteMLE`, the non-deprecated successors of
    ``BayesianEstimator`` and ``MaximumLikelihoodEstimator`` in pgmpy 1.x).

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        The training data, one row per example and one column per variable; other
        columns are ignored. Missing values are ``NaN`` (or ``None``). A path is
        read as a CSV file (say whether it has a header row with `header`) in
        which ``'?'`` and empty cells are missing values and every other cell is
        a state name (a string).
    class_var : hashable
        The column of the class variable.
    features : iterable of hashable, optional
        The feature columns, in the order in which they become children of the
        class. By default every column except `class_var`, in the frame's order.
    prior : {'K2', 'BDeu', 'MLE', None}, default 'K2'
        How the tables are estimated (case-insensitive). ``'K2'``: Bayesian
        estimation with a pseudo-count of 1 for every cell (add-one or Laplace
        smoothing). ``'BDeu'``: Bayesian estimation with the uniform pseudo-count
        ``equivalent_sample_size / (number of cells of the table)``. ``'MLE'`` or
        ``None``: relative frequencies, where pgmpy makes a column with no
        observation at all uniform.
    equivalent_sample_size : float, optional
        The equivalent sample size of the BDeu prior, a positive number; only
        allowed with ``prior='BDeu'``. Default 5, pgmpy's default.
    header : bool, required for a CSV path
        ``True``: the first line names the columns. ``False``: every line is data
        and the columns are named ``0, 1, ...`` (or by `names`). bnx does not
        guess (SPECT's files, for one, have no header).
    names : iterable of hashable, optional
        Column names of a CSV file read with ``header=False``.
    max_states : int, default 32
        A used column with more distinct values is refused (discretise it, or
        use `bins`).
    bins : int or mapping, optional
        Equal-frequency binning (:func:`pandas.qcut`) of numeric columns before
        learning: ``{column: number of bins}``, or one number for every used
        column with more than `max_states` values. The states of a binned column
        are the bins' interval texts, such as ``'(18.0, 25.0]'``; instances must
        use them.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The fitted network, with nodes ``class_var`` then the features and one
        :class:`~pgmpy.factors.discrete.TabularCPD` per node. The states of every
        variable are the distinct non-missing values of its column, sorted.

    Raises
    ------
    bnx.errors.DataError
        If the data is empty or a CSV path cannot be read; if `class_var` or a
        feature is not a column, a feature is repeated or is the class, or there is
        no feature; if a used column is all missing, has a single state or has
        states that cannot be sorted; if `prior` is not one of the names above or
        `equivalent_sample_size` is not a positive number or is given without
        ``prior='BDeu'``; if a CSV path comes without `header`; if a used column
        has more than `max_states` distinct values or a binned column is not
        numeric. The message names the offending column or argument.

    Notes
    -----
    A missing value is skipped for the table of its own variable only: the
    table of a feature ``F`` is counted from the rows where both the class and
    ``F`` are present, and the class table from the rows where the class is
    present, whatever the other features hold. (pgmpy counts each table over its
    own family, dropping the rows where a variable of that family is missing.)
    A row whose class is missing therefore contributes to no table.

    Examples
    --------
    >>> from bnx.datasets import load_votes
    >>> from bnx.learning import learn_naive_bayes
    >>> votes = load_votes()
    >>> model = learn_naive_bayes(votes, "party")
    >>> list(model.nodes())[:3]
    ['party', 'handicapped-infants', 'water-project-cost-sharing']
    >>> len(model.get_children("party"))
    16
    >>> cpd = model.get_cpds("crime")
    >>> cpd.state_names
    {'crime': ['n', 'y'], 'party': ['democrat', 'republican']}

    Of the 257 democrats who voted on crime, 167 voted nay, so with add-one
    smoothing P(crime = n | democrat) = (167 + 1) / (257 + 2):

    >>> round(float(cpd.get_value(crime="n", party="democrat")), 6)
    0.648649
    >>> round((167 + 1) / (257 + 2), 6)
    0.648649
    """
    prior_name = _check_prior(prior)
    ess = _check_equivalent_sample_size(equivalent_sample_size, prior_name)
    frame = _read_data(data, header=header, names=names)
    columns = _check_columns(frame, class_var, features)
    frame = _discretise(frame.loc[:, columns], max_states, bins)
    state_names = {column: _state_names(frame[column], column) for column in columns}

    from pgmpy.models import DiscreteBayesianNetwork

    model = DiscreteBayesianNetwork([(class_var, feature) for feature in columns[1:]])
    return _fit(model, frame, state_names, prior_name, ess)


def _fit(model: DiscreteBayesianNetwork, frame: pd.DataFrame, state_names: dict,
         prior_name: str, ess: float) -> DiscreteBayesianNetwork:
    """Fit the tables of ``model`` on ``frame`` with the estimator ``prior_name`` names."""
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

    estimator: DiscreteBayesianEstimator | DiscreteMLE
    if prior_name == "MLE":
        estimator = DiscreteMLE(state_names=state_names)
    elif prior_name == "K2":
        estimator = DiscreteBayesianEstimator(state_names=state_names, prior_type="K2")
    else:
        estimator = DiscreteBayesianEstimator(
            state_names=state_names, prior_type="BDeu", equivalent_sample_size=ess
        )
    model.fit(frame, estimator=estimator)
    return model


def _check_prior(prior: str | None) -> str:
    if prior is None:
        return "MLE"
    if isinstance(prior, str) and prior.lower() in _PRIORS:
        return _PRIORS[prior.lower()]
    raise DataError(
        f"unknown prior {prior!r}: expected one of 'K2', 'BDeu', 'MLE' or None"
    )


def _check_equivalent_sample_size(value: float | None, prior_name: str) -> float:
    if value is None:
        return _DEFAULT_ESS
    if prior_name != "BDeu":
        raise DataError(
            f"equivalent_sample_size applies only to prior='BDeu', not to prior={prior_name!r}"
        )
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise DataError(f"equivalent_sample_size must be a positive number, not {value!r}")
    return value


def _read_data(data: Any, *, header: bool | None = None,
               names: Iterable[Hashable] | None = None) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        if header is not None or names is not None:
            raise DataError("header= and names= describe CSV files; the data is a DataFrame")
        frame = data
    elif isinstance(data, (str, os.PathLike)):
        if not isinstance(header, bool):
            raise DataError(
                f"say whether the CSV file {os.fspath(data)!r} has a header line: "
                f"header=True (its first line names the columns) or header=False (columns "
                f"0, 1, ... or names=[...]); got header={header!r}")
        if names is not None and header:
            raise DataError("names= names the columns of a file without a header line "
                            "(header=False)")
        try:
            frame = pd.read_csv(
                data,
                header=0 if header else None,
                names=None if names is None else list(names),
                dtype=str,
                na_values=_CSV_MISSING,
                keep_default_na=False,
                skipinitialspace=True,
            )
        except (OSError, ValueError) as exc:  # missing, unreadable, undecodable, malformed
            raise DataError(f"cannot read the CSV file {os.fspath(data)!r}: {exc}") from exc
    else:
        raise DataError(
            f"data must be a pandas DataFrame or the path of a CSV file, not {type(data).__name__}"
        )
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise DataError(f"the data is empty ({frame.shape[0]} rows, {frame.shape[1]} columns)")
    duplicated = frame.columns[frame.columns.duplicated()].unique().tolist()
    if duplicated:
        raise DataError(f"the data has duplicated columns: {duplicated!r}")
    return frame


def _discretise(frame: pd.DataFrame, max_states: int,
                bins: int | Mapping[Hashable, int] | None) -> pd.DataFrame:
    """Bin the columns `bins` asks for; refuse any other column with too many values."""
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 2:
        raise DataError(f"max_states must be an integer of at least 2, not {max_states!r}")
    counts = {c: frame[c].nunique(dropna=True) for c in frame.columns}
    if bins is None:
        plan: dict = {}
    elif isinstance(bins, Mapping):
        plan = dict(bins)
        unknown = [c for c in plan if c not in counts]
        if unknown:
            raise DataError(f"bins= names columns that are not used: {unknown!r}")
    else:
        plan = {c: bins for c, k in counts.items() if k > max_states}
    out = frame.copy() if plan else frame
    for c, q in plan.items():
        if isinstance(q, bool) or not isinstance(q, int) or q < 2:
            raise DataError(f"bins for column {c!r} must be an integer of at least 2, not {q!r}")
        values = pd.to_numeric(frame[c], errors="coerce")
        if (values.isna() & frame[c].notna()).any():
            raise DataError(f"column {c!r} is not numeric and cannot be binned")
        cut = pd.qcut(values, q, duplicates="drop")
        out[c] = cut.astype(str).where(cut.notna(), None)
        counts[c] = out[c].nunique(dropna=True)
    for c, k in counts.items():
        if k > max_states:
            raise DataError(
                f"column {c!r} has {k} distinct values, more than max_states={max_states}: "
                f"discretise it first, or bin it with bins={{{c!r}: 5}} (equal-frequency "
                f"bins), or raise max_states")
    return out


def _check_columns(
    frame: pd.DataFrame, class_var: Hashable, features: Iterable[Hashable] | None
) -> list[Hashable]:
    present = list(frame.columns)
    if class_var not in present:
        raise DataError(f"class variable {class_var!r} is not a column of the data; columns: {present!r}")
    if features is None:
        chosen = [column for column in present if column != class_var]
    else:
        if isinstance(features, (str, bytes)):
            raise DataError(f"features must be a collection of column names, not the string {features!r}")
        chosen = list(features)
        seen: set[Hashable] = set()
        for feature in chosen:
            if feature == class_var:
                raise DataError(f"feature {feature!r} is the class variable")
            if feature not in present:
                raise DataError(f"feature {feature!r} is not a column of the data; columns: {present!r}")
            if feature in seen:
                raise DataError(f"feature {feature!r} is given more than once")
            seen.add(feature)
    if not chosen:
        raise DataError(f"there is no feature besides the class variable {class_var!r}")
    return [class_var, *chosen]


def _state_names(column: pd.Series, name: Hashable) -> list[Any]:
    states = column.dropna().unique().tolist()
    if not states:
        raise DataError(f"column {name!r} is all missing")
    if len(states) == 1:
        raise DataError(f"column {name!r} has a single state {states[0]!r}; a variable needs at least two")
    try:
        return sorted(states)
    except TypeError as exc:
        raise DataError(f"the states of column {name!r} cannot be sorted: {states!r}") from exc


def learn_tan(
    data: pd.DataFrame | str | os.PathLike[str],
    class_var: Hashable,
    *,
    root: Hashable | None = None,
    features: Iterable[Hashable] | None = None,
    prior: str | None = "K2",
    equivalent_sample_size: float | None = None,
) -> DiscreteBayesianNetwork:
    """Learn a tree-augmented naive Bayes (TAN) classifier.

    The class is the parent of every feature, and the features form a tree: the
    maximum spanning tree of the conditional mutual information
    ``I(F; G | class)`` between every two features (Friedman, Geiger and
    Goldszmidt, 1997), found by pgmpy's :class:`pgmpy.estimators.TreeSearch`
    (``estimator_type="tan"``) and directed away from `root`. The tables are then
    fitted exactly as by :func:`learn_naive_bayes`.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        The training data, as for :func:`learn_naive_bayes` (missing values are
        ``NaN``; a path is read as a CSV file).
    class_var : hashable
        The column of the class variable.
    root : hashable, optional
        The feature at the root of the feature tree (it has the class as its only
        parent). Default: the first feature.
    features : iterable of hashable, optional
        The feature columns. By default every column except `class_var`.
    prior : {'K2', 'BDeu', 'MLE', None}, default 'K2'
        How the tables are estimated, as for :func:`learn_naive_bayes`.
    equivalent_sample_size : float, optional
        The equivalent sample size of the BDeu prior, as for
        :func:`learn_naive_bayes`.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The fitted network: ``class_var`` then the features as nodes, an edge
        from the class to every feature and a tree of edges between the
        features. Its features are internal nodes: wrap it with
        ``bnx.Classifier(model, class_var, positive, features=[...])``.

    Raises
    ------
    bnx.errors.DataError
        As :func:`learn_naive_bayes` does, and if `root` is not one of the
        features.

    Notes
    -----
    Missing values. The weight of two features ``F`` and ``G`` is
    ``sum_c P(c) I(F; G | class = c)`` where ``P(c)`` is counted over the rows
    whose class is present and each mutual information over the rows where the
    class, ``F`` and ``G`` are all present (pairwise deletion); pgmpy's own
    weights refuse missing values. The tables skip missing values as pgmpy does:
    the table of a feature is counted over the rows where it, the class and its
    feature parent are present.

    Examples
    --------
    >>> from bnx.datasets import load_votes
    >>> from bnx.learning import learn_tan
    >>> model = learn_tan(load_votes(), "party", root="crime")
    >>> len(model.get_children("party")), len(model.edges())
    (16, 31)
    >>> sorted(model.get_parents("religious-groups-in-schools"))
    ['crime', 'party']
    """
    prior_name = _check_prior(prior)
    ess = _check_equivalent_sample_size(equivalent_sample_size, prior_name)
    frame = _read_data(data)
    columns = _check_columns(frame, class_var, features)
    frame = frame.loc[:, columns]
    state_names = {column: _state_names(frame[column], column) for column in columns}
    feats = columns[1:]
    if root is None:
        root = feats[0]
    elif root not in feats:
        raise DataError(f"root {root!r} is not one of the features {feats!r}")

    from pgmpy.models import DiscreteBayesianNetwork

    edges = _tan_tree(frame, class_var, feats, root)
    model = DiscreteBayesianNetwork()
    model.add_nodes_from(columns)
    model.add_edges_from([(class_var, f) for f in feats] + edges)
    return _fit(model, frame, state_names, prior_name, ess)


def _tan_tree(frame: pd.DataFrame, class_var: Hashable, features: list, root: Hashable
             ) -> list[tuple[Hashable, Hashable]]:
    """The feature-tree edges of a TAN, directed away from `root` (pgmpy's TreeSearch).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"C": list("aabb"), "F": list("xyxy"), "G": list("xyxy"),
    ...                       "H": list("xxyx")})
    >>> _tan_tree(frame, "C", ["F", "G", "H"], "F")
    [('F', 'G'), ('F', 'H')]
    """
    import logging

    from pgmpy.estimators import TreeSearch

    if len(features) == 1:
        return []
    pgmpy_logger = logging.getLogger("pgmpy")
    level = pgmpy_logger.level
    pgmpy_logger.setLevel(logging.ERROR)  # TreeSearch logs the state names it infers
    try:
        dag = TreeSearch(frame.loc[:, [class_var, *features]], root_node=root, n_jobs=1).estimate(
            estimator_type="tan", class_node=class_var, edge_weights_fn=_mutual_information,
            show_progress=False)
    finally:
        pgmpy_logger.setLevel(level)
    return sorted((u, v) for u, v in dag.edges() if u != class_var)


def _mutual_information(u: pd.Series, v: pd.Series) -> float:
    """Mutual information (nats) of two columns over the rows where both are present."""
    import numpy as np

    present = u.notna().to_numpy() & v.notna().to_numpy()
    if not present.any():
        return 0.0
    a, a_states = pd.factorize(u.to_numpy()[present])
    b, b_states = pd.factorize(v.to_numpy()[present])
    cells = len(a_states) * len(b_states)
    counts = np.bincount(a * len(b_states) + b, minlength=cells).reshape(len(a_states), -1)
    p = counts / counts.sum()
    outer = p.sum(axis=1, keepdims=True) @ p.sum(axis=0, keepdims=True)
    nonzero = p > 0
    return float((p[nonzero] * np.log(p[nonzero] / outer[nonzero])).sum())
