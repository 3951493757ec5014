"""How answers are worded for people: decisions by the class's states, explanations as
``feature = state`` terms, probabilities as decimals.

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

__all__ = ["affirmative", "decision_state", "decimal", "terms", "listing", "plural"]

#: How many explanations a printed set shows before "… and N more".
SHOWN = 5


#: Pairs of states read as (on, off), in any case: a binary feature whose two states are
#: one of these pairs has an obvious "on" state for MC-explanations.
AFFIRMATIVE = (("yes", "no"), ("y", "n"), ("true", "false"), ("t", "f"), ("1", "0"),
               ("+", "-"), ("+", "\u2212"), ("present", "absent"), ("positive", "negative"),
               ("pos", "neg"), ("on", "off"))
_ON = {(a, b): 0 for a, b in AFFIRMATIVE} | {(b, a): 1 for a, b in AFFIRMATIVE}


def affirmative(states: Sequence) -> int | None:
    """The index of the affirmative state of a two-state feature (``"yes"`` of
    yes/no, ``"+"`` of +/-, ``1`` of 0/1, ... in any case), or ``None`` when its states
    are not such a pair.

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
    """The class state a decision stands for, as text: the positive state for a
    positive decision; for a negative one the other state of a two-state class, or
    ``"not <positive>"`` (a class of more states, or unknown states)."""
    if decision:
        return str(positive)
    if class_states is not None and len(class_states) == 2:
        other = [s for s in class_states if s != positive]
        if len(other) == 1:
            return str(other[0])
    return f"not {positive}"


def terms(mapping: Mapping, *, was: Mapping | None = None) -> str:
    """``"feature = state, ..."`` in the mapping's order; with ``was`` (the instance),
    each term says the state it changes from: ``"GPA = - (was +)"``."""
    if not mapping:
        return "(nothing)"
    if was is None:
        return ", ".join(f"{f} = {s}" for f, s in mapping.items())
    return ", ".join(f"{f} = {s} (was {was[f]})" if f in was else f"{f} = {s}"
                     for f, s in mapping.items())


def decimal(p: Any, digits: int = 3) -> str:
    """A probability as people read it: ``digits`` significant digits, scientific
    notation below 0.001, ``"0"`` and ``"1"`` exactly."""
    x = float(p)
    if x == 0 or x == 1:
        return str(int(x))
    if abs(x) < 1e-3:
        return f"{x:.{max(digits - 2, 1)}e}".replace("e-0", "e-")
    return f"{x:.{digits}g}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 reason"``, ``"1,111 reasons"``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def listing(header: str, lines: Iterable[str], total: int, shown: int = SHOWN) -> str:
    """``header`` then up to ``shown`` indented lines, then ``"… and N more"`` when
    ``total`` is larger (``lines`` is read only as far as needed)."""
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
