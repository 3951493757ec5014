"""The decision diagram: its array form, its ``dd`` view, and the passes over it.

- :mod:`._arrays`: :class:`DiagramArrays`, levels and children per node, with the passes
  (count, dd size, negation, cofactor) that run on them, one numpy body each whatever the
  diagram's size;
- :mod:`._columns`: the passes that read a diagram's bare columns (cofactor, dd's node
  count) and the one-sort ``unique`` (all imported from :mod:`._arrays`);
- :mod:`._problem`: whether three columns read from a file are a valid diagram;
- :mod:`._conjunction`: the one conjunction of diagrams in the array form, many pairs at
  once, breadth first (the explanation store's and the compiler's);
- :mod:`._dd`: to and from ``dd`` functions, and copies between managers;
- :mod:`._table_dd`: a node table (the explanation store's columns) to and from ``dd``;
- :mod:`._setops`: the operations the questions need on ``dd`` functions (``∧``, ``∨``,
  ``∃``, ...): no module outside this package calls ``dd`` itself;
- :mod:`._feature_view`: each node's child per feature state (deciding instances);
- :mod:`._passes`: walks over ``dd`` nodes;
- :mod:`.backends`: the ``dd`` managers (pure Python ``autoref`` and CUDD), and bnx's one
  contact with ``dd``'s internals;
- :mod:`._memo`: what is kept per diagram between questions (bounded, clearable);
- :mod:`.encoding`: multi-valued features log-encoded into bits;
- :mod:`.drawing`: pictures of a diagram.

Beside :mod:`bnx.network` on the lowest floor: it knows nothing of networks.
"""
