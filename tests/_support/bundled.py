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
    call), read without pgmpy's deprecation warning for ``get_example_model``.

    pgmpy's parser takes seconds on the large ones (14 s on pathfinder, which several tests
    and every test worker read), so the first read of a network is pickled into a folder of
    the system's temporary directory named after pgmpy's version, and later reads, by any
    worker, unpickle it (a hundredth of a second). The pickle is written whole and then
    renamed, so a worker never reads half of one.
    """
    import os
    import pickle
    import tempfile
    import warnings

    import pgmpy
    folder = Path(tempfile.gettempdir()) / f"bnx-tests-networks-pgmpy-{pgmpy.__version__}"
    cached = folder / f"{name}.pickle"
    if cached.exists():
        try:
            return pickle.loads(cached.read_bytes())
        except Exception:  # a damaged cache: read the network again below
            pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model
        network = get_example_model(name)
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / f"{name}.{os.getpid()}.part"
    part.write_bytes(pickle.dumps(network))
    os.replace(part, cached)
    return network
