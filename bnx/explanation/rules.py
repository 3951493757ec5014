"""Rules an expert states, checked on the decision function.

"Every instance that meets this condition gets this decision".

A condition is a *box*: per feature the set of states it allows (one state, a collection
of states, or for an ordinal feature a comparison with one of its states). The rule holds
when the diagram of the other decisions has no instance in the box. Everything is counted
on the diagram (:mod:`bnx.diagram._pairs`: the box's walks down it), the probability of a violation
is a weighted count under the network (:func:`bnx.probability.frontier.decision_masses` with each
feature known to lie in its set), and the most probable counterexample is a max-product
pass along the diagram (:func:`bnx.probability.frontier.most_probable`). On a multi-class ODD
"decided
``c``" is its class formula ``odd.class_formula(c)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .._util.guard import question
from .._util.types import Feature
from .._util.wording import decimal, terms
from ..diagram._feature_view import feature_view
from ..diagram._memo import register
from ..diagram._pairs import accepts, walks
from ..errors import ArgumentError, UnknownStateError, closest_first
from ..odd._odd import ODD, check_odd

register("rule_total", 1, "the masses of both decisions under the network, no evidence")

__all__ = ["RuleCheck", "check_rule", "check_rules", "orders", "parse_rule"]


@dataclass(frozen=True)
class RuleCheck:
    """Whether every instance that meets a condition gets one decision.

    Attributes
    ----------
    rule : str
        The rule in words (``"bilirubin ≥ a19_7 => Cirrhosis = decompensate"``).
    condition : dict
        Per feature the condition constrains, the tuple of its states it allows (in the
        feature's order of states).
    decision : str
        The decision the rule asks for, in the class's words (``"Cirrhosis = decompensate"``).
    holds : bool
        No complete instance of the world that meets the condition gets another decision.
    violations : int
        The number of complete instances of the world that meet the condition and get
        another decision (exact).
    instances : int
        The number of complete instances of the world that meet the condition.
    violation_probability : float, Fraction or None
        The probability, under the network, that an instance meets the condition and gets
        another decision (a float within ``1e-9`` of the exact value, or the exact
        :class:`~fractions.Fraction` with ``exact=True``); ``None`` when the ODD holds no
        classifier (a file of format version 1).
    counterexample : dict or None
        A complete instance that meets the condition and gets another decision (``None``
        when the rule holds): the most probable one under the network when the ODD holds
        its classifier, otherwise the first one in the diagram's order.
    counterexample_decision : str or None
        The decision on the counterexample, in the class's words.
    world : str
        The instances counted: ``"support"`` (those the network allows, where it gives
        some instances probability zero), ``"set"`` (a set given as ``within=``) or
        ``"all"`` (every complete instance; also where every instance is possible).
    """

    rule: str
    condition: dict
    decision: str
    holds: bool
    violations: int
    instances: int
    violation_probability: float | None = None
    counterexample: dict | None = field(default=None)
    counterexample_decision: str | None = None
    world: str = "all"

    def __str__(self) -> str:
        """Say whether the rule holds, or how often it is broken and an example, in sentences."""
        from ._within import among
        world = among(self.world)
        if self.holds:
            return (f"Holds: all {self.instances:,} instances{world} with "
                    f"{self._condition_words()} are decided {self.decision}.")
        head = (f"Broken: {self.violations:,} of the {self.instances:,} instances{world} with "
                f"{self._condition_words()} are not decided {self.decision}")
        x = terms(self.counterexample)
        if self.violation_probability is None:  # no distribution: any of them
            return f"{head}; for example {x} is decided {self.counterexample_decision}."
        return (f"{head} (probability {decimal(self.violation_probability)} in all); the "
                f"most probable of them, {x}, is decided {self.counterexample_decision}.")

    def _condition_words(self) -> str:
        return self.rule.split(" => ")[0]

#: The comparisons a condition may make with a state of an ordinal feature.
COMPARISONS = (">=", ">", "<=", "<", "==", "!=")


def orders(odd: ODD) -> dict:
    """Return ``{feature: tuple of its states in increasing order}`` for the ordinal features.

    The ODD's ordinal features (``odd.ordinal``; empty when it declares none).
    """
    return dict(getattr(odd, "ordinal", None) or {})


@question
def check_rule(odd: ODD, condition: Mapping[Feature, object], decision, *,
               exact: bool = False, within="support") -> RuleCheck:
    """Whether every possible instance that meets ``condition`` is decided ``decision``.

    Parameters
    ----------
    odd : ODD
    condition : mapping
        Per feature, what it must be: a state; a collection of states (any of them); or,
        for an ordinal feature (``odd.ordinal``), a comparison ``(op, state)`` with ``op``
        one of ``">="``, ``">"``, ``"<="``, ``"<"`` (in the feature's order), ``"=="`` or
        ``"!="`` (these two on any feature). Features left out may be anything.
    decision : class state or bool
        The decision the rule asks for: a state of the class (on a binary ODD, the
        positive state or, for a two-state class, the other one; ``True`` and ``False``
        too). On a multi-class ODD, "decided ``c``" is ``odd.class_formula(c)``.
    exact : bool, default False
        ``violation_probability`` as the exact :class:`~fractions.Fraction`.
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances the rule is about: those the network allows (its support,
        :func:`bnx.support`), every complete instance (the total decision function), or
        a set (:func:`bnx.forbid`, an ``&`` of sets). A counterexample is always one of
        them; ``world`` says which were counted.

    Returns
    -------
    RuleCheck
        ``holds``; ``violations``, the number of complete instances of the world that
        meet the condition and get another decision (a count of the models in the
        condition's box of the diagram that keeps the other decision to the world,
        :func:`bnx.explanation._within.keep_within`); ``violation_probability``, their
        probability under the network, a float within ``1e-9`` of the exact value (proven, as
        :func:`bnx.same_decision_probability`'s): a sum over the network's dense joint
        (``bnx.probability._dense``) when it is within reach, otherwise (and with
        ``exact=True``) a weighted count along the diagram in exact integers
        (:func:`bnx.probability.frontier.decision_masses`, costing the diagram's size
        times the largest table over the hidden nodes it carries); ``counterexample``,
        the most probable of them under the network, exactly: the dense joint's largest
        entry (entries within rounding of it compared exactly), or else a max-product
        pass along the diagram (:func:`bnx.probability.frontier.most_probable`: linear
        in the diagram when no hidden node is left to sum, exponential in the worst
        case, since it is a marginal MAP problem).
        When the ODD holds no classifier (a saved file of format version 1), there is no
        distribution: ``violation_probability`` is ``None`` and the counterexample is the
        first violating instance in the diagram's order.

    Raises
    ------
    UnknownFeatureError
        A feature of the condition is not one of the ODD's.
    UnknownStateError
        A state of the condition is not one of its feature's.
    ArgumentError
        A comparison on a feature that is not ordinal, an unknown comparison, a feature
        no state of which meets its part of the condition, or a decision that is not one
        of the class's.

    See Also
    --------
    bnx.check_rules : Many rules at once, written as text, as a table.
    bnx.check_monotone : Whether raising a feature's state never lowers the decision.
    bnx.check_explanation : Whether a partial instance explains one decision.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> check = bnx.check_rule(odd, {"GPA": "+", "WorkExperience": "+"}, "+")
    >>> check.holds, check.violations, check.instances
    (True, 0, 4)
    >>> check = bnx.check_rule(odd, {"GPA": "+"}, "+")
    >>> check.holds, check.violations, check.instances
    (False, 3, 8)
    >>> print(check)  # doctest: +NORMALIZE_WHITESPACE
    Broken: 3 of the 8 instances with GPA = + are not decided Admit = + (probability
    0.0756 in all); the most probable of them, WorkExperience = -, FirstTimeApplicant = -,
    EntranceExam = -, GPA = +, is decided Admit = -.
    """
    from ._within import keep_within, world_of
    check_odd(odd)
    box = _box(odd, condition)
    target, value, words = _decided(odd, decision)
    enc = target.encoding
    choices = [[(s, s) for s in box.get(f, range(len(enc.states[i])))]
               for i, f in enumerate(enc.features)]

    def count(keep: bool):  # the instances of the box decided keep, within the world
        g = keep_within(target, keep, within)
        fv = feature_view(g.arrays, g.encoding)
        return walks((fv, fv), (fv.root, fv.root), choices, accepts(keep))

    found = count(not value)
    world = world_of(target, within)
    if world == "all":
        instances = math.prod(len(c) for c in choices)
    else:
        instances = found.count + count(value).count
    rule = f"{condition_words(odd, box)} => {words}"
    shown = {f: tuple(odd.states(f)[j] for j in sorted(box[f]))
             for f in odd.display_order if f in box}
    if not found.count:
        none = (Fraction(0) if exact else 0.0) if target.classifier is not None else None
        return RuleCheck(rule, shown, words, True, 0, instances, none, world=world)
    clf = target.classifier
    probability = None
    if clf is None:
        states = [a for a, _ in found.witness()]
    elif world == "set":  # the violations of the set: g's, weighed by the network
        from ..probability.frontier import decision_masses, most_probable
        g = keep_within(target, not value, within)
        masses = decision_masses(clf, g, box)
        probability = Fraction(masses[1] if not value else masses[0], sum(_total(clf, target)))
        probability = probability if exact else float(probability)
        best = most_probable(clf, g, box, not value) if probability else None
        states = best[0] if best is not None else [a for a, _ in found.witness()]
    else:  # every instance, or the support (a violation outside it weighs nothing)
        from ..probability import under  # numpy: only when needed
        got = under.box_violations(clf, target, [sorted(c[0] for c in cs) for cs in choices],
                                   value)
        if got is not None and not exact:
            probability, states = got
        else:
            from ..probability.frontier import decision_masses, most_probable
            masses = decision_masses(clf, target, box)
            probability = Fraction(masses[1] if not value else masses[0],
                                   sum(_total(clf, target)))
            probability = probability if exact else float(probability)
            states = got[1] if got is not None else most_probable(clf, target, box,
                                                                   not value)[0]
    x = {f: enc.states[i][states[i]] for i, f in enumerate(enc.features)}
    x = {f: x[f] for f in odd.display_order}
    got = odd.decide(x, within="all")  # (a counterexample of the world asked)
    other = odd.decision_text(got) if isinstance(got, bool) else f"{odd.class_var} = {got}"
    return RuleCheck(rule, shown, words, False, found.count, instances, probability, x, other,
                     world)


def _total(clf, odd) -> tuple:
    """Return the masses of both decisions with no evidence (kept with the diagram)."""
    from ..probability.frontier import decision_masses
    cache = odd.arrays.cache
    key = (id(clf), clf.fingerprint)
    got = cache.get("rule_total", key)
    if got is None:
        got = cache.put("rule_total", key, decision_masses(clf, odd, {}))
    return got


@question
def check_rules(odd: ODD, rules, *, within="support"):
    """Every rule of ``rules`` checked (:func:`check_rule`): one row a rule.

    Parameters
    ----------
    odd : ODD
    rules : iterable or mapping
        Each rule a pair ``(condition, decision)`` as :func:`check_rule` takes them, or a
        text as the command line writes it (``"bilirubin>=a19_7 => Cirrhosis=decompensate"``,
        :func:`parse_rule`). A mapping names its rules (the index of the table).
    within : ``"support"``, ``"all"`` or a set of instances, default ``"support"``
        The instances the rules are about, as for :func:`check_rule`.

    Returns
    -------
    pandas.DataFrame
        Columns ``rule`` (in words), ``holds``, ``violations``, ``instances``,
        ``violation_probability`` and ``counterexample`` (``feature = state, ...``; a
        missing value when the rule holds).

    See Also
    --------
    bnx.check_rule : One rule, its counterexamples and their probability.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> table = bnx.check_rules(odd, ["GPA=+, WorkExperience=+ => Admit=+",
    ...                               ({"GPA": "-"}, "-")])
    >>> table[["holds", "violations", "instances"]].values.tolist()
    [[True, 0, 4], [False, 1, 8]]
    """
    import pandas as pd

    check_odd(odd)
    if isinstance(rules, (str, tuple)) and not isinstance(rules, Mapping):
        rules = [rules]
    named = rules.items() if isinstance(rules, Mapping) else enumerate(rules)
    rows, index = [], []
    from .._util.wording import terms
    for name, rule in named:
        if isinstance(rule, str):
            rule = parse_rule(rule, odd)
        if not isinstance(rule, tuple) or len(rule) != 2:
            raise ArgumentError(f"a rule is a pair (condition, decision) or a text "
                                f"'condition => decision', got {rule!r}")
        got = check_rule(odd, *rule, within=within)
        index.append(name)
        rows.append({"rule": got.rule, "holds": got.holds, "violations": got.violations,
                     "instances": got.instances,
                     "violation_probability": got.violation_probability,
                     "counterexample": None if got.holds else terms(got.counterexample)})
    columns = ["rule", "holds", "violations", "instances", "violation_probability",
               "counterexample"]
    return pd.DataFrame(rows, index=index if isinstance(rules, Mapping) else None,
                        columns=columns)


# ---------------------------------------------------------------------- conditions
def _box(odd: ODD, condition) -> dict:
    """``{feature: frozenset of state indices}`` for the features ``condition`` names."""
    if not isinstance(condition, Mapping):
        raise ArgumentError(f"a condition maps features to states, got {condition!r}")
    ordinal = orders(odd)
    box = {}
    for f, want in condition.items():
        i = odd._position(f)  # UnknownFeatureError
        f = odd.features[i]
        states = tuple(odd.states(f))
        box[f] = frozenset(_allowed(f, states, ordinal.get(f), want))
        if not box[f]:
            raise ArgumentError(f"no state of {f!r} meets {want!r}: the condition is "
                                f"never met")
    return box


def _index(f, states: tuple, s) -> int:
    if s in states:
        return states.index(s)
    by_text = [str(t) for t in states]
    if str(s) in by_text:
        return by_text.index(str(s))
    raise UnknownStateError(f"{s!r} is not a state of {f!r}; its states are "
                            f"{closest_first(s, states)}")


def _allowed(f, states: tuple, order: tuple | None, want) -> set:
    if isinstance(want, tuple) and len(want) == 2 and want[0] in COMPARISONS:
        op, s = want
        j = _index(f, states, s)
        if op == "==":
            return {j}
        if op == "!=":
            return set(range(len(states))) - {j}
        if order is None:
            raise ArgumentError(f"{f!r} is not ordinal, so {op!r} does not apply to it: "
                                f"declare its order (bnx.Classifier(..., ordinal={{{f!r}: "
                                f"[...]}})) or name its states")
        rank = [order.index(t) for t in states]
        r = rank[j]
        test = {">=": r.__le__, ">": r.__lt__, "<=": r.__ge__, "<": r.__gt__}[op]
        return {k for k in range(len(states)) if test(rank[k])}
    if isinstance(want, tuple) and len(want) == 2 and isinstance(want[0], str) and \
            want[0] not in states and re.fullmatch(r"[<>=!≥≤≠]+", want[0]):
        raise ArgumentError(f"unknown comparison {want[0]!r} for {f!r}; use one of "
                            f"{', '.join(COMPARISONS)}")
    if isinstance(want, Collection) and not isinstance(want, str) and want not in states:
        return {_index(f, states, s) for s in want}
    return {_index(f, states, want)}


def condition_words(odd: ODD, box: dict) -> str:
    """Say the condition in words: ``bilirubin ≥ a19_7, age ∈ {age31_50, age51_65}``."""
    ordinal = orders(odd)
    out = []
    for f in odd.display_order:
        if f not in box:
            continue
        states = tuple(odd.states(f))
        allowed = sorted(box[f])
        if len(allowed) == 1:
            out.append(f"{f} = {states[allowed[0]]}")
            continue
        if len(allowed) == len(states) - 1:
            gone = next(j for j in range(len(states)) if j not in box[f])
            if f not in ordinal or gone not in (0, len(states) - 1):
                out.append(f"{f} ≠ {states[gone]}")
                continue
        order = ordinal.get(f)
        if order is not None:
            ranks = sorted(order.index(states[j]) for j in allowed)
            if ranks == list(range(ranks[0], ranks[-1] + 1)):
                lo, hi = order[ranks[0]], order[ranks[-1]]
                if ranks[0] == 0:
                    out.append(f"{f} ≤ {hi}")
                elif ranks[-1] == len(order) - 1:
                    out.append(f"{f} ≥ {lo}")
                else:
                    out.append(f"{lo} ≤ {f} ≤ {hi}")
                continue
            allowed = sorted(allowed, key=lambda j: order.index(states[j]))
        out.append(f"{f} ∈ {{{', '.join(str(states[j]) for j in allowed)}}}")
    return ", ".join(out) or "any instance"


# ---------------------------------------------------------------------- decisions
def _decided(odd: ODD, decision):
    """Return ``(binary ODD, value, words)`` for ``decision``.

    "Decided ``decision``" is the binary ODD being ``value``; ``words`` says it in the
    class's words.
    """
    if getattr(odd, "multiclass", False):
        classes = tuple(odd.classes)
        state = _class_state(odd, classes, decision)
        return odd.class_formula(state), True, f"{odd.class_var} = {state}"
    if isinstance(decision, bool):
        return odd, decision, odd.decision_text(decision)
    for value in (True, False):
        if str(decision) == str(odd.decision_state(value)):
            return odd, value, odd.decision_text(value)
    names = [odd.decision_state(True), odd.decision_state(False)]
    raise ArgumentError(f"{decision!r} is not a decision of this classifier of "
                        f"{odd.class_var!r}; its decisions are {names}")


def _class_state(odd, classes: tuple, decision):
    if decision in classes:
        return decision
    by_text = [str(c) for c in classes]
    if str(decision) in by_text:
        return classes[by_text.index(str(decision))]
    raise ArgumentError(f"{decision!r} is not a state of the class {odd.class_var!r}; "
                        f"its states are {closest_first(decision, classes)}")


# ---------------------------------------------------------------------- text
_OPS = ("!=", ">=", "<=", "==", "≥", "≤", "≠", "=", ">", "<")
_WORD = {"≥": ">=", "≤": "<=", "≠": "!=", "=": "=="}


def parse_rule(text: str, odd: ODD | None = None) -> tuple[dict, object]:
    """Read ``(condition, decision)`` from a rule written as text, as :func:`check_rule` takes them.

    For example ``"bilirubin>=a19_7, age=age31_50|age51_65 => Cirrhosis=decompensate"``.

    The condition's terms are separated by commas (or ``and``); each is ``feature op
    state`` with ``op`` one of ``=``, ``==``, ``!=``, ``>=``, ``>``, ``<=``, ``<`` (or
    ``≥``, ``≤``, ``≠``), and ``feature=a|b`` or ``feature in {a, b}`` allow several states.
    The decision is ``class=state`` or the state alone. With ``odd``, the class named is
    checked against the ODD's.

    Raises
    ------
    ArgumentError
        The text is not of that form; the message says which part.

    Examples
    --------
    >>> parse_rule("bilirubin>=a19_7, age in {a, b} => Cirrhosis=decompensate")
    ({'bilirubin': ('>=', 'a19_7'), 'age': ('a', 'b')}, 'decompensate')
    """
    if not isinstance(text, str) or text.count("=>") != 1:
        raise ArgumentError(f"a rule reads 'condition => decision' (one '=>'), got {text!r}")
    left, right = (part.strip() for part in text.split("=>"))
    if not right:
        raise ArgumentError(f"the rule {text!r} names no decision after '=>'")
    decision = right
    if "=" in right:
        c, _, decision = (p.strip() for p in right.partition("="))
        if odd is not None and str(c) != str(odd.class_var):
            raise ArgumentError(f"the rule's decision is about {c!r}, but the class is "
                                f"{odd.class_var!r}")
    condition: dict = {}
    for term in _terms(left):
        f, want = _term(term, text)
        if f in condition:
            raise ArgumentError(f"the rule {text!r} names {f!r} twice")
        condition[f] = want
    return condition, decision


def _terms(left: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in left:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and not depth:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [p.strip() for t in out for p in re.split(r"\s+and\s+", t) if p.strip()]


def _term(term: str, text: str):
    m = re.fullmatch(r"(.+?)\s+in\s+\{(.*)\}", term)
    if m:
        states = tuple(s.strip() for s in m.group(2).split(",") if s.strip())
        return m.group(1).strip(), states
    at = min(((term.find(op), -len(op), op) for op in _OPS if op in term), default=None)
    if at is None or at[0] <= 0:
        raise ArgumentError(f"cannot read {term!r} in the rule {text!r}: write "
                            f"'feature=state', 'feature>=state', 'feature=a|b', ...")
    pos, _, op = at
    f, state = term[:pos].strip(), term[pos + len(op):].strip()
    if not state:
        raise ArgumentError(f"{term!r} in the rule {text!r} names no state")
    op = _WORD.get(op, op)
    if op == "==" and "|" in state:
        return f, tuple(s.strip() for s in state.split("|"))
    return f, (state if op == "==" else (op, state))
