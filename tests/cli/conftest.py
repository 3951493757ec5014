"""Fixtures shared by the CLI tests."""

from __future__ import annotations

import pytest

import bnx


@pytest.fixture(scope="module")
def admissions_bif(tmp_path_factory):
    from pgmpy.readwrite import BIFWriter
    path = tmp_path_factory.mktemp("nets") / "admissions.bif"
    BIFWriter(bnx.examples.admissions_network(states=("no", "yes"))).write(str(path))
    return str(path)
