"""The notebooks as tests (nbmake runs each one, top to bottom, in a fresh kernel).

The three that compile the votes classifier and draw its answers take tens of seconds each:
they are marked ``slow``, so ``pytest -m "not slow"`` runs only ``admissions.ipynb``, the
paper's running example, and still runs a notebook end to end.
"""

from __future__ import annotations

import pathlib

import pytest

#: The notebooks the quick run leaves out (file names in this folder).
SLOW = {"votes.ipynb", "attributions.ipynb", "reasons.ipynb"}

HERE = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Mark the slow notebooks' items ``slow`` (this hook sees every item: keep to ours)."""
    for item in items:
        path = pathlib.Path(str(item.path)).resolve()
        if path.parent == HERE and path.name in SLOW:
            item.add_marker(pytest.mark.slow)
