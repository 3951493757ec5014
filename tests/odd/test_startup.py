"""Loading a saved ODD and explaining imports only what it uses: never pgmpy, pandas,
tqdm, matplotlib or scikit-learn; and for the MC-explanations of a small ODD loaded with
the default backend, or the PI-explanations of a small binary-class naive Bayes, neither
numpy nor dd."""

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
light = sorted(m for m in ("numpy", "dd") if m in sys.modules)
rob = bnx.robustness(odd, x)  # a question on numpy arrays: made from the lists now
print(json.dumps({"pi": pis, "neg": neg, "mc": mcs, "light": light, "rob": rob,
                  "backend": odd.backend}))
"""


def test_a_small_saved_odd_explains_without_numpy_or_dd(tmp_path):
    """A small saved naive Bayes (unate in every feature) loads and answers PI and MC
    questions in Python lists: neither numpy nor dd is imported (a one-shot process starts
    in milliseconds); a later question that needs numpy gets the same arrays."""
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


PROXY = """
import json, sys
import bnx.diagram._arrays, bnx.diagram._feature_view
before = [type(m.np).__name__ for m in (bnx.diagram._arrays, bnx.diagram._feature_view)]
a = bnx.diagram._arrays.DiagramArrays.from_lists(1, [1, 1, 0], [0, 1, 0], [0, 1, 1], 2)
n = bnx.diagram._arrays.count(a)          # lists: still no numpy
still = "numpy" in sys.modules
level = a.level.tolist()         # numpy arrays made now, numpy imported
import numpy
after = [m.np is numpy for m in (bnx.diagram._arrays, bnx.diagram._feature_view)]
print(json.dumps({"before": before, "n": n, "still": still, "level": level, "after": after}))
"""


def test_numpy_is_imported_on_first_use_and_then_bound_everywhere():
    """A module that binds ``np = numpy_on_first_use(globals())`` holds a stand-in until a
    pass first reads ``np.<name>``; then numpy itself replaces it in every such module."""
    out = subprocess.run([sys.executable, "-c", PROXY], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout) == {"before": ["_Deferred", "_Deferred"], "n": 1,
                                      "still": False, "level": [1, 1, 0],
                                      "after": [True, True]}, out.stderr


def test_submodules_are_attributes_after_import_bnx():
    """``import bnx`` then ``bnx.compilation`` or ``bnx.explanation.pi`` works as when the
    package imported them eagerly; ``bnx.explanation.robustness`` stays the function."""
    code = ("import bnx, inspect; print(bnx.compilation.general_order.__name__, "
            "bnx.explanation.pi.pi_explanations.__name__, "
            "inspect.isfunction(bnx.explanation.robustness), hasattr(bnx, 'no_such_name'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["general_order", "pi_explanations", "True", "False"], \
        out.stderr
