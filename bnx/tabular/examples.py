"""Example classifiers and network files shipped with bnx (no network access or ``../shared``).

Two network files are shipped in ``bnx/data`` and built by the functions here with
pgmpy's own writers (:func:`write_example_networks`): ``admission.net``, the paper's
admissions classifier in Hugin NET format (states ``state0``, ``state1``), and
``asia.bif``, the textbook chest-clinic network of Lauritzen and Spiegelhalter (1988)
in BIF format. A third, ``promoters.xlc``, is a 58-feature naive Bayes classifier of
xpxlc (MIT licence, ``bnx/data/promoters.xlc.LICENSE``) for :func:`bnx.linear.read_xlc`.
:func:`network_path` returns their paths.
"""

from __future__ import annotations

import os
import pathlib
from importlib.resources import files

from ..classifier._classifier import Classifier
from ..errors import ArgumentError

__all__ = ["admissions", "admissions_network", "ADMISSIONS_RATES", "asia", "asia_network",
           "ASIA_FEATURES", "NETWORKS", "XLC_FILES", "network_path", "write_example_networks"]

#: The network files shipped in ``bnx/data`` (see :func:`network_path`).
NETWORKS = ("admission.net", "asia.bif")

#: The naive Bayes classifiers in xpxlc's XLC format shipped in ``bnx/data``, read by
#: :func:`bnx.linear.read_xlc`: ``promoters.xlc`` (58 features, one with 106 values), the
#: file ``bench/xlc/promoters/promoters.txt`` of xpxlc (Marques-Silva et al., NeurIPS 2020)
#: copied unchanged under its MIT licence (``bnx/data/promoters.xlc.LICENSE``).
XLC_FILES = ("promoters.xlc",)

#: The features of :func:`asia`: two roots and two leaves of the asia network.
ASIA_FEATURES = ("asia", "smoke", "xray", "dysp")

#: False-positive and false-negative rates of the paper's admissions classifier
#: (Shih, Choi and Darwiche 2018, Section 3): ``fp = Pr(+ | not admitted)``,
#: ``fn = Pr(- | admitted)``.
ADMISSIONS_RATES = {
    "WorkExperience": (0.10, 0.04),
    "FirstTimeApplicant": (0.20, 0.30),
    "EntranceExam": (0.15, 0.60),
    "GPA": (0.11, 0.03),
}


def admissions_network(states: tuple[str, str] = ("-", "+")):
    """The paper's admissions naive Bayes as a pgmpy network.

    Class ``Admit`` with prior ``Pr(Admit=+) = 0.3``; features ``WorkExperience``,
    ``FirstTimeApplicant``, ``EntranceExam`` and ``GPA``; every variable has the
    states ``states`` = (negative, positive), by default ``"-"`` and ``"+"`` (in that
    order, so the positive state is the on state).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    net = DiscreteBayesianNetwork([("Admit", f) for f in ADMISSIONS_RATES])
    states = list(states)
    cpds = [TabularCPD("Admit", 2, [[0.7], [0.3]], state_names={"Admit": states})]
    for f, (fp, fn) in ADMISSIONS_RATES.items():
        # columns: Admit = -, Admit = +; rows: f = -, f = +
        cpds.append(TabularCPD(f, 2, [[1 - fp, fn], [fp, 1 - fn]], evidence=["Admit"],
                               evidence_card=[2], state_names={f: states, "Admit": states}))
    net.add_cpds(*cpds)
    net.check_model()
    return net


def admissions(threshold: float = 0.5) -> Classifier:
    """The paper's admissions classifier (Tables 1 and 2), positive state ``"+"``.

    Returns
    -------
    Classifier

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.admissions()
    >>> clf.decide({"WorkExperience": "+", "FirstTimeApplicant": "-",
    ...             "EntranceExam": "-", "GPA": "+"})
    True
    """
    return Classifier(admissions_network(), "Admit", "+", threshold=threshold,
                      features=list(ADMISSIONS_RATES))


def asia_network():
    """The chest-clinic ("asia") network of Lauritzen and Spiegelhalter (1988).

    Eight binary nodes with the states ``"yes"`` and ``"no"`` (in that order):
    a visit to Asia (``asia``) raises the chance of tuberculosis (``tub``),
    smoking (``smoke``) of lung cancer (``lung``) and bronchitis (``bronc``);
    ``either`` is tuberculosis or cancer (a deterministic OR), which shows on an
    X-ray (``xray``) and, with bronchitis, causes shortness of breath (``dysp``).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        The network, with the textbook's tables.

    Examples
    --------
    >>> net = asia_network()
    >>> sorted(net.get_parents("dysp"))
    ['bronc', 'either']
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    yn = ["yes", "no"]
    net = DiscreteBayesianNetwork([("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"),
                                   ("tub", "either"), ("lung", "either"), ("either", "xray"),
                                   ("bronc", "dysp"), ("either", "dysp")])

    def cpd(node, yes, parents=()):
        """Table of ``node`` from Pr(node = yes | parents), last parent fastest."""
        yes = list(yes)
        return TabularCPD(node, 2, [yes, [1 - p for p in yes]], evidence=list(parents) or None,
                          evidence_card=[2] * len(parents) or None,
                          state_names={v: yn for v in (node, *parents)})

    net.add_cpds(cpd("asia", [0.01]), cpd("smoke", [0.5]),
                 cpd("tub", [0.05, 0.01], ["asia"]), cpd("lung", [0.1, 0.01], ["smoke"]),
                 cpd("bronc", [0.6, 0.3], ["smoke"]),
                 cpd("either", [1.0, 1.0, 1.0, 0.0], ["lung", "tub"]),
                 cpd("xray", [0.98, 0.05], ["either"]),
                 cpd("dysp", [0.9, 0.8, 0.7, 0.1], ["bronc", "either"]))
    net.check_model()
    return net


