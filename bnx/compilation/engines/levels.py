"""The level engine: binary-class naive Bayes, a whole level at a time.

In floating point with exact ties (:class:`~._levels.Levels`, whose module explains the
algorithm); the fast path.
"""

from __future__ import annotations

import math

from ...classifier._classifier import Classifier
from ...diagram._arrays import DiagramArrays
from ...diagram.encoding import Encoding
from ._base import Engine, Verdict, accept, refuse
from ._estimates import nb_estimate
from ._levels import Levels
from ._weights import log_weights
from .naive_bayes import binary_threshold

__all__ = ["LevelEngine"]


class LevelEngine(Engine):
    """Binary-class naive Bayes, a level at a time in floating point with exact ties.

    By :class:`Levels`; refuses a classifier whose probabilities a double cannot hold.
    """

    name = "naive Bayes, levels"

    @classmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Accept ``clf`` along ``enc``, or refuse it with the reason (see :mod:`._base`)."""
        why = binary_threshold(clf)
        if why is None and clf.structure != "naive_bayes":
            why = f"a {clf.structure} network, not naive Bayes"
        if why:
            return refuse(why)
        weights = log_weights(clf, enc.features)
        if weights is None:
            return refuse("a probability that is not a normal double")
        return accept("a binary-class naive Bayes threshold in doubles", weights)

    def run(self) -> DiagramArrays:
        """Compile the decision function as canonical arrays (the contract of :mod:`._base`)."""
        return Levels(self.clf, self.enc, self.budget, self.given).run()

    @classmethod
    def estimate(cls, clf: Classifier, enc: Encoding, given, samples: int,
                 seed: int) -> int | None:
        """Estimate the ODD's nodes by sampling, or return ``None`` (see :mod:`._base`)."""
        if not math.isfinite(given[0]):
            return None
        return nb_estimate(given, samples, seed, enc)
