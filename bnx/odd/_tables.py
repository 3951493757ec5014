"""The class joint of an ODD's classifier, from the tables in its file, without pgmpy.

A saved ODD holds the classifier it was compiled from (``docs/file-format.md``): its
network CPT by CPT. :attr:`bnx.ODD.classifier` rebuilds that classifier through pgmpy,
whose import alone takes longer than explaining a decision. A report needs only
``Pr(class | x)`` on one instance, which the tables determine: here every CPT entry is
read as the exact rational its float is (as :class:`bnx.Classifier` does), and the
network's one inference path (:class:`bnx.classifier._inference.Inference`, exact) sums
the rest out, leaving out the nodes whose columns sum to exactly 1 and that are neither
the class, an observed feature nor one of their ancestors.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

from ..classifier._inference import FloatRange, Inference, as_table
from ..diagram._memo import detached, register
from ..errors import ODDFileError

register("document_network", 1, "a loaded ODD's network, read from its file once", detached=True)

__all__ = ["document_class_states", "document_evidence", "document_inference",
           "document_joint", "exact_joint", "exact_probabilities", "probability_order",
           "scaled_probabilities"]


def _read(doc: dict, where: str) -> tuple:
    def bad(problem: str) -> ODDFileError:
        return ODDFileError(f"{where} holds an invalid classifier: {problem}")

    try:
        entries = list(doc["cpds"])
        own = {e["variables"][0]: [str(s) for s in e["states"][0]] for e in entries}
        states = {e["variables"][0]: tuple(e["states"][0]) for e in entries}
        parents, factors = {}, {}
        for e in entries:
            variables, names, values = list(e["variables"]), e["states"], list(e["values"])
            card = [len(s) for s in names]
            if len(values) != math.prod(card) or len(names) != len(variables):
                raise bad(f"the CPD of {variables[0]!r} has {len(values)} entries, "
                          f"not {math.prod(card)}")
            exact = []
            for v in values:
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                        math.isfinite(v) and v >= 0):
                    raise bad(f"the CPD of {variables[0]!r} has the entry {v!r}")
                exact.append(Fraction(v))
            table = as_table(exact).reshape(card) if card else as_table(exact[0])
            # each axis in the order of its variable's own states
            index = []
            for v, got in zip(variables, names):
                got = [str(s) for s in got]
                if sorted(got) != sorted(own[v]):
                    raise bad(f"the CPD of {variables[0]!r} names the states of {v!r} "
                              f"as {got}")
                index.append([got.index(s) for s in own[v]])
            import numpy as np
            table = table[np.ix_(*index)]
            parents[variables[0]] = tuple(variables[1:])
            factors[variables[0]] = (tuple(variables), table)
    except ODDFileError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise bad(str(exc) or type(exc).__name__) from None
    card = {v: len(st) for v, st in states.items()}
    return states, Inference(card, parents, factors)


def _network(odd: Any) -> tuple | None:
    doc = getattr(odd, "_classifier_doc", None)
    if doc is None:
        return None
    # per loaded ODD, its network read from the file once: (states, inference)
    return detached(odd).make("document_network", (), lambda: _read(
        doc, getattr(odd, "_classifier_where", "") or "the file"))


def document_class_states(odd: Any) -> tuple | None:
    """Read the class states of the classifier in a saved ODD's file (``None`` if it has none)."""
    got = _network(odd)
    if got is None:
        return None
    states = got[0].get(odd.meta["class_var"])
    if states is None:
        raise ODDFileError(f"the classifier in the file has no class {odd.meta['class_var']!r}")
    return states


def document_joint(odd: Any, idx: dict) -> list[Fraction] | None:
    """``[Pr(class = c, x) for c in class states]`` exactly, from the saved ODD's tables.

    ``idx`` maps observed features to state indices in the ODD's encoding (features left
    out are unobserved). ``None`` when the ODD holds no classifier (a file of format
    version 1).

    Examples
    --------
    >>> import bnx, os, tempfile
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> path = odd.save(os.path.join(tempfile.mkdtemp(), "admissions.bnx"))
    >>> loaded = bnx.ODD.load(path)
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> joint = document_joint(loaded, loaded.encode(x))
    >>> joint[1] / sum(joint) == odd.classifier.posterior_exact(x)
    True
    """
    if _network(odd) is None:
        return None
    got = document_inference(odd).joint((odd.meta["class_var"],),
                                        document_evidence(odd, idx), exact=True)
    return [Fraction(v) for v in got.table.reshape(-1).tolist()]


