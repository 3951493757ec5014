"""How a set of explanations shows itself: tables, pictures, titles and text.

:class:`Shown` holds the display methods of :class:`~bnx.explanation.explanations.Explanations`
(which derives from it): the wide table (:meth:`Shown.to_frame`), the picture, the one-line
title, the on states, the members shortest first (:mod:`.ordered`) and the text and HTML of
``print`` and notebooks (:mod:`.printing`). They read the set only through its public
members (``features``, ``on``, iteration, ``nodes``, ``layout``) and the display order
(``_display``) it keeps.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._util.guard import guarded
from ..errors import ArgumentError
from . import printing
from .ordered import shortest_first

__all__ = ["Shown"]


@guarded
class Shown:
    """The display methods of an explanation set.

    See :class:`~bnx.explanation.explanations.Explanations`.
    """

    __slots__ = ()

    def to_frame(self, limit: int | None = None):
        """Return a pandas DataFrame, one row per explanation, ``*`` for a dropped feature.

        ``limit`` caps the number of rows (``None``: all of them). For MC-explanations,
        ``attrs["on"]`` holds the on states (:attr:`on`).

        Returns
        -------
        pandas.DataFrame
            One row per explanation, one column per feature.
        """
        import pandas as pd
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise ArgumentError(f"limit must be a non-negative integer or None, got {limit!r}")
        rows = []
        for e in self:
            if limit is not None and len(rows) >= limit:
                break
            rows.append({f: e.get(f, "*") for f in self.features})
        frame = pd.DataFrame(rows, columns=list(self.features), dtype=object)
        if self.on is not None:
            frame.attrs["on"] = dict(self.on)
        return frame

    def plot(self, ax=None, **options):
        """Draw the explanations as a grid with matplotlib; see :func:`bnx.plot.plot_explanations`.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from ..diagram.drawing import plot_explanations
        return plot_explanations(self, ax, **options)

    def title(self) -> str:
        """One line: how many explanations of which decision, and of which lengths.

        How many explanations of which decision (in the class's words), what they are, and
        how many there are of each length.

        Returns
        -------
        str

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
        >>> bnx.pi_explanations(odd, x).title()
        '3 sufficient reasons for Admit = + (PI-explanations; length 2: 1, 3: 2)'
        """
        return printing.title(self)

    def on_text(self) -> str | None:
        """Write the on states of MC-explanations as one line.

        ``None``, not applicable, for other kinds.

        Returns
        -------
        str or None

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.asia(), backend="autoref")
        >>> x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
        >>> bnx.mc_explanations(odd, x, on={"asia": "no", "smoke": "no", "xray": "no",
        ...                                 "dysp": "no"}).on_text()
        'on states: asia = no, smoke = no, xray = no, dysp = no'
        """
        if self.on is None:
            return None
        shown = [f for f in self.features if f in self.on]
        return "on states: " + (", ".join(
            f"{f} = {' or '.join(map(str, self.on[f]))}" for f in shown) or "(none)")

    def shortest_first(self) -> Iterator[dict]:
        """List the explanations as dicts, shortest first (then in :meth:`__iter__`'s order).

        Found on the diagram length by length: the first few cost a few walks down it,
        however many explanations there are.

        Returns
        -------
        iterator of dict

        Examples
        --------
        >>> import bnx
        >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
        >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
        >>> next(bnx.pi_explanations(odd, x).shortest_first())
        {'WorkExperience': '+', 'GPA': '+'}
        """
        table, ref = self.nodes
        rank = [0] * self.layout.n
        for r, j in enumerate(self._display):
            rank[j] = r
        return shortest_first(table, ref, self.layout, rank)

    def __str__(self) -> str:
        return printing.text(self)

    def _repr_html_(self) -> str:
        return printing.to_html(self)

    def __repr__(self) -> str:
        return f"<Explanations: {self.title()}, diagram size {self.size}>"
