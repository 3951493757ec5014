"""pgmpy's bundled networks (``pgmpy/utils/example_models/*.bif.gz``), as a new user meets
them: read from the installed package, decompressed into a test's directory."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest


def bundled_bif(name: str, directory: Path) -> Path:
    """The BIF file of pgmpy's bundled network ``name`` (``"hepar2"``, ``"child"``, ...),
    written into ``directory``; the test skips when the installed pgmpy has none."""
    import pgmpy
    source = Path(pgmpy.__file__).parent / "utils" / "example_models" / f"{name}.bif.gz"
    if not source.exists():
        pytest.skip(f"this pgmpy bundles no {name}.bif.gz")
    path = Path(directory) / f"{name}.bif"
    path.write_text(gzip.decompress(source.read_bytes()).decode("utf-8"), encoding="utf-8")
    return path


def bundled_network(name: str):
    """pgmpy's bundled network ``name`` as a ``DiscreteBayesianNetwork`` (a new one each
    call), read without pgmpy's deprecation warning for ``get_example_model``."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        return get_example_model(name)
