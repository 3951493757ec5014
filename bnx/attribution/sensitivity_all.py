"""Sensitivity of the whole decision function (no instance): not computed yet.

Keeping every decision of a classifier means keeping the extreme instances' margins on
the right side of the threshold, a constrained optimisation over all instances (a
dynamic programme over the compiled diagram for naive Bayes). Until that lands,
:func:`bnx.parameter_sensitivity` needs an instance and says so.
"""

from __future__ import annotations

from ..errors import StructureError

__all__ = ["whole_sensitivity"]


def whole_sensitivity(classifier, *, exact: bool = False):
    """Refuse with a :class:`~bnx.StructureError` naming what is supported."""
    raise StructureError(
        f"parameter_sensitivity without an instance (every decision of the classifier "
        f"kept) is not supported yet for any structure (this classifier: "
        f"{classifier.structure!r}); give an instance: "
        f"parameter_sensitivity(classifier, instance)")
