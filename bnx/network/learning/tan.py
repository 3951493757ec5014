"""Learning a tree-augmented naive Bayes (TAN) classifier from data."""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:  # pgmpy is imported when it is used: `import bnx` stays quick
    from pgmpy.models import DiscreteBayesianNetwork

from ...errors import DataError
from ..readers import FEATURES_KEY
from .data import _check_columns, _read_data, _state_names
from .naive_bayes import _check_equivalent_sample_size, _check_prior, _fit

__all__ = ["learn_tan"]


def learn_tan(
    data: pd.DataFrame | str | os.PathLike[str],
    class_var: Hashable,
    *,
    root: Hashable | None = None,
    features: Iterable[Hashable] | None = None,
    prior: str | None = "K2",
    equivalent_sample_size: float | None = None,
) -> DiscreteBayesianNetwork:
    """Learn a tree-augmented naive Bayes (TAN) classifier.

    The class is the parent of every feature, and the features form a tree: the
    maximum spanning tree of the conditional mutual information
    ``I(F; G | class)`` between every two features (Friedman, Geiger and
    Goldszmidt, 1997), found by pgmpy's :class:`pgmpy.estimators.TreeSearch`
    (``estimator_type="tan"``) and directed away from `root`. The tables are then
    fitted exactly as by :func:`learn_naive_bayes`.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        The training data, as for :func:`learn_naive_bayes` (missing values are
        ``NaN``; a path is read as a CSV file).
    class_var : hashable
        The column of the class variable.
    root : hashable, optional
        The feature at the root of the feature tree (it has the class as its only
        parent). Default: the first feature.
    features : iterable of hashable, optional
        The feature columns. By default every column except `class_var`.
    prior : {'K2', 'BDeu', 'MLE', None}, default 'K2'
        How the tables are estimated, as for :func:`learn_naive_bayes`.
    equivalent_sample_size : float, optional
        The equivalent sample size of the BDeu prior, as for
        :func:`learn_naive_bayes`.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The fitted network: ``class_var`` then the features as nodes, an edge
        from the class to every feature and a tree of edges between the
        features. Its features are inner nodes, so the network records them
        (``model.graph["bnx.features"] = (class_var, features)``): ``bnx.Classifier(model,
        class_var, positive)`` takes every feature without ``features=``.

    Raises
    ------
    bnx.errors.DataError
        As :func:`learn_naive_bayes` does, and if `root` is not one of the
        features.

    See Also
    --------
    bnx.learn_naive_bayes : A naive Bayes from the same data.
    bnx.compilation.tan_order : The order a TAN is compiled in.

    Notes
    -----
    Missing values. The weight of two features ``F`` and ``G`` is
    ``sum_c P(c) I(F; G | class = c)`` where ``P(c)`` is counted over the rows
    whose class is present and each mutual information over the rows where the
    class, ``F`` and ``G`` are all present (pairwise deletion); pgmpy's own
    weights refuse missing values. The tables skip missing values as pgmpy does:
    the table of a feature is counted over the rows where it, the class and its
    feature parent are present.

    Examples
    --------
    >>> from bnx.tabular.datasets import load_votes
    >>> from bnx.network.learning import learn_tan
    >>> model = learn_tan(load_votes(), "party", root="crime")
    >>> len(model.get_children("party")), len(model.edges())
    (16, 31)
    >>> sorted(model.get_parents("religious-groups-in-schools"))
    ['crime', 'party']
    >>> import bnx
    >>> len(bnx.Classifier(model, "party", "republican").features)  # not only the leaves
    16
    """
    prior_name = _check_prior(prior)
    ess = _check_equivalent_sample_size(equivalent_sample_size, prior_name)
    frame = _read_data(data)
    columns = _check_columns(frame, class_var, features)
    frame = frame.loc[:, columns]
    state_names = {column: _state_names(frame[column], column) for column in columns}
    feats = columns[1:]
    if root is None:
        root = feats[0]
    elif root not in feats:
        raise DataError(f"root {root!r} is not one of the features {feats!r}")

    from pgmpy.models import DiscreteBayesianNetwork

    edges = _tan_tree(frame, class_var, feats, root)
    model = DiscreteBayesianNetwork()
    model.add_nodes_from(columns)
    model.add_edges_from([(class_var, f) for f in feats] + edges)
    model = _fit(model, frame, state_names, prior_name, ess)
    model.graph[FEATURES_KEY] = (class_var, tuple(feats))
    return model


def _tan_tree(frame: pd.DataFrame, class_var: Hashable, features: list, root: Hashable
             ) -> list[tuple[Hashable, Hashable]]:
    """Find the feature-tree edges of a TAN, directed away from `root` (pgmpy's TreeSearch).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"C": list("aabb"), "F": list("xyxy"), "G": list("xyxy"),
    ...                       "H": list("xxyx")})
    >>> _tan_tree(frame, "C", ["F", "G", "H"], "F")
    [('F', 'G'), ('F', 'H')]
    """
    import logging

    TreeSearch = _tree_search()

    if len(features) == 1:
        return []
    pgmpy_logger = logging.getLogger("pgmpy")
    level = pgmpy_logger.level
    pgmpy_logger.setLevel(logging.ERROR)  # TreeSearch logs the state names it infers
    try:
        dag = TreeSearch(frame.loc[:, [class_var, *features]], root_node=root, n_jobs=1).estimate(
            estimator_type="tan", class_node=class_var, edge_weights_fn=_mutual_information,
            show_progress=False)
    finally:
        pgmpy_logger.setLevel(level)
    return sorted((u, v) for u, v in dag.edges() if u != class_var)


def _tree_search():
    """Import pgmpy's ``TreeSearch`` without pgmpy's own deprecation warning.

    pgmpy 1.1 has ``TreeSearch`` only in ``pgmpy.estimators``, whose ``__init__`` imports
    its deprecated ``StructureScore`` module and warns (a ``FutureWarning`` naming
    ``pgmpy.structure_score``) although bnx uses no structure score. That one warning is
    filtered here, where bnx triggers it, and nowhere else.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning,
                                message=r"`pgmpy\.estimators\.StructureScore` is deprecated")
        from pgmpy.estimators import TreeSearch
    return TreeSearch


def _mutual_information(u: pd.Series, v: pd.Series) -> float:
    """Mutual information (nats) of two columns over the rows where both are present."""
    import numpy as np

    present = u.notna().to_numpy() & v.notna().to_numpy()
    if not present.any():
        return 0.0
    a, a_states = pd.factorize(u.to_numpy()[present])
    b, b_states = pd.factorize(v.to_numpy()[present])
    cells = len(a_states) * len(b_states)
    counts = np.bincount(a * len(b_states) + b, minlength=cells).reshape(len(a_states), -1)
    p = counts / counts.sum()
    outer = p.sum(axis=1, keepdims=True) @ p.sum(axis=0, keepdims=True)
    nonzero = p > 0
    return float((p[nonzero] * np.log(p[nonzero] / outer[nonzero])).sum())
