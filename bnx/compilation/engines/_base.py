"""The contract every compilation engine keeps.

An engine is a class with

* ``accepts(clf, enc)`` (a class method): a :class:`Verdict`, true when the engine
  compiles the classifier's decision along the encoding's order, false with the reason
  when it does not. Deciding may compute what the engine needs to run (the naive Bayes
  log-weights, the TAN models, the comparisons of the argmax rule): the verdict holds it
  as ``given``, so that nothing is computed twice;
* a constructor ``Engine(clf, enc, budget, given, *, backend, memo)``: ``given`` the
  verdict's, ``backend`` the ``dd`` backend of the engines that build ``dd`` nodes
  (:class:`DdEngine`), ``memo`` a dict shared by the engines of one multi-class compile
  (its class formulas share the argmax rule's pairwise comparisons: each is compiled once,
  and the ``dd`` engines build in one manager);
* ``run()``: the decision function as canonical
  :class:`~bnx.diagram._arrays.DiagramArrays`, false on every code that names no state
  (the ODD's form);
* ``estimate(clf, enc, given, samples, seed)`` (a class method): a sampled estimate of the
  ODD's nodes, or ``None`` when the engine has none (the caller then bounds the widths by
  the numbers of prefixes and completions).

:func:`bnx.compilation._choose.choose` asks the engines of one ordered list in turn and
takes the first that accepts; :func:`~bnx.compilation.compile` and
:func:`~bnx.compilation.estimate_size` both choose through it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ...classifier._classifier import Classifier
from ...diagram import _setops as sets
from ...diagram._arrays import DiagramArrays
from ...diagram._dd import from_dd
from ...diagram.backends import new_manager
from ...diagram.encoding import Encoding
from ..budget import Budget

__all__ = ["DdEngine", "Engine", "Verdict", "accept", "refuse"]


class Verdict:
    """An engine's answer to a classifier.

    ``bool(verdict)`` says whether it compiles it, ``reason`` why (or why not), ``given``
    what the engine computed while deciding.
    """

    __slots__ = ("accepted", "reason", "given")

    def __init__(self, accepted: bool, reason: str, given: Any = None) -> None:
        self.accepted, self.reason, self.given = accepted, reason, given

    def __bool__(self) -> bool:
        return self.accepted

    def __repr__(self) -> str:
        return f"Verdict({self.accepted}, {self.reason!r})"


def accept(reason: str, given: Any = None) -> Verdict:
    """Accept, with what the engine will run on."""
    return Verdict(True, reason, given)


def refuse(reason: str) -> Verdict:
    """Refuse, with the reason."""
    return Verdict(False, reason)


class Engine(ABC):
    """A compilation engine (see the module docstring)."""

    #: A short name, for messages and tests.
    name: ClassVar[str] = ""

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, given: Any = None, *,
                 backend: str = "autoref", memo: dict | None = None) -> None:
        self.clf, self.enc, self.budget, self.given = clf, enc, budget, given
        self.backend = backend
        self.memo = {} if memo is None else memo

    def compared(self, pair: tuple | None, make) -> Any:
        """Return ``make()``, the compiled comparison of the class states ``pair``, made once.

        Once per compile; ``pair=None``: not shared.
        """
        if pair is None:
            return make()
        key = (type(self).__name__, pair)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = make()
        return got

    @classmethod
    @abstractmethod
    def accepts(cls, clf: Classifier, enc: Encoding) -> Verdict:
        """Whether this engine compiles ``clf`` along ``enc`` (see the module docstring)."""

    @abstractmethod
    def run(self) -> DiagramArrays:
        """Compile the decision function as canonical arrays, false on codes that name no state."""

    @classmethod
    def estimate(cls, clf: Classifier, enc: Encoding, given: Any, samples: int,
                 seed: int) -> int | None:
        """Estimate the ODD's nodes by sampling, or return ``None`` (no estimate of its own)."""
        return None


class DdEngine(Engine):
    """An engine that builds the decision function as a ``dd`` node.

    In a manager of its own, over the encoding's variables: :meth:`run` conjoins
    :meth:`root` with the encoding's domain and reads the result into arrays.
    """

    def __init__(self, clf: Classifier, enc: Encoding, budget: Budget, given: Any = None, *,
                 backend: str = "autoref", memo: dict | None = None) -> None:
        super().__init__(clf, enc, budget, given, backend=backend, memo=memo)
        key = ("bdd", backend)
        if key not in self.memo:
            self.memo[key] = new_manager(backend, enc.variables)
        self.bdd = self.memo[key]

    @abstractmethod
    def root(self) -> Any:
        """Compile the decision function as a node of :attr:`bdd`.

        It may be true on codes that name no state.
        """

    def run(self) -> DiagramArrays:
        root = self.root()
        domain = self.enc.domain(self.bdd)
        if domain != sets.true(self.bdd):
            root = sets.intersect(root, domain)
        return from_dd([root], self.enc.nvars)[0]
