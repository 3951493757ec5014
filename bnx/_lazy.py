"""Imports made on first use, so that ``import bnx`` stays light.

Loading a saved ODD and explaining one decision on it never needs pandas or pgmpy. Loading
a small one and asking its MC-explanations, or the PI-explanations of a function unate in
every feature (every binary-class naive Bayes), does not even need numpy, whose import
alone takes longer than the question. Two tools keep those imports out of the way until
they are needed:

- :func:`lazy_attributes`: a module ``__getattr__`` (PEP 562) that imports the module
  behind a public name when the name is first read;
- :func:`numpy_on_first_use`: what a module that uses numpy binds to ``np``: numpy itself
  once it is imported, else a stand-in that imports it on the first ``np.<name>`` and then
  puts numpy itself in its place in every module that holds it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes", "numpy_on_first_use"]


def lazy_attributes(namespace: dict, table: Mapping[str, tuple[str, str | None]]
                    ) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``namespace`` (the module's ``globals()``).

    ``table`` maps an attribute to ``(module, name)``: the module (relative names are
    resolved against the package of ``namespace``) or, with ``name``, one of its
    attributes. The value is imported once, then kept in ``namespace``. Any other
    attribute that names a submodule of the package imports it.
    """
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        if name not in table:
            # a subpackage or module of the package (``bnx.compilation``), as after an
            # eager import of it
            if not name.startswith("__") and importlib.util.find_spec(
                    f"{package}.{name}") is not None:
                value = namespace[name] = importlib.import_module(f"{package}.{name}")
                return value
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = table[name]
        value = importlib.import_module(module, package)
        if attr is not None:
            value = getattr(value, attr)
        namespace[name] = value
        return value

    return __getattr__


class _Deferred:
    """numpy, imported on its first attribute read; then numpy itself replaces this
    stand-in as ``np`` in every module namespace that registered it, so later reads cost
    nothing extra."""

    __slots__ = ("_homes",)

    def __init__(self) -> None:
        self._homes: list[dict] = []

    def __getattr__(self, name: str) -> Any:
        import numpy
        for home in self._homes:
            if home.get("np") is self:
                home["np"] = numpy
        return getattr(numpy, name)

    def __repr__(self) -> str:
        return "<numpy, imported on first use>"


_NUMPY = _Deferred()


def numpy_on_first_use(namespace: dict) -> Any:
    """What the module of ``namespace`` (its ``globals()``) binds to ``np``: numpy when it
    is already imported, else a stand-in that imports it on the first ``np.<name>``.

    The module must not read ``np.<name>`` while it is being imported (module constants
    and default arguments), or numpy is imported then.

    Examples
    --------
    >>> np = numpy_on_first_use(globals())
    >>> int(np.arange(3).sum())
    3
    """
    if "numpy" in sys.modules:
        return sys.modules["numpy"]
    _NUMPY._homes.append(namespace)
    return _NUMPY
