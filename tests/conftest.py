"""Shared fixtures: backends, paths, hypothesis profiles."""

from __future__ import annotations

import os
import pathlib

import pytest
from hypothesis import HealthCheck, settings

import bnx

# Under CI (CI=true) the examples are drawn from a fixed seed, so that a run on a submission
# is reproducible; developers' runs draw new examples every time (and keep the failures
# hypothesis finds in .hypothesis/).
settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
settings.register_profile(
    "thorough", max_examples=500, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])
# The quick loop (``pytest -m "not slow"``) draws 10 examples a property instead of 25: every
# property still runs, on fewer classifiers (a test that sets its own max_examples keeps it).
settings.register_profile("quick", parent=settings.get_profile("ci"), max_examples=10)
settings.load_profile(os.environ.get("BNX_HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Take the ``quick`` profile under ``-m "not slow"``, unless a profile is named."""
    if "not slow" in (config.option.markexpr or "") and "BNX_HYPOTHESIS_PROFILE" not in os.environ:
        settings.load_profile("quick")


ROOT = pathlib.Path(__file__).resolve().parent.parent
#: ``../shared`` beside the checkout: present for developers and CI, absent for users
#: (``BNX_SHARED`` points elsewhere, e.g. from a git worktree).
SHARED = pathlib.Path(os.environ.get("BNX_SHARED", ROOT.parent / "shared"))

BACKENDS = bnx.backends.available_backends()


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Each dd backend that imports here (autoref always, cudd where dd ships it)."""
    return request.param


def shared_file(*parts: str) -> pathlib.Path:
    """A file under ``../shared/data``; skips the test when it is not there."""
    path = SHARED.joinpath("data", *parts)
    if not path.exists():
        pytest.skip(f"{path} is not available (only developers and CI have ../shared)")
    return path
