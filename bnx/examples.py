"""Example classifiers shipped with bnx (no network access or ``../shared`` needed)."""

from __future__ import annotations

from .classifier import Classifier

__all__ = ["admissions", "admissions_network", "ADMISSIONS_RATES"]

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
