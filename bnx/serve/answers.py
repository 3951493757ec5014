"""The explorer's answer on one instance: the report, and on a partial instance the
same-decision probability and the ranking of what to observe next."""

from __future__ import annotations

from ..explain.observe import next_observations
from ..report import explain
from ..report._html import report_html
from .explorer import Explorer, finite

__all__ = ["Answer", "answer"]


class Answer:
    """One answer: :attr:`data` (what ``POST /api/explain`` returns) and its report.

    Attributes
    ----------
    data : dict
        The report's :meth:`~bnx.Report.to_dict`, with ``"complete"`` (whether every
        feature has a state) and ``"unknown"`` (the features without one); for a partial
        instance also ``"sdp"`` (the same-decision probability) and ``"next"`` (a list of
        ``{"feature", "expected_sdp", "flip_probability"}``, best first).
    report : Report
    """

    def __init__(self, data: dict, report) -> None:
        self.data = data
        self.report = report
        self._html: str | None = None

    def report_html(self) -> str:
        """The report as ``Report._repr_html_`` shows it (rendered once)."""
        if self._html is None:
            self._html = report_html(self.report)
        return self._html


def _compute(explorer: Explorer, instance: dict, background: str) -> Answer:
    odd = explorer.odd
    complete = explorer.complete(instance)
    report = explain(odd, instance, background=explorer.background(background)
                     if complete else None)
    data = dict(report.to_dict())
    data["complete"] = complete
    data["unknown"] = [f for f in explorer.features if f not in instance]
    if not complete:
        data["sdp"] = float(report.sdp)
        ranking = next_observations(explorer.classifier, instance, odd=odd)
        data["next"] = [{"feature": f, "expected_sdp": float(row["expected_sdp"]),
                         "flip_probability": float(row["flip_probability"])}
                        for f, row in ranking.iterrows()]
    return Answer(finite(data), report)


def answer(explorer: Explorer, instance: dict, background: str = "none") -> Answer:
    """The answer on ``instance`` (checked by :meth:`Explorer.read`), from the cache when
    it was asked before."""
    key = (frozenset(instance.items()), background if explorer.complete(instance) else "none")
    return explorer.cached(key, lambda: _compute(explorer, instance, background))
