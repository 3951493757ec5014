"""Two checkouts of bnx timed by the same bench script, interleaved so that the load of a
shared machine hits both: ``python bench/side_by_side.py BEFORE AFTER SCRIPT [ARGS...]``.

``BEFORE`` and ``AFTER`` are the roots of two checkouts (e.g. ``../main`` and ``.``);
``SCRIPT`` is a script of ``bench/`` (run from each checkout's own ``bench/``, with that
checkout first on ``PYTHONPATH``), run ``--repeat`` times in each, alternately. Each run's
output is printed under its checkout's name, with the load average before it.

    python bench/side_by_side.py ../main . report.py --no-large --rounds 5
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("script")
    ap.add_argument("--repeat", type=int, default=1)
    args, rest = ap.parse_known_args(argv)
    for k in range(args.repeat):
        for name, root in (("before", args.before), ("after", args.after)):
            root = os.path.abspath(root)
            env = {**os.environ, "PYTHONPATH": root}
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"== {name} ({root}), run {k + 1}, load average {load}", flush=True)
            subprocess.run([sys.executable, os.path.join(root, "bench", args.script), *rest],
                           cwd=root, env=env, check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
