"""One lock per model: what makes a shared ODD or Classifier safe in any number of threads.

A question derives what it can reuse from the diagram and keeps it (the stores and node
tables explanation sets are built in, the ``dd`` managers they are written into, memos of
earlier answers: :mod:`bnx.diagram._memo`), and the sets it returns are read from those
stores and managers later. None of them is safe to change from two threads at once: a
store's node is a unique-table look-up and four list appends, and ``dd``'s managers (the
pure-Python ``dd.autoref`` as much as CUDD) are not thread-safe themselves. So every piece
of work on one model runs under that model's one re-entrant lock (its :class:`Guard`),
taken in one place, here, by the three doors work comes in by:

* :func:`question`, on every public function that asks something of a model (its first
  argument, or the first keyword argument that is one);
* :func:`guarded` with ``own=True``, on :class:`~bnx.Classifier` and :class:`~bnx.ODD`:
  each public method and property holds the object's lock;
* :func:`guarded`, on the answers that keep reading a store or a manager after they are
  returned (:class:`~bnx.Explanations`, :class:`~bnx.GeneralReasons`): each public method
  holds the lock of the model they were made on, a generator holding it one item at a time.

A model's *family* shares one lock: an object made while a thread holds a lock joins that
lock's family (the ODD compiled from a classifier, the classifier rebuilt from a file, the
class formulas of a multi-class ODD, the sets a question returns), and an object made
outside any question starts a family of its own. The caches, stores and managers of a
family are reached only through its objects, so one family's lock covers them all; two
families never wait for each other (unless one question is given objects of two).

A thread that holds its family's lock already goes on without taking it again; the
single-thread cost is one look-up on the thread's stack of held locks per call (see
``docs/benchmarks.md``).

Examples
--------
>>> class Model:
...     def __init__(self):
...         self.calls = 0
...     def ask(self):
...         self.calls += 1
...         return held() is guard_of(self)
>>> Model = guarded(Model, own=True)
>>> m = Model()
>>> m.ask(), held() is None
(True, True)
>>> @question
... def ask(model):
...     return held() is guard_of(model)
>>> ask(m)
True
"""

from __future__ import annotations

import functools
import inspect
import threading
from functools import cached_property
from typing import Any

__all__ = ["Guard", "guard_of", "guarded", "held", "question"]

#: The attribute that holds an object's :class:`Guard`.
ATTR = "_bnx_guard"

#: Dunder methods of a guarded class that hold the lock (besides its public names).
_DUNDERS = ("__str__", "__repr__", "__iter__", "__len__", "__contains__", "__getitem__",
            "__bool__", "_repr_html_", "_repr_svg_", "_repr_pretty_", "__reduce__")


class Guard:
    """The re-entrant lock of one family of models.

    Copies share it (a copy reads the same caches); a pickle makes a new one.
    """

    __slots__ = ("lock",)

    def __init__(self) -> None:
        self.lock = threading.RLock()

    def __copy__(self) -> Guard:
        return self

    def __deepcopy__(self, memo) -> Guard:
        return self

    def __reduce__(self):
        return (Guard, ())

    def __repr__(self) -> str:
        return f"Guard(held={self.lock._is_owned()})"


_LOCAL = threading.local()


def _stack() -> list:
    got = getattr(_LOCAL, "stack", None)
    if got is None:
        got = _LOCAL.stack = []
    return got


def held() -> Guard | None:
    """Return the guard this thread holds innermost, or ``None`` outside any question."""
    got = getattr(_LOCAL, "stack", None)
    return got[-1] if got else None


def guard_of(obj: Any) -> Guard | None:
    """Return the :class:`Guard` of a guarded object, or ``None``."""
    try:
        return object.__getattribute__(obj, ATTR)
    except (AttributeError, TypeError):
        return None


def _run(guard: Guard | None, f, args, kwargs):
    """Call ``f`` holding ``guard`` (unless this thread holds it already, or it is ``None``)."""
    if guard is None:
        return f(*args, **kwargs)
    stack = _stack()
    if guard in stack:
        return f(*args, **kwargs)
    with guard.lock:
        stack.append(guard)
        try:
            return f(*args, **kwargs)
        finally:
            stack.pop()


def _stepped(guard: Guard | None, gen):
    """Run the generator ``gen`` one item at a time holding ``guard``."""
    while True:
        try:
            item = _run(guard, next, (gen,), {})
        except StopIteration:
            return
        yield item


def _model_guard(args, kwargs) -> Guard | None:
    if args:
        got = guard_of(args[0])
        if got is not None:
            return got
    for value in kwargs.values():
        got = guard_of(value)
        if got is not None:
            return got
    return None


def question(f):
    """Make the public function ``f`` hold the lock of the model it is asked of.

    The model is its first argument, else the first keyword argument that is a guarded
    object; a function given none runs as it is.
    """
    if inspect.isgeneratorfunction(f):
        @functools.wraps(f)
        def steps(*args, **kwargs):
            return _stepped(_model_guard(args, kwargs), f(*args, **kwargs))
        return steps

    @functools.wraps(f)
    def asked(*args, **kwargs):
        return _run(_model_guard(args, kwargs), f, args, kwargs)
    return asked


def _method(f):
    if inspect.isgeneratorfunction(f):
        @functools.wraps(f)
        def steps(self, *args, **kwargs):
            return _stepped(guard_of(self), f(self, *args, **kwargs))
        return steps

    @functools.wraps(f)
    def method(self, *args, **kwargs):
        return _run(guard_of(self), f, (self, *args), kwargs)
    return method


def guarded(cls=None, *, own: bool = False):
    """Make each public method and property of ``cls`` hold its object's lock.

    An object takes, when it is made, the lock this thread holds (it joins the family of the
    model being asked); one made outside any question has none (its methods run as they
    are) or, with ``own=True`` (a model: an ODD, a Classifier), a new one of its own.
    Used as ``@guarded`` or ``@guarded(own=True)``.
    """
    if cls is None:
        return functools.partial(guarded, own=own)
    for name, value in list(vars(cls).items()):
        if name.startswith("_") and name not in _DUNDERS:
            continue
        if isinstance(value, property):
            setattr(cls, name, property(
                value.fget and _method(value.fget), value.fset and _method(value.fset),
                value.fdel, value.__doc__))
        elif isinstance(value, cached_property):
            made = cached_property(_method(value.func))
            made.__set_name__(cls, name)
            setattr(cls, name, made)
        elif inspect.isfunction(value):
            setattr(cls, name, _method(value))
    init = cls.__init__

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if guard_of(self) is None:
            guard = held()
            if guard is None and own:
                guard = Guard()
            if guard is not None:
                object.__setattr__(self, ATTR, guard)
        init(self, *args, **kwargs)

    cls.__init__ = __init__
    return cls