def asia(positive: str = "yes", *, rule: str = "threshold", threshold: float = 0.5,
         features=ASIA_FEATURES) -> Classifier:
    """A general-network classifier: lung cancer in the asia network.

    The class ``lung`` has a parent (``smoke``) and children; the features
    :data:`ASIA_FEATURES` are two roots and two leaves; ``tub``, ``bronc`` and
    ``either`` are hidden and summed out.

    Parameters
    ----------
    positive : {"yes", "no"}
        The positive state of ``lung``.
    rule : {"threshold", "argmax"}
        The decision rule; ``threshold`` is used only by ``"threshold"``.
    threshold : float
        Decide positive iff ``Pr(lung = positive | x) >= threshold``.
    features : sequence of str
        The observed nodes.

    Returns
    -------
    Classifier

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.asia(threshold=0.2)
    >>> x = {"asia": "no", "smoke": "yes", "xray": "yes", "dysp": "yes"}
    >>> round(clf.posterior(x), 4), clf.decide(x)
    (0.7255, True)
    """
    if rule == "argmax":
        return Classifier(asia_network(), "lung", positive, features=list(features),
                          rule="argmax")
    return Classifier(asia_network(), "lung", positive, threshold=threshold,
                      features=list(features), rule=rule)


def network_path(name: str) -> pathlib.Path:
    """The path of a network or classifier file shipped with bnx.

    Parameters
    ----------
    name : str
        One of :data:`NETWORKS` or :data:`XLC_FILES`.

    Returns
    -------
    pathlib.Path
        The file inside the installed package.

    Raises
    ------
    ArgumentError
        `name` is not a shipped network.

    Examples
    --------
    >>> import bnx
    >>> path = bnx.examples.network_path("admission.net")
    >>> clf = bnx.Classifier.from_file(path, "Admit", "state1")
    >>> sorted(clf.features)
    ['EntranceExam', 'FirstTimeApplicant', 'GPA', 'WorkExperience']
    >>> len(bnx.linear.read_xlc(bnx.examples.network_path("promoters.xlc")).features)
    58
    """
    if name not in NETWORKS + XLC_FILES:
        raise ArgumentError(f"no shipped network {name!r}; bnx ships "
                            f"{', '.join(NETWORKS + XLC_FILES)}")
    return pathlib.Path(str(files("bnx") / "data" / name))


def write_example_networks(directory: str | os.PathLike) -> list[pathlib.Path]:
    """Write the shipped network files (:data:`NETWORKS`) with pgmpy's writers.

    This is how ``bnx/data/admission.net`` and ``bnx/data/asia.bif`` were made;
    the test suite checks that the shipped files hold these networks.

    Parameters
    ----------
    directory : str or os.PathLike
        An existing directory.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    from pgmpy.readwrite import BIFWriter, NETWriter

    directory = pathlib.Path(directory)
    admission = directory / "admission.net"
    NETWriter(admissions_network(("state0", "state1"))).write_net(str(admission))
    asia_file = directory / "asia.bif"
    BIFWriter(asia_network()).write_bif(str(asia_file))
    return [admission, asia_file]
