"""Two checkouts of bnx timed by the same bench script, interleaved so that the load of a
shared machine hits both: ``python bench/side_by_side.py BEFORE AFTER SCRIPT [ARGS...]``.

``BEFORE`` and ``AFTER`` are the roots of two checkouts (e.g. ``../main`` and ``.``);
``SCRIPT`` is a script of this ``bench/``, run ``--repeat`` times against each checkout's
``bnx``, alternately: the scripts are copied once into a scratch tree per checkout beside
a link to its ``bnx`` (the scripts put their tree first on ``sys.path``), so both are timed
by the same code. Each run's output is printed under its checkout's name, with the load
average before it.

    python bench/side_by_side.py ../main . report.py --no-large --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("script")
    ap.add_argument("--repeat", type=int, default=1)
    args, rest = ap.parse_known_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        trees = []
        for name, root in (("before", args.before), ("after", args.after)):
            root = Path(root).resolve()
            tree = Path(tmp) / name
            shutil.copytree(HERE, tree / "bench", ignore=shutil.ignore_patterns("__pycache__"))
            (tree / "bnx").symlink_to(root / "bnx")
            trees.append((name, root, tree))
        for k in range(args.repeat):
            for name, root, tree in trees:
                env = {**os.environ, "PYTHONPATH": str(tree)}
                load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"== {name} ({root}), run {k + 1}, load average {load}", flush=True)
                subprocess.run([sys.executable, str(tree / "bench" / args.script), *rest],
                               cwd=root, env=env, check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
