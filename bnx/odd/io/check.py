"""A loaded file checked against itself: its diagram must decide as its own classifier does.

The checksum of an ODD file guards against corruption (a flipped bit, a truncated copy),
not against an edit: whoever edits a file can recompute it, and the fingerprint too. So
loading also decides instances both ways and refuses the file when they differ
(:func:`cross_check`):

* the header's ``class_var``, ``positive``, ``threshold`` and ``rule`` are the stored
  classifier's, its features are the classifier's, each with the same states in the same
  order;
* every instance when the features have at most :data:`EVERY` instances together, else
  :data:`SAMPLE` instances drawn with a fixed seed, is decided by the diagram (a walk down
  its arrays, :func:`~bnx.diagram._feature_view.decide_states`) and by the classifier's
  tables (``Pr(class, x)`` for all of them at once: one contraction of the network's
  tables with the instances as one more axis, :func:`bnx.classifier._inference.contract`,
  in floats with a proven bound, the rows floats cannot settle again in exact rationals),
  by the classifier's rule exactly; the first instance on which they differ is named.

A file whose diagram was complemented, or whose class prior or any table was edited so
that some sampled decision changes, is refused with an :class:`~bnx.ODDFileError` that
says the diagram and the classifier disagree. On a network so wide that one instance's
contraction needs a table of more than :data:`LARGEST` entries, only the header is
checked. This is no proof of where the file came from: an edit that changes no sampled
decision (of a large classifier) passes, as does a
consistent forgery of both parts. pgmpy is not needed (the tables are read from the
document, :func:`bnx.odd._classifier_json.document_tables`).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..._util.wording import decision_state
from ...classifier._inference import FloatRange, contract, plan
from ...classifier._rules import decide_rows, decides
from ...diagram._arrays import DiagramArrays
from ...diagram._feature_view import decide_states
from ...diagram.encoding import Encoding
from .._classifier_json import document_tables

__all__ = ["cross_check", "SAMPLE", "EVERY", "SEED", "LARGEST"]

#: Classifiers with at most this many instances are checked on every instance.
EVERY = 4096
#: Otherwise, this many instances are checked.
SAMPLE = 256
#: The most entries one table of the check's contraction may hold (the instances are
#: then checked in parts; a network where one instance needs more is not checked here).
LARGEST = 1 << 22
#: The seed of the sample (fixed: a file is checked the same way on every load).
SEED = 45

_ROW = ("bnx", "instance")  # the instances' axis (no node is a tuple: names are JSON scalars)


def cross_check(stored: dict, enc: Encoding, meta: dict, arrays: DiagramArrays, bad,
                where: str) -> None:
    """Refuse a file whose diagram and classifier differ (see the module docstring).

    ``bad(problem)`` makes the :class:`~bnx.ODDFileError` to raise.
    """
    rule = meta["rule"]
    t = meta["threshold"]
    said = {"class_var": meta["class_var"], "positive": meta["positive"], "rule": rule,
            "threshold": None if t is None else f"{t.numerator}/{t.denominator}"}
    for key, value in said.items():
        if stored.get(key) != value or type(stored.get(key)) is not type(value):
            raise bad(f"its header's {key} {value!r} is not its classifier's "
                      f"{stored.get(key)!r}")
    feats = stored.get("features")
    if not isinstance(feats, list) or sorted(map(repr, feats)) != sorted(
            map(repr, enc.features)):
        raise bad("its diagram's features are not its classifier's")
    states, parents, tables = document_tables(stored, where)
    for f, ss in zip(enc.features, enc.states):
        if states.get(f) != ss:
            raise bad(f"its diagram gives {f!r} the states {list(ss)}, its classifier "
                      f"{list(states.get(f, ()))}")
    c = meta["class_var"]
    classes = states.get(c, ())
    if meta["positive"] not in classes or c in enc.features:
        raise bad(f"its classifier's class {c!r} has no state {meta['positive']!r}")
    p = classes.index(meta["positive"])
    rows = _instances(enc)
    diagram = decide_states(arrays, enc, rows)
    network = _decide(rows, enc, c, states, parents, tables, rule, p, t)
    if network is None:
        return
    differ = np.flatnonzero(diagram != network)
    if not len(differ):
        return
    r = int(differ[0])
    x = ", ".join(f"{f} = {enc.states[i][rows[r, i]]}" for i, f in enumerate(enc.features))

    def said_for(value: bool) -> str:
        return f"{c} = {decision_state(classes, meta['positive'], value)}"

    raise bad(f"its diagram and its classifier disagree: on {x}: the diagram decides "
              f"{said_for(bool(diagram[r]))}, the classifier's tables "
              f"{said_for(bool(network[r]))} ({len(differ)} of {len(rows)} instances "
              f"checked disagree); the file was edited after it was compiled")


def _instances(enc: Encoding) -> np.ndarray:
    """Return the instances checked, as state indices (one row each, the ODD's order)."""
    return _drawn(tuple(len(ss) for ss in enc.states))


@functools.lru_cache(maxsize=32)
def _drawn(cards: tuple) -> np.ndarray:
    """:func:`_instances` of features with these numbers of states (read-only)."""
    out = _draw(cards)
    out.flags.writeable = False
    return out


def _draw(cards: tuple) -> np.ndarray:
    if math.prod(cards) <= EVERY:
        return np.indices(cards).reshape(len(cards), -1).T.astype(np.int64)
    # a fixed pseudo-random draw: splitmix64 of (row, feature, SEED), cheaper than a Generator
    x = (np.arange(SAMPLE, dtype=np.uint64)[:, None] * np.uint64(0x9E3779B97F4A7C15)
         + (np.arange(len(cards), dtype=np.uint64)[None, :] + np.uint64(SEED))
         * np.uint64(0xBF58476D1CE4E5B9))
    x ^= x >> np.uint64(30)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return (x % np.array(cards, dtype=np.uint64)).astype(np.int64)


def _decide(rows: np.ndarray, enc: Encoding, c: Any, states: dict, parents: dict,
            tables: dict, rule: str, p: int, t: Fraction | None) -> np.ndarray | None:
    """Return the classifier's exact decision on each row, from its tables.

    Each table with an observed feature is gathered at the rows' states (its features'
    axes replaced by one axis of the rows), and the tables contracted down to the class and
    the rows (:func:`~bnx.classifier._inference.plan`): ``Pr(class, x)`` for every row, in
    floats within a proven bound; the rows floats cannot settle (near ties, or no bound)
    are contracted again exactly. The rows go in parts when the tables would exceed
    :data:`LARGEST` entries; ``None`` when one row alone would.
    """
    column = dict(zip(enc.features, np.ascontiguousarray(rows.T)))
    card = {v: len(s) for v, s in states.items()}
    scopes, gathered = [], []
    for n, table in tables.items():
        scope = (n, *parents[n])
        observed = [v in column for v in scope]
        if any(observed):  # the observed axes made one, and the table taken at each row's state
            seen = [i for i, o in enumerate(observed) if o]
            rest = [i for i, o in enumerate(observed) if not o]
            if seen + rest != list(range(len(scope))):
                table = table.transpose(seen + rest)
            at = column[scope[seen[0]]]
            if len(seen) > 1:
                table = table.reshape(-1, *table.shape[len(seen):])
                at = np.ravel_multi_index([column[scope[i]] for i in seen],
                                          [card[scope[i]] for i in seen])
            table = table.take(at, axis=0)
            scope = (_ROW, *(scope[i] for i in rest))
        scopes.append(scope)
        gathered.append(table)
    keep = (c, _ROW)
    whole = plan(scopes, keep, {**card, _ROW: len(rows)})
    if whole.largest <= LARGEST:
        return _decide_part(whole, scopes, gathered, card, 0, len(rows), rule, p, t)
    one = plan(scopes, keep, {**card, _ROW: 1}).largest
    if one > LARGEST:
        return None  # one instance's contraction is out of bounds: not checked
    step = max(1, LARGEST // one)
    out = []
    for a in range(0, len(rows), step):
        b = min(a + step, len(rows))
        part = plan(scopes, keep, {**card, _ROW: b - a})
        out.append(_decide_part(part, scopes, gathered, card, a, b, rule, p, t))
    return np.concatenate(out)


def _decide_part(planned, scopes: list, gathered: list, card: dict, a: int, b: int,
                 rule: str, p: int, t: Fraction | None) -> np.ndarray:
    """Decide the rows ``a:b`` by the contraction ``planned``: in floats, then exactly."""
    tables = [g[a:b] if s[0] == _ROW else g for s, g in zip(scopes, gathered)]
    settled = decided = np.zeros(b - a, dtype=bool)
    try:
        joint, _, err = contract(planned, tables)
        settled, decided = decide_rows(joint, err, rule, p, t)
    except FloatRange:
        pass
    todo = np.flatnonzero(~settled)
    if len(todo):  # the same contraction in exact rationals, on those rows only
        exact = [_fractions(tb[todo] if s[0] == _ROW else tb) for s, tb in zip(scopes, tables)]
        again = plan(scopes, planned.keep, {**card, _ROW: len(todo)})
        joint, _, _ = contract(again, exact, exact=True)
        decided = decided.copy()
        for j, r in enumerate(todo.tolist()):
            decided[r] = decides(joint[:, j].tolist(), rule, p, t)
    return decided


def _fractions(table: np.ndarray) -> np.ndarray:
    """Return a float table as the exact rationals of its entries (an object array)."""
    return np.array([Fraction(v) for v in table.reshape(-1).tolist()],
                    dtype=object).reshape(table.shape)
