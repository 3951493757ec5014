"""Classifiers from fitted scikit-learn naive Bayes estimators.

:meth:`bnx.Classifier.from_sklearn` turns a fitted ``CategoricalNB`` or
``BernoulliNB`` into a naive Bayes :class:`~bnx.Classifier` whose decisions are the
estimator's: ``clf.decide(x) == (estimator.predict([x])[0] == positive)`` on every
instance. This module (below the classifier) reads the estimator into the parts of that
classifier, :func:`sklearn_parts`; the classifier assembles them.

The network has the class node ``y`` (states ``estimator.classes_``) and one
feature per column, named ``x0, x1, ...`` (scikit-learn's own default names), or
``estimator.feature_names_in_`` when the estimator was fitted on a DataFrame, or
``feature_names``. Its tables are the estimator's probabilities,
``exp(class_log_prior_)`` and ``exp(feature_log_prob_)``, taken exactly as floats.

- ``CategoricalNB``: feature ``i`` has the states ``0 .. n_categories_[i] - 1``,
  the category integers the estimator was fitted on.
- ``BernoulliNB``: every feature has the states ``0`` and ``1``. The estimator
  binarises its input with ``x > binarize`` (``binarize=0.0`` by default; ``None``
  when the input is already binary), so an instance for bnx holds the binarised
  values: ``1`` where the raw value exceeds ``binarize``.

scikit-learn predicts the class of largest joint likelihood (``numpy.argmax``: ties
go to the first class of ``classes_``); the classifier decides by the same rule,
``rule="argmax"``, exactly on the probabilities, with any number of classes. An
instance of probability zero (possible only with ``alpha=0``) has every joint zero, so
the first class wins, as in ``numpy.argmax``. Where scikit-learn's summed
log-probabilities of two classes are equal up to floating point rounding (exact ties in
the probabilities), its own answer depends on that rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ArgumentError

__all__ = ["sklearn_parts"]

CLASS_NODE = "y"


def _python(value: Any) -> Any:
    """Convert a numpy scalar to the Python scalar it holds (state names must save as JSON)."""
    return value.item() if hasattr(value, "item") and type(value).__module__ == "numpy" \
        else value


def sklearn_parts(estimator: Any, positive: Any = None, *,
                  feature_names: Sequence | None = None) -> tuple:
    """Return the parts of a classifier that decides as a fitted ``CategoricalNB``/``BernoulliNB``.

    ``(network, class node, positive class, features)``, decided by ``rule="argmax"``
    (:meth:`bnx.Classifier.from_sklearn` makes the classifier).

    The arguments and errors are those of :meth:`bnx.Classifier.from_sklearn`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.naive_bayes import CategoricalNB
    >>> import bnx
    >>> X = np.array([[0, 1], [1, 2], [1, 0], [0, 2], [1, 1]])
    >>> nb = CategoricalNB().fit(X, ["no", "yes", "yes", "no", "yes"])
    >>> clf = bnx.Classifier.from_sklearn(nb)
    >>> clf.features, clf.positive, clf.states("x1")
    (('x0', 'x1'), 'yes', (0, 1, 2))
    >>> all(clf.decide({"x0": a, "x1": b}) == (nb.predict([[a, b]])[0] == "yes")
    ...     for a in range(2) for b in range(3))
    True
    """
    import numpy as np
    kind = type(estimator).__name__
    if kind not in ("CategoricalNB", "BernoulliNB") or \
            not type(estimator).__module__.startswith("sklearn"):
        raise ArgumentError(f"from_sklearn takes a fitted sklearn CategoricalNB or "
                            f"BernoulliNB, got {kind}")
    if not hasattr(estimator, "classes_"):
        raise ArgumentError(f"the {kind} is not fitted: call its fit() first")
    classes = [_python(c) for c in estimator.classes_]
    if positive is None:
        if len(classes) != 2:
            raise ArgumentError(f"the estimator has {len(classes)} classes "
                                f"({', '.join(map(repr, classes))}): say which is positive")
        positive = classes[1]
    hits = [k for k, c in enumerate(classes) if c == positive or str(c) == str(positive)]
    if len(hits) != 1:
        raise ArgumentError(f"positive={positive!r} is not one of the estimator's classes "
                            f"({', '.join(map(repr, classes))})")
    pos = hits[0]
    n = int(estimator.n_features_in_)
    names = _names(estimator, feature_names, n)
    prior = np.exp(estimator.class_log_prior_)
    if kind == "CategoricalNB":
        tables = [np.exp(t).T for t in estimator.feature_log_prob_]  # (states, classes)
    else:
        p1 = np.exp(estimator.feature_log_prob_)                       # (classes, features)
        tables = [np.vstack([1 - p1[:, i], p1[:, i]]) for i in range(n)]
    return _parts(names, classes, pos, prior, tables)


def _names(estimator: Any, feature_names: Sequence | None, n: int) -> list:
    if feature_names is None:
        given = getattr(estimator, "feature_names_in_", None)
        return [str(f) for f in given] if given is not None else [f"x{i}" for i in range(n)]
    if isinstance(feature_names, (str, bytes)):
        raise ArgumentError(f"feature_names must be a sequence of names, got {feature_names!r}")
    names = list(feature_names)
    if len(names) != n or len(set(names)) != n:
        raise ArgumentError(f"feature_names must hold {n} distinct names, got {names!r}")
    if CLASS_NODE in names:
        raise ArgumentError(f"{CLASS_NODE!r} names the class node; choose other feature names")
    return names


def _parts(names: list, classes: list, pos: int, prior, tables: list) -> tuple:
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    net = DiscreteBayesianNetwork([(CLASS_NODE, f) for f in names])
    cpds = [TabularCPD(CLASS_NODE, len(classes), prior.reshape(-1, 1),
                       state_names={CLASS_NODE: classes})]
    for f, t in zip(names, tables):
        cpds.append(TabularCPD(f, t.shape[0], t, evidence=[CLASS_NODE],
                               evidence_card=[len(classes)],
                               state_names={f: list(range(t.shape[0])), CLASS_NODE: classes}))
    net.add_cpds(*cpds)
    return net, CLASS_NODE, classes[pos], names
