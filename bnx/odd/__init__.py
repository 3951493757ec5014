"""The compiled value: :class:`~bnx.ODD`, a classifier's decision function, and its file.

- :mod:`._odd`: :class:`~bnx.ODD`, immutable once compiled or loaded;
- :mod:`._classifier_json`: a classifier as a JSON document (kept inside the file);
- :mod:`.io`: the ``.bnx`` file format (it returns parts; :mod:`._odd` assembles them).
"""
