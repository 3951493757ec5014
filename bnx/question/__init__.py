"""What every question on a compiled ODD shares (no public names).

- :mod:`._cache`: what the questions keep per ODD, in the cache of its array form
  (managers and node tables for explanation sets, layouts, the unate features' least
  states);
- :mod:`._indices`: instances as state indices, and the memo of the last instance asked
  about;
- :mod:`._reach`: the linear passes over the diagram seen per feature (distances to a
  decision, closest flips, the nodes a partial instance reaches);
- :mod:`._classes`: the class formula a question on one decision of a multi-class ODD is
  asked of, and the question's words.

Above :mod:`bnx.compilation` and below the questions (:mod:`bnx.probability`,
:mod:`bnx.explanation`, :mod:`bnx.changes`), which all import it.
"""
