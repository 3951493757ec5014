"""Instances as users hold them: mappings, pandas rows and one-row DataFrames.

Every function of bnx that takes an instance passes it through :func:`as_instance`
first, so an instance may be

- a mapping from features to states (a ``dict``);
- a pandas ``Series`` indexed by feature names (a row of a DataFrame);
- a pandas ``DataFrame`` with exactly one row.

An instance holds the features' states only: one that gives the class variable a
state (a labelled row) is refused with an :class:`~bnx.InstanceError` naming it, rather
than explained as if that state were not there (a data set's class column is ignored
by :func:`encode_rows`, as ``decide_many`` and ``explain_data`` read it). Any other key
that is not a feature is an error naming it too. A missing
value in a pandas row (``NaN``, ``None``, ``pd.NA``) or a ``NaN``/``pd.NA`` in a
mapping leaves its feature out: such an instance is *partial*, which
:meth:`bnx.Classifier.decide` accepts with ``partial=True`` and
:func:`bnx.explain_data` explains over the observed features (see
``docs/batch.md``). A ``None`` in a ``dict`` stays a state (``None`` is a valid
state name).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import lazy_loader

from .._util.types import State
from ..errors import (
    ArgumentError,
    InstanceError,
    MissingFeatureError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["as_instance", "class_given", "encode_rows", "is_missing", "resolve_state"]


def is_missing(value: Any) -> bool:
    """Whether ``value`` is a missing value: a float NaN or ``pandas.NA``.

    Examples
    --------
    >>> from bnx.classifier._instances import is_missing
    >>> is_missing(float("nan")), is_missing("y"), is_missing(None)
    (True, False, False)
    """
    if type(value) is str:  # the common case, first
        return False
    if type(value).__name__ == "NAType":
        return True
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        return bool(value != value)
    return False


def _is_pandas(obj: Any, name: str) -> bool:
    cls = type(obj)
    return cls.__module__.startswith("pandas") and any(
        c.__name__ == name for c in cls.__mro__)


def as_instance(instance: Any, *, class_var: Any = None) -> dict:
    """Return the instance as a ``dict`` from features to states, without its missing values.

    Parameters
    ----------
    instance : mapping, pandas.Series or one-row pandas.DataFrame
    class_var : hashable, optional
        The class variable, refused when the instance gives it a state.

    Raises
    ------
    InstanceError
        ``instance`` is none of the above, a DataFrame with other than one row, or it
        gives ``class_var`` a state (:func:`class_given`).

    Examples
    --------
    >>> import pandas as pd
    >>> from bnx.classifier._instances import as_instance
    >>> row = pd.Series({"crime": "y", "immigration": float("nan")})
    >>> as_instance(row, class_var="party")
    {'crime': 'y'}
    >>> as_instance(pd.DataFrame([{"crime": "n"}]))
    {'crime': 'n'}
    >>> as_instance({"party": "democrat", "crime": "y"}, class_var="party")
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    bnx.errors.InstanceError: the instance gives the class variable 'party' a state
    ('democrat'): an instance holds the features' states only, so leave 'party' out (a
    data set's class column is ignored by odd.decide_many and bnx.explain_data)
    """
    pandas_row = False
    if _is_pandas(instance, "DataFrame"):
        if len(instance) != 1:
            raise InstanceError(
                f"a DataFrame instance must have exactly one row, got {len(instance)}; "
                f"use bnx.explain_data or odd.decide_many for many rows")
        instance = instance.iloc[0]
    if _is_pandas(instance, "Series"):
        pandas_row = True
        items = instance.items()
    elif isinstance(instance, Mapping):
        items = instance.items()
    else:
        raise InstanceError(f"an instance must be a mapping from features to states, a "
                            f"pandas Series or a one-row DataFrame, got {type(instance).__name__}")
    out = {}
    for f, v in items:
        if class_var is not None and _same(f, class_var):
            raise class_given(class_var, v)
        if is_missing(v) or (pandas_row and v is None):
            continue
        out[f] = v
    return out


def class_given(class_var: Any, state: Any) -> InstanceError:
    """Make the error for an instance that gives the class variable ``class_var`` a state."""
    return InstanceError(
        f"the instance gives the class variable {class_var!r} a state ({state!r}): an "
        f"instance holds the features' states only, so leave {class_var!r} out (a data "
        f"set's class column is ignored by odd.decide_many and bnx.explain_data)")


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # an unhashable or array-like key: not the class
        return False


def resolve_state(names: Sequence[State], state: Any) -> int | None:
    """Index of ``state`` among ``names``, matching by value, then by its text."""
    for j, s in enumerate(names):
        if s == state and type(s) is not bool:
            return j
    text = str(state)
    hits = [j for j, s in enumerate(names) if str(s) == text]
    return hits[0] if len(hits) == 1 else None


def _frame(odd: Any, data: Any):
    """Return ``data`` as a DataFrame with exactly the ODD's features as columns (ODD order)."""
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
                                  f"ODD: {', '.join(map(repr, unknown))} (features, closest "
                                  f"first: {closest_first(unknown[0], odd.features)})")
    absent = [f for f in odd.features if f not in data.columns]
    if absent:
        raise MissingFeatureError(f"the data has no column for the features "
                                  f"{', '.join(map(repr, absent))}")
    return data


def encode_rows(odd: Any, data: Any) -> np.ndarray:
    """Encode the rows of ``data`` as state indices, shape ``(rows, features)``.

    In the ODD's feature order; ``-1`` marks a missing value.

    Raises :class:`~bnx.UnknownStateError` for a state the feature does not have,
    naming the row and listing the known states.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import bnx
    >>> from bnx.classifier._instances import encode_rows
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> rows = [{"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "+",
    ...          "GPA": float("nan"), "Admit": "+"}]
    >>> dict(zip(odd.features, encode_rows(odd, rows)[0].tolist()))
    {'GPA': -1, 'WorkExperience': 1, 'FirstTimeApplicant': 0, 'EntranceExam': 1}
    """
    import pandas as pd
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
            j = -1 if is_missing(value) else resolve_state(states, value)
            if j is None:
                row = frame.index[int(np.flatnonzero(codes == u)[0])]
                raise UnknownStateError(
                    f"row {row!r}: {value!r} is not a state of feature {f!r} "
                    f"(states, closest first: {closest_first(value, states)})")
            table[u] = j
        out[:, i] = table[codes]
    return out
