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
- :mod:`._traversals`: walks over ``dd`` nodes (``post_order``, the one post-order walk, and
  ``unwind``, a recursion run on a stack
  of its own);
- :mod:`.store`: the store that sets on the diagram (explanation sets, erosions) are built
  in, node by node (its part :mod:`._store_features`);
  :mod:`.walks`: the depth-first walks that count, list and minimise those sets;
  :mod:`._depth_first`: the memoised depth-first pass over (node, feature) pairs;
- :mod:`.layout`: how a set's choices (a state kept, or the feature dropped) are laid out
  as variables;
- :mod:`._pairs`: walks down one or two diagrams that count a box's instances and pairs
  of instances;
- :mod:`.backends`: the ``dd`` managers (pure Python ``autoref`` and CUDD), and bnx's one
  contact with ``dd``'s internals;
- :mod:`._memo`: what is kept per diagram between questions (bounded, clearable);
- :mod:`.encoding`: multi-valued features log-encoded into bits;
- :mod:`.drawing`: pictures of a diagram.

Beside :mod:`bnx.network` on the lowest floor: it knows nothing of networks.
"""
