"""Write the small intersphinx inventories that let the docs build offline.

The documentation build must not need the network, and the sites' own ``objects.inv``
files cannot be fetched at build time. So this script writes, for Python, numpy and pandas,
an inventory of the few names bnx's docs link to, each at the address where that site's
Sphinx build publishes it (the address scheme of each site is given below). Every name is
checked to exist in the installed package before it is written. Run it after adding a
name to the lists::

    python docs/_inventories/make_inventories.py

Skipped, with reasons: **pgmpy** publishes an inventory, but its page layout changes
between releases and could not be checked offline, so no addresses are guessed for it;
**dd** publishes no Sphinx documentation (its manual is ``doc.md`` in its repository).
With the network, ``BNX_DOCS_ONLINE=1 python -m sphinx ...`` uses the sites' own
inventories instead (pgmpy included), see ``docs/conf.py``.
"""

from __future__ import annotations

import importlib
import pathlib
import zlib

HERE = pathlib.Path(__file__).resolve().parent

# name -> (role, page) for Python's builtins and standard library (docs.python.org/3).
PYTHON = {
    "int": ("class", "library/functions.html"),
    "float": ("class", "library/functions.html"),
    "bool": ("class", "library/functions.html"),
    "object": ("class", "library/functions.html"),
    "str": ("class", "library/stdtypes.html"),
    "bytes": ("class", "library/stdtypes.html"),
    "dict": ("class", "library/stdtypes.html"),
    "list": ("class", "library/stdtypes.html"),
    "tuple": ("class", "library/stdtypes.html"),
    "set": ("class", "library/stdtypes.html"),
    "frozenset": ("class", "library/stdtypes.html"),
    "None": ("data", "library/constants.html"),
    "True": ("data", "library/constants.html"),
    "False": ("data", "library/constants.html"),
    "Exception": ("exception", "library/exceptions.html"),
    "ValueError": ("exception", "library/exceptions.html"),
    "KeyError": ("exception", "library/exceptions.html"),
    "TypeError": ("exception", "library/exceptions.html"),
    "OSError": ("exception", "library/exceptions.html"),
    "MemoryError": ("exception", "library/exceptions.html"),
    "fractions.Fraction": ("class", "library/fractions.html"),
    "pathlib.Path": ("class", "library/pathlib.html"),
    "os.PathLike": ("class", "library/os.html"),
    "collections.abc.Mapping": ("class", "library/collections.abc.html"),
    "collections.abc.Sequence": ("class", "library/collections.abc.html"),
    "collections.abc.Iterable": ("class", "library/collections.abc.html"),
    "collections.abc.Iterator": ("class", "library/collections.abc.html"),
    "collections.abc.Collection": ("class", "library/collections.abc.html"),
    "typing.Any": ("data", "library/typing.html"),
    "pickle": ("module", "library/pickle.html"),
    "fractions": ("module", "library/fractions.html"),
}

# The glossary terms and the label that numpydoc links its plain type words to
# ("sequence", "bool", ...): (domain:role, uri, display name).
PYTHON_STD = {
    "iterable": ("std:term", "glossary.html#term-iterable", "-"),
    "sequence": ("std:term", "glossary.html#term-sequence", "-"),
    "mapping": ("std:term", "glossary.html#term-mapping", "-"),
    "hashable": ("std:term", "glossary.html#term-hashable", "-"),
    "generator": ("std:term", "glossary.html#term-generator", "-"),
    "bltin-boolean-values": ("std:label", "library/stdtypes.html#bltin-boolean-values",
                             "Boolean Type - bool"),
    "callable": ("py:function", "library/functions.html#callable", "-"),
}

# numpy.org/doc/stable: one generated page per routine or class.
NUMPY = {
    "numpy.ndarray": "class",
    "numpy.argmax": "function",
    "numpy.isnan": "data",
    "numpy.log": "data",
}

# pandas.pydata.org/docs: one page per name under reference/api.
PANDAS = {
    "pandas.DataFrame": "class",
    "pandas.Series": "class",
    "pandas.Index": "class",
    "pandas.read_csv": "function",
    "pandas.qcut": "function",
    "pandas.cut": "function",
    "pandas.isna": "function",
}


def _exists(dotted: str) -> bool:
    if dotted in ("None", "True", "False"):
        return True
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    import builtins
    return hasattr(builtins, dotted)


def _anchor(name: str, role: str) -> str:
    return f"module-{name}" if role == "module" else name


def write(path: pathlib.Path, project: str, version: str,
          entries: list[tuple[str, str, str]], std: dict | None = None) -> None:
    """Write an inventory (format version 2).

    It lists ``(name, role, uri)`` Python objects and ``std`` entries
    ``{name: (domain:role, uri, display name)}``.
    """
    for name, _, _ in entries:
        if not _exists(name):
            raise SystemExit(f"{project}: {name} does not exist in the installed package")
    lines = [f"{name} py:{role} 1 {uri} -" for name, role, uri in entries]
    lines += [f"{name} {role} -1 {uri} {shown}" for name, (role, uri, shown)
              in (std or {}).items()]
    body = "".join(line + "\n" for line in sorted(lines))
    head = (f"# Sphinx inventory version 2\n# Project: {project}\n# Version: {version}\n"
            "# The remainder of this file is compressed using zlib.\n")
    path.write_bytes(head.encode() + zlib.compress(body.encode(), 9))


def main() -> None:
    """Write the inventories of Python, numpy and pandas beside this script."""
    import numpy
    import pandas
    write(HERE / "python.inv", "Python", "3",
          [(n, r, f"{page}#{_anchor(n, r)}") for n, (r, page) in PYTHON.items()],
          PYTHON_STD)
    write(HERE / "numpy.inv", "NumPy", numpy.__version__.rsplit(".", 1)[0],
          [(n, r, f"reference/generated/{n}.html#{n}") for n, r in NUMPY.items()])
    write(HERE / "pandas.inv", "pandas", pandas.__version__.rsplit(".", 1)[0],
          [(n, r, f"reference/api/{n}.html#{n}") for n, r in PANDAS.items()])


if __name__ == "__main__":
    main()
