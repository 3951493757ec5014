"""Loading a saved ODD and explaining imports only what it uses (numpy, for the diagram's
arrays, and dd; not pgmpy, pandas, tqdm, matplotlib or scikit-learn)."""

from __future__ import annotations

import json
import subprocess
import sys

import bnx

SCRIPT = """
import json, sys
import bnx
odd = bnx.ODD.load(sys.argv[1], backend=sys.argv[2])
x = dict.fromkeys(odd.features, "+")
pis = bnx.pi_explanations(odd, x)
mcs = bnx.mc_explanations(odd, x)
# (numpy is not heavy any more: the questions run on the ODD's array form, issue 17)
heavy = sorted(m for m in ("pgmpy", "pandas", "tqdm", "matplotlib", "sklearn")
               if m in sys.modules)
print(json.dumps({"pi": len(list(pis)), "mc": len(list(mcs)), "heavy": heavy}))
"""


def test_load_and_explain_imports_nothing_heavy(tmp_path, backend):
    odd = bnx.compile(bnx.examples.admissions(), backend=backend)
    path = odd.save(str(tmp_path / "admissions.bnx"))
    out = subprocess.run([sys.executable, "-c", SCRIPT, path, backend], capture_output=True,
                         text=True, check=True)
    got = json.loads(out.stdout)
    assert got == {"pi": 3, "mc": 1, "heavy": []}, out.stderr
