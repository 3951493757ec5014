"""The explorer: one web page, and the JSON API under it.

Where people who do not write Python try a classifier's decisions (``bnx serve``; ``pip
install -e ".[serve]"`` in the clone).

- :func:`create_app`: the explorer of one classifier as an ASGI application (Starlette):
  a compiled ODD, or a classifier too large to compile, whose answers are then reports on
  one decision each, explained without compiling;
- :func:`run`: serve it with uvicorn until Ctrl-C, on 127.0.0.1 unless told otherwise.

The modules: :mod:`.explorer` (the model, requests read and checked, no web framework),
:mod:`.answers` (the answer on an instance), :mod:`.page` (the HTML), :mod:`.app` (the
routes) and :mod:`.runner` (uvicorn); the page's script and style are in ``static/``.
See ``docs/serve.md``.
"""

from .app import create_app
from .runner import is_loopback, run

__all__ = ["create_app", "is_loopback", "run"]
