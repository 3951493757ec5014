"""Reading training data for the learners.

CSV files and DataFrames, checked columns, missing values, and discretising columns with many
values.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import pandas as pd

from ...errors import DataError

__all__ = ["MAX_STATES"]

#: Cells of a CSV file read as missing values.
_CSV_MISSING = ["?", ""]
#: Default most distinct values of a column used as a variable (more: discretise it).
MAX_STATES = 32


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
        raise DataError(f"class variable {class_var!r} is not a column of the data; "
                        f"columns: {present!r}")
    if features is None:
        chosen = [column for column in present if column != class_var]
    else:
        if isinstance(features, (str, bytes)):
            raise DataError(f"features must be a collection of column names, not the string "
                            f"{features!r}")
        chosen = list(features)
        seen: set[Hashable] = set()
        for feature in chosen:
            if feature == class_var:
                raise DataError(f"feature {feature!r} is the class variable")
            if feature not in present:
                raise DataError(f"feature {feature!r} is not a column of the data; "
                                f"columns: {present!r}")
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
        raise DataError(f"column {name!r} has a single state {states[0]!r}; a variable needs "
                        f"at least two")
    try:
        return sorted(states)
    except TypeError as exc:
        raise DataError(f"the states of column {name!r} cannot be sorted: {states!r}") from exc
