"""A compile's memory bound (``max_memory=``, ``--max-memory``): measured, not estimated.

The process's resident memory is read between batches of work; here the reading is
replaced by a fake that grows as the test says, so that what is checked is the budget's
arithmetic and where it stops, not how much this machine allocates. The readings of the
real system are checked once, against the peak the kernel reports.
"""

from __future__ import annotations

import math
import resource

import pytest

import bnx
from bnx.cli import _options
from bnx.compilation import budget as B
from tests._support.cli import run

MIB = 1 << 20


class Growing:
    """A fake resident memory: ``start`` bytes, then ``step`` more at each reading."""

    def __init__(self, start: int, step: int) -> None:
        self.now, self.step = start, step

    def __call__(self) -> int:
        got = self.now
        self.now += self.step
        return got


def test_the_resident_memory_is_the_systems():
    got = B.resident_bytes()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    assert 10 * MIB < got <= peak * 1.01


def test_spending_past_the_memory_budget_stops_with_what_grew(monkeypatch):
    monkeypatch.setattr(B, "resident_bytes", Growing(100 * MIB, 3 * MIB))
    monkeypatch.setattr(B, "MEMORY_EVERY", 0.0)  # read at every check
    budget = B.Budget(None, max_memory=10 * MIB)
    budget.spend(5)  # the process grew by 3 MiB, then 6, 9: within 10 MiB
    budget.check()
    budget.spend(1)
    with pytest.raises(bnx.CompilationLimitError,
                       match=r"ran out of memory \(max_memory=10 MiB\).*grown by 12 MiB"):
        budget.check()


def test_a_step_that_would_pass_the_budget_is_refused_before_it_starts(monkeypatch):
    """The level engines' steps: the bytes per state of the last large one size the next."""
    fake = Growing(100 * MIB, 0)
    monkeypatch.setattr(B, "resident_bytes", fake)
    budget = B.Budget(None, max_memory=64 * MIB)
    budget.pace(B.PACED, "level")
    fake.now += 16 * MIB  # the step of PACED states left 16 MiB: 256 bytes a state
    budget.pace(B.PACED, "level")  # 16 MiB held, 20 expected: 36 within 64
    fake.now += 16 * MIB
    with pytest.raises(bnx.CompilationLimitError, match="its next step .* states"):
        budget.pace(2 * B.PACED, "level")  # 32 held, 40 expected: past 64


def test_compile_stops_at_its_memory_budget(monkeypatch):
    """A compile whose process grows past ``max_memory`` stops with CompilationLimitError
    (here every reading 1 MiB more: a budget of 2 MiB is spent at once); the default bound
    is 3 GiB and ``math.inf`` lifts it."""
    clf = bnx.examples.admissions()
    monkeypatch.setattr(B, "resident_bytes", Growing(100 * MIB, MIB))
    monkeypatch.setattr(B, "MEMORY_EVERY", 0.0)
    with pytest.raises(bnx.CompilationLimitError, match="ran out of memory"):
        bnx.compile(bnx.Classifier(bnx.examples.asia_network(), "lung", "yes"),
                    max_memory=2 * MIB)
    assert bnx.compile(clf, max_memory=math.inf).size == 6
    assert B.DEFAULT_MAX_MEMORY == 3 << 30
    for bad in (0, -1, 1.5, True, "3G"):
        with pytest.raises(bnx.ArgumentError, match="max_memory"):
            bnx.compile(clf, max_memory=bad)


def test_the_command_line_reads_a_memory_budget(capsys):
    assert _options.max_memory("512M") == 512 * MIB
    assert _options.max_memory("3GiB") == 3 << 30
    assert _options.max_memory("1000") == 1000 and _options.max_memory("inf") == math.inf
    asia = str(bnx.examples.network_path("asia.bif"))
    code, out, err = run(capsys, "compile", asia, "--class", "lung", "--positive", "yes",
                         "--max-memory", "1G")
    assert code == 0 and "ODD size:" in out
    with pytest.raises(SystemExit):
        run(capsys, "compile", asia, "--class", "lung", "--max-memory", "lots")
    assert "--max-memory: expected a number of bytes" in capsys.readouterr().err


def test_a_float_tail_table_that_would_pass_the_budget_is_not_made(monkeypatch):
    """The general engine's tail table is one contraction that runs unchecked for memory:
    sized before it starts (its largest table, three times over in float64), it is refused
    past the budget (barley's restricted compile grew to 24 GB in such steps)."""
    from bnx.compilation.engines import _tail
    monkeypatch.setattr(B, "resident_bytes", Growing(100 * MIB, 0))
    monkeypatch.setattr(_tail, "TAIL_WIDTH", 0)  # no exact tail: the float one
    clf = bnx.Classifier(bnx.examples.asia_network(), "lung", "yes",
                         features=["asia", "smoke", "xray", "dysp"])
    assert bnx.compile(clf, max_memory=MIB).size > 2  # 1 MiB: room for the tail table
    with pytest.raises(bnx.CompilationLimitError,
                       match=r"its next step \(the table of the last \d+ features\)"):
        bnx.compile(clf, max_memory=64)
