"""The rough edges a new user hit (issue 20), each pinned by a test."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

VOTES_WORKFLOW = """
import warnings
warnings.simplefilter("error")      # any warning at all, FutureWarning and Deprecation too
import bnx
votes = bnx.datasets.load_votes()
clf = bnx.Classifier(bnx.learn_naive_bayes(votes, "party"), "party", "republican")
odd = bnx.compile(clf)
x = {f: votes.loc[369, f] for f in clf.features}
bnx.mc_explanations(odd, x), bnx.pi_explanations(odd, x).count
bnx.explain_data(odd, votes.head(5), n_jobs=1, progress=False)
tan = bnx.learn_tan(votes, "party")
bnx.compile(bnx.Classifier(tan, "party", "republican",
                           features=list(bnx.datasets.VOTES_FEATURES))).size
print("ok")
"""


def test_the_votes_workflow_warns_nothing():
    """learn, compile, explain, explain_data, learn_tan: no warning (pgmpy's FutureWarning
    about ``pgmpy.estimators.StructureScore`` is filtered where bnx imports TreeSearch).
    A fresh process: a module imported earlier by another test would not warn again."""
    run = subprocess.run([sys.executable, "-c", VOTES_WORKFLOW], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]