def document_inference(odd: Any) -> Inference | None:
    """Return the inference on the network in a saved ODD's file (``None`` if none)."""
    got = _network(odd)
    return None if got is None else got[1]


def document_evidence(odd: Any, idx: dict) -> dict:
    """Turn ``{feature: state index in the ODD}`` into evidence on the file's network."""
    states = _network(odd)[0]
    enc = odd.encoding
    evidence = {}
    for f, j in idx.items():
        own = states.get(f)
        named = enc.states[enc.position(f)][j]
        try:
            evidence[f] = [str(s) for s in own].index(str(named))
        except (ValueError, TypeError):
            raise ODDFileError(f"the classifier in the file has no state {named!r} of "
                               f"{f!r}") from None
    return evidence


def exact_joint(odd: Any, instance: dict) -> list[Fraction] | None:
    """``[Pr(class = c, x) for c in class states]`` exactly, for a named (partial) instance.

    From the ODD's classifier when it is built, else from the tables of a loaded file (no
    pgmpy); ``None`` when the ODD has neither. Both give the same exact values.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> j = exact_joint(odd, x)
    >>> j[1] / sum(j) == odd.classifier.posterior_exact(x)
    True
    """
    clf = getattr(odd, "_classifier", None)
    if clf is not None:
        return list(clf.class_joint(instance, partial=True))
    if getattr(odd, "_classifier_doc", None) is None:
        return None
    return document_joint(odd, odd.encode(instance, partial=True))



