"""The world a question on a classifier answers in: the network's support, or every instance."""

from __future__ import annotations

from typing import Any

__all__ = ["within_support"]


def within_support(within: Any) -> bool:
    """Tell whether ``within`` asks for the network's support or for every instance.

    ``"support"``: the instances of positive probability under the network (what the
    network allows); ``"all"``: every instance, the total decision function.

    Parameters
    ----------
    within : str
        ``"support"`` or ``"all"``.

    Returns
    -------
    bool
        ``True`` for the support.

    Raises
    ------
    bnx.ArgumentError
        Any other value.

    Examples
    --------
    >>> within_support("support"), within_support("all")
    (True, False)
    """
    if isinstance(within, str) and within in ("support", "all"):
        return within == "support"
    from ..errors import ArgumentError
    raise ArgumentError(f"within must be 'support' (the instances the network allows) or "
                        f"'all' (every instance), got {within!r}")
