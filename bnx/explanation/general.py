"""General reasons: the largest boxes of states around an instance that keep its decision.

A PI-explanation names one state per feature it keeps (*"bilirubin = a19_7 is enough"*);
the network often guarantees more (*"bilirubin ≥ a19_7 is enough"*). A general reason
allows a set of states per feature: the instance's state and as many others as keep
the decision, an interval of its order for an ordinal feature (Izza et al., *inflated
explanations*, AAAI 2024; Ji and Darwiche, JELIA 2023, for set-valued literals).
The passes are in :mod:`._boxes`.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping

from .._util.guard import guarded, question
from .._util.types import Instance
from .._util.wording import SHOWN, listing, plural
from ..diagram._arrays import FALSE, TRUE
from ..odd._odd import ODD, check_odd, formula_for
from ..question import _cache
from . import _boxes

__all__ = ["general_reasons", "GeneralReasons", "term"]


@question
def general_reasons(odd: ODD, instance: Instance, *, rival=None,
                    within="support") -> GeneralReasons:
    """Find the maximal boxes of states around ``instance`` that keep its decision.

    On every instance of such a box the decision is the instance's (or, with ``rival``, none
    gets ``rival``).

    A *box* allows, per feature, a set of its states, the instance's among them; it
    holds every complete instance whose state of each feature is allowed. A general
    reason is a box on which every instance it holds is decided as ``instance`` is,
    and which is *maximal*: no feature's set can take one more state and keep that (an
    ordinal feature's set, ``odd.ordinal``, is an interval of its order, and grows by a
    neighbour). Each reason is a dict from the features it constrains to the tuple of
    states it allows (an ordinal feature's in increasing order, another's in its state
    order); a feature allowed every state is left out. Every PI-explanation is a box
    of one state per kept feature, so each lies in some general reason.

    Computed exactly on the diagram, over the features' states (not the bits that
    encode them): the valid boxes and then the maximal ones are one decision diagram
    over "state allowed" choices, built in time that depends on the diagrams' sizes,
    not on the number of boxes; ``.count`` and :meth:`GeneralReasons.lengths` are read
    off it. Iterating enumerates the reasons fewest constrained features first, one
    diagram path per reason listed: only what is read is enumerated.

    Parameters
    ----------
    odd : ODD
    instance : mapping
        A complete instance.
    rival : class state, optional
        "Why this decision and not ``rival``": boxes on which no instance is decided
        ``rival`` (on a multi-class ODD, asked of ``odd.class_formula(rival)``; on a
        binary ODD, only the other decision's state, which gives the same boxes as
        without it). Without it, a multi-class ODD asks ``odd.class_formula`` of the
        decided class.
    within : "support", "all", instance set, classifier or list of mappings, default "support"
        The instances a box must keep decided (by default those the network allows; the
        others may take any decision): see :func:`bnx.pi_explanations`.

    Raises
    ------
    ArgumentError
        ``rival`` is the decided class (or, on a binary ODD, not the other decision).
    UnknownStateError
        ``rival`` is no class state.

    Returns
    -------
    GeneralReasons
        ``print`` lists them fewest constrained features first, as ``feature = state``,
        ``feature ≥ state``, ``feature ∈ {a, b}`` terms.

    See Also
    --------
    bnx.pi_explanations : The reasons made of the instance's own states.
    bnx.check_rule : Whether a condition on states keeps a decision everywhere.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> reasons = bnx.general_reasons(odd, x)
    >>> reasons.count, reasons.lengths()
    (3, {2: 1, 3: 2})
    >>> print(reasons)
    3 general reasons for Admit = + (sets of states that keep it), fewest features first:
      WorkExperience = +, GPA = +
      FirstTimeApplicant = +, EntranceExam = +, GPA = +
      WorkExperience = +, FirstTimeApplicant = +, EntranceExam = +

    With two-state features, they are the PI-explanations; a feature with more states
    may allow several. On the shipped three-class network, a cold in winter stays a cold
    in summer too, given no sneezing:

    >>> odd = bnx.compile(bnx.examples.illness(), backend="autoref")
    >>> x = {"Season": "winter", "Fever": "no", "Sneezing": "no", "Aches": "no"}
    >>> print(bnx.general_reasons(odd, x))
    2 general reasons for Illness = cold (sets of states that keep it), fewest features first:
      Season = winter, Fever = no, Aches = no
      Season ≠ spring, Fever = no, Sneezing = no, Aches = no
    >>> print(bnx.general_reasons(odd, x, rival="flu"))
    1 general reason for Illness = cold and not flu (sets of states on which it is never flu):
      Fever = no, Aches = no
    """
    check_odd(odd)
    from ._within import within_odd
    formula = within_odd(formula_for(odd, instance, rival=rival), instance, within)
    x = _cache.indices(formula, instance)
    if odd.multiclass:
        this = odd.decide(instance, within="all")  # (x checked by within_odd)
        terminal = TRUE if rival is None else FALSE
        other = None if rival is None else odd.classes[odd.class_index(rival)]
    else:
        decision = _cache.decide(odd, x)
        this, terminal = odd.decision_state(decision), TRUE if decision else FALSE
        other = None if rival is None else odd.decision_state(not decision)
    enc = odd.encoding
    named = {f: enc.states[i][x[i]] for i, f in enumerate(enc.features)}
    return GeneralReasons(formula, terminal, x, _ranks(odd), named,
                          f"{odd.class_var} = {this}", other, odd.display_order)


def _ranks(odd: ODD) -> dict[int, list[int]]:
    """Per ordinal feature (its position), each state's place in the feature's order."""
    enc = odd.encoding
    out = {}
    for f, states in odd.ordinal.items():
        i = enc.position(f)
        at = {n: j for j, n in reversed(list(enumerate(map(str, states))))}
        out[i] = [at[str(s)] for s in enc.states[i]]
    return out


def term(feature, allowed, states, order=None) -> str:
    """Write a feature's set of states as people read it.

    ``f = s``; for an ordinal feature (``order``: its states in increasing order) ``f ≥ s``,
    ``f ≤ s`` or ``f ∈ [a, b]``; for another ``f ≠ s``, ``f ∈ {a, b}`` or ``f ∉ {a, b}``,
    whichever names fewer states.

    Examples
    --------
    >>> levels = ("a1_0", "a6_2", "a19_7", "a88_20")
    >>> term("bilirubin", ("a19_7", "a88_20"), levels, levels)
    'bilirubin ≥ a19_7'
    >>> term("bilirubin", ("a6_2", "a19_7"), levels, levels)
    'bilirubin ∈ [a6_2, a19_7]'
    >>> term("age", ("age31_50", "age51_65"), ("age0_30", "age31_50", "age51_65", "age65_100"))
    'age ∈ {age31_50, age51_65}'
    >>> term("ascites", ("present",), ("present", "absent"))
    'ascites = present'
    """
    allowed = list(allowed)
    if len(allowed) == 1:
        return f"{feature} = {allowed[0]}"
    if order is not None:
        order = list(order)
        lo, hi = allowed[0], allowed[-1]
        if lo == order[0]:
            return f"{feature} ≤ {hi}"
        if hi == order[-1]:
            return f"{feature} ≥ {lo}"
        return f"{feature} ∈ [{lo}, {hi}]"
    left = [s for s in states if s not in allowed]
    if len(left) == 1:
        return f"{feature} ≠ {left[0]}"
    if len(left) < len(allowed):
        return f"{feature} ∉ {{{', '.join(map(str, left))}}}"
    return f"{feature} ∈ {{{', '.join(map(str, allowed))}}}"


@guarded
class GeneralReasons:
    """The general reasons of one decision (:func:`general_reasons`).

    Held as a decision diagram over "state allowed" choices.

    ``len()`` / ``.count`` (exact, on the diagram), iteration (fewest constrained
    features first; each reason a dict from feature to the tuple of states allowed),
    ``in`` (a dict of the same shape), :meth:`lengths`, :meth:`text`, ``print`` (the
    first few, in words) and a Jupyter view.

    Attributes
    ----------
    instance : dict
        The instance explained.
    decision_text : str
        The decision in the class's words (``"Cirrhosis = decompensate"``).
    rival : str or None
        The class state no instance of a reason gets, when asked.
    ordinal : dict
        Per ordinal feature, its states in increasing order.
    """

    def __init__(self, odd: ODD, terminal: int, x: list[int], ranks: dict, instance: dict,
                 decision_text: str, rival, order) -> None:
        enc = odd.encoding
        self._enc = enc
        self._order = tuple(f for f in order if f in set(enc.features))
        self.instance = instance
        self.decision_text = decision_text
        self.rival = rival
        self.ordinal = {enc.features[i]: tuple(enc.states[i][j] for j in sorted(
            range(len(r)), key=r.__getitem__)) for i, r in ranks.items()}
        self._ranks = ranks
        self._space = space = _boxes.space_for(odd.arrays, enc, terminal, ranks)
        self._store = space.store
        self._root = space.boxes(x)
        self._counts = _boxes.fewest(space.store, self._root, space)

    # ------------------------------------------------------------------ the set
    @property
    def count(self) -> int:
        """The number of general reasons (exact)."""
        return self._store.count(self._root)

    def __len__(self) -> int:
        """Count the general reasons (:attr:`count`)."""
        return self.count

    def lengths(self) -> dict[int, int]:
        """Count the reasons per number of constrained features, fewest first.

        Returns
        -------
        dict
            ``{number of constrained features: number of reasons}``.
        """
        return dict(sorted(self._counts.get((self._root, True), {}).items()))

    def __iter__(self) -> Iterator[dict]:
        """Iterate over the general reasons, fewest features first."""
        for bits in _boxes.by_fewest(self._store, self._root, self._space, self._counts):
            yield self._reason(self._space.decode(bits))

    def _reason(self, sets: list[tuple[int, ...]]) -> dict:
        enc, out = self._enc, {}
        pos = {f: i for i, f in enumerate(enc.features)}
        for f in self._order:
            i = pos[f]
            allowed = sets[i]
            if len(allowed) == len(enc.states[i]):
                continue
            r = self._ranks.get(i)
            if r is not None:
                allowed = sorted(allowed, key=r.__getitem__)
            out[f] = tuple(enc.states[i][j] for j in allowed)
        return out

    def __contains__(self, reason) -> bool:
        """Tell whether ``reason`` (a mapping) is one of the general reasons."""
        if not isinstance(reason, Mapping):
            return False
        enc, space = self._enc, self._space
        bits = [1] * space.nvars
        for f, allowed in reason.items():
            try:
                i = enc.position(f)
            except (KeyError, TypeError):
                return False
            names = [str(s) for s in enc.states[i]]
            try:
                idx = {names.index(str(s)) for s in allowed}
            except ValueError:
                return False
            for j in range(space.nstates[i]):
                bits[space.start[i] + j] = int(j in idx)
        return _boxes.member(self._store, self._root, bits)

    # ------------------------------------------------------------------ words
    def terms(self, reason: Mapping) -> tuple[str, ...]:
        """One reason's terms (:func:`term`), one per constrained feature.

        Returns
        -------
        tuple of str
        """
        enc = self._enc
        return tuple(term(f, s, enc.states[enc.position(f)], self.ordinal.get(f))
                     for f, s in reason.items())

    def text(self, reason: Mapping) -> str:
        """One reason as a line of terms (:func:`term`), in the features' order.

        Returns
        -------
        str
        """
        if not reason:
            return "(any instance: the decision is the same everywhere)"
        return ", ".join(self.terms(reason))

    def header(self) -> str:
        """Write the first printed line: how many, of which decision, what they are.

        Returns
        -------
        str
        """
        against = f" and not {self.rival}" if self.rival is not None else ""
        what = ("sets of states that keep it" if self.rival is None
                else f"sets of states on which it is never {self.rival}")
        n = self.count
        s = f"{plural(n, 'general reason')} for {self.decision_text}{against} ({what})"
        return s + (", fewest features first:" if n > 1 else ":")

    def lines(self, limit: int | None = SHOWN) -> Iterator[str]:
        """Write the first ``limit`` reasons as lines (``None``: all)."""
        for k, reason in enumerate(self):
            if limit is not None and k >= limit:
                return
            yield self.text(reason)

    def __str__(self) -> str:
        """List the reasons under a header, the first :data:`SHOWN` of them."""
        return listing(self.header(), self.lines(SHOWN), self.count, SHOWN)

    def __repr__(self) -> str:
        """Name the number of reasons and the decision."""
        return f"<GeneralReasons: {self.count:,} for {self.decision_text}>"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(s)}</li>" for s in self.lines(20))
        n = self.count
        more = f"<p>… and {n - 20:,} more</p>" if n > 20 else ""
        return f"<p><b>{html.escape(self.header())}</b></p><ul>{items}</ul>{more}"
