"""Questions on a decision relative to a set of instances ``κ`` (``within=``).

Every question on the decision ``f(x)`` that ranges over other instances ``z`` (which
complete a part of ``x``, or which change some of its features) can be asked of the
instances of a set ``κ`` only: those the network allows (:func:`bnx.support`), those a
user allows (:func:`bnx.forbid`), or their ``&``. The instances outside ``κ`` are then
"don't care": they may take either decision. So the question within ``κ`` is the same
question asked of the function

* ``g = f ∨ ¬κ`` when ``x`` is positive: no ``z`` outside ``κ`` can be a negative
  witness;
* ``g = f ∧ κ`` when ``x`` is negative: no ``z`` outside ``κ`` can be a positive one;

which takes ``x``'s decision wherever ``f`` does and also outside ``κ``, and the other
decision exactly on the instances of ``κ`` that have the other decision under ``f``. A
question that looks for instances with ``x``'s own decision (an MC-explanation is one:
``x`` with on features turned off, still decided as ``x``) asks the other function
(``witness=True``): ``f ∧ κ`` when ``x`` is positive, ``f ∨ ¬κ`` when negative, so that
only instances of ``κ`` keep the decision.
(``x`` must be in ``κ``.) :func:`within_odd` makes ``g`` as an ODD over the same
encoding, in the same manager, kept per ODD, set and decision; the questions then run
unchanged on it.

By default (``within="support"``) ``κ`` is the network's support, so every question
ranges over the instances that can occur; ``within="all"`` asks the total decision
function (the paper's). Where no table of the features or their ancestors has a zero
entry, or the support holds every instance, ``f`` itself is asked (no set is built);
an ODD that holds no network (a file of format version 1, a diagram a question derived)
has no support to tell, and is asked as it is.
"""

from __future__ import annotations

from .._util.types import Instance
from ..classifier._classifier import Classifier
from ..diagram._memo import detached, register
from ..diagram._setops import difference, holds, intersect, union
from ..errors import ArgumentError, ExplanationError
from ..odd._odd import ODD
from ..question import _cache
from .instance_set import InstanceSet

register("within", 8, "the ODDs of questions asked within an instance set", detached=True)

__all__ = ["among", "keep_within", "within_odd", "within_root", "world_of"]


def within_root(odd: ODD, within):
    """Return ``κ`` as a node of ``odd.bdd``, or ``None`` for every instance.

    ``within`` is ``"support"`` (the instances the network allows: ``None`` when that is
    every instance), ``"all"``, an instance set (from :func:`bnx.support`,
    :func:`bnx.forbid`, or a combination), a classifier (its support) or a list of
    forbidden combinations (as for :func:`bnx.forbid`).
    """
    from .support import forbid, support
    if isinstance(within, str) and within in ("support", "all"):
        return _support_root(odd) if within == "support" else None
    if isinstance(within, InstanceSet):
        return within.root_in(odd.bdd, odd.encoding)
    if isinstance(within, Classifier):  # a class formula: the multi-class ODD's support
        return support(within, odd=odd.owner).root  # (one manager, one classifier)
    if isinstance(within, (list, tuple)):
        return forbid(odd, within).root
    raise ArgumentError(f"within must be 'support' (the instances the network allows), "
                        f"'all' (every instance), a set of instances (bnx.support, "
                        f"bnx.forbid), a classifier or a list of forbidden combinations, "
                        f"got {within!r}")


def world_of(odd: ODD, within) -> str:
    """Name the world a question asked ``within`` ranges over, as its answer reports it.

    ``"all"`` where ``κ`` is every instance (``within="all"``, or a support that holds
    every instance), ``"support"`` for the network's support, ``"set"`` for a set given.
    """
    if within_root(odd, within) is None:
        return "all"
    return "support" if isinstance(within, str) else "set"


def among(world: str) -> str:
    """Say the world after "instances": ``" the network allows"``, ``" of the set"`` or ``""``."""
    return {"support": " the network allows", "set": " of the set"}.get(world, "")


def _support_root(odd: ODD):
    """Return the network's support as a node of ``odd.bdd``; ``None`` when it is all."""
    from ..classifier._possible import may_be_impossible
    from .support import support
    if not may_be_impossible(odd):  # no zero entry (or no network): every instance
        return None
    owner = odd.owner  # a class formula: its classifier's
    kappa = support(owner)  # (from the file's tables for a loaded ODD: no pgmpy)
    return None if kappa.root == owner.domain else kappa.root


def within_odd(odd: ODD, instance: Instance, within="support", *, witness: bool = False) -> ODD:
    """Return the ODD of ``g`` (see the module docstring) for the decision on ``instance``.

    With ``witness``, the function whose instances with ``x``'s decision are those of
    ``κ``. ``odd`` itself when ``κ`` is every instance. Raises
    :class:`~bnx.ExplanationError` when ``instance`` is not in the set.
    """
    kappa = within_root(odd, within)
    if kappa is None:
        return odd
    x = _cache.indices(odd, instance)
    enc = odd.encoding
    bits = {enc.variables[lvl]: v for lvl, v in odd.assignment(dict(zip(enc.features, x))).items()}
    if not holds(kappa, bits):
        raise ExplanationError("the instance is not in the set given as within= (it has "
                               "probability zero, or matches a forbidden combination): "
                               "questions within a set are asked of its instances")
    decision = _cache.decide(odd, x)
    return _keep(odd, kappa, decision if witness else not decision)


def keep_within(odd: ODD, value: bool, within="support") -> ODD:
    """Return the ODD whose instances decided ``value`` are those of ``κ`` that ``odd`` decides so.

    ``f ∧ κ`` for ``value`` true, ``f ∨ ¬κ`` for false: a question that looks for
    instances decided ``value`` (a rule's counterexamples, a monotonicity violation's
    pair) then finds only instances of ``κ``. ``odd`` itself when ``κ`` is every instance.
    """
    kappa = within_root(odd, within)
    return odd if kappa is None else _keep(odd, kappa, value)


def _keep(odd: ODD, kappa, value: bool) -> ODD:
    made = detached(odd)  # per ODD, (κ's node, f ∨ ¬κ or f ∧ κ) -> the ODD of g
    widen = not value
    key = (kappa, widen)
    got = made.get("within", key)
    if got is None:
        root = (union(odd.root, difference(odd.domain, kappa)) if widen
                else intersect(odd.root, kappa))
        meta = dict(odd.meta)
        meta["least_states"] = None  # g is not unate as f may be
        meta["display_order"] = tuple(odd.display_order)
        meta["class_states"] = odd.class_states  # (its decisions named as f's)
        got = made.put("within", key, ODD(None, odd.encoding, backend=odd.backend, bdd=odd.bdd,
                                          root=root, meta=meta))
    return got
