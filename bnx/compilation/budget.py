"""The compilation budget: how much a compilation may hold, and for how long it may run.

Every engine calls :meth:`Budget.spend` for what it creates (an expanded node, or the
states kept at one level), and :meth:`Budget.check` before it allocates a batch or
during long loops; the budget raises
:class:`~bnx.CompilationLimitError` once more than ``max_nodes`` were spent, the
``timeout`` has passed or the process holds more than ``max_memory`` bytes beyond what it
held when the compile began (measured: the resident memory, read from the system at most
twenty times a second), and advances the progress bar. Work that makes no node for a
while (the general engine's tail table) names itself with :meth:`Budget.stage`, so the bar
and a timeout say what is being built, and calls :meth:`Budget.check` between its steps.
"""

from __future__ import annotations

import math
import time

from ..errors import ArgumentError, CompilationLimitError

__all__ = ["Budget", "DEFAULT_MAX_MEMORY", "order_deadline", "resident_bytes"]

#: Steps of at least this many units set the rate :meth:`Budget.pace` sizes the next by.
PACED = 1 << 16

#: The memory a compile may add to the process unless told otherwise: 3 GiB, which a
#: 2-core laptop with 8 GB survives beside the system, a browser and Python itself.
DEFAULT_MAX_MEMORY = 3 << 30

#: The seconds between two readings of the resident memory (a reading costs microseconds).
MEMORY_EVERY = 0.05


def resident_bytes() -> int:
    """Return the process's resident memory in bytes.

    Its current size where the system says it (Linux: ``/proc/self/statm``), else its peak
    so far (``getrusage``), which is no smaller.
    """
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource
        import sys
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def _page() -> int:
    import os
    try:
        return os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4096


_PAGE = _page()


