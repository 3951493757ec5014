"""The result of :func:`bnx.shap_values` and :func:`bnx.banzhaf_values`: :class:`Attributions`."""

from __future__ import annotations


import numpy as np

__all__ = ["Attributions"]


class Attributions:
    """Per-feature attributions of the decision on one instance or on rows of a data set.

    Attributes
    ----------
    values : numpy.ndarray
        One value per feature for one instance; rows by features for a DataFrame, in
        the rows' order. float64, or :class:`~fractions.Fraction` objects with
        ``exact=True``.
    base_values : float or numpy.ndarray
        The expected decision under the background, ``v(empty)`` (one per row for a
        DataFrame; the same for every row).
    data : numpy.ndarray
        The instance's states, shaped like ``values``.
    feature_names : tuple
        The features, in the classifier's order (the columns of ``values``).
    kind : str
        ``"shap"`` or ``"banzhaf"``.
    decisions : int or numpy.ndarray
        The decision (1 positive, 0 negative) on each row: for SHAP,
        ``base_values + values.sum(-1) == decisions`` (local accuracy).
    """

    def __init__(self, values, base_values, data, feature_names, *, kind: str,
                 decisions, index=None) -> None:
        self.values = values
        self.base_values = base_values
        self.data = data
        self.feature_names = tuple(feature_names)
        self.kind = "shap" if kind == "shapley" else kind
        self.decisions = decisions
        self._index = index

    @property
    def single(self) -> bool:
        """Whether this holds one instance (``values`` is one-dimensional)."""
        return np.ndim(self.values) == 1

    def __len__(self) -> int:
        return 1 if self.single else len(self.values)

    def __repr__(self) -> str:
        what = "1 instance" if self.single else f"{len(self)} rows"
        return f"Attributions({self.kind}, {what}, {len(self.feature_names)} features)"

    def to_frame(self):
        """The values as a pandas DataFrame: one column per feature; one row per
        instance (the input's index for a DataFrame)."""
        import pandas as pd
        values = np.atleast_2d(self.values)
        return pd.DataFrame(values.tolist(), columns=list(self.feature_names),
                            index=self._index)

    def to_shap(self):
        """A ``shap.Explanation`` (floats), so that shap's plots work (needs shap,
        the ``[shap]`` extra)."""
        try:
            import shap
        except ImportError:  # pragma: no cover - depends on the environment
            from ..errors import ArgumentError
            raise ArgumentError("to_shap() needs the shap package: pip install 'bnx[shap]'"
                                ) from None
        values = np.asarray(self.values, dtype=float)
        base = np.asarray(self.base_values, dtype=float)
        return shap.Explanation(values=values, base_values=base,
                                data=np.asarray(self.data, dtype=object),
                                feature_names=list(self.feature_names))

    def plot(self, ax=None, *, kind: str | None = None, max_features: int = 20):
        """Draw the attributions with matplotlib; returns the axes.

        One instance: a bar chart (``kind="bar"``, the default) or a waterfall from
        the base value to the decision (``kind="waterfall"``). Many rows: a
        beeswarm-like summary, one row of dots per feature coloured by state.
        """
        from ._draw import draw
        return draw(self, ax, kind=kind, max_features=max_features)
