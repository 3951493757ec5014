"""Decision bias: does a decision depend on protected features?

A decision on ``x`` is *biased* (Darwiche and Hirth, ECAI 2020) when some instance
that differs from ``x`` only on the protected features gets the other decision.
:func:`decision_bias` finds such an instance by the shortest-path pass of
:mod:`.robustness` with every unprotected feature immutable (the closest one, so
the fewest protected features change). :func:`count_biased` counts the biased
instances of the whole classifier on the diagram: ``x`` is biased exactly when both
decisions occur among the instances that agree with it off the protected features,
that is on ``EXISTS p. f  AND  EXISTS p. NOT f`` (``p``: the protected features'
bits, both sides restricted to valid codes).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._types import Feature, Instance
from ..diagram import count as _count_models
from ..diagram import deep
from ..errors import ArgumentError
from . import _cache
from ._instances import instance_indices, named
from ._passes import closest_flip, view
from .mc import _features_arg
from ..odd import ODD, check_odd

__all__ = ["decision_bias", "count_biased"]


def _protected(odd: ODD, protected: Iterable[Feature]) -> set:
    if isinstance(protected, (str, bytes)) or not isinstance(protected, Iterable):
        raise ArgumentError(f"protected must be a list of features, got {protected!r}")
    return _features_arg(odd, protected, "protected")


def decision_bias(odd: ODD, instance: Instance, protected: Iterable[Feature]) -> dict | None:
    """An instance that differs from ``instance`` only on ``protected`` features and
    gets the other decision, or ``None`` when the decision is unbiased.

    Among such instances, one that changes the fewest protected features.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> bnx.decision_bias(odd, x, ["WorkExperience"]) is None
    True
    >>> bnx.decision_bias(odd, {**x, "GPA": "-"}, ["WorkExperience"])["WorkExperience"]
    '-'
    """
    check_odd(odd)
    x = instance_indices(odd, instance)
    prot = _protected(odd, protected)
    y = closest_flip(view(odd), x, [f in prot for f in odd.encoding.features])
    return None if y is None else named(odd, y)


@deep
def count_biased(odd: ODD, protected: Iterable[Feature]) -> int:
    """The exact number of complete instances whose decision is biased on ``protected``.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> bnx.count_biased(odd, ["WorkExperience"]), bnx.count_biased(odd, [])
    (8, 0)
    """
    check_odd(odd)
    prot = _protected(odd, protected)
    enc = odd.encoding
    bits = [v for i, f in enumerate(enc.features) if f in prot for v in enc.bits[i]]
    if not bits:
        return 0
    bdd, dom = odd.bdd, odd.domain
    pos = bdd.exist(bits, odd.root & dom)
    neg = bdd.exist(bits, ~odd.root & dom)
    n = _count_models(pos & neg & dom, enc.nvars)
    _cache.tidy(odd, bdd)
    return n