def gigabytes(n: float) -> str:
    """Write a number of bytes as people read it (``"3 GiB"``, ``"512 MiB"``)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} bytes"


class Budget:
    """Node and time budget of one compilation.

    Parameters
    ----------
    limit : int, optional
        Most units (nodes, states) the compilation may spend; ``None`` or ``math.inf``:
        no limit.
    timeout : float, optional
        Seconds after which :meth:`spend` raises, counted from ``start``.
    progress : bool
        Show a ``tqdm`` bar of the units spent (on stderr).
    total : int, optional
        The expected number of units, for the bar.
    start : float, optional
        When the timeout's clock started (:func:`time.monotonic`); default: now.
    max_memory : int, optional
        The bytes the process may hold beyond what it held at the start (``None`` or
        ``math.inf``: no bound).

    Examples
    --------
    >>> b = Budget(3)
    >>> b.spend(2); b.used
    2
    >>> b.spend(2)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    bnx.errors.CompilationLimitError: compilation needed more than max_nodes=3 nodes; raise the
    budget or try another variable order
    """

    __slots__ = ("limit", "used", "timeout", "deadline", "bar", "what", "shown", "_rate",
                 "_step", "max_memory", "_rss0", "_read_at", "_bytes")

    def __init__(self, limit: int | float | None = None, *, timeout: float | None = None,
                 progress: bool = False, total: int | None = None,
                 start: float | None = None, max_memory: int | float | None = None):
        if isinstance(limit, float) and limit == math.inf:
            limit = None
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 1):
            raise ArgumentError(f"max_nodes must be a positive integer or math.inf, "
                                f"got {limit!r}")
        if timeout is not None and (isinstance(timeout, bool)
                                    or not isinstance(timeout, (int, float))
                                    or not timeout > 0):
            raise ArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if not isinstance(progress, bool):
            raise ArgumentError(f"progress must be True or False, got {progress!r}")
        if isinstance(max_memory, float) and max_memory == math.inf:
            max_memory = None
        if max_memory is not None and (isinstance(max_memory, bool)
                                       or not isinstance(max_memory, int) or max_memory < 1):
            raise ArgumentError(f"max_memory must be a positive number of bytes or math.inf, "
                                f"got {max_memory!r}")
        self.max_memory = max_memory
        self._rss0 = resident_bytes() if max_memory is not None else 0
        self._read_at = time.monotonic()
        self._bytes: dict = {}  # per kind of step, the most bytes a unit took (see pace)
        self.limit = limit
        self.used = 0
        self.timeout = timeout
        self.deadline = (None if timeout is None else
                         (time.monotonic() if start is None else start) + timeout)
        self.bar = None
        self.what = None  # what is being built when it is not nodes (see stage)
        self.shown = time.monotonic()
        self._rate: dict = {}  # per kind of step, its time per u log2 u units (see pace)
        self._step = None  # the step under way: (its start, its units, its kind)
        if progress:
            from tqdm.auto import tqdm
            self.bar = tqdm(total=total, unit=" nodes", desc="compiling", leave=False,
                            mininterval=0.5)

    def spend(self, n: int = 1) -> None:
        """Account for ``n`` more units; raise when over the node, time or memory budget."""
        self.used += n
        if self.limit is not None and self.used > self.limit:
            self.close()
            raise CompilationLimitError(
                f"compilation needed more than max_nodes={self.limit} nodes; raise the "
                f"budget or try another variable order")
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.close()
            during = "" if self.what is None else f", while building {self.what}"
            raise CompilationLimitError(
                f"compilation ran out of time (timeout={self.timeout:g} s) after "
                f"{self.used:,} nodes{during}; raise the timeout or try another variable "
                f"order")
        if self.max_memory is not None:
            self._memory(time.monotonic())
        if self.bar is not None:
            self.bar.update(n)

    def _memory(self, now: float, more: float = 0, step: str = "") -> None:
        """Raise when the process holds more than ``max_memory`` beyond its start.

        Read at most every :data:`MEMORY_EVERY` seconds, unless ``more`` (the bytes a step
        about to start is expected to add, ``step`` saying which) asks now.
        """
        if not more and now - self._read_at < MEMORY_EVERY:
            return
        self._read_at = now
        grown = resident_bytes() - self._rss0
        if grown + more > self.max_memory:
            self.close()
            during = "" if self.what is None else f", while building {self.what}"
            what = (f"its next step ({step}) would need about {gigabytes(more)} more"
                    if more else "it")
            raise CompilationLimitError(
                f"compilation ran out of memory (max_memory={gigabytes(self.max_memory)}): "
                f"{what} after {self.used:,} nodes{during}, the process having grown by "
                f"{gigabytes(max(grown, 0))}; raise max_memory or try another variable "
                f"order")

    def check(self, n: int = 0) -> None:
        """Raise when ``n`` more units would exceed the node budget, or when the time is up.

        The units are not spent: for memory about to be allocated.
        """
        if self.limit is not None and self.used + n > self.limit:
            self.used += n
            self.spend(0)
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.spend(0)
        if self.max_memory is not None:
            self._memory(time.monotonic())
        if self.bar is not None and time.monotonic() - self.shown > 0.5:
            self.shown = time.monotonic()
            self.bar.refresh()  # the elapsed time moves while no node is made

    def pace(self, units: int, kind: str = "") -> None:
        """Start a step of ``units`` of work that runs unchecked; raise if it cannot end in time.

        A step (one vectorised pass over a level's states, sorting them) cannot be
        interrupted: it is sized before it starts. The step before it is timed; per
        ``kind`` of step, the rate of the last one of at least :data:`PACED` units (where a
        step's fixed cost no longer counts), in seconds per ``u log2 u`` for ``u`` units (a
        sort's growth), with a margin of a quarter, tells when this one would end. One
        that would end past the deadline is refused now, rather than found out when it
        ends. So is one that would take the process past ``max_memory``: per kind, the
        most bytes per unit a step of at least :data:`PACED` units left the process
        holding, with the same margin.
        """
        now = time.monotonic()
        rss = resident_bytes() if self.max_memory is not None else 0
        if self._step is not None:
            start, done, was, before = self._step
            if done >= PACED:
                self._rate[was] = (now - start) / (done * math.log2(done))
                if self.max_memory is not None and rss > before:
                    self._bytes[was] = max(self._bytes.get(was, 0.0), (rss - before) / done)
        self._step = (now, units, kind, rss)
        self.check()
        per = self._bytes.get(kind)
        if per is not None and units >= 2:
            self._memory(now, 1.25 * per * units, f"{units:,} states")
        rate = self._rate.get(kind)
        if self.deadline is None or rate is None or units < 2:
            return
        takes = rate * units * math.log2(units)
        if now + 1.25 * takes > self.deadline:
            self.close()
            raise CompilationLimitError(
                f"compilation ran out of time (timeout={self.timeout:g} s) after "
                f"{self.used:,} nodes: its next step ({units:,} states) would end about "
                f"{takes:.1f} s later, past the deadline; raise the timeout or try another "
                f"variable order")

    def reserve(self, nbytes: float, what: str) -> None:
        """Raise if ``nbytes`` more would pass ``max_memory``.

        For ``what``, one step that runs unchecked.
        """
        if self.max_memory is not None:
            self._memory(time.monotonic(), max(nbytes, 1), what)

    def stage(self, what: str | None) -> None:
        """Name what is being built while no node is (``None``: nodes again).

        The progress bar shows it, and a timeout says it ran out while building it.
        """
        self.what = what
        if self.bar is not None:
            self.bar.set_description_str("compiling" if what is None else f"compiling {what}")
        self.check()

    def close(self) -> None:
        """Close the progress bar (if any)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def order_deadline(timeout: float | None):
    """Return a check raising :class:`~bnx.CompilationLimitError` ``timeout`` s from now.

    What the greedy orders call between their trials (``None``: no bound, a check that
    does nothing).
    """
    if timeout is None:
        return lambda: None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ArgumentError(f"timeout must be a positive number of seconds, got {timeout!r}")
    deadline = time.monotonic() + timeout

    def check() -> None:
        if time.monotonic() > deadline:
            raise CompilationLimitError(
                f"compilation ran out of time (timeout={timeout:g} s) before building: "
                f"choosing the variable order took longer; raise the timeout or give an "
                f"order")
    return check
