"""The compiled value: :class:`~bnx.ODD`, a classifier's decision function, and its file.

- :mod:`._odd`: :class:`~bnx.ODD`, immutable once compiled or loaded, and
  :class:`~bnx.MulticlassODD`, one class formula per class state, with its answers on
  instances (validated, decided, counted);
- :mod:`._rows`: instances and rows encoded and decided against it;
- :mod:`._tables`: the class joint from a saved file's tables, without pgmpy;
- :mod:`._classifier_json`: a classifier as a JSON document (kept inside the file);
- :mod:`.io`: the ``.bnx`` file format (it returns parts; :mod:`._odd` assembles them).
"""
