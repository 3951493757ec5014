"""Pictures with matplotlib, no Graphviz: diagrams, explanation sets, data-set summaries.

- :func:`plot_odd` (``odd.plot()``) and :func:`plot_explanations`
  (``Explanations.plot()``): the decision diagram, and an explanation set as a grid;
  they live in :mod:`bnx.diagram.drawing`, below the ODD, and are re-exported here
  with :func:`odd_graph` (the diagram's nodes and edges, as :func:`plot_odd` draws them).
- :func:`pi_feature_share` and :func:`plot_feature_share`: how often each feature
  appears in the PI-explanations of the rows of a data set.

matplotlib is imported inside the functions (``import bnx`` stays light).
"""

from __future__ import annotations

from typing import Any

from ..diagram.drawing import _axes, odd_graph, plot_explanations, plot_odd

__all__ = ["odd_graph", "plot_odd", "plot_explanations", "pi_feature_share",
           "plot_feature_share"]


def pi_feature_share(odd: Any, data: Any):
    """For each feature, the share of the PI-explanations that keep it, averaged over rows.

    Row by row: the number of the row's PI-explanations that keep the feature,
    divided by the number of its PI-explanations (counted on the diagram, exactly);
    then the mean over the rows of ``data``. A row with missing values is explained
    over its observed features (see :mod:`bnx.tabular._engine`): its missing features
    count as never kept.

    Returns a pandas Series indexed by feature, in the classifier's order.

    Returns
    -------
    pandas.Series

    Examples
    --------
    >>> import bnx
    >>> odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    >>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
    >>> pi_feature_share(odd, [x]).round(3).to_dict()
    {'WorkExperience': 0.667, 'FirstTimeApplicant': 0.667, 'EntranceExam': 0.667, 'GPA': 0.667}
    """
    import copy

    import numpy as np
    import pandas as pd

    from ..diagram.walks import count_members
    from ..explanation.explanations import DROPPED
    from ..explanation.pi import pi_explanations
    from ._engine import marginal_odd
    from .batch import encode_rows
    codes = encode_rows(odd, data)
    total = dict.fromkeys(odd.features, 0.0)
    unique, counts = np.unique(codes, axis=0, return_counts=True)
    for row, weight in zip(unique.tolist(), counts.tolist()):
        x = {odd.features[i]: odd.encoding.states[i][j] for i, j in enumerate(row) if j >= 0}
        m = marginal_odd(odd, list(x))
        if m is None:
            continue
        pis = pi_explanations(m, x)
        n = pis.count
        g, u = pis.nodes
        for i, f in enumerate(m.features):
            kept = copy.copy(pis.layout)  # feature i may only be kept
            kept.choices = list(kept.choices)
            kept.choices[i] = [c for c in kept.choices[i] if c[0] is not DROPPED]
            total[f] += weight * count_members(g, u, 0, kept, {}) / n
    order = odd.display_order
    return pd.Series([total[f] / len(codes) for f in order], index=list(order),
                     name="PI share")


def plot_feature_share(odd: Any, data: Any, ax: Any = None) -> Any:
    """Bar chart of :func:`pi_feature_share` over ``data``; returns the axes.

    Returns
    -------
    object
    """
    share = pi_feature_share(odd, data)
    ax = _axes(ax, (7, 0.8 + 0.3 * len(share)))
    ax.barh([str(f) for f in share.index][::-1], share.to_numpy()[::-1], color="tab:blue")
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the PI-explanations that keep the feature (mean over rows)")
    ax.set_title(f"Features in the PI-explanations of {len(data):,} rows")
    return ax