def scaled_probabilities(odd: Any, instance: dict, changes: list) -> tuple | None:
    """Return ``(nums, den)``: ``Pr({**instance, **c}) = nums[k] / den`` exactly.

    For the ``k``-th ``c`` of ``changes`` (features left out are summed out), one
    denominator for all, so that integers order them. The instance is checked and encoded
    once, each change on its own (as for the counterfactuals of one instance). ``odd`` may be
    the classifier itself (as :mod:`bnx.linear` passes it). ``None`` when the ODD has no
    classifier.

    Examples
    --------
    >>> import bnx
    >>> from fractions import Fraction
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> nums, den = scaled_probabilities(odd, x, [{}, {"GPA": "-"}])
    >>> [Fraction(n, den) for n in nums] == [sum(exact_joint(odd, x)),
    ...                                      sum(exact_joint(odd, {**x, "GPA": "-"}))]
    True
    """
    clf = odd if hasattr(odd, "_scaled_probability") else getattr(odd, "_classifier", None)
    if clf is not None:
        base = clf.encode(instance, partial=True)
        index = clf.state_index
        got = [clf._scaled_probability({**base, **{f: index(f, s) for f, s in c.items()}})
               for c in changes]
    elif getattr(odd, "_classifier_doc", None) is not None:
        base = odd.encode(instance, partial=True)
        got = []
        for c in changes:
            p = sum(document_joint(odd, {**base, **odd.encode(c, partial=True)}), Fraction(0))
            got.append((p.numerator, p.denominator))
    else:
        return None
    den = 1
    for _, d in got:
        den = math.lcm(den, d)
    return [n * (den // d) for n, d in got], den


def exact_probabilities(odd: Any, instance: dict, changes: list) -> list | None:
    """:func:`scaled_probabilities` as fractions (``None`` without a classifier)."""
    got = scaled_probabilities(odd, instance, changes)
    return None if got is None else [Fraction(n, got[1]) for n in got[0]]


def _inference_of(odd: Any, instance: dict) -> tuple | None:
    """Return ``(inference, kept, evidence)`` for ``odd``'s network and ``instance``.

    ``evidence(c)``: the evidence of the instance changed by ``c`` on that network. ``odd``
    an ODD with its classifier (or the classifier itself), or a loaded ODD with its file's
    tables; ``None`` without either, or for a tree classifier (its exact joint is quick).
    """
    clf = odd if hasattr(odd, "_scaled_probability") else getattr(odd, "_classifier", None)
    if clf is not None:
        if clf._tree is not None:
            return None
        base, index = clf.encode(instance, partial=True), clf.state_index
        return (clf._inference, (clf.class_var,),
                lambda c: clf._observed({**base, **{f: index(f, s) for f, s in c.items()}}))
    if getattr(odd, "_classifier_doc", None) is not None:
        base = odd.encode(instance, partial=True)
        return (document_inference(odd), (odd.meta["class_var"],),
                lambda c: document_evidence(odd, {**base, **odd.encode(c, partial=True)}))
    return None


def probability_order(odd: Any, instance: dict, changes: list, *,
                      deadline: float | None = None) -> list[int] | None:
    """Return the positions of ``changes`` by ``Pr({**instance, **c})``, most probable first.

    Equal probabilities keep the order given. Each probability is computed once in floats,
    with its proven relative bound (:meth:`~bnx.classifier._inference.Inference.joint`);
    only the changes whose bounds overlap are ordered by their exact values, and only
    those are computed exactly. So the order is the exact one, at the cost of a float
    contraction per change where :func:`scaled_probabilities` pays an exact one (on
    diabetes, big integers: minutes for a few hundred).

    ``deadline`` (a :func:`time.monotonic` time) bounds the work: ``None`` (keep the
    order given) when it passes first, or when an exact value it needs would take more
    than :data:`~bnx.classifier._inference.EXACT_FLOPS` multiply-adds (sized by its plan
    before it starts). ``None`` too when the ODD has no classifier.

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    >>> changes = [{"GPA": "-"}, {}, {"WorkExperience": "-"}]
    >>> nums, den = scaled_probabilities(odd, x, changes)
    >>> probability_order(odd, x, changes) == sorted(range(3), key=lambda k: -nums[k])
    True
    """
    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    source = _inference_of(odd, instance)
    if source is None:  # a tree classifier (exact and quick), or no classifier at all
        got = None if late() else scaled_probabilities(odd, instance, changes)
        if got is None:
            return None
        nums = got[0]
        return sorted(range(len(changes)), key=lambda k: -nums[k])
    inference, keep, evidence_of = source
    evidence = []
    lo, hi = [], []
    for c in changes:
        if late():
            return None
        ev = evidence_of(c)
        evidence.append(ev)
        try:
            a = inference.joint(keep, ev)
        except FloatRange:  # floats cannot bound it: exactly, when it is small enough
            a = None
        if a is None:
            v = _exact(inference, keep, ev, deadline)
            if v is None:
                return None
            lo.append(v), hi.append(v)
            continue
        v = sum((Fraction(float(t)) for t in a.table.reshape(-1).tolist()), Fraction(0))
        v *= Fraction(2) ** a.exponent
        err = Fraction(a.err)
        lo.append(v * (1 - err)), hi.append(v * (1 + err))
    # the changes in groups whose bounds overlap; the groups in the exact order already
    by_top = sorted(range(len(changes)), key=lambda k: (-hi[k], k))
    out: list[int] = []
    group: list[int] = []
    bottom = None
    for k in [*by_top, None]:
        if k is not None and group and hi[k] >= bottom:
            group.append(k)
            bottom = min(bottom, lo[k])
            continue
        if len(group) > 1:  # bounds overlap: their exact values order them
            exact = {}
            for j in group:
                v = None if late() else _exact(inference, keep, evidence[j], deadline)
                if v is None:
                    return None
                exact[j] = v
            group.sort(key=lambda j: (-exact[j], j))
        out.extend(group)
        if k is not None:
            group, bottom = [k], lo[k]
    return out


def _exact(inference: Inference, keep: tuple, evidence: dict,
           deadline: float | None) -> Fraction | None:
    """Return ``Pr(evidence)`` exactly; ``None`` if a deadline is set and it is too large."""
    if deadline is not None and not inference.affordable(keep, evidence):
        return None
    table = inference.joint(keep, evidence, exact=True).table
    return sum((Fraction(v) for v in table.reshape(-1).tolist()), Fraction(0))
