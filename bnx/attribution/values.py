"""SHAP and Banzhaf values of an ODD's decision: :func:`shap_values`, :func:`banzhaf_values`.

The player set is the ODD's features (one player per feature, whatever its number of
states); the payoff is the decision, 1 for positive and 0 otherwise. The background is
either a data set (interventional values: the mean over its rows of the values of the
game in which a feature outside the coalition takes the row's state; equal rows are
computed once and weighted by their count) or a product distribution
``{feature: {state: probability}}``. The passes are in :mod:`bnx.attribution.shapley`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from ..classifier import _resolve_state
from ..errors import ArgumentError, DataError, InstanceError, UnknownStateError
from ..instances import as_instance
from ..odd import ODD, check_odd
from .result import Attributions
from .shapley import game_values

__all__ = ["shap_values", "banzhaf_values", "attribution_columns"]

#: Memory the passes may hold for one chunk of (instance, background row) pairs, in bytes.
CHUNK_BYTES = 192 << 20


def _is_frame(obj: Any) -> bool:
    return type(obj).__module__.startswith("pandas") and type(obj).__name__ == "DataFrame"


def _rows(odd: ODD, data: Any, what: str) -> tuple[np.ndarray, list]:
    """Complete rows of ``data`` as state indices (rows, features in the ODD's order)."""
    if _is_frame(data):
        records = data.to_dict("records")
    elif isinstance(data, Mapping) or type(data).__name__ == "Series":
        records = [data]
    else:
        raise ArgumentError(f"{what} must be a mapping, a pandas Series or a DataFrame, "
                            f"got {type(data).__name__}")
    out = np.empty((len(records), len(odd.features)), dtype=np.int64)
    for r, rec in enumerate(records):
        inst = as_instance(rec, class_var=odd.meta.get("class_var"))
        missing = [f for f in odd.features if f not in inst]
        if missing:
            raise InstanceError(f"{what}: row {r} has no state for "
                                f"{', '.join(map(repr, missing))}; attributions need "
                                f"complete rows (drop or fill the missing values)")
        idx = odd.encode(inst)
        out[r] = [idx[f] for f in odd.features]
    return out, records


def _product(odd: ODD, spec: Mapping, exact: bool) -> list:
    """Per feature (ODD order), the probability of each state."""
    q = []
    for f in spec:
        odd._position(f)  # unknown feature: UnknownFeatureError
    for f in odd.features:
        states = odd.states(f)
        k = len(states)
        dist = spec.get(f)
        if dist is None:
            q.append([Fraction(1, k)] * k)
            continue
        if not isinstance(dist, Mapping):
            raise ArgumentError(f"background[{f!r}] must be a mapping from states to "
                                f"probabilities, got {type(dist).__name__}")
        p = [Fraction(0)] * k
        for s, v in dist.items():
            j = _resolve_state(states, s)
            if j is None:
                raise UnknownStateError(f"background: {s!r} is not a state of feature {f!r} "
                                        f"(states: {', '.join(map(str, states))})")
            try:
                x = Fraction(v) if isinstance(v, (int, Fraction)) else Fraction(float(v))
            except (TypeError, ValueError):
                raise ArgumentError(f"background[{f!r}][{s!r}] is not a number: {v!r}") from None
            if not x >= 0:
                raise ArgumentError(f"background[{f!r}][{s!r}] = {v!r} is negative")
            p[j] += x
        total = sum(p)
        if abs(float(total) - 1) > 1e-9:
            raise ArgumentError(f"the probabilities of background[{f!r}] sum to "
                                f"{float(total)!r}, not 1")
        q.append([x / total for x in p])
    return q if exact else [np.array([float(x) for x in row]) for row in q]


def _values(odd: ODD, X: Any, background: Any, kind: str, exact: bool) -> Attributions:
    check_odd(odd)
    if not isinstance(exact, bool):
        raise ArgumentError(f"exact must be True or False, got {exact!r}")
    single = not _is_frame(X)
    xs, records = _rows(odd, X, "X")
    n = len(odd.features)
    if isinstance(background, Mapping):
        q = _product(odd, background, exact)
        zs, counts, total = None, None, 1
    elif _is_frame(background):
        if len(background) == 0:
            raise DataError("the background data set has no rows")
        bz, _ = _rows(odd, background, "background")
        zs, counts = np.unique(bz, axis=0, return_counts=True)
        q, total = None, len(bz)
    else:
        raise ArgumentError(f"background must be a DataFrame of rows or a mapping "
                            f"{{feature: {{state: probability}}}}, got "
                            f"{type(background).__name__}")
    dtype = object if exact else float
    phi = np.zeros((len(xs), n), dtype=dtype)
    base = np.zeros(len(xs), dtype=dtype)
    nz = 1 if zs is None else len(zs)
    pairs = len(xs) * nz
    start, chunk = 0, 64  # then sized from the numbers a pair needed
    while start < pairs:
        sel = np.arange(start, min(pairs, start + chunk))
        start += len(sel)
        xi, zi = sel // nz, sel % nz
        v, e, cells = game_values(odd, xs[xi], None if zs is None else zs[zi], q, kind=kind,
                                  exact=exact)
        chunk = max(1, int(CHUNK_BYTES // (32 * max(1, cells / len(sel)))))
        if zs is not None:
            w = counts[zi].astype(object) if exact else counts[zi].astype(float)
            v = v * w[:, None]
            e = e * w
        np.add.at(phi, xi, v)
        np.add.at(base, xi, e)
    if zs is not None:
        phi = phi / (Fraction(total) if exact else total)
        base = base / (Fraction(total) if exact else total)
    # the decisions: v(N) (exactly 0 or 1), read from the diagram
    decisions = np.array([int(odd._decide_indices(dict(zip(odd.features, row))))
                          for row in xs.tolist()], dtype=np.int64)
    order = [odd.features.index(f) for f in odd.display_order]
    states = np.array([[odd.encoding.states[i][j] for i, j in enumerate(row)]
                       for row in xs.tolist()], dtype=object)
    phi, states = phi[:, order], states[:, order]
    if single:
        phi, base, states, decisions = phi[0], base[0], states[0], decisions[0]
    index = X.index if not single else None
    return Attributions(phi, base, states, tuple(odd.display_order), kind=kind,
                        decisions=decisions, index=index)


def shap_values(odd: ODD, X: Any, background: Any, *, exact: bool = False) -> Attributions:
    """Exact SHAP values of the decision on ``X`` (1 for positive, 0 for negative).

    Parameters
    ----------
    odd : ODD
    X : mapping, pandas Series or DataFrame
        One complete instance, or a DataFrame of complete rows (a class column is
        ignored).
    background : DataFrame or mapping
        A data set of complete rows: interventional SHAP, the mean over its rows ``b``
        of the values of the game ``v(S) = f(x_S, b_rest)``, exactly what
        ``shap.explainers.Exact(f, shap.maskers.Independent(background,
        max_samples=len(background)))`` computes. Or a product distribution
        ``{feature: {state: probability}}`` (a feature left out is uniform over its
        states, a state left out has probability 0): ``v(S) = E_z f(x_S, z_rest)``.
    exact : bool, default False
        Compute in exact fractions: ``values`` and ``base_values`` hold
        :class:`~fractions.Fraction` objects (probabilities given as floats are taken
        as the rationals they denote). Exponentially cheaper than coalitions but much
        slower than float64; meant for small diagrams and checks.

    Returns
    -------
    Attributions
        One value per feature (in the classifier's order) for one instance; rows by
        features for a DataFrame. ``base_values + values.sum()`` is the decision.

    Raises
    ------
    InstanceError
        A row of ``X`` or of the background misses a feature or names an unknown state.
    ArgumentError
        A background of the wrong type, or probabilities that do not sum to 1.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> a = bnx.shap_values(odd, x, {}, exact=True)  # uniform background
    >>> a.base_values, dict(zip(a.feature_names, map(str, a.values)))
    (Fraction(3, 8), {'WorkExperience': '29/96', 'FirstTimeApplicant': '25/96', 'EntranceExam': '25/96', 'GPA': '-19/96'})
    >>> a.base_values + sum(a.values) == a.decisions
    True
    """
    return _values(odd, X, background, "shapley", exact)


def banzhaf_values(odd: ODD, X: Any, background: Any, *, exact: bool = False) -> Attributions:
    """Exact Banzhaf values of the decision on ``X``: the mean marginal contribution of
    each feature over all coalitions of the others, each weighing ``2^(1-n)``.

    The game, ``X``, ``background`` and ``exact`` are as for :func:`shap_values`
    (Banzhaf values need not add up to the decision minus ``base_values``).

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> a = bnx.banzhaf_values(odd, x, {}, exact=True)
    >>> [str(v) for v in a.values]
    ['17/64', '15/64', '15/64', '-15/64']
    """
    return _values(odd, X, background, "banzhaf", exact)


def attribution_columns(odd: ODD, frame: Any, kinds: Any, background: Any):
    """For :func:`bnx.explain_data`: a DataFrame on ``frame``'s index with a column
    ``"<kind>:<feature>"`` per kind (``"shap"``, ``"banzhaf"``) and feature, NaN on
    rows with missing values (attributions need complete rows)."""
    import pandas as pd
    if background is None:
        raise ArgumentError(f"what={list(kinds)!r} needs a background: explain_data(..., "
                            f"background=ROWS or {{feature: {{state: probability}}}})")
    feats = list(odd.display_order)
    complete = frame[list(odd.features)].notna().all(axis=1).to_numpy()
    out = {}
    for kind in kinds:
        fn = shap_values if kind == "shap" else banzhaf_values
        values = np.full((len(frame), len(feats)), np.nan)
        if complete.any():
            values[complete] = fn(odd, frame[complete], background).values
        for j, f in enumerate(feats):
            out[f"{kind}:{f}"] = values[:, j]
    return pd.DataFrame(out, index=frame.index)
