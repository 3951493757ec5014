"""The explorer: one web page, and the JSON API under it.

Where people who do not write Python try a classifier's decisions (``bnx serve``; ``pip
install -e ".[serve]"`` in the clone).

- :func:`create_app`: the explorer of one classifier as an ASGI application (Starlette):
  a compiled ODD, or a classifier too large to compile, whose answers are then reports on
  one decision each, explained without compiling;
- :func:`run`: serve it with uvicorn until Ctrl-C, on 127.0.0.1 unless told otherwise.

The modules: :mod:`.explorer` (the model, requests read and checked, no web framework),
:mod:`.answers` (the answer on an instance), :mod:`.workers` (where answers are computed:
off the event loop, bounded, each within a deadline), :mod:`.page` (the HTML), :mod:`.app`
(the routes) and :mod:`.runner` (uvicorn); the page's script and style are in ``static/``.
See ``docs/serve.md``.
"""

__all__ = ["create_app", "is_loopback", "run"]

from .defaults import DEADLINE as DEADLINE  # light
from .defaults import GRACE as GRACE
from .defaults import QUEUE as QUEUE


def __getattr__(name: str):
    # looked up when first used, so that ``bnx serve --help`` (which reads the defaults
    # above) does not import the web application and the report
    if name == "create_app":
        from .app import create_app
        return create_app
    if name in ("is_loopback", "run"):
        from . import runner
        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
