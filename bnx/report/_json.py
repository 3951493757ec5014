"""A :class:`~bnx.report.Report` as plain JSON data, and back."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..errors import ArgumentError
from ._values import Counterfactual, FrozenMap, NextObservation

__all__ = ["to_dict", "from_dict"]


def _scalar(v: Any) -> Any:
    """Write a name as JSON: str, int, float, bool and None as they are, anything else as text."""
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    return str(v)


def _fraction(q: Fraction | None) -> str | None:
    return None if q is None else f"{q.numerator}/{q.denominator}"


def _names(m: Mapping | None) -> dict | None:
    return None if m is None else {str(k): _scalar(v) for k, v in m.items()}


def to_dict(r, fields: tuple) -> dict:
    """Write ``r`` as a dict of JSON values (see :meth:`bnx.Report.to_dict`).

    ``fields``: the report's fields, every one of which is written.
    """
    out = {
        "class_var": _scalar(r.class_var), "decision": r.decision, "positive": r.positive,
        "positive_state": _scalar(r.positive_state), "instance": _names(r.instance),
        "features": [_scalar(f) for f in r.features], "complete": r.complete,
        "rule": r.rule, "threshold": r.threshold,
        "threshold_exact": _fraction(r.threshold_exact), "posterior": r.posterior,
        "posterior_exact": _fraction(r.posterior_exact),
        "class_probabilities": None if r.class_probabilities is None else {
            str(k): v for k, v in r.class_probabilities.items()},
        "reasons": [_names(e) for e in r.reasons], "reason_count": r.reason_count,
        "reason_lengths": None if r.reason_lengths is None else {
            str(k): v for k, v in r.reason_lengths.items()},
        "general_reasons": [{str(f): [_scalar(v) for v in s] for f, s in e.items()}
                            for e in r.general_reasons],
        "general_words": [list(w) for w in r.general_words],
        "general_count": r.general_count,
        "necessary": [_scalar(f) for f in r.necessary],
        "irrelevant": None if r.irrelevant is None else [_scalar(f) for f in r.irrelevant],
        "counterfactuals": [{"changes": {str(f): {"from": _scalar(old), "to": _scalar(new)}
                                         for f, (old, new) in c.items()},
                             "decision": _scalar(c.decision)} for c in r.counterfactuals],
        "counterfactual_count": r.counterfactual_count, "robustness": _count(r.robustness),
        "attributions": None if r.attributions is None else {
            str(f): v for f, v in r.attributions.items()},
        "base_value": r.base_value, "sdp": r.sdp, "sdp_exact": _fraction(r.sdp_exact),
        "next": None if r.next is None else [
            {"feature": _scalar(n.feature), "expected_sdp": n.expected_sdp,
             "flip_probability": n.flip_probability,
             "expected_sdp_bounds": None if n.expected_sdp_bounds is None
             else list(n.expected_sdp_bounds)} for n in r.next],
        "method": r.method, "multiclass": r.multiclass, "rival": _scalar(r.rival),
        "methods": None if r.methods is None else dict(r.methods),
        "reasons_proven": r.reasons_proven, "robustness_at_least": r.robustness_at_least,
        "sdp_bounds": None if r.sdp_bounds is None else list(r.sdp_bounds),
        "world": r.world,
    }
    assert tuple(out) == fields, "a field of Report is not written"
    # what the fields imply, as every surface says it (not read back: derived)
    from ._glossary import glossary_dict
    from ._plain import reason_key
    m = r.margin
    out["constant"] = r.constant
    # the runner-up by its name as text, as a report read back names its states
    out["margin"] = None if m is None else {k: str(v) if k == "runner_up" else _scalar(v)
                                            for k, v in m.items()}
    out["labels"] = {"reasons": reason_key(r)}
    out["glossary"] = glossary_dict()
    return out


#: JSON has no infinity: a robustness of ``math.inf`` is written as this text (which
#: ``float()`` and JavaScript's ``Number()`` read back as infinity).
INFINITY = "Infinity"


def _count(v: int | float | None) -> int | str | None:
    return INFINITY if v == math.inf else v


def _uncount(v: int | str | None) -> int | float | None:
    if isinstance(v, str):
        if v != INFINITY:
            raise ValueError(f"robustness {v!r} is neither an integer nor {INFINITY!r}")
        return math.inf
    return v


def _q(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


#: The fields a report written before them may lack (read as ``None``).
LATER = ("methods", "reasons_proven", "robustness_at_least", "sdp_bounds", "world")


def _world(w: Any) -> str | None:
    if w not in (None, "support", "all"):
        raise ArgumentError(f"not a Report.to_dict() mapping: its world {w!r} is not "
                            f"'support', 'all' or null")
    return w


def from_dict(cls, d: Mapping, fields: tuple):
    """Read back the report whose :func:`to_dict` is ``d``."""
    missing = [k for k in fields if k not in d and k not in LATER]
    if missing:
        raise ArgumentError(f"not a Report.to_dict() mapping: it has no {', '.join(missing)}")
    try:
        frozen = lambda m: None if m is None else FrozenMap(m)
        return cls(
            class_var=d["class_var"], decision=d["decision"], positive=d["positive"],
            positive_state=d["positive_state"], instance=FrozenMap(d["instance"]),
            features=tuple(d["features"]), complete=d["complete"], rule=d["rule"],
            threshold=d["threshold"], threshold_exact=_q(d["threshold_exact"]),
            posterior=d["posterior"], posterior_exact=_q(d["posterior_exact"]),
            class_probabilities=frozen(d["class_probabilities"]),
            reasons=tuple(FrozenMap(e) for e in d["reasons"]),
            reason_count=d["reason_count"],
            reason_lengths=None if d["reason_lengths"] is None else FrozenMap(
                {int(k): v for k, v in d["reason_lengths"].items()}),
            general_reasons=tuple(FrozenMap({f: tuple(s) for f, s in e.items()})
                                  for e in d["general_reasons"]),
            general_words=tuple(tuple(w) for w in d["general_words"]),
            general_count=d["general_count"],
            necessary=tuple(d["necessary"]),
            irrelevant=None if d["irrelevant"] is None else tuple(d["irrelevant"]),
            counterfactuals=tuple(Counterfactual({f: (c["from"], c["to"])
                                                  for f, c in e["changes"].items()},
                                                 e["decision"])
                                  for e in d["counterfactuals"]),
            counterfactual_count=d["counterfactual_count"],
            robustness=_uncount(d["robustness"]),
            attributions=frozen(d["attributions"]), base_value=d["base_value"],
            sdp=d["sdp"], sdp_exact=_q(d["sdp_exact"]),
            next=None if d["next"] is None else tuple(
                NextObservation(n["feature"], n["expected_sdp"], n["flip_probability"],
                                None if n.get("expected_sdp_bounds") is None
                                else tuple(n["expected_sdp_bounds"]))
                for n in d["next"]),
            method=d["method"], multiclass=d["multiclass"], rival=d["rival"],
            methods=frozen(d.get("methods")), reasons_proven=d.get("reasons_proven"),
            robustness_at_least=d.get("robustness_at_least"),
            sdp_bounds=None if d.get("sdp_bounds") is None else tuple(d["sdp_bounds"]),
            world=_world(d.get("world")))
    except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as exc:
        raise ArgumentError(f"not a Report.to_dict() mapping: {exc}") from None
