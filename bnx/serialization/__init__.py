"""Saving a compiled ODD to one file and loading it back, on either backend.

The package: :mod:`.document` (the format's name, version, keys and checksum),
:mod:`.save` (writing) and :mod:`.load` (reading, with every check).

An ODD file (conventionally ``*.bnx.json``) is a single UTF-8 JSON object:

=================  ==========================================================
key                value
=================  ==========================================================
``format``         ``"bnx-odd"``
``version``        the format version, ``2`` (:data:`FORMAT_VERSION`); files
                   of version ``1`` (no ``classifier``) still load
``bnx_version``    the version of bnx that wrote the file
``backend``        the backend the ODD was saved from (``"autoref"``/``"cudd"``)
``features``       the features, in the ODD's variable order
``states``         for each feature, its state names (JSON strings, numbers,
                   booleans or null: their Python types survive the trip)
``variables``      the BDD variables by level (``x{i}_{b}``, see
                   :mod:`bnx.encoding`)
``class_var``      the class variable
``positive``       the positive class state
``threshold``      the exact threshold as ``"p/q"`` (``null`` under the argmax rule)
``fingerprint``    :attr:`bnx.Classifier.fingerprint` of the source classifier
``count``          :meth:`bnx.ODD.count` as a decimal string (exact)
``size``           :attr:`bnx.ODD.size`
``diagram``        the decision diagram and its domain in ``dd``'s JSON dump
                   format, with ``roots = {"root": ..., "domain": ...}``
``rule``           (version 2, optional) ``"argmax"`` for the most-probable-class
                   rule; absent for the threshold rule
``classifier``     (version 2, optional) the classifier the ODD was compiled
                   from, exactly: its pgmpy network's CPDs and its decision
                   rule (see :mod:`bnx.network_json`)
``checksum``       ``"sha256:<hex>"`` over the canonical JSON of all other keys
=================  ==========================================================

The ``diagram`` object is what ``dd.autoref.BDD.dump(name, roots, filetype="json")``
writes: ``level_of_var`` maps variables to levels, ``roots`` names the root
references, and every other key ``"k"`` (an integer ``k >= 2``) is a node
``[level, low, high]`` standing for ``ite(var_at_level, high, low)``. A reference is
a node number, its negation for the complement, ``"T"``/``"F"`` (or ``1``/``-1``)
for the terminals; children come before their parents. bnx numbers the nodes
itself, in that post-order from ``2``, so the dump is the same whichever backend
wrote it (``dd`` itself writes CUDD's memory addresses).

Loading rebuilds the diagram in a fresh manager of the requested backend, with
the stored variables declared in the stored order and reordering off, and checks
the checksum, the consistency of every part, the model count, the size, that the
domain is the encoding's domain and that the root implies it. Any failure raises
:class:`~bnx.errors.ODDFileError` and nothing is returned.
"""

from .document import FORMAT_NAME, FORMAT_VERSION  # noqa: F401
from .load import load_odd, loads_odd  # noqa: F401  (loads_odd: unpickling)
from .save import dumps_odd, save_odd  # noqa: F401  (dumps_odd: pickling)

__all__ = ["save_odd", "load_odd", "FORMAT_VERSION"]
