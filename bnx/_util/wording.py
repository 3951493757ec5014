"""How answers are worded for people.

Decisions by the class's states, explanations as ``feature = state`` terms, probabilities as
decimals.

Helpers only (no bnx imports): the ODD names its decisions with :func:`decision_state`,
and every printed result writes its explanations with :func:`terms` and its numbers with
:func:`decimal`.

Examples
--------
>>> decision_state(("democrat", "republican"), "republican", False)
'democrat'
>>> decision_state(("a", "b", "c"), "a", False)
'not a'
>>> terms({"GPA": "+", "WorkExperience": "+"})
'GPA = +, WorkExperience = +'
>>> decimal(0.90625), decimal(1.5e-11), decimal(1), decimal(0)
('0.906', '1.5e-11', '1', '0')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["affirmative", "changes", "decision_state", "decimal", "terms", "listing",
           "plural", "probability", "share", "decided", "decided_class"]

#: How many explanations a printed set shows before "… and N more".
SHOWN = 5


#: Pairs of states read as (on, off), in any case: a binary feature whose two states are
#: one of these pairs has an obvious "on" state for MC-explanations.
AFFIRMATIVE = (("yes", "no"), ("y", "n"), ("true", "false"), ("t", "f"), ("1", "0"),
               ("+", "-"), ("+", "\u2212"), ("present", "absent"), ("positive", "negative"),
               ("pos", "neg"), ("on", "off"))
_ON = {(a, b): 0 for a, b in AFFIRMATIVE} | {(b, a): 1 for a, b in AFFIRMATIVE}


def affirmative(states: Sequence) -> int | None:
    """Return the index of the affirmative state of a two-state feature, if it has one.

    The affirmative state is ``"yes"`` of yes/no, ``"+"`` of +/-, ``1`` of 0/1, ... in any case;
    ``None`` when the states are not such a pair.

    >>> affirmative(("n", "y")), affirmative(("Present", "Absent")), affirmative((0, 1))
    (1, 0, 1)
    >>> affirmative(("normal", "abnormal")) is None
    True
    """
    if len(states) != 2:
        return None
    key = tuple(str(s).strip().lower() for s in states)
    return _ON.get(key)


def decision_state(class_states: Sequence | None, positive: Any, decision: bool) -> str:
    """Name the class state a decision stands for, as text.

    The positive state for a positive decision; for a negative one the other state of a two-state
    class, or ``"not <positive>"`` (a class of more states, or unknown states).
    """
    if decision:
        return str(positive)
    if class_states is not None and len(class_states) == 2:
        other = [s for s in class_states if s != positive]
        if len(other) == 1:
            return str(other[0])
    return f"not {positive}"


def terms(mapping: Mapping, *, was: Mapping | None = None) -> str:
    """Write ``"feature = state, ..."`` in the mapping's order.

    With ``was`` (the instance), each term says the state it changes from: ``"GPA = - (was +)"``.
    """
    if not mapping:
        return "(nothing)"
    if was is None:
        return ", ".join(f"{f} = {s}" for f, s in mapping.items())
    return ", ".join(f"{f} = {s} (was {was[f]})" if f in was else f"{f} = {s}"
                     for f, s in mapping.items())


def changes(mapping: Mapping, was: Mapping, gives: Any = None) -> str:
    """Write the changes of an instance as a sentence part, ``"GPA from + to -"``.

    The changes are joined by commas and a last "and"; with ``gives`` (the class state they lead
    to), ``"... makes it TGA"``.

    >>> changes({"XrayReport": "Plethoric"}, {"XrayReport": "Normal"}, "TGA")
    'XrayReport from Normal to Plethoric makes it TGA'
    >>> changes({"a": 1, "b": 0, "c": 2}, {"a": 0, "b": 1, "c": 1}, "x")
    'a from 0 to 1, b from 1 to 0 and c from 1 to 2 make it x'
    """
    parts = [f"{f} from {was[f]} to {s}" if f in was else f"{f} to {s}"
             for f, s in mapping.items()]
    if not parts:
        text = "no change"
    else:
        text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if gives is None:
        return text
    return f"{text} {'makes' if len(parts) <= 1 else 'make'} it {gives}"


def decimal(p: Any, digits: int = 3) -> str:
    """Write a probability as people read it.

    ``digits`` significant digits, scientific notation below 0.001, ``"0"`` and ``"1"`` exactly.
    """
    x = float(p)
    if x == 0 or x == 1:
        return str(int(x))
    if abs(x) < 1e-3:
        return f"{x:.{max(digits - 2, 1)}e}".replace("e-0", "e-")
    return f"{x:.{digits}g}"


def probability(v: float) -> str:
    """Write a probability beside a threshold, as the report writes it.

    Three significant digits, more when fewer would round a value that is not 1 to 1 (or not 0 to
    0).

    >>> probability(0.9056930015), probability(1.5042e-11), probability(0.5)
    ('0.906', '1.5e-11', '0.5')
    >>> probability(0.99999987)
    '0.9999999'
    """
    for digits in range(3, 18):
        text = f"{v:.{digits}g}"
        if (float(text) == 1) == (v == 1) and (float(text) == 0) == (v == 0):
            return text
    return repr(v)


def share(v: float) -> str:
    """Write a class state's probability beside the others'.

    Three significant digits, zeros kept (``0.280``), more when fewer would round a value that is
    not 1 to 1 (or not 0 to 0); ``"0"`` and ``"1"`` exactly.

    >>> share(0.2800270985), share(0.588799), share(1.5042e-11), share(1.0)
    ('0.280', '0.589', '1.50e-11', '1')
    """
    if v == 0 or v == 1:
        return str(int(v))
    for digits in range(3, 18):
        text = f"{v:#.{digits}g}"
        if float(text) != 1 and float(text) != 0:
            return text
    return repr(v)


def decided_class(class_var: Any, decision: Any, class_probabilities: Mapping | None, *,
                  rival: Any = None, complete: bool = True, glue: str = " ") -> str:
    """Write the sentence that leads every answer of a classifier picking one of several classes.

    It names the decided state, its probability and the runner-up's (the rival's too when it is
    another state).

    >>> probs = {"PFC": 0.025, "TGA": 0.28, "Fallot": 0.0597, "PAIVS": 0.589}
    >>> decided_class("Disease", "PAIVS", probs)
    'Decided: Disease = PAIVS (0.589; next TGA 0.280).'
    >>> decided_class("Disease", "PAIVS", probs, rival="Fallot", complete=False)
    'So far: Disease = PAIVS (0.589; next TGA 0.280; Fallot 0.0597).'
    >>> decided_class("C", "a", {"a": 0.5, "b": 0.5})
    'Decided: C = a (0.500; tied with b, the first state decides).'
    """
    head = f"{'Decided' if complete else 'So far'}: {class_var}{glue}={glue}{decision}"
    if not class_probabilities:
        return head + "."
    probs = class_probabilities
    p = probs[decision]
    others = [s for s in probs if s != decision]
    runner = max(others, key=probs.get)  # the first of equals
    if probs[runner] == p:
        text = f"{share(p)}; tied with {runner}, the first state decides"
    else:
        text = f"{share(p)}; next {runner} {share(probs[runner])}"
    if rival is not None and rival != runner and rival in probs:
        text += f"; {rival} {share(probs[rival])}"
    return f"{head} ({text})."


def decided(class_var: Any, decision: Any, positive_state: Any, posterior: float | None, *,
            rule: str = "threshold", threshold: Any = None, positive: bool = True,
            class_probabilities: Mapping | None = None, complete: bool = True,
            glue: str = " ") -> str:
    """Write the sentence that leads every answer.

    The decision in the class's words, and the posterior beside the threshold (or the rule) it was
    compared with.

    ``decision`` is the class state decided (:func:`decision_state`); ``posterior`` is
    ``Pr(class = positive_state | x)`` (``None`` when not known: then the sentence ends
    at the decision); ``complete=False`` says "So far" (a partial instance). Under
    ``rule="argmax"`` a negative decision among more than two states names the most
    probable state from ``class_probabilities``. ``glue`` joins the words of a term
    (the report keeps terms from breaking across lines with it).

    >>> decided("Admit", "yes", "yes", 0.99705, threshold=0.5)
    'Decided: Admit = yes (Pr(Admit = yes) = 0.997, threshold 0.5).'
    >>> decided("Admit", "yes", "yes", 0.791, threshold=0.5, complete=False)
    'So far: Admit = yes (Pr(Admit = yes) = 0.791, threshold 0.5).'
    >>> decided("C", "not a", "a", 0.3, rule="argmax",  # doctest: +NORMALIZE_WHITESPACE
    ...         positive=False, class_probabilities={"a": 0.3, "b": 0.5, "c": 0.2})
    'Decided: C = not a (Pr(C = a) = 0.3; the most probable state is b (0.5); the most probable
    state decides).'
    """
    def term(f: Any, s: Any) -> str:
        return f"{f}{glue}={glue}{s}"

    head = f"{'Decided' if complete else 'So far'}: {term(class_var, decision)}"
    if posterior is None:
        return head + "."
    prob = f"Pr({term(class_var, positive_state)}) = {probability(posterior)}"
    if rule == "argmax":
        probs = class_probabilities or {}
        if not positive and len(probs) > 2:
            best = max(probs, key=probs.get)  # the first of equals, as the rule's ties
            prob += f"; the most probable state is {best} ({probability(probs[best])})"
        return f"{head} ({prob}; the most probable state decides)."
    return f"{head} ({prob}, threshold {probability(float(threshold))})."


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 reason"``, ``"1,111 reasons"``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def listing(header: str, lines: Iterable[str], total: int, shown: int = SHOWN) -> str:
    """Write ``header`` then up to ``shown`` indented lines.

    Then ``"… and N more"`` when ``total`` is larger (``lines`` is read only as far as needed).
    """
    out = [header]
    k = 0
    for line in lines:
        if k == shown:
            break
        out.append(f"  {line}")
        k += 1
    if total > k:
        out.append(f"  … and {total - k:,} more")
    return "\n".join(out)
