"""Serving the explorer with uvicorn: the address printed, a warning off loopback, Ctrl-C."""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import sys

from ..classifier._classifier import Classifier
from ..errors import ArgumentError, BnxError
from ..odd._odd import ODD
from .app import create_app

__all__ = ["LOOPBACK_HOSTS", "is_loopback", "run"]

#: The ``Host`` names the explorer answers on a loopback address.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


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
        workers: int = 1, log_level: str = "warning", out=None,
        timeout: float | None = None) -> None:
    """Serve the explorer of ``odd`` until Ctrl-C.

    Answers the page's first question (every feature unknown) and one complete instance
    first, so that the first visitor waits for nothing; prints the address to open (and,
    when ``host`` is not a loopback address, a warning that other machines can reach it);
    then serves with uvicorn until interrupted, and returns once it has stopped.

    Parameters
    ----------
    odd : ODD or Classifier
        The decision function to explore, its classifier attached; or a classifier
        explained without compiling, one decision per answer (:func:`create_app`).
    host : str, default "127.0.0.1"
        The address to listen on; only this machine can reach the default.
    port : int, default 8765
        The port (0: any free one; the address printed names it).
    workers : int, default 1
        Processes that answer requests, sharing the one listening socket (forked, after
        the warm-up: POSIX only). One answers one request at a time; more answer several
        clients at once on as many cores.
    log_level : str, default "warning"
        uvicorn's log level (``"info"`` logs every request).
    out : file, optional
        Where the address and the warning go (default ``sys.stdout``).
    timeout : float, optional
        With a classifier: the seconds each report may take.

    Returns
    -------
    None
        Once the server has stopped.

    Raises
    ------
    ArgumentError
        The address cannot be listened on (in use, not this machine's, a bad port), a bad
        number of workers, or Starlette or uvicorn is not installed.

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
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ArgumentError(f"workers must be a positive integer, got {workers!r}")
    if workers > 1 and not hasattr(os, "fork"):
        raise ArgumentError("several workers need os.fork (POSIX); use workers=1 here")
    loopback = is_loopback(host)
    app = create_app(odd, allowed_hosts=LOOPBACK_HOSTS if loopback else None,
                     timeout=timeout)
    _warm(app.state.explorer)
    config = uvicorn.Config(app, log_level=log_level, access_log=log_level == "info",
                            lifespan="off", server_header=False)
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
    try:
        if workers == 1:
            _serve(uvicorn.Server(config), sock)
        else:
            _fork(lambda: _serve(uvicorn.Server(config), sock), workers)
    except KeyboardInterrupt:  # Ctrl-C before uvicorn took the signal over: stopped too
        pass
    finally:
        sock.close()
    print("bnx explorer stopped", file=out, flush=True)


def _warm(explorer) -> None:
    """Answer the page's first question and one complete instance.

    The caches every answer uses are then built (and, with workers, built once, before
    forking). A classifier served without compiling answers just the complete instance,
    and an answer it refuses (that instance may have probability zero) is no reason not
    to serve: the page shows the same refusal.
    """
    from .answers import answer
    first = {f: explorer.states(f)[0] for f in explorer.features}
    if explorer.odd is not None:
        answer(explorer, {})
        answer(explorer, first)
        return
    try:
        answer(explorer, first)
    except BnxError:
        pass


def _serve(server, sock) -> None:
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops gracefully, then raises the signal again
        pass


def _fork(serve, workers: int) -> None:
    """Run ``serve()`` in ``workers`` forked processes.

    Ctrl-C (or SIGTERM) to this one is passed on to them, and this returns once they have
    all stopped.
    """
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # a worker
            code = 0
            try:
                serve()
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        children.append(pid)

    def forward(sig, frame):
        for pid in children:
            try:
                os.kill(pid, signal.SIGINT)
            except ProcessLookupError:
                pass

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for pid in children:
            while True:
                try:
                    os.waitpid(pid, 0)
                    break
                except InterruptedError:
                    continue
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
