"""Draw the home page's picture, ``docs/_static/quickstart.png``.

The exact SHAP values of the quick start's decision (bnx's own attribution chart, classes
named, with its legend).

Run from the repository's root: ``python docs/_scripts/quickstart_figure.py``.
"""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")

import bnx

OUT = pathlib.Path(__file__).resolve().parent.parent / "_static" / "quickstart.png"


def main() -> pathlib.Path:
    """Draw the picture and return its path."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    x = {"WorkExperience": "+", "FirstTimeApplicant": "-", "EntranceExam": "-", "GPA": "+"}
    ax = bnx.shap_values(odd, x, {}).plot(kind="waterfall")
    fig = ax.figure
    fig.set_size_inches(7.5, 3.2)
    fig.tight_layout()
    fig.savefig(OUT, dpi=110, metadata={"Software": None})
    return OUT


if __name__ == "__main__":
    print(main().relative_to(pathlib.Path.cwd()))
