"""``bnx compile`` and the default node budget: a hopeless compile is refused at once, in
the words ``bnx.compile`` uses; ``--max-nodes inf`` lifts the budget."""

from __future__ import annotations

import time

import pytest

from bnx.cli import main
from tests._support.bundled import bundled_bif
from tests._support.cli import run


@pytest.mark.slow
def test_compile_refuses_hepar2_at_once(capsys, tmp_path):
    path = bundled_bif("hepar2", tmp_path)
    t0 = time.monotonic()
    code, out, err = run(capsys, "compile", str(path), "--class", "Cirrhosis",
                         "--positive", "decompensate")
    assert time.monotonic() - t0 < 15  # reading hepar2 takes seconds; it used to run 40 s
    assert code == 1 and out == ""
    assert "the ODD is estimated at 48,648,177 nodes (41 features), past max_nodes=20000000 " \
        "(the default budget): refused before compiling" in err
    assert "clf.decide(x)" in err and "--max-nodes inf" in err


@pytest.mark.slow
def test_max_nodes_inf_lifts_the_budget(capsys, admissions_bif):
    code, out, err = run(capsys, "compile", admissions_bif, "--class", "Admit",
                         "--positive", "yes", "--max-nodes", "inf")
    assert code == 0, err
    assert "ODD size:   6 nodes" in out


@pytest.mark.parametrize("bad", ["0", "-3", "lots", "1.5"])
def test_max_nodes_must_be_a_positive_integer_or_inf(capsys, bad):
    with pytest.raises(SystemExit):
        main(["compile", "x.bif", "--class", "C", "--positive", "1", "--max-nodes", bad])
    assert "--max-nodes" in capsys.readouterr().err
