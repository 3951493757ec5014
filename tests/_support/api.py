"""What the installed bnx's API takes, for tests that skip without it."""

from __future__ import annotations

import bnx

__all__ = ["general_api"]


def general_api() -> bool:
    """Whether ``bnx.Classifier`` takes ``rule=`` (issue 11, landing on this branch)."""
    import inspect
    return "rule" in inspect.signature(bnx.Classifier).parameters

