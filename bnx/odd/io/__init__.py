"""Saving a compiled ODD to one file and loading it back, on either backend.

The package: :mod:`.document` (the format's name, version, keys and checksum),
:mod:`.binary` (the diagram's arrays in binary, and their checks), :mod:`.save`
(writing) and :mod:`.load` (reading, with every check). It returns parts:
:func:`load_odd` gives the keyword arguments from which :meth:`bnx.ODD.load` makes the
ODD (this package does not import :mod:`bnx.odd._odd`).

An ODD file (conventionally ``*.bnx``, format version 3, :data:`FORMAT_VERSION`) is a
readable UTF-8 JSON header, one key per line and ending with a line ``}``, followed by
the diagram's arrays in binary. The header's keys:

=================  ==========================================================
key                value
=================  ==========================================================
``format``         ``"bnx-odd"``
``version``        ``3``
``bnx_version``    the version of bnx that wrote the file
``backend``        the backend the ODD was saved from (``"autoref"``/``"cudd"``)
``features``       the features, in the ODD's variable order
``states``         for each feature, its state names (JSON strings, numbers,
                   booleans or null: their Python types survive the trip)
``variables``      the BDD variables by level (``x{i}_{b}``, see
                   :mod:`bnx.diagram.encoding`)
``class_var``      the class variable
``positive``       the positive class state
``threshold``      the exact threshold as ``"p/q"`` (``null`` under the argmax rule)
``fingerprint``    :attr:`bnx.Classifier.fingerprint` of the source classifier
``count``          :meth:`bnx.ODD.count` as a decimal string (exact)
``size``           :attr:`bnx.ODD.size`
``arrays``         ``{"nodes": N, "root": r, "dtype": "<i4", "sha256": hex}``:
                   the arrays that follow the header (:mod:`.binary`)
``rule``           (optional) ``"argmax"`` for the most-probable-class rule;
                   absent for the threshold rule
``classifier``     (optional) the classifier the ODD was compiled from,
                   exactly: its pgmpy network's CPDs and its decision rule
                   (see :mod:`bnx.odd._classifier_json`)
``least_states``   (optional) for a binary-class naive Bayes, per feature the state
                   whose cofactor is least for the decision and for its
                   complement (:mod:`bnx.classifier._unate`), as two lists of state indices;
                   ``null`` where they do not hold (absent: the loaded ODD asks its
                   classifier)
``checksum``       ``"sha256:<hex>"`` over the canonical JSON of all other keys
                   (the arrays' digest included: it covers the whole file)
=================  ==========================================================

After the header come ``12 N`` bytes: the levels, the low children and the high
children of the ``N`` nodes of :attr:`bnx.ODD.arrays` (:class:`bnx.diagram._arrays.DiagramArrays`:
node 0 false, node 1 true, children first, grouped by level deepest first, reduced), as
little-endian ``int32``. Loading reads them straight into numpy and checks the
checksum, the digest, every part of the header, that the arrays are such a diagram
(vectorised passes), that it is false on the codes that name no state, and the exact
count and the size; the ``dd`` nodes are made from the arrays when first needed.

A multi-class ODD (:class:`bnx.MulticlassODD`) is one such file whose ``count`` and
``arrays`` are lists, one entry per class state, with the extra key ``classes`` (per
state its formula's fingerprint and size); each class formula's arrays follow the header
in class order (``docs/file-format.md``).

Files of versions 1 and 2 still load: they are all JSON, with ``diagram`` (``dd``'s
JSON dump of the function and of the domain, nodes numbered in post-order from 2)
instead of ``arrays``; version 1 has no ``classifier`` and no ``rule``. Their diagram is
rebuilt node by node in a fresh manager of the requested backend, with its own checks
(every node well-formed, below its parent, reachable, not redundant; the domain is the
encoding's and the function implies it).

Any failure raises :class:`~bnx.errors.ODDFileError` naming the problem, and nothing is
returned. ``docs/file-format.md`` describes the format in full.
"""

from ..._util.lazy import lazy_attributes
from .document import FORMAT_NAME, FORMAT_VERSION  # noqa: F401
from .load import load_odd, loads_odd  # noqa: F401  (loads_odd: unpickling)

# writing is imported when first used: a process that only reads a file never needs it
__getattr__ = lazy_attributes(globals(), {"save_odd": (".save", "save_odd"),
                                          "dumps_odd": (".save", "dumps_odd")})

__all__ = ["save_odd", "load_odd", "FORMAT_VERSION"]
