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
together); the server goes on serving.
"""

from __future__ import annotations

from importlib import resources

from ..classifier._classifier import Classifier
from ..errors import ArgumentError, BnxError
from ..odd._odd import ODD
from .answers import answer
from .explorer import MAX_BODY, Explorer, error_json
from .page import error_html, fragment, page

__all__ = ["create_app"]

_ASSETS = {"explorer.js": "text/javascript; charset=utf-8",
           "explorer.css": "text/css; charset=utf-8"}

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
               timeout: float | None = None):
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
        timeout=)``).

    Returns
    -------
    starlette.applications.Starlette
        Run it with uvicorn (:func:`bnx.serve.run` does), or test it with
        ``starlette.testclient.TestClient``.

    Raises
    ------
    ArgumentError
        Starlette is not installed, or ``odd`` is neither an ODD with its classifier nor a
        classifier.

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

    explorer = Explorer(odd, timeout=timeout)
    files = resources.files(__package__).joinpath("static")
    assets = {name: files.joinpath(name).read_bytes() for name in _ASSETS}

    async def body(request) -> bytes:
        """Read the request's body, refused once it passes ``max_body`` bytes."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_body:
            raise ArgumentError(f"the request body has more than {max_body:,} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_body:
                raise ArgumentError(f"the request body has more than {max_body:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    # Answers run on the event loop itself. They are CPU-bound Python that the GIL and
    # the explorer's lock run one at a time anyway; in a worker thread each one also made
    # the loop wait for the GIL at every socket call (votes, 20 clients: p95 47-57 ms in
    # threads, 29-33 ms here). Several workers (``--workers``) answer in parallel.
    async def asked(request):
        data = await body(request)
        instance, background, rival = explorer.read(data, limit=max_body)
        return answer(explorer, instance, background, rival)

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
            result = answer(explorer, instance, background, rival)
            status, inner = 200, fragment(explorer, result)
        except BnxError as exc:
            instance, status, inner = {}, 400, error_html(str(exc))
        return HTMLResponse(page(explorer, instance, background, inner, rival),
                            status_code=status, headers=_HEADERS)

    def asset(name: str):
        async def get(request):
            return Response(assets[name], media_type=_ASSETS[name],
                            headers={**_HEADERS, "Cache-Control": "no-cache"})
        return get

    async def get_model(request):
        return JSONResponse(explorer.model(), headers=_HEADERS)

    async def post_explain(request):
        try:
            result = await asked(request)
        except BnxError as exc:
            return JSONResponse(error_json(exc), status_code=400, headers=_HEADERS)
        return Response(result.body, media_type="application/json", headers=_HEADERS)

    async def post_fragment(request):
        try:
            result = await asked(request)
        except BnxError as exc:
            return HTMLResponse(error_html(str(exc)), status_code=400, headers=_HEADERS)
        return HTMLResponse(fragment(explorer, result), headers=_HEADERS)

    routes = [Route("/", get_page, methods=["GET"]),
              *(Route(f"/static/{name}", asset(name), methods=["GET"]) for name in _ASSETS),
              Route("/api/model", get_model, methods=["GET"]),
              Route("/api/explain", post_explain, methods=["POST"]),
              Route("/explain.html", post_fragment, methods=["POST"])]
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
                  if allowed_hosts is not None else [])
    app = Starlette(routes=routes, middleware=middleware)
    app.state.explorer = explorer
    return app
