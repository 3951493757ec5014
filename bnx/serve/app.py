"""The explorer's web application (Starlette): the page, its two assets and the JSON API.

Routes, all fixed (no route takes a path, so nothing outside the package and the one model
is ever served):

- ``GET /``: the page, its controls set from the query string (``?feature=state&...``) and
  the answer on that instance rendered in it, so it reads without JavaScript;
- ``GET /static/explorer.js``, ``GET /static/explorer.css``: the page's script and style,
  read once from the package;
- ``GET /api/model``: ``{"class", "positive", "classes", "multiclass", "features":
  {feature: [states]}}``;
- ``POST /api/explain``: ``{"instance": {feature: state}, "background": name, "rival":
  state}`` → the answer as JSON (:func:`bnx.serve.answers.answer`);
- ``POST /explain.html``: the same request → the answer as the HTML the page shows.

A bad request is answered with status 400 and ``{"error": message}`` (the message bnx
raises; with ``"conflict": {feature: state}`` for findings the network cannot produce
together); the server goes on serving. Every answer is computed off the event loop, by the
workers of :mod:`.workers`: a request past their queue is answered 503 (with
``Retry-After``), one past its deadline 504, both with ``{"error": why}`` (the page's routes
with that message in HTML).
"""

from __future__ import annotations

import asyncio
import os
from importlib import resources

from ..classifier._classifier import Classifier
from ..errors import ArgumentError, BnxError
from ..odd._odd import ODD
from .defaults import DEADLINE, QUEUE
from .explorer import MAX_BODY, Explorer, error_json
from .page import error_html, page
from .workers import Processes, Refused, Thread

__all__ = ["create_app"]

_ASSETS = {"explorer.js": "text/javascript; charset=utf-8",
           "explorer.css": "text/css; charset=utf-8"}

#: The seconds a request's body may take to arrive once its headers have.
BODY_TIMEOUT = 10.0

#: Sent with every response: only the page's own assets run, nothing framed or sniffed.
_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
            "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                       "img-src 'self' data:; frame-ancestors 'none'"}


def _starlette():
    try:
        import starlette  # noqa: F401
    except ImportError:
        raise ArgumentError("bnx serve needs Starlette and uvicorn: pip install starlette "
                            "uvicorn httptools (or, in bnx's clone, pip install -e "
                            "'.[serve]')") from None


