"""``bnx explain --instance`` with a partial instance.

The decision on the evidence, its same-decision probability, and what to observe next
(:func:`bnx.next_observations`).
"""

from __future__ import annotations

from .text import _table

__all__ = ["explain_partial", "is_partial"]


def is_partial(clf, x: dict) -> bool:
    """Whether ``x`` leaves some of ``clf``'s features out (and names no unknown one)."""
    return clf is not None and set(x) < set(clf.features)


def explain_partial(clf, odd, x: dict, limit: int) -> None:
    """Print the decision on the partial instance ``x`` and the features to observe next."""
    from .. import explanation as explain
    from ..report import decided_text
    print(decided_text(odd, x, clf))  # "So far: Admit = + (Pr(Admit = +) = 0.791, ...)."
    p = explain.same_decision_probability(clf, x, odd=odd)
    print(f"same-decision probability (it stays when the rest is observed): {p:.6f}")
    nxt = explain.next_observations(clf, x, odd=odd)
    print(f"\nwhat to observe next ({len(nxt)} unobserved features, best first):")
    rows = [[str(f), f"{r.expected_sdp:.6f}", f"{r.flip_probability:.6f}"]
            for f, r in nxt.head(limit).iterrows()]
    print(_table(rows, ["feature", "expected SDP", "Pr(flip)"]))
