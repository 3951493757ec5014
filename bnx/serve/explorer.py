"""What the explorer answers, without the web.

The model's description, requests read and checked, and the answers on an instance (the web
layer in :mod:`.app` only moves bytes).

A request is JSON: ``{"instance": {feature: state}, "background": name, "rival": state}``.
Features left out (or given as ``null``) are unknown; ``rival`` (a multi-class model's
class state, or ``null``) asks why the decided class and not that one. Every check on the
instance is the ODD's own (:meth:`bnx.ODD.encode`), so a bad request fails with the very
message bnx raises.
Nothing from a request is evaluated or unpickled: it is parsed by :func:`json.loads` and
only ever compared with the model's feature and state names.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from typing import Any

from ..attribution.network_background import network_background
from ..classifier._classifier import Classifier
from ..classifier._instances import resolve_state
from ..classifier._possible import refuse_impossible
from ..errors import ArgumentError, StructureError, UnknownStateError, closest_first
from ..odd._odd import ODD

__all__ = ["BACKGROUNDS", "MAX_BODY", "Explorer", "error_json"]

#: The largest request body read, in bytes (a request naming every feature of a model
#: with thousands of features stays well under it).
MAX_BODY = 256 * 1024

#: The backgrounds the page offers for the attributions, with their labels.
BACKGROUNDS = {
    "none": "no attributions",
    "network": "the network itself (its distribution of the features)",
    "uniform": "uniform: every state equally likely",
    "marginals": "the network's marginals (each feature apart)",
}

_KEYS = ("instance", "background", "rival")


def _json_scalar(state: Any) -> Any:
    """Convert a state to what JSON holds: strings, integers and booleans as they are, else text."""
    if isinstance(state, (str, bool, int)) or state is None:
        return state
    return str(state)


def error_json(exc: Exception) -> dict:
    """Return the JSON body of a refused request: ``{"error": message}``.

    With ``"conflict": {feature: state}`` too when the instance's findings cannot hold
    together under the network (:class:`~bnx.ImpossibleInstanceError`).

    Examples
    --------
    >>> import bnx
    >>> error_json(bnx.ImpossibleInstanceError({"tub": "yes", "either": "no"}))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'error': 'tub = yes and either = no cannot both hold under the network',
     'conflict': {'tub': 'yes', 'either': 'no'}}
    """
    out: dict = {"error": str(exc)}
    conflict = getattr(exc, "conflict", None)
    if conflict is not None:
        out["conflict"] = {str(f): _json_scalar(s) for f, s in conflict.items()}
    return out


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON value")


class Explorer:
    """The one model an explorer serves, and its answers.

    Parameters
    ----------
    odd : ODD or Classifier
        A compiled decision function with its classifier attached (as :func:`bnx.compile`
        returns it, or :meth:`bnx.ODD.load` reads it from a file of format 2 or later); or
        a classifier, each answer then the report on one decision explained without
        compiling (``bnx.explain(clf, x)``; no attributions: they need the diagram).
    cache_size : int, default 1024
        How many answers to keep (the model never changes, so an instance asked again is
        answered from the cache).
    timeout : float, optional
        With a classifier: the seconds each report may take (``bnx.explain(clf, x,
        timeout=)``; none when not given).

    Attributes
    ----------
    explained : ODD or Classifier
        What each answer's report is asked of.
    odd : ODD or None
        The compiled decision function (``None`` for a classifier served without it).

    Examples
    --------
    >>> import bnx
    >>> from bnx.serve.explorer import Explorer
    >>> explorer = Explorer(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    >>> model = explorer.model()
    >>> model["class"], model["positive"], model["features"]["GPA"]
    ('Admit', '+', ['-', '+'])
    >>> explorer.read(b'{"instance": {"GPA": "+", "EntranceExam": null}}')
    ({'GPA': '+'}, 'none', None)
    >>> explorer.read(b'{"instance": {"GPA": "A"}}')
    Traceback (most recent call last):
    ...
    bnx.errors.UnknownStateError: 'A' is not a state of feature 'GPA' (states, closest first: -, +)
    """

    def __init__(self, odd: ODD | Classifier, *, cache_size: int = 1024,
                 timeout: float | None = None) -> None:
        if isinstance(odd, Classifier):
            self.odd, self.classifier = None, odd
            self.features = tuple(odd.features)
        elif not isinstance(odd, ODD):
            raise ArgumentError(f"the explorer serves a compiled bnx.ODD or a bnx.Classifier, "
                                f"got {type(odd).__name__}")
        elif odd.classifier is None:
            raise ArgumentError("this ODD was saved without its classifier (an old file): the "
                                "explorer needs it for posteriors; compile the network again")
        else:
            self.odd, self.classifier = odd, odd.classifier
            self.features = tuple(odd.display_order)
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(
                timeout, (int, float)) or not timeout > 0):
            raise ArgumentError(f"timeout must be a positive number of seconds, got "
                                f"{timeout!r}")
        if timeout is not None and self.odd is not None:
            raise ArgumentError("timeout= bounds the reports of a classifier served without "
                                "compiling; a compiled ODD's answers are walks of its diagram")
        self.explained = odd
        self.timeout = timeout
        self._lock = threading.Lock()  # one question at a time: dd managers are not threadsafe
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self._marginals: dict | None = None
        self._backgrounds: dict | None = None

    # ------------------------------------------------------------------ the model
    def states(self, feature) -> tuple:
        """Return the states of ``feature``, as the model names them."""
        return (self.odd if self.odd is not None else self.classifier).states(feature)

    def decide(self, instance: dict):
        """Return the decision on the complete ``instance``.

        The diagram's, else the classifier's exact one.
        """
        return (self.odd if self.odd is not None else self.classifier).decide(instance)

    def model(self) -> dict:
        """Describe the model, JSON-ready.

        ``{"class", "positive", "classes", "multiclass", "features": {feature: [states]}}``,
        the features in the classifier's order (``positive`` is ``null`` for a multi-class
        model, which decides the most probable of ``classes``).
        """
        clf = self.classifier
        return {"class": _json_scalar(clf.class_var), "positive": _json_scalar(clf.positive),
                "classes": [_json_scalar(s) for s in clf.class_states],
                "multiclass": clf.multiclass,
                "features": {_json_scalar(f): [_json_scalar(s) for s in self.states(f)]
                             for f in self.features}}

    # ------------------------------------------------------------------ requests
    def read(self, body: bytes, *, limit: int = MAX_BODY) -> tuple[dict, str, Any]:
        """Read the instance, the background name and the rival class state a request body asks for.

        The instance is ``{feature: state}`` (the model's own state values, unknown features
        left out); the rival is ``None`` when there is none.

        Raises
        ------
        ArgumentError
            A body over ``limit`` bytes, not JSON, not a JSON object, with a key other
            than ``instance``, ``background`` and ``rival``, an unknown background, or a
            rival on a model that decides yes or no.
        InstanceError
            The instance is not an object, or names an unknown feature
            (:class:`~bnx.UnknownFeatureError`) or state (:class:`~bnx.UnknownStateError`),
            or the rival is not a class state (:class:`~bnx.UnknownStateError`), or its
            findings cannot hold together under the network
            (:class:`~bnx.ImpossibleInstanceError`).
        """
        if len(body) > limit:
            raise ArgumentError(f"the request body has more than {limit:,} bytes")
        try:
            request = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise ArgumentError(f"the request body is not JSON: {exc}") from None
        if not isinstance(request, dict):
            raise ArgumentError(f'the request body must be a JSON object such as '
                                f'{{"instance": {{"feature": "state"}}}}, got '
                                f'{type(request).__name__}')
        extra = [k for k in request if k not in _KEYS]
        if extra:
            raise ArgumentError(f"unknown key {extra[0]!r} in the request (keys: "
                                f"{', '.join(_KEYS)})")
        background = request.get("background")
        background = "none" if background is None else background
        if not isinstance(background, str) or background not in self.backgrounds():
            raise ArgumentError(f"background must be one of {', '.join(self.backgrounds())}, "
                                f"got {background!r}")
        return (self.instance(request.get("instance", {})), background,
                self.rival(request.get("rival")))

    def rival(self, given: Any) -> Any:
        """Return the class state ``given`` names, as the model's own value.

        ``None`` and ``""``: no rival.
        """
        if given is None or given == "":
            return None
        clf = self.classifier
        if not clf.multiclass:
            raise ArgumentError(f"rival names one of the classes a multi-class model picks "
                                f"from; this one decides yes or no about "
                                f"{clf.class_var} = {clf.positive}")
        if self.odd is not None:
            return self.odd.classes[self.odd.class_index(given)]
        j = resolve_state(clf.classes, given)
        if j is None:
            raise UnknownStateError(f"{given!r} is not a state of the class "
                                    f"{clf.class_var!r} (states, closest first: "
                                    f"{closest_first(given, clf.classes)})")
        return clf.classes[j]

    def instance(self, given: Any) -> dict:
        """Check ``given`` by the model (:meth:`bnx.ODD.encode`, or the classifier's).

        Returned as ``{feature: state}`` with the model's state values; ``None`` values are
        unknown features. Findings the network cannot produce together are refused
        (:class:`~bnx.ImpossibleInstanceError`, its ``conflict`` the findings that clash).
        """
        if isinstance(given, dict):
            given = {f: s for f, s in given.items() if s is not None}
        model = self.odd if self.odd is not None else self.classifier
        idx = model.encode(given, partial=True)
        named = {f: self.states(f)[j] for f, j in idx.items()}
        refuse_impossible(model, named)  # findings the network cannot produce: a 400
        return named

    # ------------------------------------------------------------------ answers
    def complete(self, instance: dict) -> bool:
        """Whether ``instance`` gives every feature a state."""
        return len(instance) == len(self.features)

    def marginals(self) -> dict:
        """Return ``{feature: {state: Pr(feature = state)}}`` in the network.

        Exactly summed and rounded once (the product background the page offers).
        """
        if self._marginals is None:
            clf, out = self.classifier, {}
            for f in self.features:
                joint = {s: sum(clf.class_joint({f: s}, partial=True)) for s in self.states(f)}
                total = sum(joint.values())
                out[f] = {s: (float(p / total) if total else 1 / len(joint))
                          for s, p in joint.items()}
            self._marginals = out
        return self._marginals

    def backgrounds(self) -> dict:
        """Return the backgrounds offered for the attributions: ``{name: label}``.

        The network itself where :func:`bnx.shap_values` supports it as the background;
        the uniform and marginal products where they weigh only instances the network
        allows (:func:`bnx.attribution.values.check_product`); only ``none`` for a
        classifier served without compiling (attributions need the diagram).
        """
        if self._backgrounds is None and self.odd is None:
            self._backgrounds = {"none": BACKGROUNDS["none"]}
        if self._backgrounds is None:
            try:
                network_background(self.odd, self.classifier, False)
                supported = True
            except (StructureError, ArgumentError):
                supported = False
            self._backgrounds = {k: v for k, v in BACKGROUNDS.items()
                                 if (k != "network" or supported) and self._offered(k)}
        return self._backgrounds

    def _offered(self, name: str) -> bool:
        """Tell whether a product background weighs only instances the network allows."""
        if name not in ("uniform", "marginals"):
            return True
        from ..attribution.values import check_product
        try:
            check_product(self.odd, self.background(name))
        except ArgumentError:
            return False
        return True

    def background(self, name: str) -> dict | None:
        """Return the background ``name`` as :func:`bnx.shap_values` takes it (``None``: none)."""
        if name == "none":
            return None
        if name == "uniform":
            return {}
        if name == "network":
            return self.classifier
        return self.marginals()

    def cached(self, key: tuple, compute):
        """``compute()``, remembered under ``key``; one computation at a time."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            value = compute()
            self._cache[key] = value
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return value


def finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None`` (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value
