"""Benchmark classifiers: K2 naive Bayes learned from /work/shared/data, and synthetic ones.

This is a developer benchmark, not part of the package: the real data sets are read
from ``../shared/data`` relative to the repository root (override with the
environment variable ``BNX_BENCH_DATA``). Every loader fails with a clear
:class:`BenchDataError` when its files are absent.

Real classifiers (all K2 naive Bayes, threshold 0.5):

=========  ===========================  ===================  ========  ==========
name       file(s)                      class (positive)     features  rows used
=========  ===========================  ===================  ========  ==========
votes      bnx.datasets.load_votes()    party (republican)   16        435
spect      SPECT.train + SPECT.test     OVERALL_DIAGNOSIS (1) 22       80 + 187
nltcs      nltcs.train.data             column 1 (1)         15        16181
msnbc      msnbc.valid.data (no train)  column 1 (1)         16        38843
=========  ===========================  ===================  ========  ==========

Synthetic classifiers (seeded numpy RNG, binary class and features):

* ``nb{n}``: naive Bayes with ``n`` features, Pr(C=1) ~ Beta(2, 2) and every
  Pr(F=1 | c) ~ Beta(1, 1) independently.
* ``lt{n}``: latent tree, class root -> 4 binary latent nodes -> ``n/4`` features
  each; every CPT row ~ Dirichlet(1, 1).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import _util  # noqa: F401  (puts the repository root on sys.path, for bnx, whatever the import order)
import numpy as np
import pandas as pd

import bnx
from bnx.tabular.datasets import load_votes

try:  # re-exported later, maybe
    from bnx import learn_naive_bayes  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the package's state
    from bnx.network.learning import learn_naive_bayes

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("BNX_BENCH_DATA", REPO.parent / "shared" / "data"))

#: Seed of every random draw in the benchmark.
SEED = 20180713


class BenchDataError(RuntimeError):
    """A data file of the benchmark is missing."""


@dataclass
class Bench:
    """A benchmark classifier and (for real data) the data it was learned from."""

    name: str
    clf: bnx.Classifier
    data: pd.DataFrame | None  # class column + feature columns, feature states as strings
    note: str = ""

    @property
    def n(self) -> int:
        return len(self.clf.features)


def _path(*parts: str) -> Path:
    p = DATA.joinpath(*parts)
    if not p.is_file():
        raise BenchDataError(
            f"benchmark data file {p} is missing: the benchmark reads the data sets from "
            f"{DATA} (the shared data directory next to the repository, see "
            f"/work/shared/data/SOURCES.md); set BNX_BENCH_DATA to another directory")
    return p


def _read_binary_csv(paths: list[Path], names: list[str]) -> pd.DataFrame:
    frames = []
    for p in paths:
        # Python's universal newlines handle CRLF and a missing final newline
        frames.append(pd.read_csv(p, header=None, names=names, dtype=str,
                                  keep_default_na=False, skipinitialspace=True))
    frame = pd.concat(frames, ignore_index=True)
    bad = ~frame.isin(["0", "1"]).all(axis=1)
    if bad.any():
        raise BenchDataError(f"{paths}: row {int(bad.idxmax())} has a value other than 0/1")
    return frame


def _nb(name: str, frame: pd.DataFrame, class_var: str, positive: str, note: str = "") -> Bench:
    net = learn_naive_bayes(frame, class_var, prior="K2")
    clf = bnx.Classifier(net, class_var, positive, threshold=0.5,
                         features=[c for c in frame.columns if c != class_var])
    return Bench(name, clf, frame, note)


def votes() -> Bench:
    frame = load_votes()
    return _nb("votes", frame, "party", "republican")


def spect_frame() -> pd.DataFrame:
    """SPECT.train + SPECT.test, 267 rows; class ``OVERALL_DIAGNOSIS``, features F1..F22."""
    names = ["OVERALL_DIAGNOSIS", *(f"F{i}" for i in range(1, 23))]
    frame = _read_binary_csv([_path("spect", "SPECT.train"), _path("spect", "SPECT.test")], names)
    if len(frame) != 267:
        raise BenchDataError(f"SPECT.train + SPECT.test should hold 267 rows, read {len(frame)}")
    return frame


def nltcs_frame() -> pd.DataFrame:
    """nltcs.train.data, 16,181 rows; class ``C`` (the first column), features X1..X15."""
    names = ["C", *(f"X{i}" for i in range(1, 16))]
    return _read_binary_csv([_path("nltcs", "nltcs.train.data")], names)


#: Data sets learned from: name -> (loader, class column, positive state).
FRAMES = {
    "votes": (load_votes, "party", "republican"),
    "spect": (spect_frame, "OVERALL_DIAGNOSIS", "1"),
    "nltcs": (nltcs_frame, "C", "1"),
}


def spect() -> Bench:
    return _nb("spect", spect_frame(), "OVERALL_DIAGNOSIS", "1")


def nltcs() -> Bench:
    return _nb("nltcs", nltcs_frame(), "C", "1", "class = first column")


def msnbc() -> Bench:
    names = ["C", *(f"X{i}" for i in range(1, 17))]
    frame = _read_binary_csv([_path("msnbc", "msnbc.valid.data")], names)
    return _nb("msnbc", frame, "C", "1",
               "learned from msnbc.valid.data: msnbc.train.data is not available")


# ---------------------------------------------------------------------- synthetic
def _cpd(var, values, evidence=None):
    from pgmpy.factors.discrete import TabularCPD
    values = np.asarray(values, dtype=float)
    states = {var: ["0", "1"]}
    if evidence is None:
        return TabularCPD(var, 2, values.reshape(2, 1), state_names=states)
    states[evidence] = ["0", "1"]
    return TabularCPD(var, 2, values, evidence=[evidence], evidence_card=[2],
                      state_names=states)


def synthetic_nb(n: int, seed: int = SEED) -> Bench:
    """Naive Bayes, ``n`` binary features, random CPTs (seeded)."""
    from pgmpy.models import DiscreteBayesianNetwork
    rng = np.random.default_rng([seed, n, 1])
    feats = [f"F{i}" for i in range(1, n + 1)]
    net = DiscreteBayesianNetwork([("C", f) for f in feats])
    p = rng.beta(2, 2)
    cpds = [_cpd("C", [1 - p, p])]
    for f in feats:
        q = rng.beta(1, 1, size=2)  # Pr(f = 1 | C = 0), Pr(f = 1 | C = 1)
        cpds.append(_cpd(f, [[1 - q[0], 1 - q[1]], [q[0], q[1]]], "C"))
    net.add_cpds(*cpds)
    return Bench(f"nb{n}", bnx.Classifier(net, "C", "1", threshold=0.5, features=feats), None,
                 "synthetic naive Bayes")


def synthetic_lt(n: int, seed: int = SEED, latent: int = 4) -> Bench:
    """Latent tree: C -> ``latent`` binary latent nodes -> about ``n/latent`` features each."""
    from pgmpy.models import DiscreteBayesianNetwork
    sizes = [n // latent + (1 if j < n % latent else 0) for j in range(latent)]
    rng = np.random.default_rng([seed, n, 2])
    edges, feats = [], []
    hs = [f"H{j}" for j in range(1, latent + 1)]
    for j, h in enumerate(hs):
        edges.append(("C", h))
        for _ in range(sizes[j]):
            f = f"F{len(feats) + 1}"
            edges.append((h, f))
            feats.append(f)
    net = DiscreteBayesianNetwork(edges)
    p = rng.dirichlet([1, 1])
    cpds = [_cpd("C", p)]
    for parent, child in edges:
        rows = rng.dirichlet([1, 1], size=2)  # rows[parent state] = distribution of child
        cpds.append(_cpd(child, rows.T, parent))
    net.add_cpds(*cpds)
    return Bench(f"lt{n}", bnx.Classifier(net, "C", "1", threshold=0.5, features=feats), None,
                 f"synthetic latent tree, C -> {latent} latent -> "
                 f"{'/'.join(map(str, sizes))} features")


REAL: dict[str, Callable[[], Bench]] = {
    "votes": votes, "spect": spect, "nltcs": nltcs, "msnbc": msnbc,
}


def synthetic(sizes=(20, 30, 40)) -> dict[str, Callable[[], Bench]]:
    out: dict[str, Callable[[], Bench]] = {}
    for n in sizes:
        out[f"nb{n}"] = (lambda n=n: synthetic_nb(n))
    for n in sizes:
        out[f"lt{n}"] = (lambda n=n: synthetic_lt(n))
    return out


def explain_instances(bench: Bench, k: int = 50, seed: int = SEED) -> list[dict]:
    """``k`` distinct complete instances of ``bench``'s data, sampled with a seeded RNG.

    Distinct means distinct feature vectors (the class column is ignored). For votes,
    only the rows with no missing vote are eligible (232 of the 435 rows).
    """
    if bench.data is None:
        raise ValueError(f"{bench.name} has no data to sample instances from")
    feats = list(bench.clf.features)
    rows = bench.data[feats].dropna().drop_duplicates()
    if len(rows) < k:
        raise BenchDataError(f"{bench.name}: only {len(rows)} distinct complete rows, need {k}")
    rng = np.random.default_rng([seed, k])
    pick = np.sort(rng.choice(len(rows), size=k, replace=False))
    return [dict(zip(feats, r)) for r in rows.iloc[pick].itertuples(index=False, name=None)]


def explain_cases(names, k: int):
    """``(bench, instances)`` for each real data set in ``names``: its classifier and
    ``k`` instances (:func:`explain_instances`); a data set whose files are missing is
    skipped with a note on stderr."""
    for name in names:
        try:
            bench = REAL[name]()
        except BenchDataError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
            continue
        yield bench, explain_instances(bench, k)
