"""Reports on pgmpy's bundled networks do not depend on the world where the network allows
every completion: the default (the instances the network allows) answers as the total
decision function (``within="all"``) does, on the compiled diagram and by the search without
compiling; where it gives some instances probability zero, no counterfactual of the report
is one of them.

Two networks whose files read in about a second each (child and win95pts: zero entries
under their features, yet every instance of these features possible), a class and leaves as
features, instances drawn from the network. ``bench/world.py`` runs pgmpy's other networks.
"""

from __future__ import annotations

import pathlib

import pytest

import bnx
from bnx.classifier._possible import may_be_impossible

#: (network, class, the features: its first leaves)
NETWORKS = [("child", "Disease", 6), ("win95pts", "Problem1", 8)]


def _without_world(report) -> dict:
    got = report.to_dict()
    got.pop("world", None)
    return got


@pytest.mark.slow
@pytest.mark.parametrize("name, class_var, k", NETWORKS)
def test_reports_do_not_depend_on_the_world_where_everything_is_possible(name, class_var, k):
    import pgmpy
    from pgmpy.sampling import BayesianModelSampling
    net = bnx.read_network(pathlib.Path(pgmpy.__file__).parent / "utils" / "example_models"
                           / f"{name}.bif.gz")
    leaves = [n for n in net.nodes() if n != class_var and not list(net.successors(n))][:k]
    clf = bnx.Classifier(net, class_var, features=leaves)
    odd = bnx.compile(clf, backend="autoref")
    kappa = bnx.support(clf, odd=odd)
    everything = kappa.count == odd.total()
    assert everything or may_be_impossible(clf)  # no zero entry: every instance possible
    rows = BayesianModelSampling(net).forward_sample(size=3, seed=0, show_progress=False)
    for _, row in rows.iterrows():
        x = {f: row[f] for f in leaves}
        for model in (odd, clf):
            got, total = bnx.explain(model, x), bnx.explain(model, x, within="all")
            assert got.decision == total.decision
            if everything:
                assert _without_world(got) == _without_world(total)
            for change in got.counterfactuals:  # possible instances only
                assert {**x, **{f: new for f, (_, new) in change.items()}} in kappa
