"""The ODD's answers on instances: validated, decided one by one or row by row, counted.

:class:`Decisions` is the part of :class:`bnx.ODD` that takes instances, as
:class:`bnx.classifier._decisions.Decisions` is for :class:`bnx.Classifier`: it reads the
ODD's encoding and arrays; the work is in :mod:`bnx.odd._rows` (instances and rows encoded
and decided) and :mod:`bnx.diagram._arrays` (the count).
"""

from __future__ import annotations

import math

from .._util.types import Instance
from ..diagram._arrays import count as count_models
from . import _rows

__all__ = ["Decisions"]


class Decisions:
    """The instance-taking methods of :class:`bnx.ODD`.

    A base class: it reads the ODD's encoding and arrays.
    """

    def encode(self, instance: Instance, *, partial: bool = False) -> dict:
        """Validate an instance and return ``{feature: state index}``.

        Returns
        -------
        dict
        """
        return _rows.encode(self, instance, partial)

    def assignment(self, indices: dict) -> dict[int, bool]:
        """``{level: bit}`` of a complete instance given as ``{feature: state index}``.

        Returns
        -------
        dict
        """
        enc = self.encoding
        values: dict[int, bool] = {}
        for i, f in enumerate(enc.features):
            for b, v in enumerate(enc.code(i, indices[f]).values()):
                values[enc.first_level[i] + b] = v
        return values

    def decide(self, instance: Instance) -> bool:
        """Decide an instance, by one walk down the diagram.

        A missing value (``None`` or NaN, as in a row of a data set with gaps) leaves
        its feature unobserved: the instance is then decided on its observed features,
        as :meth:`decide_many` decides such a row (:meth:`bnx.Classifier.decide` with
        ``partial=True``). A feature left out of the instance altogether raises
        :class:`~bnx.MissingFeatureError`, as a missing column does in
        :meth:`decide_many`.

        Returns
        -------
        bool
            True for a positive decision.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
        >>> odd.decide(x), odd.decide({**x, "WorkExperience": None})
        (True, True)
        >>> bool(odd.decide_many([{**x, "WorkExperience": None}])[0])
        True
        """
        return _rows.decide(self, instance)

    def decide_many(self, data):
        """Decide many rows at once, as a numpy ``bool`` array in row order.

        ``data`` is a DataFrame (or a list of mappings) with one column per feature; a
        class column is ignored. Complete rows are decided by walking the diagram's
        arrays for all rows at once. A row with missing values is decided on its
        observed features, exactly as :meth:`bnx.Classifier.decide` with
        ``partial=True`` (by the classifier, once per distinct row;
        :func:`bnx.batch.decide_many` compiles the restricted classifiers instead,
        which is faster when many rows miss the same features).

        Returns
        -------
        numpy.ndarray
            One decision per row (True: positive), in row order.

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.case_study.votes_classifier(), backend="autoref")
        >>> votes = bnx.datasets.load_votes()
        >>> d = odd.decide_many(votes)
        >>> int(d.sum()), all(d[i] == odd.classifier.decide(row, partial=True)
        ...                   for i, row in votes.drop(columns="party").iterrows())
        (184, True)
        """
        return _rows.decide_many(self, data)

    def count(self) -> int:
        """Count the complete instances decided positive (an exact ``int``).

        Returns
        -------
        int
            The exact number of positive instances.

        Examples
        --------
        >>> import bnx
        >>> bnx.compile(bnx.examples.admissions(), backend="autoref").count()
        6
        """
        return count_models(self.arrays)

    def total(self) -> int:
        """Count the complete instances.

        Returns
        -------
        int
            The exact number of complete instances.
        """
        return math.prod(len(s) for s in self.encoding.states)
