"""Where the explorer's answers are computed.

Off the event loop, a bounded number at a time, each within a deadline.

The web layer (:mod:`.app`) reads requests and moves bytes; every answer is computed by the
workers here, behind one coroutine, :meth:`Workers.ask`:

- :class:`Processes` (what ``bnx serve`` runs, POSIX): worker processes forked from the
  served one once its model is loaded and warmed, each with its own copy of the diagram and
  the classifier. A question holds its worker's interpreter, never the server's, so the
  event loop goes on answering ``/api/model``, the page and its assets. A worker still busy
  past the deadline (and a grace) is killed and forked again; its request is answered 504.
- :class:`Thread`: one question at a time in a thread of this process (what
  :func:`bnx.serve.create_app` does unless told otherwise: any OS, the test client). Off the
  loop, but the question holds the GIL most of the time, so other requests wait for it in
  turn (p95 of ``/api/model`` 138 ms beside five hepar2 reports in threads, where processes
  keep it under 10 ms: ``docs/benchmarks.md``); the deadline is the one a report explained
  without compiling keeps itself (``bnx.explain(clf, x, timeout=)``), nothing stops a walk.

Both run at most ``workers`` questions at once and let at most ``queue`` more wait; a
request past that is refused at once (:class:`Refused`, status 503 with ``Retry-After``).
The same question asked while it is being computed waits for that computation, and the
last 1,024 replies are kept (the model never changes).
"""

from __future__ import annotations

import asyncio
import gc
import math
import os
import signal
import socket
from collections import OrderedDict
from multiprocessing.connection import Connection

from ..errors import BnxError
from .defaults import GRACE

#: How much lower the workers' priority is than the server's (``os.nice``): where the
#: cores are all busy, the server's few milliseconds per request come first.
NICE = 5

__all__ = ["Processes", "Refused", "Thread", "Workers", "compute"]


