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

from .._util.guard import question
from ..classifier._classifier import Classifier, _resolve_state
from ..classifier._instances import as_instance, is_missing
from ..classifier._possible import (
    conflict_of,
    may_be_impossible,
    refuse_impossible,
    refuse_impossible_rows,
)
from ..classifier._world import within_support
from ..diagram._feature_view import decide_states
from ..errors import (
    ArgumentError,
    DataError,
    ImpossibleInstanceError,
    InstanceError,
    UnknownFeatureError,
    UnknownStateError,
)
from ..odd._odd import ODD, check_odd
from .network_background import network_background
from .result import Attributions
from .shapley import feature_graph, game_values

__all__ = ["shap_values", "banzhaf_values", "attribution_columns", "check_product"]

#: Memory the passes may hold for one chunk of (instance, background row) pairs, in bytes.
CHUNK_BYTES = 192 << 20


def _is_frame(obj: Any) -> bool:
    return type(obj).__module__.startswith("pandas") and type(obj).__name__ == "DataFrame"


def _rows(odd: ODD, data: Any, what: str) -> np.ndarray:
    """Complete rows of ``data`` as state indices (rows, features in the ODD's order)."""
    if isinstance(data, Mapping) or type(data).__name__ == "Series":
        inst = as_instance(data, class_var=odd.meta.get("class_var"))
        missing = [f for f in odd.features if f not in inst]
        if missing:
            _incomplete(what, 0, missing)
        idx = odd.encode(inst)
        return np.array([[idx[f] for f in odd.features]], dtype=np.int64)
    if not _is_frame(data):
        raise ArgumentError(f"{what} must be a mapping, a pandas Series or a DataFrame, "
                            f"got {type(data).__name__}")
    cls = odd.meta.get("class_var")
    extra = [c for c in data.columns if c not in set(odd.features) and c != cls]
    if extra:
        raise UnknownFeatureError(f"{what} has columns that are not features: "
                                  f"{', '.join(map(repr, extra))}")
    absent = [f for f in odd.features if f not in data.columns]
    if absent:
        _incomplete(what, 0, absent)
    out = np.empty((len(data), len(odd.features)), dtype=np.int64)
    for i, f in enumerate(odd.features):
        states = odd.encoding.states[i]
        known: dict = {}
        column = out[:, i]
        for r, value in enumerate(data[f].tolist()):  # (a column at a time: no 2-D copy)
            j = known.get(value) if type(value) is str else None
            if j is None:
                if is_missing(value) or value is None:
                    _incomplete(what, r, [f])
                j = _resolve_state(states, value)
                if j is None:
                    raise UnknownStateError(f"{what}: {value!r} is not a state of feature "
                                            f"{f!r} (states: {', '.join(map(str, states))})")
                if type(value) is str:
                    known[value] = j
            column[r] = j
    return out


def _incomplete(what: str, row: int, missing: list):
    raise InstanceError(f"{what}: row {row} has no state for "
                        f"{', '.join(map(repr, missing))}; attributions need complete rows "
                        f"(drop or fill the missing values)")


def _decisions(odd: ODD, xs: np.ndarray) -> np.ndarray:
    """Decide each row of state indices (0 or 1), by one walk of the arrays."""
    return decide_states(odd.arrays, odd.encoding, xs).astype(np.int64)


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


#: Features past which the float computation overflows (its sums over coalitions grow like
#: ``2**n``); ``exact=True`` has no limit.
MAX_FLOAT_FEATURES = 1024


def _refuse(odd: ODD, data: Any, codes: np.ndarray, what: str) -> None:
    """Refuse the first row of ``data`` (state indices ``codes``) the network cannot produce."""
    if not may_be_impossible(odd):
        return
    if _is_frame(data):  # "X row 3: ...", "background row 3: ..."
        refuse_impossible_rows(odd, data, codes, odd.features, f"{what} ")
    else:  # the one instance of X
        x = {f: odd.encoding.states[i][j] for i, (f, j) in enumerate(zip(odd.features,
                                                                          codes[0].tolist()))}
        refuse_impossible(odd, x)


