"""A classifier read from, or handed to, other formats: network files, pyAgrum, scikit-learn.

:class:`Interop` is the part of :class:`bnx.Classifier` that meets other libraries: the
constructors from a network file (:mod:`bnx.network.readers`), a ``pyagrum.BayesNet``
(:mod:`bnx.network.pyagrum`) and a fitted scikit-learn naive Bayes
(:mod:`bnx.network.sklearn`), and the way back to pyAgrum.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .._util.guard import guarded
from .._util.types import Feature, State
from ._rules import _HALF

if TYPE_CHECKING:
    from ._classifier import Classifier

__all__ = ["Interop"]


@guarded
class Interop:
    """The constructors of :class:`bnx.Classifier` from other formats, and its network to pyAgrum.

    A base class: :meth:`to_pyagrum` reads the classifier's network.
    """

    @classmethod
    def from_file(cls, path: str | os.PathLike, class_var: Feature,
                  positive: State | None = None, *,
                  threshold: float | Fraction = _HALF,
                  features: Sequence[Feature] | None = None,
                  rule: str | None = None, ordinal: Any = None,
                  max_bytes: int | None = None) -> Classifier:
        """Read a BIF, XMLBIF, Hugin NET or UAI file and wrap it as a classifier.

        UAI files have no names: pgmpy calls their variables ``var_0``, ``var_1``, ...
        and their states ``0``, ``1``, ... ``max_bytes`` bounds the file's size, and a
        gzipped file's size once inflated (default :data:`bnx.network.readers.MAX_BYTES`,
        64 MiB: :func:`bnx.read_network`). The other arguments are as for
        :class:`Classifier`: without ``positive``, the classifier picks the most probable
        class state.

        Returns
        -------
        'Classifier'

        Examples
        --------
        >>> import bnx, os, tempfile
        >>> from pgmpy.readwrite import BIFWriter
        >>> path = os.path.join(tempfile.mkdtemp(), "admissions.bif")
        >>> BIFWriter(bnx.examples.admissions_network()).write(path)
        >>> clf = bnx.Classifier.from_file(path, "Admit", "+")
        >>> clf.structure, len(clf.features)
        ('naive_bayes', 4)
        """
        from ..network.readers import MAX_BYTES, read_network
        net = read_network(path, max_bytes=MAX_BYTES if max_bytes is None else max_bytes)
        return cls(net, class_var, positive, threshold=threshold,
                   features=features, rule=rule, ordinal=ordinal)

    @classmethod
    def from_pyagrum(cls, bn: Any, class_var: Feature, positive: State | None = None, *,
                     threshold: float | Fraction = _HALF,
                     features: Sequence[Feature] | None = None,
                     rule: str | None = None) -> Classifier:
        """Make the classifier of a ``pyagrum.BayesNet`` (needs pyAgrum: the ``pyagrum`` extra).

        The network is copied into pgmpy entry for entry (:func:`bnx.network.pyagrum.from_pyagrum`);
        states are pyAgrum's labels. The other arguments are as for :class:`Classifier`
        (without ``positive``, the most probable class state is decided).

        Returns
        -------
        'Classifier'
        """
        from ..network.pyagrum import from_pyagrum
        return cls(from_pyagrum(bn), class_var, positive, threshold=threshold,
                   features=features, rule=rule)

    def to_pyagrum(self) -> Any:
        """Return the classifier's network as a ``pyagrum.BayesNet``.

        By :func:`bnx.network.pyagrum.to_pyagrum`, to run pyAgrum's own inference on it; the
        class, features and rule stay here.

        Returns
        -------
        object
        """
        from ..network.pyagrum import to_pyagrum
        return to_pyagrum(self._network)

    @classmethod
    def from_sklearn(cls, estimator: Any, positive: State = None, *,
                     feature_names: Sequence[Feature] | None = None) -> Classifier:
        """Make the classifier of a fitted sklearn ``CategoricalNB`` or ``BernoulliNB``.

        It decides as the estimator's ``predict`` (``rule="argmax"``) on every instance; see
        :mod:`bnx.network.sklearn` for the names and states.

        Parameters
        ----------
        estimator : sklearn.naive_bayes.CategoricalNB or BernoulliNB
            Fitted.
        positive : one of ``estimator.classes_``, optional
            The positive class; default ``classes_[1]`` for two classes (required for more).
        feature_names : sequence, optional
            The feature names; default ``feature_names_in_`` or ``x0, x1, ...``.

        Returns
        -------
        'Classifier'

        Raises
        ------
        ArgumentError
            Not a fitted CategoricalNB/BernoulliNB, an unknown ``positive``, wrong
            ``feature_names``, or more than two classes and no ``positive``.
        """
        from ..network.sklearn import sklearn_parts
        net, class_var, pos, names = sklearn_parts(estimator, positive,
                                                   feature_names=feature_names)
        return cls(net, class_var, pos, features=names, rule="argmax")
