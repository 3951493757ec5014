"""The compilation budget: how many nodes a compilation may expand."""

from __future__ import annotations

from ..errors import ArgumentError, CompilationLimitError

__all__ = ["Budget"]


class Budget:
    __slots__ = ("limit", "used")

    def __init__(self, limit: int | None):
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ArgumentError(f"max_nodes must be a positive integer, got {limit!r}")
        self.limit = limit
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        if self.limit is not None and self.used > self.limit:
            raise CompilationLimitError(
                f"compilation needed more than max_nodes={self.limit} nodes; raise the "
                f"budget or try another variable order")

