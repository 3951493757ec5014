"""Read xpxlc's XLC files (linear classifiers over categorical features) as naive Bayes.

An XLC file (Marques-Silva et al., NeurIPS 2020; the format is ``fmts/XLC-Format.txt``
of the xpxlc tool) gives an intercept ``w0`` and, for each categorical feature, one
weight per value; it predicts class ``0`` iff ``w0 + sum_i w_i(x_i) > 0``, else ``1``.
:func:`read_xlc` builds a naive Bayes network with that decision function: class
``"1"`` is positive at threshold 1/2, each feature's table for class ``"0"`` is
uniform and for class ``"1"`` proportional to ``exp(-w_i(v))``, and the prior absorbs
the intercept and the normalising constants. The network's CPT entries are floats,
so its (exact) decision agrees with the file's float one except on instances whose
score is within rounding error (about ``1e-12``) of zero.
"""

from __future__ import annotations

import math
import os

from ..errors import NetworkFileError

__all__ = ["read_xlc", "xlc_network"]


def _tokens(path) -> list[str]:
    try:
        with open(path) as fh:
            return fh.read().split()
    except OSError as exc:
        raise NetworkFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise NetworkFileError(f"{path}: not a text file") from None


def parse_xlc(path: str | os.PathLike) -> tuple[float, list[list[float]]]:
    """``(w0, weights)`` of an XLC file with categorical features only."""
    path = os.fspath(path)
    tok = _tokens(path)
    pos = 0

    def take(kind):
        nonlocal pos
        if pos >= len(tok):
            raise NetworkFileError(f"{path}: XLC file ends early (after {pos} numbers)")
        text = tok[pos]
        pos += 1
        try:
            value = kind(text)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise NetworkFileError(f"{path}: XLC: expected {what} "
                                   f"at item {pos}, got {text!r}") from None
        if kind is float and not math.isfinite(value):
            raise NetworkFileError(f"{path}: XLC: weight {text!r} at item {pos} is not finite")
        return value

    n = take(int)
    w0 = take(float)
    nr = take(int)
    if nr != 0:
        raise NetworkFileError(f"{path}: XLC file has {nr} real-valued features; only "
                               f"categorical features make a naive Bayes classifier")
    nc = take(int)
    if nc != n or n < 1:
        raise NetworkFileError(f"{path}: XLC header says {n} features but {nc} categorical ones")
    weights = []
    for _ in range(nc):
        d = take(int)
        if d < 1:
            raise NetworkFileError(f"{path}: XLC feature {len(weights)} has {d} values")
        weights.append([take(float) for _ in range(d)])
    if pos != len(tok):
        raise NetworkFileError(f"{path}: XLC file has {len(tok) - pos} numbers after its "
                               f"last feature")
    return w0, weights


def xlc_network(w0: float, weights: list[list[float]], *, class_var: str = "class",
                names: list[str] | None = None):
    """Make a pgmpy naive Bayes network deciding class ``"1"`` iff ``w0 + sum w <= 0``.

    Features are ``v0, v1, ...`` (xpxlc's default names) unless ``names`` is given;
    their states are ``"0", "1", ...``, the value indices of the XLC file.
    """
    import numpy as np
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    names = [f"v{i}" for i in range(len(weights))] if names is None else list(names)
    cls = ["0", "1"]
    logit = -w0  # log Pr(1)/Pr(0), before the features' normalising constants
    cpds = []
    for name, ws in zip(names, weights):
        u = np.array([-w for w in ws])
        top = u.max()
        e = np.exp(u - top)
        z = e.sum()
        d = len(ws)
        logit += top + math.log(z / d)  # log mean exp(u)
        col1 = e / z
        col0 = np.full(d, 1.0 / d)
        cpds.append(TabularCPD(name, d, np.column_stack([col0, col1]), evidence=[class_var],
                               evidence_card=[2],
                               state_names={name: [str(v) for v in range(d)], class_var: cls}))
    p1 = 1.0 / (1.0 + math.exp(-logit)) if logit > -700 else 0.0
    prior = TabularCPD(class_var, 2, [[1.0 - p1], [p1]], state_names={class_var: cls})
    net = DiscreteBayesianNetwork([(class_var, n) for n in names])
    net.add_cpds(prior, *cpds)
    return net


def read_xlc(path: str | os.PathLike, *, class_var: str = "class"):
    r"""Read the naive Bayes :class:`~bnx.Classifier` of an XLC file (positive class ``"1"``).

    Raises :class:`~bnx.NetworkFileError` for a missing or malformed file, or one with
    real-valued features.

    Parameters
    ----------
    path : str or os.PathLike
        The XLC file (xpxlc's text format of naive Bayes classifiers).
    class_var : str, default "class"
        The name given to the class.

    Returns
    -------
    Classifier

    See Also
    --------
    bnx.read_network : A network file (BIF, XMLBIF, NET, UAI) instead.
    bnx.linear.pi_explanations : The classifier's explanations, without compiling it.

    Examples
    --------
    >>> import bnx, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.txt")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("2\n0.5\n0\n2\n2 -1.0 1.0\n3 0.25 -2.0 0.0\n")
    >>> clf = bnx.linear.read_xlc(path)
    >>> clf.features, clf.decide({"v0": "0", "v1": "1"}), clf.decide({"v0": "1", "v1": "0"})
    (('v0', 'v1'), True, False)
    """
    from ..classifier._classifier import Classifier
    w0, weights = parse_xlc(path)
    return Classifier(xlc_network(w0, weights, class_var=class_var), class_var, "1")
