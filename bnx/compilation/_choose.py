"""The one place that chooses the engine that compiles a classifier.

:data:`ENGINES` lists the engines in the order they are asked; :func:`choose` takes the
first that accepts. :func:`~bnx.compilation.compile` runs the choice and
:func:`~bnx.compilation.estimate_size` asks it for its estimate, so the two never route
apart.

The argmax rule over two classes is the threshold 1/2 with the first class state
positive (``Pr(first) >= Pr(second)``), negated when the positive state is the second:
the fast binary engines compile it so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..classifier._classifier import Classifier
from ..diagram._arrays import DiagramArrays, negate
from ..diagram.encoding import Encoding
from .budget import Budget
from .conjunction import conjoin, domain
from .engines import (
    Engine,
    FactorEngine,
    LevelEngine,
    RatioEngine,
    SplitEngine,
    TanEngine,
    TensorEngine,
)

__all__ = ["ENGINES", "Choice", "choose"]

#: The engines in the order :func:`choose` asks them: the fastest that fits first, the
#: general engine (which accepts every classifier) last.
ENGINES: tuple[type[Engine], ...] = (LevelEngine, RatioEngine, SplitEngine, TanEngine,
                                     TensorEngine, FactorEngine)


@dataclass(frozen=True)
class Choice:
    """The engine chosen for a classifier.

    It compiles ``clf`` (the classifier itself, or the threshold form of a two-class argmax)
    with ``given`` (its verdict's), and the decision is its result, negated within the
    domain when ``negated``. ``refused`` holds the engines asked before it and their
    reasons.
    """

    engine: type[Engine]
    clf: Classifier
    given: Any
    negated: bool
    refused: tuple

    def run(self, enc: Encoding, budget: Budget, backend: str, memo: dict | None = None
            ) -> DiagramArrays:
        """Compile the decision function as arrays, false on codes that name no state.

        ``memo``: shared by the class formulas of one multi-class compile (what one
        compiled, the others reuse: a two-state class's second formula is the first one
        negated).
        """
        memo = {} if memo is None else memo
        key = ("choice", self.engine.__name__, self.clf.fingerprint)
        out = memo.get(key)
        if out is None:
            out = memo[key] = self.engine(self.clf, enc, budget, self.given, backend=backend,
                                          memo=memo).run()
        if self.negated:
            out = conjoin(domain(enc), negate(out), budget=budget)
        return out

    def estimate(self, enc: Encoding, samples: int, seed: int) -> int | None:
        """Return the engine's sampled estimate of the ODD's nodes, or ``None``."""
        return self.engine.estimate(self.clf, enc, self.given, samples, seed)


def choose(clf: Classifier, enc: Encoding, engines: Sequence[type[Engine]] | None = None
           ) -> Choice:
    """Choose the first of ``engines`` (default: :data:`ENGINES`) that accepts ``clf``.

    Accepts it along ``enc``.

    Examples
    --------
    >>> import bnx
    >>> from bnx.diagram.encoding import Encoding
    >>> clf = bnx.examples.admissions()
    >>> order = bnx.compilation.default_order(clf)
    >>> choice = choose(clf, Encoding(tuple(order), tuple(clf.states(f) for f in order)))
    >>> choice.engine.__name__, choice.negated
    ('LevelEngine', False)
    """
    engines = ENGINES if engines is None else engines
    negated = False
    if clf.rule == "argmax" and len(clf.class_states) == 2:
        negated = clf.class_states.index(clf.positive) != 0
        clf = Classifier(clf.network, clf.class_var, clf.class_states[0],
                         threshold=Fraction(1, 2), features=clf.features)
    refused = []
    for engine in engines:
        verdict = engine.accepts(clf, enc)
        if verdict:
            return Choice(engine, clf, verdict.given, negated, tuple(refused))
        refused.append((engine, verdict.reason))
    raise ValueError("no engine accepts the classifier: "  # the general engine takes all
                     + "; ".join(f"{e.__name__}: {why}" for e, why in refused))