def create_app(odd: ODD | Classifier, *, max_body: int = MAX_BODY, allowed_hosts=None,
               timeout: float | None = None, deadline: float = DEADLINE, workers: int = 0,
               queue: int = QUEUE):
    """Make the explorer of one classifier, compiled or not, as an ASGI application.

    Parameters
    ----------
    odd : ODD or Classifier
        The decision function to explore, its classifier attached; or a classifier too
        large to compile, each answer then the report on one decision explained without
        compiling (``bnx.explain(clf, x)``; no attributions).
    max_body : int, default 262144
        The largest request body read, in bytes; a larger one is refused with status 400.
    allowed_hosts : sequence of str, optional
        The host names the ``Host`` header may give (:func:`bnx.serve.run` passes the
        loopback names when it listens on a loopback address, so that no other web site can
        reach the API through a name resolved to 127.0.0.1); any host by default.
    timeout : float, optional
        With a classifier: the seconds each report may take (``bnx.explain(clf, x,
        timeout=)``); at most ``deadline``, which it is by default.
    deadline : float, default 10
        The seconds each answer may take. A report explained without compiling stops its
        search there and shows what it proved; with ``workers``, a worker still busy
        2 s past it is killed and replaced, and the request answered 504.
    workers : int, default 0
        0: the answers are computed one at a time in a thread of this process (off the
        event loop, but holding the GIL while they think). N: by N processes forked from
        this one at the first question (POSIX), which keep the event loop free;
        :func:`bnx.serve.run` forks them before serving.
    queue : int, default 32
        How many more questions may wait for a worker; past that a request is answered
        503 at once, with ``Retry-After`` (with ``workers``, so is one that waited
        ``deadline`` seconds for a worker).

    Returns
    -------
    starlette.applications.Starlette
        Run it with uvicorn (:func:`bnx.serve.run` does), or test it with
        ``starlette.testclient.TestClient``.

    Raises
    ------
    ArgumentError
        Starlette is not installed, ``odd`` is neither an ODD with its classifier nor a
        classifier, or a bad deadline, number of workers or queue.

    See Also
    --------
    bnx.serve.run : Serve the app with uvicorn.
    bnx.explain : The report each page shows.

    Examples
    --------
    >>> import bnx
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(bnx.serve.create_app(bnx.compile(bnx.examples.admissions())))
    >>> client.get("/api/model").json()["class"]
    'Admit'
    >>> r = client.post("/api/explain", json={"instance": {"GPA": "A"}})
    >>> r.status_code, r.json()["error"]
    (400, "'A' is not a state of feature 'GPA' (states, closest first: -, +)")
    """
    _starlette()
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    explorer, answers = _workers(odd, timeout, deadline, workers, queue)
    files = resources.files(__package__).joinpath("static")
    assets = {name: files.joinpath(name).read_bytes() for name in _ASSETS}

    async def body(request) -> bytes:
        """Read the request's body.

        Refused once it passes ``max_body`` bytes, or takes longer than ``BODY_TIMEOUT``
        seconds to arrive.
        """
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_body:
            raise ArgumentError(f"the request body has more than {max_body:,} bytes")
        chunks, size = [], 0
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > max_body:
                        raise ArgumentError(f"the request body has more than {max_body:,} "
                                            f"bytes")
                    chunks.append(chunk)
        except TimeoutError:
            raise Refused(408, f"the request body took longer than {BODY_TIMEOUT:g} s to "
                          f"arrive") from None
        return b"".join(chunks)

    async def asked(request, kind: str) -> tuple:
        """Read and check the request here, have it answered by a worker."""
        data = await body(request)
        instance, background, rival = explorer.read(data, limit=max_body)
        return await answers.ask(kind, instance, background, rival)

    async def get_page(request):
        query = request.query_params
        given = {k: v for k, v in query.multi_items()
                 if k not in ("background", "rival") and v != ""}
        background = query.get("background") or "none"
        rival = None
        try:
            rival = explorer.rival(query.get("rival"))
            if len(query) > len(explorer.features) + 2:
                raise ArgumentError("the query names more fields than the model has features")
            instance = explorer.instance(given)
            if background not in explorer.backgrounds():
                raise ArgumentError(f"background must be one of "
                                    f"{', '.join(explorer.backgrounds())}, got {background!r}")
        except BnxError as exc:
            return HTMLResponse(page(explorer, {}, background, error_html(str(exc)), rival),
                                status_code=400, headers=_HEADERS)
        try:
            status, inner = await answers.ask("html", instance, background, rival)
        except Refused as exc:
            status, inner, headers = exc.status, exc.message, _refused(exc)
        else:
            headers = _HEADERS
        if status != 200:
            inner = error_html(inner)
        return HTMLResponse(page(explorer, instance, background, inner, rival),
                            status_code=status, headers=headers)

    def asset(name: str):
        async def get(request):
            return Response(assets[name], media_type=_ASSETS[name],
                            headers={**_HEADERS, "Cache-Control": "no-cache"})
        return get

    async def get_model(request):
        return JSONResponse(explorer.model(), headers=_HEADERS)

    async def post_explain(request):
        try:
            status, payload = await asked(request, "json")
        except BnxError as exc:
            return JSONResponse(error_json(exc), status_code=400, headers=_HEADERS)
        except Refused as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status,
                                headers=_refused(exc))
        if status != 200:
            return JSONResponse({"error": payload}, status_code=status, headers=_HEADERS)
        return Response(payload, media_type="application/json", headers=_HEADERS)

    async def post_fragment(request):
        try:
            status, payload = await asked(request, "html")
        except BnxError as exc:
            return HTMLResponse(error_html(str(exc)), status_code=400, headers=_HEADERS)
        except Refused as exc:
            return HTMLResponse(error_html(exc.message), status_code=exc.status,
                                headers=_refused(exc))
        return HTMLResponse(payload if status == 200 else error_html(payload),
                            status_code=status, headers=_HEADERS)

    routes = [Route("/", get_page, methods=["GET"]),
              *(Route(f"/static/{name}", asset(name), methods=["GET"]) for name in _ASSETS),
              Route("/api/model", get_model, methods=["GET"]),
              Route("/api/explain", post_explain, methods=["POST"]),
              Route("/explain.html", post_fragment, methods=["POST"])]
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
                  if allowed_hosts is not None else [])
    app = Starlette(routes=routes, middleware=middleware)
    app.state.explorer = explorer
    app.state.workers = answers
    return app


def _refused(exc: Refused) -> dict:
    """Return the headers of a refusal: ``Retry-After`` when asking again later may help."""
    return _HEADERS if exc.retry is None else {**_HEADERS, "Retry-After": str(exc.retry)}


def _count(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ArgumentError(f"{name} must be an integer of at least {low}, got {value!r}")
    return value


def _workers(odd, timeout, deadline, workers, queue):
    """Make the explorer and the workers that answer it (:func:`create_app`'s parameters)."""
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not (
            0 < deadline < float("inf")):
        raise ArgumentError(f"deadline must be a positive number of seconds, got "
                            f"{deadline!r}")
    _count("workers", workers, 0)
    _count("queue", queue, 0)
    if workers and not hasattr(os, "fork"):
        raise ArgumentError("worker processes need os.fork (POSIX); use workers=0 here (one "
                            "thread)")
    if isinstance(odd, Classifier):  # a report keeps its own deadline
        timeout = deadline if timeout is None else min(timeout, deadline)
    explorer = Explorer(odd, timeout=timeout)
    if workers == 0:
        return explorer, Thread(explorer, queue=queue, deadline=deadline)
    return explorer, Processes(explorer, workers=workers, queue=queue, deadline=deadline)
