"""MC-explanations (Definition 3 and Algorithm 3 of Shih, Choi and Darwiche 2018).

An MC-explanation of a positive decision keeps the decision while turning off as
many of the instance's on-features as possible: it is a positive instance ``x*``
whose on-features are a subset of the instance's, with the fewest on-features.
For a negative decision, on and off swap roles. Section 5's generalisation is
supported: ``on`` partitions each feature's states into on and off states, and
``fixed`` features keep their state.

The computation is the paper's: restrict the decision function (complemented for
a negative decision) to the instance's features that may not change, then
cardinality-minimise it with two linear passes (minimum counts bottom-up, then
keep only the minimal edges). The result is itself a decision diagram.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Collection, Iterable, Mapping

from .._util.guard import question
from .._util.types import Feature, Instance, State
from .._util.wording import affirmative
from ..classifier._classifier import _resolve_state
from ..diagram._memo import register
from ..diagram.store import Store
from ..diagram.walks import suffix_keep_minimal, suffix_minimum
from ..errors import (
    ArgumentError,
    OnStatesError,
    UnknownFeatureError,
    UnknownStateError,
    closest_first,
)
from ..odd._odd import ODD, check_odd
from ..question import _cache
from ..question._classes import ask
from .explanations import Explanations

register("mc", 1, "the MC-explanation memos")

__all__ = ["mc_explanations", "on_states", "on_states_message"]


def on_states(odd: ODD, on: Mapping[Feature, State | Collection[State]] | None = None,
              skip: Iterable[Feature] = ()) -> list[frozenset[int]]:
    """Return the on-state indices of every feature of ``odd``, in order.

    A feature's on states are, first found: those ``on`` gives it, those declared on
    the classifier (``Classifier(..., on_states=...)``, kept in a saved ODD), or, for a
    binary feature whose states are recognisably affirmative and negative (yes/no,
    y/n, true/false, t/f, 1/0, +/-, present/absent, positive/negative, pos/neg,
    on/off, in any case), its affirmative state. A feature with one state has none,
    and so do the features in ``skip`` (fixed features, whose on states do not
    matter).

    Parameters
    ----------
    odd : ODD
        The decision function.
    on : mapping, optional
        ``{feature: on state or states}`` for the features whose on states are not declared
        or recognisable.
    skip : iterable of features
        Features whose on states do not matter (they get none).

    Returns
    -------
    list of frozenset of int
        Per feature in the ODD's order, the indices of its on states.

    Raises
    ------
    OnStatesError
        Some feature's on states are none of the above; the message names the
        features and how to declare them.

    See Also
    --------
    bnx.mc_explanations : The question that needs on states.
    bnx.check_monotone : Whether raising a feature's state never lowers the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.asia(), backend="autoref")
    >>> odd.states("smoke"), on_states(odd)[odd.features.index("smoke")]
    (('yes', 'no'), frozenset({0}))
    """
    return on_state_sets(odd.features, odd.encoding.states, on, skip, odd._position,
                         declared=odd.meta.get("on_states"))


def on_state_sets(features, all_states, on, skip, position, *,
                  declared: Mapping | None = None) -> list[frozenset[int]]:
    """Compute :func:`on_states` over ``features`` and their ``all_states``.

    Shared with bnx.linear: ``position(f)`` raises :class:`~bnx.UnknownFeatureError` for a
    name that is not a feature; ``declared`` holds the classifier's declared on states.
    """
    if on is None:
        on = {}
    if not isinstance(on, Mapping):
        raise ArgumentError(f"on must map features to their on state(s), got {on!r}")
    on = dict(on)
    for f in on:
        position(f)
    on = {**(declared or {}), **on}
    skip = frozenset(skip)
    out = []
    unknown = []
    for i, f in enumerate(features):
        states = all_states[i]
        if f in on:
            given = on[f]
            if isinstance(given, (str, bytes, int)) or not isinstance(given, Collection):
                given = [given]
            idx = set()
            for s in given:
                j = _resolve_state(states, s)
                if j is None:
                    raise UnknownStateError(
                        f"on-state {s!r} is not a state of feature {f!r} "
                        f"(states, closest first: {closest_first(s, states)})")
                idx.add(j)
            out.append(frozenset(idx))
        elif len(states) == 1 or f in skip:  # a fixed feature's on states do not matter
            out.append(frozenset())
        elif affirmative(states) is not None:
            out.append(frozenset({affirmative(states)}))
        else:
            unknown.append((f, states))
            out.append(frozenset())
    if unknown:
        raise OnStatesError(on_states_message(unknown))
    return out


def on_states_message(unknown: list) -> str:
    """Say why MC-explanations are refused for ``unknown``, and how to declare their on states.

    ``unknown`` is ``[(feature, states), ...]``; the same words in Python, ``explain_data``
    and the command line.
    """
    shown = unknown[:5]
    names = "; ".join(f"{f!r} ({' / '.join(map(str, states))})" for f, states in shown)
    if len(unknown) > len(shown):
        names += f"; and {len(unknown) - len(shown)} more"
    f, states = unknown[0]
    return (f"MC-explanations count the features that are 'on', but the states of "
            f"{names} do not say which state is 'on'. Declare it: on={{{f!r}: "
            f"{states[-1]!r}, ...}}, or once on the classifier with "
            f"bnx.Classifier(..., on_states={{{f!r}: {states[-1]!r}, ...}}) (kept when the "
            f"ODD is saved), or on the command line with --on '{f}={states[-1]}'")


@question
def mc_explanations(odd: ODD, instance: Instance, *, rival=None,
                    on: Mapping[Feature, State | Collection[State]] | None = None,
                    fixed: Iterable[Feature] = (), within="support") -> Explanations:
    """Every MC-explanation of the decision on ``instance``, as complete instances.

    Within a set ``κ`` of instances (``within=``, by default the instances the network
    allows): only instances of ``κ`` count as keeping the decision, so every
    MC-explanation is one.

    On a :class:`~bnx.MulticlassODD`, the decision is the class ``a`` decided on the
    instance: the MC-explanations of the positive decision of ``a``'s class formula (on
    states turn off while the instance stays decided ``a``, the fewest on states kept).
    With ``rival=b``, those of the negative decision of ``b``'s class formula ("why ``a``
    and not ``b``": off states turn on while the instance stays decided other than ``b``,
    the fewest off states kept).

    Parameters
    ----------
    odd : ODD or MulticlassODD
    instance : mapping
        A complete instance: every feature to one of its states.
    rival : class state, optional
        On a multi-class ODD, a class other than the one decided on ``instance``; on a
        binary ODD, its other decision (the same question as without it).
    on : mapping, optional
        For each feature, its on state or set of on states (see
        :func:`bnx.explanation.mc.on_states`): needed for a feature whose states are not
        recognisably affirmative (yes/no, +/-, ...) unless the classifier declares them
        (``on_states=``).
    fixed : iterable of features
        Features that keep their state (the paper's ``Y``).
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The instances an MC-explanation may be: see :func:`bnx.pi_explanations`.

    Returns
    -------
    Explanations
        Complete instances; :meth:`~Explanations.lengths` counts them by cardinality.

    Raises
    ------
    OnStatesError
        A feature's on state is neither given, declared, nor recognisable.
    ArgumentError
        ``rival`` is the decided class (or not the other decision of a binary ODD).
    UnknownStateError
        ``rival`` is not a class state.

    See Also
    --------
    on_states : the on states of each feature.
    pi_explanations : minimal parts of the instance that settle the decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> [e for e in bnx.mc_explanations(odd, x)]
    [{'WorkExperience': '+', 'FirstTimeApplicant': '-', 'EntranceExam': '-', 'GPA': '+'}]

    A multi-class classifier (a cold, the flu or an allergy): the flu stays decided with
    the fever alone, in another season than winter:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "winter", "Fever": "yes", "Sneezing": "yes", "Aches": "yes"}
    >>> on = {"Season": "winter"}  # Season's states say no "on": winter is
    >>> print(bnx.mc_explanations(odd, x, on=on))  # doctest: +NORMALIZE_WHITESPACE
    2 MC-explanations of Illness = flu (the fewest on states that keep it), shortest first:
      Season = spring, Fever = yes
      Season = summer, Fever = yes
    on states: Season = winter, Fever = yes, Sneezing = yes, Aches = yes
    """
    check_odd(odd)
    q = ask(odd, instance, rival)
    from ._within import within_odd
    odd = within_odd(q.formula, instance, within, witness=True)
    x = _cache.indices(odd, instance)
    g, root, negated = _cache.both(odd)
    cache = _cache.store(odd, "mc", lambda: _Cache(odd))
    if on is None and isinstance(fixed, tuple) and not fixed:  # the defaults: made once
        fixed = frozenset()
        ons = cache.ons
        if ons is None:
            ons = cache.ons = on_states(odd)
    else:
        fixed = _features_arg(odd, fixed, "fixed")
        ons = on_states(odd, on, skip=fixed)
    decision = _cache.decide(odd, x)
    enc = odd.encoding
    n = len(enc.features)
    # The paper's restriction to the instance, per feature: a pattern id names the
    # feature's allowed states and weights (the steps and least cost follow from it),
    # a suffix id the patterns of features i.. (the memos are keyed by it).
    if len(cache.mins) + len(cache.kept) + len(cache.suffixes) + len(cache.keys) > _MEMO_LIMIT:
        cache.clear()  # pattern and suffix ids key the memos: they go together
    keys, suffixes, tails = cache.keys, cache.suffixes, cache.tails
    pids = [0] * n
    for i, f in enumerate(enc.features):
        key = (i, x[i], decision, f in fixed, ons[i])
        pid = keys.get(key)
        if pid is None:
            pid = keys[key] = _pattern(cache, enc, i, key)
        pids[i] = pid
    sids = [0] * (n + 1)
    tail = [0] * (n + 1)
    nxt = 0
    costs = cache.costs
    for i in range(n - 1, -1, -1):
        key = (pids[i], nxt)
        sid = suffixes.get(key)
        if sid is None:
            sid = suffixes[key] = len(tails)
            tails.append(costs[pids[i]] + tails[nxt])
        sids[i] = nxt = sid
        tail[i] = tails[sid]
    all_steps = cache.steps
    steps = [all_steps[p] for p in pids]
    h = root if decision else negated
    suffix_minimum(g, h, 0, steps, tail, sids, cache.mins)
    best = suffix_keep_minimal(g, h, 0, steps, tail, sids, cache.mins, cache.kept, cache.core,
                               cache.build)
    wkey = tuple(cache.weights[p] for p in pids)
    layout = cache.layouts.get(wkey)
    if layout is None:
        if len(cache.layouts) > 1000:
            cache.layouts.clear()
        layout = cache.layouts[wkey] = copy.copy(_cache.layout(odd, "complete"))
        layout.weights = list(wkey)
        layout.__dict__.pop("steps", None)
        layout.__dict__.pop("tail", None)
    states = enc.states
    return Explanations(None, None, layout, kind="MC",
                        decision=decision, feature_order=odd.display_order,
                        instance={f: states[i][x[i]] for i, f in enumerate(enc.features)},
                        core=(cache.core, best),
                        make_manager=lambda: _cache.aux_manager(odd, enc.variables),
                        wording=q.wording, decided=q.decided, rival=q.rival,
                        on=functools.partial(_on_names, enc.features, states, tuple(ons), fixed))


def _on_names(features, states, ons, fixed) -> dict:
    """Name ``Explanations.on`` of MC-explanations: the on states of every counted feature.

    Made when first read: most calls never print them.
    """
    return {f: tuple(states[i][j] for j in sorted(ons[i]))
            for i, f in enumerate(features) if f not in fixed and ons[i]}


#: Memo, pattern and suffix entries kept per ODD before they are dropped (about 140 bytes
#: each: 1,000,000 is about 140 MB).
_MEMO_LIMIT = 1_000_000


class _Cache:
    """What :func:`mc_explanations` keeps per ODD (in its arrays' cache).

    Pattern and suffix tables, the two passes' memos and the node table the results are
    built in (``core``, a :class:`~bnx.diagram.store.Store`).
    """

    # (nothing here may refer to the ODD: the cache lives in the ODD's arrays)
    __slots__ = ("core", "variables", "build", "choices", "ons", "keys", "pattern_of", "steps",
                 "costs", "weights", "suffixes", "tails", "mins", "kept", "layouts")

    def __init__(self, odd: ODD) -> None:
        layout = _cache.layout(odd, "complete")
        self.build, self.choices = layout.build_table, layout.choices
        self.variables = odd.encoding.variables
        self.ons = None  # on_states(odd) for the default on, made on first use
        self.layouts: dict = {}  # weights -> the Explanations' layout
        self.clear()

    def clear(self) -> None:
        """Drop the pattern and suffix ids, the memos keyed by them and the results' node table.

        The node table is the one the memoised results live in.
        """
        self.core = Store(len(self.variables))
        self.keys: dict = {}  # (i, state, decision, fixed, ons[i]) -> pattern id
        self.pattern_of: dict = {}  # (i, allowed, weights) -> pattern id
        self.steps: list = []  # per pattern: [(label, cost, bits), ...]
        self.costs: list = []  # per pattern: its least cost
        self.weights: list = []  # per pattern: its weights (a frozenset)
        self.suffixes: dict = {}  # (pattern, next suffix) -> suffix id (0: no feature)
        self.tails: list = [0]  # per suffix: the least length below the true node
        self.mins: dict = {}  # (node of the ODD, suffix) -> minimum length
        self.kept: dict = {}  # (node of the ODD, suffix) -> node of core


def _pattern(cache: _Cache, enc, i: int, key: tuple) -> int:
    """Return the pattern id of feature ``i`` for ``key``.

    ``key`` = (i, state, decision, fixed, on states).
    """
    _, x, decision, is_fixed, ons_i = key
    k = len(enc.states[i])
    counted = ons_i if decision else frozenset(range(k)) - ons_i
    if is_fixed or x not in counted:
        allowed = frozenset({x})
    else:
        allowed = frozenset({x} | (set(range(k)) - counted))
    weights = frozenset() if is_fixed else frozenset(counted)
    pkey = (i, allowed, weights)
    pid = cache.pattern_of.get(pkey)
    if pid is None:
        pid = cache.pattern_of[pkey] = len(cache.steps)
        steps = [(label, 1 if label in weights else 0, bits)
                 for label, bits in cache.choices[i] if label in allowed]
        cache.steps.append(steps)
        cache.costs.append(min((c for _, c, _ in steps), default=math.inf))
        cache.weights.append(weights)
    return pid


def _features_arg(odd: ODD, features, what: str) -> set:
    if isinstance(features, (str, bytes)) or not isinstance(features, Iterable):
        raise ArgumentError(f"{what} must be a list of features, got {features!r}")
    out = set()
    known = set(odd.features)
    for f in features:
        try:
            ok = f in known
        except TypeError:
            ok = False
        if not ok:
            raise UnknownFeatureError(f"{what} feature {f!r} is not a feature of this ODD "
                                      f"(features, closest first: "
                                      f"{closest_first(f, odd.features)})")
        out.add(f)
    return out
