"""Loading a saved ODD and explaining imports only what it uses: never pgmpy, pandas,
tqdm, matplotlib or scikit-learn; and for the MC-explanations of an ODD loaded with the
default backend, or the PI-explanations of a binary-class naive Bayes, no dd (numpy is a
dependency of every pass: it is imported)."""

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


LIGHT = """
import json, sys
import bnx
odd = bnx.ODD.load(sys.argv[1])
x = dict.fromkeys(odd.features, "+")
pis = [sorted(e) for e in bnx.pi_explanations(odd, x)]
neg = [sorted(e) for e in bnx.pi_explanations(odd, dict.fromkeys(odd.features, "-"))]
mcs = [sorted(e) for e in bnx.mc_explanations(odd, x)]
# a module imported for real has loaded submodules (a lazy module, lazy_loader's proxy,
# has none until its first attribute is read)
light = sorted(m for m in ("dd",) if any(k.startswith(m + ".") for k in sys.modules))
rob = bnx.robustness(odd, x)
print(json.dumps({"pi": pis, "neg": neg, "mc": mcs, "light": light, "rob": rob,
                  "backend": odd.backend}))
"""


def test_a_saved_odd_explains_without_dd(tmp_path):
    """A saved naive Bayes (unate in every feature) loads and answers PI and MC questions
    on its arrays: dd is not imported; a later question gets the same answers as on the
    compiled ODD."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    path = odd.save(str(tmp_path / "admissions.bnx"))
    out = subprocess.run([sys.executable, "-c", LIGHT, path], capture_output=True,
                         text=True, check=True)
    got = json.loads(out.stdout)
    x = dict.fromkeys(odd.features, "+")
    y = dict.fromkeys(odd.features, "-")
    assert got == {"pi": [sorted(e) for e in bnx.pi_explanations(odd, x)],
                   "neg": [sorted(e) for e in bnx.pi_explanations(odd, y)],
                   "mc": [sorted(e) for e in bnx.mc_explanations(odd, x)],
                   "light": [], "rob": bnx.robustness(odd, x),
                   "backend": bnx.backends.resolve_backend("auto")}, out.stderr


def test_submodules_are_attributes_after_import_bnx():
    """``import bnx`` then ``bnx.compilation`` or ``bnx.explanation.pi`` works as when the
    package imported them eagerly; ``bnx.changes.robustness`` stays the function."""
    code = ("import bnx, inspect; print(bnx.compilation.general_order.__name__, "
            "bnx.explanation.pi.pi_explanations.__name__, "
            "inspect.isfunction(bnx.changes.robustness), hasattr(bnx, 'no_such_name'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["general_order", "pi_explanations", "True", "False"], \
        out.stderr