class Refused(Exception):
    """A question the workers did not answer: the HTTP status and why.

    ``status`` is 503 (too many questions already, or the server is stopping) or 504
    (past the deadline); ``retry`` is the seconds to send as ``Retry-After`` (or ``None``).
    """

    def __init__(self, status: int, message: str, retry: int | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry = status, message, retry


def compute(explorer, kind: str, instance: dict, background: str = "none",
            rival=None) -> tuple[int, bytes | str]:
    """Answer one question in this process: ``(status, payload)``.

    ``kind`` is ``"json"`` (the payload is the body ``POST /api/explain`` sends) or
    ``"html"`` (the fragment the page shows); a question bnx refuses is ``(400, its
    message)``, any other failure ``(500, what it was)``, so that a worker never stops on
    one.
    """
    from .answers import answer  # (imported here: the command's help reads this module)
    from .page import fragment
    try:
        result = answer(explorer, instance, background, rival)
        return 200, (result.body if kind == "json" else fragment(explorer, result))
    except BnxError as exc:
        return 400, str(exc)
    except Exception as exc:  # a worker answers the next question all the same
        return 500, f"the explorer failed on this question: {type(exc).__name__}: {exc}"


class Workers:
    """What both kinds of workers share: the bound, the replies kept, the questions in flight.

    Parameters
    ----------
    explorer : Explorer
        The model, its requests already checked by it.
    workers : int
        How many questions are computed at once.
    queue : int
        How many more may wait for a worker.
    deadline : float
        The seconds each question may take.
    """

    def __init__(self, explorer, *, workers: int, queue: int, deadline: float,
                 cache_size: int = 1024) -> None:
        self.explorer, self.workers, self.queue = explorer, workers, queue
        self.deadline = deadline
        self.asked = 0  # the questions computed or waiting now
        self._replies: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self._flight: dict = {}

    def _key(self, kind, instance, background, rival) -> tuple:
        if not self.explorer.complete(instance):  # as answer() reads it
            background, rival = "none", None
        return kind, frozenset(instance.items()), background, rival

    def _remember(self, key, reply) -> None:
        self._replies[key] = reply
        if len(self._replies) > self._cache_size:
            self._replies.popitem(last=False)

    def warm(self, kind: str, instance: dict, background: str = "none", rival=None) -> tuple:
        """Compute one reply in this process now and keep it (before serving)."""
        reply = compute(self.explorer, kind, instance, background, rival)
        self._remember(self._key(kind, instance, background, rival), reply)
        return reply

    async def ask(self, kind: str, instance: dict, background: str = "none",
                  rival=None) -> tuple[int, bytes | str]:
        """Return ``(status, payload)`` (:func:`compute`) for one checked question.

        Raises :class:`Refused` when ``workers + queue`` questions are already asked, when
        it takes longer than the deadline, or when the server stops meanwhile.
        """
        key = self._key(kind, instance, background, rival)
        if key in self._replies:
            self._replies.move_to_end(key)
            return self._replies[key]
        if key in self._flight:  # the same question, being computed: wait for it
            return await asyncio.shield(self._flight[key])
        if self.asked >= self.workers + self.queue:
            raise Refused(503, f"the explorer is busy: {self.asked} questions are being "
                          f"answered or waiting ({self.workers} at a time, {self.queue} "
                          f"more waiting at most); ask again in a few seconds",
                          retry=max(1, math.ceil(self.deadline)))
        self.asked += 1
        flight = asyncio.get_running_loop().create_future()
        flight.add_done_callback(lambda f: f.cancelled() or f.exception())  # seen
        self._flight[key] = flight
        try:
            reply = await self._run((kind, instance, background, rival))
        except BaseException as exc:
            if isinstance(exc, Exception):
                flight.set_exception(exc)
            else:
                flight.cancel()
            raise
        finally:
            self.asked -= 1
            del self._flight[key]
        if reply[0] in (200, 400):  # the same question, the same reply
            self._remember(key, reply)
        flight.set_result(reply)
        return reply

    async def _run(self, job: tuple) -> tuple:
        raise NotImplementedError

    def start(self) -> None:
        """Make the workers ready (before serving)."""

    def stop(self) -> None:
        """Stop computing: kill the workers (safe in a signal handler)."""


class Thread(Workers):
    """One question at a time in a thread of this process (the explorer's lock).

    Examples
    --------
    >>> import asyncio, bnx
    >>> from bnx.serve.explorer import Explorer
    >>> from bnx.serve.workers import Thread
    >>> explorer = Explorer(bnx.compile(bnx.examples.admissions(), backend="autoref"))
    >>> workers = Thread(explorer, queue=8, deadline=10)
    >>> status, body = asyncio.run(workers.ask("json", {"GPA": "+"}))
    >>> status, b'"instance":' in body
    (200, True)
    """

    def __init__(self, explorer, *, queue: int, deadline: float) -> None:
        super().__init__(explorer, workers=1, queue=queue, deadline=deadline)

    async def _run(self, job: tuple) -> tuple:
        from starlette.concurrency import run_in_threadpool
        return await run_in_threadpool(compute, self.explorer, *job)


class _Worker:
    """One forked worker: its process id and its end of the socket pair."""

    def __init__(self, pid: int, conn: Connection) -> None:
        self.pid, self.conn = pid, conn


class Processes(Workers):
    """``workers`` forked processes, each answering one question at a time (POSIX).

    They are forked by :meth:`start` (or at the first question), from this process as it
    is then: answer the first questions before (:meth:`Workers.warm`), and each worker
    starts with those caches built. A question waits at most ``deadline`` seconds for a
    worker (then 503); a worker busy past ``deadline + grace`` seconds is killed and
    replaced (504). So every request is answered within ``2 * deadline + grace`` seconds.
    :meth:`stop` kills them all.
    """

    def __init__(self, explorer, *, workers: int, queue: int, deadline: float,
                 grace: float = GRACE) -> None:
        super().__init__(explorer, workers=workers, queue=queue, deadline=deadline)
        self.grace = grace
        self._all: dict[int, _Worker] = {}
        self._idle: asyncio.Queue = asyncio.Queue()
        self._dead: list[int] = []
        self._waiting = 0  # questions waiting for an idle worker
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    # ------------------------------------------------------------ the processes
    def start(self) -> None:
        """Fork the workers (this process as it is now: warmed)."""
        while len(self._all) < self.workers and not self.closed:
            self._idle.put_nowait(self._fork())

    def _fork(self) -> _Worker:
        self._reap()
        mine, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            mine.close()
            _work(self.explorer, theirs)
        theirs.close()
        worker = _Worker(pid, Connection(mine.detach()))
        self._all[pid] = worker
        return worker

    def _kill(self, worker: _Worker) -> None:
        if self._all.pop(worker.pid, None) is None:
            return
        try:
            os.kill(worker.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._dead.append(worker.pid)
        worker.conn.close()

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and, unless stopping, fork the one that takes its place."""
        if self._loop is not None and not worker.conn.closed:
            self._loop.remove_reader(worker.conn.fileno())
        self._kill(worker)
        if not self.closed:
            self._idle.put_nowait(self._fork())

    def _reap(self) -> None:
        """Collect the processes killed (without waiting for one still going)."""
        for pid in list(self._dead):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            except ChildProcessError:
                pass
            self._dead.remove(pid)

    def stop(self) -> None:
        """Kill every worker at once; the questions they were answering are refused (503).

        Made to be called from a signal handler (Ctrl-C): it sends signals and wakes the
        event loop, nothing more.
        """
        self.closed = True
        for pid in list(self._all):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._closing)

    def _closing(self) -> None:
        """In the loop, after :meth:`stop`: release the questions waiting for a worker.

        (Those being answered see their worker's socket close.)
        """
        for _ in range(self._waiting):
            self._idle.put_nowait(None)

    def join(self) -> None:
        """Wait until every worker killed has ended (after :meth:`stop`)."""
        for worker in list(self._all.values()):
            self._kill(worker)
        for pid in self._dead:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self._dead.clear()

    # ------------------------------------------------------------ a question
    async def _run(self, job: tuple) -> tuple:
        loop = self._loop = asyncio.get_running_loop()
        if not self._all and not self.closed:
            self.start()
        stopping = Refused(503, "the explorer is stopping", retry=None)
        if self.closed:
            raise stopping
        self._waiting += 1
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.deadline)
        except TimeoutError:
            raise Refused(503, f"every worker of the explorer was busy for {self.deadline:g} "
                          f"s (its deadline); ask again in a few seconds",
                          retry=max(1, math.ceil(self.deadline))) from None
        finally:
            self._waiting -= 1
        if worker is None or self.closed:
            raise stopping
        reply = loop.create_future()

        def readable():
            loop.remove_reader(worker.conn.fileno())
            try:
                got = worker.conn.recv()
            except (EOFError, OSError) as exc:
                got = exc
            if not reply.done():
                reply.set_result(got)

        try:
            worker.conn.send(job)
            loop.add_reader(worker.conn.fileno(), readable)
            got = await asyncio.wait_for(reply, self.deadline + self.grace)
        except TimeoutError:  # (an OSError: first)
            self._replace(worker)
            raise Refused(504, f"the answer took longer than the explorer's deadline of "
                          f"{self.deadline:g} s (bnx serve --deadline): ask a smaller "
                          f"question (fewer features set), or serve with a longer "
                          f"deadline") from None
        except OSError as exc:  # it ended while idle
            got = exc
        except BaseException:
            self._replace(worker)  # cancelled: its answer would come to no one
            raise
        if isinstance(got, BaseException):  # the worker ended while answering
            self._replace(worker)
            if self.closed:
                raise stopping
            raise Refused(503, "the worker answering this question stopped before it "
                          "answered (out of memory?); it has been replaced", retry=1)
        self._idle.put_nowait(worker)
        return got


def _work(explorer, sock: socket.socket) -> None:
    """Live as a forked worker: answer each question its socket brings, until it closes.

    Everything the server had open but the socket is closed first (the listening socket,
    the clients' connections: a worker must not keep them open), and every object is
    frozen out of the garbage collector so that no finalizer of the server's touches a
    descriptor. Ctrl-C is the server's to handle: it kills the workers.
    """
    code = 0
    try:
        gc.freeze()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.set_wakeup_fd(-1)
        os.nice(NICE)
        fd = sock.detach()
        if fd != 3:
            os.dup2(fd, 3)
            os.close(fd)
        os.closerange(4, max(os.sysconf("SC_OPEN_MAX"), 4) if hasattr(os, "sysconf")
                      else 65536)
        conn = Connection(3)
        while True:
            try:
                job = conn.recv()
            except EOFError:
                break
            conn.send(compute(explorer, *job))
    except BaseException:  # the server sees the socket close
        code = 1
    finally:
        os._exit(code)
