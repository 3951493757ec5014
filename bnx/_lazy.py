"""Module attributes loaded on first use (PEP 562), so that ``import bnx`` stays light.

Loading a saved ODD and explaining never needs pandas, numpy or pgmpy; the modules that
import them are named in a table and imported when an attribute is first read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(namespace: dict, table: Mapping[str, tuple[str, str | None]]
                    ) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``namespace`` (the module's ``globals()``).

    ``table`` maps an attribute to ``(module, name)``: the module (relative names are
    resolved against the package of ``namespace``) or, with ``name``, one of its
    attributes. The value is imported once, then kept in ``namespace``.
    """
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = table[name]
        value = importlib.import_module(module, package)
        if attr is not None:
            value = getattr(value, attr)
        namespace[name] = value
        return value

    return __getattr__
