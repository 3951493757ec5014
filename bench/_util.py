"""Shared helpers of the benchmark scripts: machine description, time limits, tables."""

from __future__ import annotations

import gc
import os
import platform
import signal
import sys
from collections.abc import Sequence
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

# make ``import _data`` work when a script is run as ``python bench/x.py`` from the repo root
_HERE = Path(__file__).resolve().parent
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))
if str(_HERE.parent) not in sys.path:
    sys.path.insert(0, str(_HERE.parent))


def machine() -> dict[str, str]:
    """nproc, CPU model, Python, dd and pgmpy versions."""
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    try:
        nproc = str(len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        nproc = str(os.cpu_count())
    return {
        "nproc": nproc,
        "cpu": cpu,
        "python": platform.python_version(),
        "dd": version("dd"),
        "pgmpy": version("pgmpy"),
        "numpy": version("numpy"),
        "platform": platform.platform(),
    }


def revision() -> str:
    """The repository's HEAD commit, and whether bnx/ differs from it."""
    import subprocess
    repo = _HERE.parent
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "bnx"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not head:
        return "unknown"
    return head + (" (bnx/ modified)" if dirty else "")


def machine_line() -> str:
    m = machine()
    return (f"machine: {m['nproc']} CPUs ({m['cpu']}), Python {m['python']}, dd {m['dd']}, "
            f"pgmpy {m['pgmpy']}, numpy {m['numpy']}, {m['platform']}; bnx at {revision()}")


def load_line() -> str:
    """The 1, 5 and 15 minute load averages (other processes share the CPUs)."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:  # pragma: no cover
        return "load average: unknown"
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


class Timeout(BaseException):
    """Raised inside a computation that ran past its time limit.

    A ``BaseException`` so that no ``except Exception`` in library code swallows it.
    """


@contextmanager
def time_limit(seconds: float | None):
    """Interrupt the block with :class:`Timeout` after ``seconds`` of wall time (main thread)."""
    if not seconds or seconds <= 0:
        yield
        return

    def handler(signum, frame):
        raise Timeout(f"time limit of {seconds:g} s reached")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        gc.collect()


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]],
                   align: str | None = None) -> str:
    """A GitHub markdown table; ``align`` is one char per column, 'l' or 'r'."""
    align = align or "l" + "r" * (len(header) - 1)
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[j]) for r in cells) for j in range(len(header))]

    def fmt(r):
        return "| " + " | ".join(c.ljust(w) if a == "l" else c.rjust(w)
                                 for c, w, a in zip(r, widths, align)) + " |"

    sep = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else (":" + "-" * (w + 1))
                         for w, a in zip(widths, align)) + "|"
    return "\n".join([fmt(cells[0]), sep, *(fmt(r) for r in cells[1:])])


def fmt_seconds(t: float) -> str:
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def pick_backends(ap, name: str) -> list[str]:
    """The backends a ``--backend`` value names ("all": every available one)."""
    import bnx
    avail = bnx.backends.available_backends()
    if name == "all":
        return list(avail)
    if name in avail:
        return [name]
    ap.error(f"backend {name!r} is not available here (available: {', '.join(avail)})")
