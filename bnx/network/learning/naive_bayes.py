"""Learning a naive Bayes classifier from data.

The parameter estimation (priors, equivalent sample size) is shared with the TAN learner.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:  # pgmpy is imported when it is used: `import bnx` stays quick
    from pgmpy.models import DiscreteBayesianNetwork

from ...errors import DataError
from .data import MAX_STATES, _check_columns, _discretise, _read_data, _state_names

__all__ = ["learn_naive_bayes"]

#: Accepted spellings (compared case-insensitively) of the ``prior`` argument.
_PRIORS = {"k2": "K2", "bdeu": "BDeu", "mle": "MLE"}
#: pgmpy's own default equivalent sample size for the BDeu prior.
_DEFAULT_ESS = 5


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

    See Also
    --------
    bnx.learn_tan : A TAN from the same data, each feature with one more parent.
    bnx.Classifier : The classifier of the network learned.

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
    >>> from bnx.tabular.datasets import load_votes
    >>> from bnx.network.learning import learn_naive_bayes
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
