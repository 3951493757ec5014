"""The bnx error hierarchy.

Every error that bnx raises on bad input is a :class:`BnxError`. Each concrete error
also subclasses the matching built-in exception, so ``except ValueError`` and
``except KeyError`` keep working for callers who do not know bnx.

Examples
--------
>>> import bnx
>>> issubclass(bnx.UnknownStateError, KeyError) and issubclass(bnx.UnknownStateError, bnx.BnxError)
True
"""

from __future__ import annotations

__all__ = [
    "BnxError",
    "ArgumentError",
    "StructureError",
    "NetworkError",
    "NetworkFileError",
    "ThresholdError",
    "InstanceError",
    "UnknownFeatureError",
    "MissingFeatureError",
    "UnknownStateError",
    "ImpossibleInstanceError",
    "OrderError",
    "BackendError",
    "CompilationLimitError",
    "ExplanationError",
    "OnStatesError",
    "DataError",
    "ODDFileError",
    "OutputError",
    "BnxWarning",
]


class BnxError(Exception):
    """Base class of every error raised by bnx."""

    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        """Return the message as given (KeyError would quote it)."""
        return str(self.args[0]) if self.args else ""


class ArgumentError(BnxError, ValueError):
    """An argument of the wrong type or out of range (e.g. ``max_nodes=0``)."""


class StructureError(BnxError, ValueError):
    """A classifier structure bnx cannot use.

    No feature, the class as a feature, a repeated feature, or a tree-only question asked of a
    general network.
    """


class NetworkError(BnxError, ValueError):
    """The network is unusable: missing CPDs, unknown class or positive state, ..."""


class NetworkFileError(BnxError, OSError):
    """A network file is missing, unreadable or malformed."""


class ThresholdError(BnxError, ValueError):
    """The decision threshold is not a number in [0, 1]."""


class InstanceError(BnxError, ValueError):
    """An instance is not a mapping from features to states."""


class UnknownFeatureError(InstanceError, KeyError):
    """A name that is not a feature of the classifier."""


class MissingFeatureError(InstanceError, KeyError):
    """An instance that leaves a feature out."""


class UnknownStateError(InstanceError, KeyError):
    """A state that the feature does not have."""


class OrderError(BnxError, ValueError):
    """A variable order that is not a permutation of the features."""


class BackendError(BnxError, ValueError):
    """An unknown or unavailable decision-diagram backend."""


class CompilationLimitError(BnxError, MemoryError):
    """Compilation needed more nodes than its ``max_nodes`` budget."""


class ExplanationError(BnxError, ValueError):
    """An explanation was asked for in a way that has no meaning."""


class ImpossibleInstanceError(InstanceError, ExplanationError):
    """An instance the network cannot produce: its findings have probability zero together.

    Raised wherever an instance is explained (``bnx.explain``, every question, the rows of
    ``bnx.explain_data``, the command line, the explorer), and by the classifier's
    posteriors; an :class:`InstanceError` (bad input) and an :class:`ExplanationError`
    (no posterior is defined), as code that knows either expects.

    Attributes
    ----------
    conflict : dict
        A minimal set of the instance's findings that cannot hold together, ``{feature:
        state}``: dropping any one of them leaves findings of positive probability.

    Examples
    --------
    >>> import bnx
    >>> e = bnx.ImpossibleInstanceError({"tub": "yes", "either": "no"})
    >>> str(e), e.conflict
    ('tub = yes and either = no cannot both hold under the network', {'tub': 'yes', \
'either': 'no'})
    """

    def __init__(self, conflict: dict, where: str = "") -> None:
        self.conflict = dict(conflict)
        self._where = where
        super().__init__(f"{where}{conflict_text(self.conflict)}")

    def __reduce__(self):
        """Pickle by the conflict (an error raised on a worker reaches the caller whole)."""
        return (type(self), (self.conflict, self._where))


def conflict_text(conflict: dict) -> str:
    """Say that the findings ``conflict`` cannot hold together, in a sentence without a stop.

    Examples
    --------
    >>> conflict_text({"a": "x"})
    'a = x cannot hold under the network'
    >>> conflict_text({"a": "x", "b": "y", "c": "z"})
    'a = x, b = y and c = z cannot all hold under the network'
    """
    parts = [f"{f} = {s}" for f, s in conflict.items()]
    if not parts:
        return "the classifier's fixed findings cannot hold under the network"
    if len(parts) == 1:
        return f"{parts[0]} cannot hold under the network"
    both = "both" if len(parts) == 2 else "all"
    return f"{', '.join(parts[:-1])} and {parts[-1]} cannot {both} hold under the network"


class OnStatesError(ExplanationError):
    """MC-explanations were asked for a feature whose "on" state is unknown.

    Its states are not recognisably affirmative (yes/no, y/n, true/false, 1/0, +/-, ...) and none
    was declared (``on=`` or the classifier's ``on_states``).
    """


class DataError(BnxError, ValueError):
    """Training data that cannot be used as asked."""


class ODDFileError(BnxError, OSError):
    """A saved ODD file that is truncated, edited or from an incompatible version."""


class OutputError(BnxError, OSError):
    """A file that bnx was asked to write (a drawing, a saved ODD) cannot be written."""


def closest_first(name, valid, *, limit: int = 20) -> str:
    """Return the names in `valid`, those closest in spelling to `name` first, for a message.

    Closeness is :class:`difflib.SequenceMatcher`'s ratio of the names' texts, ignoring
    case; ties keep the order of `valid`. At most `limit` names are listed.

    Examples
    --------
    >>> closest_first("GPAA", ["WorkExperience", "EntranceExam", "GPA"])
    'GPA, EntranceExam, WorkExperience'
    """
    from difflib import SequenceMatcher

    valid = list(valid)
    text = str(name).lower()
    ranked = sorted(range(len(valid)), key=lambda i: (
        -SequenceMatcher(None, text, str(valid[i]).lower()).ratio(), i))
    shown = ", ".join(str(valid[i]) for i in ranked[:limit])
    return shown + (f", ... ({len(valid) - limit} more)" if len(valid) > limit else "")


class BnxWarning(UserWarning):
    """Base class of every warning bnx issues.

    A warning says that an answer was given, but not quite the one asked for (an answer
    left out of a table, say), and why. The test suite turns every one of them into an
    error, so none is issued where it should not be; filter them with
    ``warnings.filterwarnings("ignore", category=bnx.BnxWarning)``.
    """