def check_product(odd: ODD, background: Mapping) -> None:
    """Refuse a product background that weighs an instance the network cannot produce.

    ``background``: ``{feature: {state: probability}}`` as :func:`shap_values` takes it; the
    instances it weighs are the box of the states of positive probability, which must lie
    in the network's support (:func:`bnx.support`), else an :class:`~bnx.ArgumentError`
    says how many do not and which findings conflict (the explorer offers a product
    background only where it passes).
    """
    if not may_be_impossible(odd):
        return
    q = _product(odd, background, True)
    from ..explanation.support import forbid, support
    odd = odd.owner  # a class formula: its classifier's
    zero = [{f: s} for f, row in zip(odd.features, q)
            for s, p in zip(odd.states(f), row) if not p]
    outside = forbid(odd, zero) - support(odd)
    if outside.count:
        x = next(iter(outside))
        said = str(ImpossibleInstanceError(conflict_of(odd, x)))
        raise ArgumentError(
            f"background: the product distribution weighs instances the network cannot "
            f"produce ({outside.count:,} of them: {said}): give "
            f"the network's own distribution (background=the classifier), a data set of "
            f"possible rows, a product that gives those states probability 0, or ask "
            f"within='all' (every instance)")


def _values(odd: ODD, X: Any, background: Any, kind: str, exact: bool, within="support",
            rows: tuple | None = None) -> Attributions:
    check_odd(odd)
    if rows is None:  # the rows read once, and those the network cannot produce refused
        support = within_support(within)
        framed = _is_frame(background) and len(background) > 0
        rows = (_rows(odd, X, "X"), _rows(odd, background, "background") if framed else None)
        _refuse(odd, X, rows[0], "X")
        if support and framed:
            _refuse(odd, background, rows[1], "background")
        elif support and isinstance(background, Mapping):
            check_product(odd, background)
    if odd.multiclass:  # one game per class, [decision = c]: the class is the last axis
        return Attributions.stack([_values(f, X, background, kind, exact, within, rows)
                                   for f in odd.formulas], odd.classes, odd.class_var)
    if not isinstance(exact, bool):
        raise ArgumentError(f"exact must be True or False, got {exact!r}")
    n = len(odd.features)
    if not exact and n > MAX_FLOAT_FEATURES:
        name = "SHAP" if kind == "shapley" else "Banzhaf"
        raise ArgumentError(f"{name} values of {n:,} features overflow floating point (the "
                            f"sums over coalitions pass 2**1024 beyond {MAX_FLOAT_FEATURES:,} "
                            f"features): ask with exact=True")
    single = not _is_frame(X)
    xs = rows[0]
    chain = None
    if isinstance(background, Classifier):  # the network's distribution over the features
        got = network_background(odd, background, exact)
        if got[0] == "mixture":  # of products: a pair per component
            counts, q = got[1:]
        else:  # drawn along the layers with a context
            counts, q, chain = None, None, got[1]
        zs, total = None, 1
    elif isinstance(background, Mapping):
        q = _product(odd, background, exact)
        zs, counts, total = None, None, 1
    elif _is_frame(background):
        if len(background) == 0:
            raise DataError("the background data set has no rows")
        bz = rows[1]
        zs, counts = np.unique(bz, axis=0, return_counts=True)
        q, total = None, len(bz)
    else:
        raise ArgumentError(f"background must be a DataFrame of rows, a mapping "
                            f"{{feature: {{state: probability}}}} or a Classifier (its "
                            f"network's distribution), got {type(background).__name__}")
    dtype = object if exact else float
    phi = np.zeros((len(xs), n), dtype=dtype)
    base = np.zeros(len(xs), dtype=dtype)
    nz = len(counts) if counts is not None else 1  # background rows or components
    pairs = len(xs) * nz
    kids, _ = feature_graph(odd)
    worst = sum(len(k) * (n - m + 1) for m, k in enumerate(kids))  # numbers a pair may need
    if chain is not None:  # ... in each context
        worst *= max(chain.sizes)
    start, chunk = 0, int(min(4096, max(1, CHUNK_BYTES // (32 * worst))))
    while start < pairs:
        sel = np.arange(start, min(pairs, start + chunk))
        start += len(sel)
        xi, zi = sel // nz, sel % nz
        qz = q if zs is not None or chain is not None or not isinstance(
            background, Classifier) else [a[zi] for a in q]
        v, e, cells = game_values(odd, xs[xi], None if zs is None else zs[zi], qz, kind=kind,
                                  exact=exact, chain=chain)
        chunk = max(1, int(CHUNK_BYTES // (32 * max(1, cells / len(sel)))))
        if counts is not None:
            w = counts[zi].astype(object) if exact else counts[zi].astype(float)
            v = v * w[:, None]
            e = e * w
        np.add.at(phi, xi, v)
        np.add.at(base, xi, e)
    if zs is not None:
        phi = phi / (Fraction(total) if exact else total)
        base = base / (Fraction(total) if exact else total)
    # the decisions: v(N) (exactly 0 or 1), read from the diagram
    decisions = _decisions(odd, xs)
    order = [odd.features.index(f) for f in odd.display_order]
    states = np.empty(xs.shape, dtype=object)
    for i, names in enumerate(odd.encoding.states):
        states[:, i] = np.array(names, dtype=object)[xs[:, i]]
    phi, states = phi[:, order], states[:, order]
    if single:
        phi, base, states, decisions = phi[0], base[0], states[0], decisions[0]
    index = X.index if not single else None
    return Attributions(phi, base, states, tuple(odd.display_order), kind=kind,
                        decisions=decisions, index=index,
                        classes=(odd.decision_text(True), odd.decision_text(False)))


@question
def shap_values(odd: ODD, X: Any, background: Any, *, exact: bool = False,
                within="support") -> Attributions:
    """Exact SHAP values of the decision on ``X`` (1 for positive, 0 for negative).

    On a :class:`~bnx.MulticlassODD` the game of class ``c`` pays ``[decision = c]``: one
    attribution per feature and class, the class the last axis of ``values`` and
    ``base_values`` (in ``odd.classes`` order), as shap's multi-output explanations; for
    each class, ``base_values + values.sum(features)`` is 1 on the decided class and 0 on
    the others.

    Parameters
    ----------
    odd : ODD
    X : mapping, pandas Series or DataFrame
        One complete instance (without the class), or a DataFrame of complete rows
        (a class column is ignored).
    background : DataFrame or mapping
        A data set of complete rows: interventional SHAP, the mean over its rows ``b``
        of the values of the game ``v(S) = f(x_S, b_rest)``, exactly what
        ``shap.explainers.Exact(f, shap.maskers.Independent(background,
        max_samples=len(background)))`` computes. Or a product distribution
        ``{feature: {state: probability}}`` (a feature left out is uniform over its
        states, a state left out has probability 0): ``v(S) = E_z f(x_S, z_rest)``.
        Or a :class:`~bnx.Classifier` (usually the one the ODD was compiled from): ``z``
        drawn from its network's own distribution over the features, exactly (no data
        needed). Naive Bayes and latent trees, mixtures of products over the joint
        states of the class and the latent nodes (one pass per instance and joint
        state); TANs and other networks with no hidden node once pruned, drawn along
        the ODD's order with the class and the features a later CPT reads carried along.
    exact : bool, default False
        Compute in exact fractions: ``values`` and ``base_values`` hold
        :class:`~fractions.Fraction` objects (probabilities given as floats are taken
        as the rationals they denote). Exponentially cheaper than coalitions but much
        slower than float64; meant for small diagrams and checks.
    within : {"support", "all"}, default "support"
        Whether the background must weigh instances the network allows only (the
        default: a data set's row of probability zero is refused, naming it and the
        findings that conflict, and so is a product distribution that gives some impossible
        instance a positive weight) or may weigh any (``"all"``). The network's own
        distribution (a Classifier) never weighs an impossible one. The instances of ``X``
        must be possible either way.

    Returns
    -------
    Attributions
        One value per feature (in the classifier's order) for one instance; rows by
        features for a DataFrame (then by class, for a multi-class ODD).
        ``base_values + values.sum()`` is the decision.

    Raises
    ------
    InstanceError
        A row of ``X`` or of the background misses a feature or names an unknown state;
        an :class:`~bnx.ImpossibleInstanceError` when the network cannot produce a row
        of ``X``, or of the background within the support.
    ArgumentError
        A background of the wrong type, or probabilities that do not sum to 1; a
        classifier whose features or states differ from the ODD's.
    StructureError
        A classifier background with hidden nodes other than a latent tree's.

    See Also
    --------
    bnx.banzhaf_values : Each coalition weighed alike instead of by its size.
    bnx.parameter_sensitivity : How far each CPT entry is from flipping the decision.
    bnx.explain : The report, with these values given ``background=``.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> odd = bnx.compile(clf, backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> a = bnx.shap_values(odd, x, {}, exact=True)  # uniform background
    >>> a.base_values
    Fraction(3, 8)
    >>> for f, v in zip(a.feature_names, a.values):
    ...     print(f, v)
    WorkExperience 29/96
    FirstTimeApplicant 25/96
    EntranceExam 25/96
    GPA -19/96
    >>> a.base_values + sum(a.values) == a.decisions
    True
    >>> n = bnx.shap_values(odd, x, clf)  # the network's own distribution
    >>> round(float(n.base_values), 4), [round(float(v), 4) for v in n.values]
    (0.2967, [0.2785, 0.2499, 0.3164, -0.1414])

    Many classes: the class is the last axis.

    >>> asia = bnx.examples.asia()
    >>> many = bnx.compile(bnx.Classifier(asia.network, "either", features=["xray", "dysp"]))
    >>> m = bnx.shap_values(many, {"xray": "yes", "dysp": "yes"}, {}, exact=True)
    >>> m.output_names, m.values.shape, [str(b) for b in m.base_values]
    (('yes', 'no'), (2, 2), ['1/4', '3/4'])
    >>> [str(v) for v in m.values[:, 0]], m.decided
    (['3/8', '3/8'], 'yes')
    """
    return _values(odd, X, background, "shapley", exact, within)


@question
def banzhaf_values(odd: ODD, X: Any, background: Any, *, exact: bool = False,
                   within="support") -> Attributions:
    """Compute the exact Banzhaf values of the decision on ``X``.

    The mean marginal contribution of each feature over all coalitions of the others, each
    weighing ``2^(1-n)``.

    The game, ``X``, ``background`` and ``exact`` are as for :func:`shap_values`
    (Banzhaf values need not add up to the decision minus ``base_values``).

    Parameters
    ----------
    odd : ODD
        The decision function.
    X : mapping, list of mappings or pandas.DataFrame
        The instance or instances to explain, as for :func:`~bnx.shap_values`.
    background : mapping, list of mappings, pandas.DataFrame or Classifier
        What an absent feature's value is drawn from, as for :func:`~bnx.shap_values`.
    exact : bool, default False
        Fractions instead of floats.
    within : {"support", "all"}, default "support"
        Whether the background's rows must be possible, as for :func:`~bnx.shap_values`.

    Returns
    -------
    Attributions

    See Also
    --------
    bnx.shap_values : Each coalition weighed by its size: the values add up to the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "-"}
    >>> a = bnx.banzhaf_values(odd, x, {}, exact=True)
    >>> [str(v) for v in a.values]
    ['17/64', '15/64', '15/64', '-15/64']
    """
    return _values(odd, X, background, "banzhaf", exact, within)


def attribution_columns(odd: ODD, frame: Any, kinds: Any, background: Any):
    """Compute the attribution columns of :func:`bnx.explain_data`.

    A DataFrame on ``frame``'s index with a column ``"<kind>:<feature>"`` per kind
    (``"shap"``, ``"banzhaf"``) and feature, NaN on rows with missing values (attributions
    need complete rows). On a multi-class ODD each row's values are those of its decided
    class (:meth:`Attributions.toward_decided`).
    """
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
            values[complete] = fn(odd, frame[complete], background).toward_decided()
        for j, f in enumerate(feats):
            out[f"{kind}:{f}"] = values[:, j]
    return pd.DataFrame(out, index=frame.index)
