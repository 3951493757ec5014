"""A progress bar of the seconds a bounded call has spent against its bound.

A report searched within ``timeout=`` seconds has no count of work to show (the search does
not know how much is left), but a person at a terminal wants to see that it is working and
how long it may still take: :func:`waiting` draws a ``tqdm`` bar of the seconds spent out of
the bound, on stderr, moved by a daemon thread five times a second and closed (erased)
when the call returns. Calls that end within half a second draw nothing.

Examples
--------
>>> with waiting(1.0, enabled=False):  # no bar: the block simply runs
...     pass
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

__all__ = ["waiting"]


@contextlib.contextmanager
def waiting(seconds: float | None, *, enabled: bool, what: str = "explaining"):
    """Show the seconds spent against ``seconds`` while the block runs, when ``enabled``.

    Parameters
    ----------
    seconds : float or None
        The block's bound; ``None`` (no bound) shows the seconds alone.
    enabled : bool
        Whether to draw the bar (the caller decides: a terminal, ``progress=True``).
    what : str
        The bar's label.
    """
    if not enabled:
        yield
        return
    total = None if seconds is None else round(seconds, 1)
    stop = threading.Event()
    start = time.monotonic()

    def move() -> None:
        if stop.wait(0.5):  # a quick call: no bar at all
            return
        from tqdm import tqdm
        bar = tqdm(total=total, desc=what, unit="s", leave=False, file=sys.stderr,
                   bar_format=("{desc}: {n:.1f} of {total:.0f} s {bar}" if total else
                               "{desc}: {n:.1f} s"))
        try:
            while True:
                spent = time.monotonic() - start
                bar.n = spent if total is None else min(spent, total)
                bar.refresh()
                if stop.wait(0.2):
                    return
        finally:
            bar.close()

    mover = threading.Thread(target=move, name="bnx-waiting", daemon=True)
    mover.start()
    try:
        yield
    finally:
        stop.set()
        mover.join()
