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
    classes : tuple of str
        The two decisions in the class's words, positive first (``("Admit = +",
        "Admit = -")``): a positive value pushes towards the first.
    """

    def __init__(self, values, base_values, data, feature_names, *, kind: str,
                 decisions, index=None, classes: tuple = ("positive", "negative")) -> None:
        self.classes = tuple(classes)
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

    def __str__(self) -> str:
        """The values in words: for one instance, the decision, the base value and each
        feature's push, largest first; for many rows, the mean absolute values."""
        name = "SHAP" if self.kind == "shap" else "Banzhaf"
        pos, neg = self.classes
        values = np.asarray(self.values, dtype=float)
        if self.single:
            decided = pos if int(self.decisions) else neg
            lines = [f"{name} values of the decision {decided} (1 = {pos}, 0 = {neg}); "
                     f"base value {float(self.base_values):.3g}:"]
            for i in np.argsort(-np.abs(values), kind="stable").tolist():
                v = float(values[i])
                lines.append(f"  {self.feature_names[i]} = {self.data[i]}: {v:+.3g}"
                             + (f" (towards {pos if v > 0 else neg})" if v else ""))
            return "\n".join(lines)
        mean = np.abs(values).mean(axis=0)
        lines = [f"{name} values of {len(self)} decisions (1 = {pos}, 0 = {neg}); "
                 f"mean |value| per feature:"]
        lines += [f"  {self.feature_names[i]}: {float(mean[i]):.3g}"
                  for i in np.argsort(-mean, kind="stable").tolist()]
        return "\n".join(lines)

    def to_frame(self):
        """The values as a pandas DataFrame: one column per feature; one row per
        instance (the input's index for a DataFrame).

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd
        values = np.atleast_2d(self.values)
        return pd.DataFrame(values.tolist(), columns=list(self.feature_names),
                            index=self._index)

    def to_shap(self):
        """A ``shap.Explanation`` (floats), so that shap's plots work (needs shap,
        the ``[shap]`` extra).

        Returns
        -------
        shap.Explanation
            One instance: ``values`` one-dimensional and ``base_values`` a float (as
            shap's waterfall plot expects); many rows: both arrays, one row each.
        """
        try:
            import shap
        except ImportError:  # pragma: no cover - depends on the environment
            from ..errors import ArgumentError
            raise ArgumentError("to_shap() needs the shap package: pip install shap (or, "
                                "in bnx's clone, pip install -e '.[shap]')") from None
        values = np.asarray(self.values, dtype=float)
        # one instance: shap takes its base value as a number (a 0-d array has no len())
        base = (float(np.asarray(self.base_values, dtype=float)) if self.single
                else np.asarray(self.base_values, dtype=float))
        return shap.Explanation(values=values, base_values=base,
                                data=np.asarray(self.data, dtype=object),
                                feature_names=list(self.feature_names))

    def plot(self, ax=None, *, kind: str | None = None, max_features: int = 20):
        """Draw the attributions with matplotlib; returns the axes.

        One instance: a bar chart (``kind="bar"``, the default) or a waterfall from
        the base value to the decision (``kind="waterfall"``). Many rows: a
        beeswarm-like summary, one row of dots per feature coloured by state.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ._draw import draw
        return draw(self, ax, kind=kind, max_features=max_features)
