"""Explanations of decisions and queries on decision functions, one family per module.

- :mod:`.explanations`: :class:`Explanations`, a set of (partial) instances held as a
  decision diagram, counted and minimised on the diagram, and its layouts;
- :mod:`.mc`: MC-explanations (Algorithm 3 and Section 5's generalisation);
- :mod:`.pi`: PI-explanations and prime implicants (Algorithms 4 and 5);
- :mod:`.monotone`: monotonicity and Theorem 3.

Every function takes a compiled :class:`~bnx.ODD`.
"""

from .explanations import Explanations
from .mc import mc_explanations, on_states
from .monotone import is_monotone, monotone_counterexample, theorem3_holds
from .pi import pi_explanations, prime_implicants

__all__ = [
    "Explanations",
    "is_monotone",
    "mc_explanations",
    "monotone_counterexample",
    "on_states",
    "pi_explanations",
    "prime_implicants",
    "theorem3_holds",
]
