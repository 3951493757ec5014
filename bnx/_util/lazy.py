"""Imports made on first use, so that ``import bnx`` stays light.

Loading a saved ODD and explaining one decision on it never needs pandas or pgmpy. Loading
a small one and asking its MC-explanations, or the PI-explanations of a function unate in
every feature (every binary-class naive Bayes), does not even need numpy, whose import
alone takes longer than the question. :func:`lazy_attributes` is a module ``__getattr__``
(PEP 562) that imports the module behind a public name when the name is first read; the
modules that use numpy bind ``np = lazy_loader.load("numpy")`` (the ecosystem's lazy
import, SPEC 1), which imports numpy on the first ``np.<name>``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(namespace: dict, table: Mapping[str, tuple[str, str | None]]
                    ) -> Callable[[str], Any]:
    """Make a module ``__getattr__`` for ``namespace`` (the module's ``globals()``).

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
