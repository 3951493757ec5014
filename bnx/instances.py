"""Instances as users hold them: mappings, pandas rows and one-row DataFrames.

Every function of bnx that takes an instance passes it through :func:`as_instance`
first, so an instance may be

- a mapping from features to states (a ``dict``);
- a pandas ``Series`` indexed by feature names (a row of a DataFrame);
- a pandas ``DataFrame`` with exactly one row.

The class column, when present, is ignored (a labelled row explains as it is);
any other column that is not a feature is still an error naming it. A missing
value in a pandas row (``NaN``, ``None``, ``pd.NA``) or a ``NaN``/``pd.NA`` in a
mapping leaves its feature out: such an instance is *partial*, which
:meth:`bnx.Classifier.decide` accepts with ``partial=True`` and
:func:`bnx.explain_data` explains over the observed features (see
``docs/batch.md``). A ``None`` in a ``dict`` stays a state (``None`` is a valid
state name).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

from .errors import InstanceError

__all__ = ["as_instance", "is_missing"]


def is_missing(value: Any) -> bool:
    """Whether ``value`` is a missing value: a float NaN or ``pandas.NA``.

    Examples
    --------
    >>> from bnx.instances import is_missing
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
    """The instance as a ``dict`` from features to states, without the class or missing values.

    Parameters
    ----------
    instance : mapping, pandas.Series or one-row pandas.DataFrame
    class_var : hashable, optional
        The class column, dropped when present.

    Raises
    ------
    InstanceError
        ``instance`` is none of the above, or a DataFrame with other than one row.

    Examples
    --------
    >>> import pandas as pd
    >>> from bnx.instances import as_instance
    >>> row = pd.Series({"party": "democrat", "crime": "y", "immigration": float("nan")})
    >>> as_instance(row, class_var="party")
    {'crime': 'y'}
    >>> as_instance(pd.DataFrame([{"crime": "n"}]))
    {'crime': 'n'}
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
            continue
        if is_missing(v) or (pandas_row and v is None):
            continue
        out[f] = v
    return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # an unhashable or array-like key: not the class
        return False
