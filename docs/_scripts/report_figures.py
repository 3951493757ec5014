"""Draw the pictures of docs/report.md into ``docs/_static``.

``report.plot()`` of a complete instance (its shortest reason and closest change) and of a
partial one (how sure the decision is, what to observe next), and ``bnx.plot_network`` on
the chest-clinic network and on pgmpy's hepar2 (70 nodes, drawn as the class's
neighbourhood).

Run from the repository's root: ``python docs/_scripts/report_figures.py``.
"""

from __future__ import annotations

import gzip
import pathlib
import tempfile

import matplotlib

matplotlib.use("Agg")

import bnx

OUT = pathlib.Path(__file__).resolve().parent.parent / "_static"
X = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}


def _save(ax, name: str, dpi: int = 90) -> pathlib.Path:
    path = OUT / name
    ax.figure.savefig(path, dpi=dpi, metadata={"Software": None})
    matplotlib.pyplot.close(ax.figure)
    return path


def _hepar2():
    import pgmpy
    source = pathlib.Path(pgmpy.__file__).parent / "utils" / "example_models" / "hepar2.bif.gz"
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "hepar2.bif"
        path.write_bytes(gzip.decompress(source.read_bytes()))
        return bnx.Classifier(bnx.read_network(path), "Cirrhosis", "decompensate")


def main() -> list[pathlib.Path]:
    """Draw the pictures and return their paths."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    made = [_save(bnx.explain(odd, X).plot(), "report_plot.png"),
            _save(bnx.explain(odd, {"GPA": "+"}).plot(), "report_plot_partial.png"),
            _save(bnx.plot_network(bnx.examples.asia(), {"xray": "yes", "smoke": "yes"}),
                  "plot_network_asia.png")]
    made.append(_save(bnx.plot_network(_hepar2(), {"alcohol": "present"}),
                      "plot_network_hepar2.png", dpi=70))
    return made


if __name__ == "__main__":
    for path in main():
        print(path.relative_to(pathlib.Path.cwd()))
