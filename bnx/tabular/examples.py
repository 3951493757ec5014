"""Example classifiers and network files shipped with bnx (no network access or ``../shared``).

Three network files are shipped in ``bnx/data`` and built by the functions here with
pgmpy's own writers (:func:`write_example_networks`): ``admission.net``, the paper's
admissions classifier in Hugin NET format (states ``state0``, ``state1``),
``asia.bif``, the textbook chest-clinic network of Lauritzen and Spiegelhalter (1988)
in BIF format, and ``illness.bif``, a small made-up network whose class has three states
(:func:`illness`, a multi-class classifier). A fourth, ``promoters.xlc``, is a 58-feature
naive Bayes classifier of xpxlc (MIT licence, ``bnx/data/promoters.xlc.LICENSE``) for
:func:`bnx.linear.read_xlc`. :func:`network_path` returns their paths.
"""

from __future__ import annotations

import os
import pathlib
from importlib.resources import files

from ..classifier._classifier import Classifier
from ..errors import ArgumentError

__all__ = ["admissions", "admissions_network", "ADMISSIONS_RATES", "asia", "asia_network",
           "ASIA_FEATURES", "illness", "illness_network", "NETWORKS", "XLC_FILES", "network_path",
           "write_example_networks"]

#: The network files shipped in ``bnx/data`` (see :func:`network_path`).
NETWORKS = ("admission.net", "asia.bif", "illness.bif")

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
    """Return the paper's admissions naive Bayes as a pgmpy network.

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
    """Return the paper's admissions classifier (Tables 1 and 2), positive state ``"+"``.

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
    """Return the chest-clinic ("asia") network of Lauritzen and Spiegelhalter (1988).

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
    """Return a general-network classifier: lung cancer in the asia network.

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


def illness_network():
    """Return a small made-up network whose class has three states.

    Which of a cold, the flu or an allergy (``Illness``) explains a patient's symptoms.

    ``Season`` (``winter``, ``spring``, ``summer``) is the class's parent; ``Fever``,
    ``Sneezing`` and ``Aches`` (``yes``/``no``) its children. The numbers are invented
    for the examples, not taken from any study.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork

    Examples
    --------
    >>> net = illness_network()
    >>> net.get_cpds("Illness").state_names["Illness"]
    ['cold', 'flu', 'allergy']
    """
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    seasons, illnesses, yn = ["winter", "spring", "summer"], ["cold", "flu", "allergy"], \
        ["yes", "no"]
    net = DiscreteBayesianNetwork([("Season", "Illness"), ("Illness", "Fever"),
                                   ("Illness", "Sneezing"), ("Illness", "Aches")])
    cpds = [TabularCPD("Season", 3, [[0.4], [0.3], [0.3]], state_names={"Season": seasons}),
            # columns: Season = winter, spring, summer; rows: cold, flu, allergy
            TabularCPD("Illness", 3, [[0.5, 0.3, 0.4], [0.4, 0.1, 0.1], [0.1, 0.6, 0.5]],
                       evidence=["Season"], evidence_card=[3],
                       state_names={"Illness": illnesses, "Season": seasons})]
    for symptom, yes in (("Fever", (0.1, 0.9, 0.01)), ("Sneezing", (0.8, 0.3, 0.9)),
                         ("Aches", (0.2, 0.85, 0.05))):
        # columns: Illness = cold, flu, allergy; rows: yes, no
        cpds.append(TabularCPD(symptom, 2, [list(yes), [1 - p for p in yes]],
                               evidence=["Illness"], evidence_card=[3],
                               state_names={symptom: yn, "Illness": illnesses}))
    net.add_cpds(*cpds)
    net.check_model()
    return net


def illness() -> Classifier:
    """Return a multi-class classifier: the most probable of a cold, the flu or an allergy.

    The class is ``Illness``, given the season and three symptoms (:func:`illness_network`).

    Returns
    -------
    Classifier
        No positive state: it decides the most probable class state.

    Examples
    --------
    >>> import bnx
    >>> clf = bnx.examples.illness()
    >>> x = {"Season": "winter", "Fever": "yes", "Sneezing": "no", "Aches": "yes"}
    >>> clf.classes, clf.predict(x)
    (('cold', 'flu', 'allergy'), 'flu')
    """
    return Classifier(illness_network(), "Illness",
                      features=["Season", "Fever", "Sneezing", "Aches"])


def network_path(name: str) -> pathlib.Path:
    """Return the path of a network or classifier file shipped with bnx.

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

    This is how ``bnx/data/admission.net``, ``bnx/data/asia.bif`` and
    ``bnx/data/illness.bif`` were made;
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
    NETWriter(admissions_network(("state0", "state1"))).write(str(admission))
    asia_file = directory / "asia.bif"
    BIFWriter(asia_network()).write(str(asia_file))
    illness_file = directory / "illness.bif"
    BIFWriter(illness_network()).write(str(illness_file))
    return [admission, asia_file, illness_file]
