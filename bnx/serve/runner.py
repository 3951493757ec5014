"""Serving the explorer with uvicorn.

The address printed, a warning off loopback, the workers forked, the connections'
timeouts, Ctrl-C.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys

from ..classifier._classifier import Classifier
from ..errors import ArgumentError, BnxError
from ..odd._odd import ODD
from .app import create_app
from .defaults import DEADLINE, QUEUE
from .workers import Processes

__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "LIMIT_CONCURRENCY", "LOOPBACK_HOSTS",
           "is_loopback", "run"]

#: The ``Host`` names the explorer answers on a loopback address.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
#: The seconds a connection may take to send a request's headers, from when it opens or
#: its previous answer was sent; past them it is closed (a client that connects and says
#: nothing, or a byte at a time, holds nothing for long).
HEADER_TIMEOUT = 10.0
#: The seconds an idle keep-alive connection is kept open after an answer.
KEEP_ALIVE = 5
#: Connections (or requests in progress) past which uvicorn answers 503 at once.
LIMIT_CONCURRENCY = 1000
#: The seconds the server gives the requests in progress to end once told to stop.
_GRACEFUL = 0.5


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``).

    Parameters
    ----------
    host : str
        A host name or an IP address.

    Returns
    -------
    bool
        True for a loopback address or ``localhost``.

    See Also
    --------
    bnx.serve.run : Warns when it listens on another address than a loopback one.

    Examples
    --------
    >>> from bnx.serve import is_loopback
    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """Open a listening socket on ``host:port`` (port 0: a free one), or return a one-line error."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ArgumentError(f"port must be an integer from 0 to 65535, got {port!r}")
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise ArgumentError(f"cannot listen on {host}: {getattr(exc, 'strerror', None) or exc}"
                            ) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise ArgumentError(f"cannot listen on {host} port {port}: "
                            f"{exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def run(odd: ODD | Classifier, *, host: str = "127.0.0.1", port: int = 8765,
        workers: int | None = None, log_level: str = "warning", out=None,
        timeout: float | None = None, deadline: float = DEADLINE,
        queue: int = QUEUE, exit: bool = False) -> None:
    """Serve the explorer of ``odd`` until Ctrl-C.

    Answers the page's first question (every feature unknown) and one complete instance
    first, so that the first visitor waits for nothing; forks the workers that answer the
    questions; prints the address to open (and, when ``host`` is not a loopback address,
    a warning that other machines can reach it); then serves with uvicorn until
    interrupted, and returns once it has stopped: within a second, the workers killed
    whatever they were answering.

    The server itself only reads requests and sends answers, so ``/api/model``, the page
    and its assets are answered at once however long the questions take. A connection
    has ``HEADER_TIMEOUT`` (10) seconds to send each request's headers and a request's
    body 10 more; an idle one is closed after ``KEEP_ALIVE`` (5) seconds; past
    ``LIMIT_CONCURRENCY`` (1,000) connections uvicorn answers 503.

    Parameters
    ----------
    odd : ODD or Classifier
        The decision function to explore, its classifier attached; or a classifier
        explained without compiling, one decision per answer (:func:`create_app`).
    host : str, default "127.0.0.1"
        The address to listen on; only this machine can reach the default.
    port : int, default 8765
        The port (0: any free one; the address printed names it).
    workers : int, optional
        How many processes answer the questions, each one at a time (forked after the
        warm-up, so each holds the model with its caches built). Default 2 where
        ``os.fork`` is (POSIX); 0 (the default elsewhere): one thread of the server
        answers them, and the server is slow to answer anything else meanwhile.
    log_level : str, default "warning"
        uvicorn's log level (``"info"`` logs every request).
    out : file, optional
        Where the address and the warning go (default ``sys.stdout``).
    timeout : float, optional
        With a classifier: the seconds each report may take (at most, and by default,
        ``deadline``).
    deadline : float, default 10
        The seconds each answer may take: a report explained without compiling stops its
        search there and shows what it proved; a worker still busy 2 s later is killed
        and replaced, and the request answered 504.
    queue : int, default 32
        How many questions may wait for a worker; past that a request is answered 503
        at once (``Retry-After``), and so is one that waited ``deadline`` seconds.
    exit : bool, default False
        End the process once the server has stopped (``os._exit(0)``, after flushing
        ``out``, stdout and stderr), without tearing the model down object by object,
        which takes seconds for a large network (the ``bnx serve`` command does this).

    Returns
    -------
    None
        Once the server has stopped.

    Raises
    ------
    ArgumentError
        The address cannot be listened on (in use, not this machine's, a bad port), a bad
        number of workers, queue or deadline, or Starlette or uvicorn is not installed.

    See Also
    --------
    bnx.serve.create_app : The Starlette app served, to serve another way.

    Examples
    --------
    Serve the explorer of the admissions classifier on this machine (it runs until Ctrl-C):

    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions())
    >>> bnx.serve.run(odd, port=8765)  # doctest: +SKIP
    """
    out = sys.stdout if out is None else out
    try:
        import uvicorn
    except ImportError:
        raise ArgumentError("bnx serve needs Starlette and uvicorn: pip install starlette "
                            "uvicorn httptools (or, in bnx's clone, pip install -e "
                            "'.[serve]')") from None
    if workers is None:
        workers = 2 if hasattr(os, "fork") else 0
    loopback = is_loopback(host)
    app = create_app(odd, allowed_hosts=LOOPBACK_HOSTS if loopback else None,
                     timeout=timeout, deadline=deadline, workers=workers, queue=queue)
    pool = app.state.workers
    _warm(app.state.explorer, pool)
    config = uvicorn.Config(app, log_level=log_level, access_log=log_level == "info",
                            lifespan="off", server_header=False,
                            timeout_keep_alive=KEEP_ALIVE, limit_concurrency=LIMIT_CONCURRENCY,
                            timeout_graceful_shutdown=_GRACEFUL,
                            http=_guarded(HEADER_TIMEOUT),
                            h11_max_incomplete_event_size=64 * 1024)
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    clf = app.state.explorer.classifier
    which = (f"classes: {', '.join(map(str, clf.classes))}" if clf.multiclass
             else f"positive: {clf.positive}")
    print(f"bnx explorer of {clf.class_var} ({which}) at "
          f"http://{shown}:{port}/  (Ctrl-C stops it)", file=out, flush=True)
    if not loopback:
        print(f"warning: listening on {host}, not on loopback: anyone who can reach this "
              f"machine on port {port} can use the explorer and read the model", file=out,
              flush=True)
    server = _server(config, pool.stop)
    try:
        pool.start()
        _serve(server, sock)
    except KeyboardInterrupt:  # Ctrl-C before uvicorn took the signal over: stopped too
        pass
    finally:
        pool.stop()
        if isinstance(pool, Processes):
            pool.join()
        sock.close()
    print("bnx explorer stopped", file=out, flush=True)
    if exit:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _warm(explorer, pool) -> None:
    """Answer the page's first question and one complete instance.

    The caches every answer uses are then built (and, with workers, built once, before
    forking), and the page with every feature unknown is kept, answered at once. A
    classifier served without compiling answers just the complete instance (the page's
    first question is then asked of a worker like any other), and an answer it refuses
    (that instance may have probability zero) is no reason not to serve: the page shows
    the same refusal.
    """
    from .answers import answer
    first = {f: explorer.states(f)[0] for f in explorer.features}
    explorer.backgrounds()
    if explorer.odd is not None:
        pool.warm("html", {})
        answer(explorer, first)
        return
    try:
        answer(explorer, first)
    except BnxError:
        pass


def _server(config, stop):
    """Make a uvicorn server whose Ctrl-C (or SIGTERM) also calls ``stop``.

    The workers are then killed at once, and what they were answering is refused.
    """
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            stop()
            super().handle_exit(sig, frame)

    return Server(config)


def _guarded(seconds: float):
    """Return uvicorn's HTTP protocol (httptools, else h11) with a header timeout.

    A connection that has not sent a request's headers ``seconds`` after it opened, or
    after its last answer, is closed.
    """
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base

    class Guarded(Base):
        _header_timer = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(seconds, self._expired, self.cycle)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self, cycle) -> None:
            # no request begun since armed (a request's headers make a new cycle)
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Guarded


def _serve(server, sock) -> None:
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops gracefully, then raises the signal again
        pass
