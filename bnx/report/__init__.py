"""Reports: one decision in the class's own words, for people who must act on it.

:func:`explain` answers, in one call, what was decided, why and what would change it;
the answer is a :class:`Report`, a small immutable value that prints as plain-language
paragraphs, shows as a table in Jupyter and converts to JSON.

- :mod:`._build`: :func:`explain` (the questions it asks of a compiled ODD or, for a
  classifier too wide to compile, of :mod:`bnx.linear`), and :func:`decided_text`, the
  report's first sentence alone;
- :mod:`._report`: :class:`Report`; :mod:`._values`: its parts (:class:`Counterfactual`:
  one closest change and the class it gives); :mod:`._json`: to and from JSON data;
- :mod:`._text`: the paragraphs of :meth:`Report.text`;
- :mod:`._glossary`: :data:`GLOSSARY`, each technical term with its plain label and a
  one-line definition, which every surface (text, HTML, JSON, the explorer) takes its
  words from; :mod:`._plain`: what the fields imply, derived from what was proven (the
  kind of reason, a close call, a constant classifier, the findings that matter most);
- :mod:`._html`: :func:`render_report`, the HTML fragment (plain Python, inline SVG), which
  the notebook display and the web page share;
- :mod:`._plot`: :meth:`Report.plot`; :mod:`._network`: :func:`plot_network`
  (matplotlib, imported on use).

This layer sits above the questions (``explain/``, ``linear/``, ``attribution/``) and
below the command line.
"""

from .._util.lazy import lazy_attributes
from ._build import MAX_SHOWN, decided_text, explain
from ._glossary import GLOSSARY, Term, term_title
from ._report import NextObservation, Report
from ._values import Counterfactual

# the HTML and the pictures are imported when first used (``bnx explain`` prints text)
__getattr__ = lazy_attributes(globals(), {"render_report": ("._html", "render_report"),
                                          "plot_network": ("._network", "plot_network")})

__all__ = ["GLOSSARY", "MAX_SHOWN", "Counterfactual", "NextObservation", "Report", "Term",
           "decided_text", "explain", "plot_network", "render_report", "term_title"]
