"""The explorer's answer on one instance.

The report (:func:`bnx.explain`), which for a partial instance holds the same-decision
probability and the ranking of what to observe next, as JSON data and as the HTML the page
and ``Report._repr_html_`` share.
"""

from __future__ import annotations

import json

from ..report import render_report
from .explorer import Explorer, finite

__all__ = ["Answer", "answer"]


class Answer:
    """One answer: :attr:`data` (what ``POST /api/explain`` returns) and its report.

    Attributes
    ----------
    data : dict
        The report's :meth:`~bnx.Report.to_dict` (a non-finite number as ``null``): for
        a partial instance ``"sdp"`` (the same-decision probability) and ``"next"`` (a
        list of ``{"feature", "expected_sdp", "flip_probability", "expected_sdp_bounds"}``,
        best first) too.
    report : Report
    body : bytes
        :attr:`data` as the JSON ``POST /api/explain`` sends (encoded once).
    """

    def __init__(self, report) -> None:
        self.report = report
        data = report.to_dict()
        try:  # JSON has no NaN: the rare report with one is encoded without it
            body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        except ValueError:
            data = finite(data)
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        self.data = data
        self.body = body.encode("utf-8")
        self._html: str | None = None

    def report_html(self) -> str:
        """Render the report as ``Report._repr_html_`` shows it (once)."""
        if self._html is None:
            self._html = render_report(self.report)
        return self._html


def answer(explorer: Explorer, instance: dict, background: str = "none",
           rival=None) -> Answer:
    """Answer on ``instance`` (checked by :meth:`Explorer.read`), from the cache when asked before.

    The background and the rival apply to complete instances (attributions, reasons and
    counterfactuals need one); a partial instance is answered without. A rival that is the
    decided class itself asks nothing more: the answer is the one without a rival (its
    report's ``rival`` is ``null``). A classifier served without compiling is asked
    through ``bnx.explain(clf, x)``, with the explorer's ``timeout=`` when it has one.
    """
    if not explorer.complete(instance):
        background, rival = "none", None
    elif rival is not None and explorer.decide(instance) == rival:
        rival = None
    key = (frozenset(instance.items()), background, rival)
    from ..report import explain  # looked up per call (tests record the calls)
    more = {} if explorer.timeout is None else {"timeout": explorer.timeout}
    return explorer.cached(key, lambda: Answer(
        explain(explorer.explained, instance, rival=rival,
                background=explorer.background(background), **more)))
