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
        "Admit = -")``): a positive value pushes towards the first. For a multi-class
        ODD, the class states (:attr:`output_names`).
    multiclass : bool
        Whether the values have a class axis (the last), one game per class state.

    For a multi-class ODD (:func:`bnx.shap_values` on a :class:`~bnx.MulticlassODD`),
    ``values`` is features by classes (rows by features by classes), ``base_values`` one
    per class (rows by classes), ``decisions`` one-hot per class (1 on the decided
    class) and :attr:`decided` the decided states, in shap's multi-output layout.
    """

    multiclass = False

    @classmethod
    def stack(cls, parts: list, classes: tuple, class_var) -> Attributions:
        """Stack the attributions of one game per class, the class the last axis.

        Each part is the binary attributions of one class formula.
        """
        out = cls(np.stack([p.values for p in parts], axis=-1),
                  np.stack([np.asarray(p.base_values) for p in parts], axis=-1),
                  parts[0].data, parts[0].feature_names, kind=parts[0].kind,
                  decisions=np.stack([np.asarray(p.decisions) for p in parts], axis=-1),
                  index=parts[0]._index, classes=tuple(classes))
        out.multiclass = True
        out.class_var = class_var
        return out

    @property
    def output_names(self) -> tuple:
        """The outputs of the last axis of a multi-class result (its class states).

        The positive decision alone for a binary one.
        """
        return self.classes if self.multiclass else self.classes[:1]

    @property
    def decided(self):
        """The decided class state of a multi-class result (one per row for many rows).

        The decision's words (``"Admit = +"``) of a binary one.
        """
        d = np.asarray(self.decisions)
        if self.multiclass:
            which = np.argmax(d, axis=-1)
            names = np.asarray(self.classes, dtype=object)
            return names[which] if np.ndim(which) else names[int(which)]
        words = np.asarray(self.classes, dtype=object)[1 - d.astype(int)]
        return words if words.ndim else words.item()

    def for_class(self, state) -> Attributions:
        """Return the attributions of one class's game ``[decision = state]``, as a binary result.

        A multi-class result only.

        Returns
        -------
        Attributions
        """
        if not self.multiclass:
            from ..errors import ArgumentError
            raise ArgumentError("for_class() takes one class of a multi-class result")
        from ..classifier._instances import resolve_state
        j = resolve_state(self.classes, state)
        if j is None:
            from ..errors import UnknownStateError
            raise UnknownStateError(f"{state!r} is not one of the classes "
                                    f"{', '.join(map(str, self.classes))}")
        name = f"{self.class_var} = {self.classes[j]}"
        return Attributions(self.values[..., j], np.asarray(self.base_values)[..., j],
                            self.data, self.feature_names, kind=self.kind,
                            decisions=np.asarray(self.decisions)[..., j], index=self._index,
                            classes=(name, f"{self.class_var} \u2260 {self.classes[j]}"))

    def toward_decided(self):
        """Return the values toward each row's own decision.

        A binary result's values as they are; a multi-class result's column of the decided
        class (features, or rows by features).

        Returns
        -------
        numpy.ndarray
        """
        if not self.multiclass:
            return self.values
        j = np.argmax(np.asarray(self.decisions), axis=-1)
        if self.single:
            return self.values[:, int(j)]
        return self.values[np.arange(len(self.values)), :, j]

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
        """Whether this holds one instance.

        ``values`` is one-dimensional, or features by classes.
        """
        return np.ndim(self.values) == 1 + self.multiclass

    def __len__(self) -> int:
        """Count the instances: 1 for one instance, else the rows."""
        return 1 if self.single else len(self.values)

    def __repr__(self) -> str:
        """Name the kind, the instances and the number of features."""
        what = "1 instance" if self.single else f"{len(self)} rows"
        return f"Attributions({self.kind}, {what}, {len(self.feature_names)} features)"

    def __str__(self) -> str:
        """Say the values in words.

        For one instance, the decision, the base value and each feature's push, largest
        first; for many rows, the mean absolute values.
        """
        name = "SHAP" if self.kind == "shap" else "Banzhaf"
        if self.multiclass:
            if self.single:
                decided = self.decided
                return (f"{name} values for {len(self.classes)} classes; decided "
                        f"{self.class_var} = {decided}, toward it:\n"
                        + str(self.for_class(decided)).split("\n", 1)[1])
            mean = np.abs(np.asarray(self.toward_decided(), dtype=float)).mean(axis=0)
            lines = [f"{name} values of {len(self)} decisions among {len(self.classes)} "
                     f"classes; mean |value| toward each row's decided class:"]
            lines += [f"  {self.feature_names[i]}: {float(mean[i]):.3g}"
                      for i in np.argsort(-mean, kind="stable").tolist()]
            return "\n".join(lines)
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
        """Return the values as a pandas DataFrame: one column per feature.

        One row per instance (the input's index for a DataFrame).

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd
        if self.multiclass:  # columns (class, feature)
            values = self.values[None] if self.single else self.values
            columns = pd.MultiIndex.from_product([self.classes, self.feature_names],
                                                 names=["class", "feature"])
            flat = np.swapaxes(values, 1, 2).reshape(len(values), -1)
            return pd.DataFrame(flat.tolist(), columns=columns, index=self._index)
        values = np.atleast_2d(self.values)
        return pd.DataFrame(values.tolist(), columns=list(self.feature_names),
                            index=self._index)

    def to_shap(self):
        """Return a ``shap.Explanation`` (floats), so that shap's plots work.

        Needs shap, the ``[shap]`` extra.

        Returns
        -------
        shap.Explanation
            One instance: ``values`` one-dimensional and ``base_values`` a float (as
            shap's waterfall plot expects); many rows: both arrays, one row each. A
            multi-class result keeps the class as the last axis (``output_names`` the
            class states), as shap's own multi-output explanations.
        """
        try:
            import shap
        except ImportError:  # pragma: no cover - depends on the environment
            from ..errors import ArgumentError
            raise ArgumentError("to_shap() needs the shap package: pip install shap (or, "
                                "in bnx's clone, pip install -e '.[shap]')") from None
        values = np.asarray(self.values, dtype=float)
        if self.multiclass:
            return shap.Explanation(values=values,
                                    base_values=np.asarray(self.base_values, dtype=float),
                                    data=np.asarray(self.data, dtype=object),
                                    feature_names=list(self.feature_names),
                                    output_names=list(self.classes))
        # one instance: shap takes its base value as a number (a 0-d array has no len())
        base = (float(np.asarray(self.base_values, dtype=float)) if self.single
                else np.asarray(self.base_values, dtype=float))
        return shap.Explanation(values=values, base_values=base,
                                data=np.asarray(self.data, dtype=object),
                                feature_names=list(self.feature_names))

    def plot(self, ax=None, *, kind: str | None = None, max_features: int = 20, of=None):
        """Draw the attributions with matplotlib; returns the axes.

        One instance: a bar chart (``kind="bar"``, the default) or a waterfall from
        the base value to the decision (``kind="waterfall"``). Many rows: a
        beeswarm-like summary, one row of dots per feature coloured by state.

        A multi-class result draws one class's game: ``of=`` a class state, by default the
        decided one (for many rows, each row toward its own decided class).

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ._draw import draw
        if self.multiclass:
            if of is not None or self.single:
                return draw(self.for_class(self.decided if of is None else of), ax,
                            kind=kind, max_features=max_features)
            own = Attributions(self.toward_decided(), np.zeros(len(self)), self.data,
                               self.feature_names, kind=self.kind,
                               decisions=np.ones(len(self), dtype=int), index=self._index,
                               classes=(f"its decided {self.class_var}", "another class"))
            return draw(own, ax, kind=kind, max_features=max_features)
        return draw(self, ax, kind=kind, max_features=max_features)
