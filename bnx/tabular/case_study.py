"""The paper's votes case study (Sections 3.2 and 4.2), computed end to end.

Beside the paper's naive Bayes, :func:`votes_tan_classifier` learns a tree-augmented
naive Bayes (TAN) from the same data, and :func:`tan_comparison` puts the figures of
both side by side.

A naive Bayes classifier is learned from the UCI Congressional Voting Records
(:func:`bnx.datasets.load_votes`), compiled, and explained: the Congressman of
row 369 (line 370 of the data file), the MC-explanation most frequent over all positive
instances, and every PI-explanation of every decision. Every figure is computed
by bnx; :data:`PAPER` holds the paper's own figures for comparison only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..classifier._classifier import Classifier
from ..compilation import compile as _compile
from ..explanation.explanations import Explanations, positives
from ..explanation.mc import mc_explanations
from ..explanation.pi import pi_explanations, prime_implicants
from ..odd._odd import ODD

__all__ = ["PAPER", "CONGRESSMAN_ROW", "VotesStudy", "accuracy", "mc_frequency",
           "model_figures", "paper_comparison", "tan_comparison", "votes_classifier",
           "votes_study", "votes_tan_classifier"]

#: Index (0-based) in :func:`~bnx.datasets.load_votes` of the paper's example
#: Congressman, line 370 of ``house-votes-84.data``.
CONGRESSMAN_ROW = 369

#: The paper's figures for its own votes classifier (Shih, Choi and Darwiche 2018).
PAPER = {
    "accuracy": 0.910,
    "odd_size": 630,
    "positives": 32256,
    "congressman_mc_count": 5,
    "congressman_mc_cardinality": 3,
    "congressman_pi_count": 30,
    "congressman_pi_shortest_count": 2,
    "congressman_pi_shortest_length": 9,
    "all_pi_count": 506,
    "all_pi_histogram": {9: 35, 10: 308, 11: 143, 12: 19, 13: 1},
    "most_frequent_mc_yes": ("physician-fee-freeze", "el-salvador-aid", "crime"),
}


def votes_classifier(*, prior: str = "K2", threshold: float = 0.5) -> Classifier:
    """Learn the votes classifier: naive Bayes on the votes data.

    Class ``party``, positive ``republican``, K2 (add-one) parameters unless ``prior`` says
    otherwise.

    Returns
    -------
    Classifier
    """
    from ..network.learning import learn_naive_bayes
    from .datasets import load_votes
    net = learn_naive_bayes(load_votes(), "party", prior=prior)
    return Classifier(net, "party", "republican", threshold=threshold)


@dataclass
class VotesStudy:
    """Every figure of the case study, as computed by bnx."""

    classifier: Classifier
    odd: ODD
    accuracy: float
    positives: int
    total: int
    congressman: dict
    congressman_posterior: float
    congressman_decision: bool
    mc: Explanations
    pi: Explanations
    pi_positive: Explanations
    pi_negative: Explanations
    mc_frequency: Counter = field(default_factory=Counter)

    @property
    def all_pi_count(self) -> int:
        """PI-explanations of all decisions (prime implicants of f and of not f)."""
        return self.pi_positive.count + self.pi_negative.count

    @property
    def all_pi_histogram(self) -> dict[int, int]:
        """Number of PI-explanations of all decisions by length."""
        hist = Counter(self.pi_positive.lengths())
        hist.update(self.pi_negative.lengths())
        return dict(sorted(hist.items()))

    @property
    def most_frequent_mc(self) -> tuple[dict, int] | None:
        """The MC-explanation found most often over all positive instances, with its count."""
        if not self.mc_frequency:
            return None
        top, n = max(self.mc_frequency.items(), key=lambda kv: (kv[1], sorted(kv[0])))
        return dict(top), n

    def yes_votes(self, instance: dict) -> list[str]:
        """Return the features voted ``y`` in ``instance``, in data order.

        Returns
        -------
        list
        """
        return [f for f in self.classifier.features if instance.get(f) == "y"]


def votes_study(*, backend: str = "auto", all_positives: bool = True,
                progress: bool = True) -> VotesStudy:
    """Run the case study.

    Parameters
    ----------
    backend : str
        The ``dd`` backend.
    all_positives : bool
        Compute the MC-explanations of every positive instance (the paper's
        frequency count; seconds to tens of seconds). Off: skip it.
    progress : bool
        Show a tqdm progress bar for that work.

    Returns
    -------
    VotesStudy
    """
    from .datasets import load_votes
    data = load_votes()
    clf = votes_classifier()
    odd = _compile(clf, backend=backend)
    row = data.iloc[CONGRESSMAN_ROW]
    x = {f: row[f] for f in clf.features}
    study = VotesStudy(
        classifier=clf, odd=odd, accuracy=accuracy(clf, data),
        positives=odd.count(), total=odd.total(), congressman=x,
        congressman_posterior=clf.posterior(x), congressman_decision=odd.decide(x),
        mc=mc_explanations(odd, x), pi=pi_explanations(odd, x),
        pi_positive=prime_implicants(odd, decision=True),
        pi_negative=prime_implicants(odd, decision=False))
    if all_positives:
        study.mc_frequency = mc_frequency(odd, progress=progress)
    return study


def accuracy(clf: Classifier, data) -> float:
    """Share of the rows of ``data`` whose class ``clf`` predicts, missing values unobserved.

    ``data`` is a DataFrame with the class column and one column per feature;
    a missing value (NaN) leaves its feature unobserved (summed out).

    Returns
    -------
    float
    """
    right = 0
    feats = clf.features
    records = data.to_dict("records")
    for rec in records:
        x = {f: rec[f] for f in feats if not _missing(rec[f])}
        right += clf.decide(x, partial=True) == (rec[clf.class_var] == clf.positive)
    return right / len(records)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def mc_frequency(odd: ODD, *, progress: bool = False) -> Counter:
    """How often each MC-explanation occurs over all positive instances of ``odd``.

    The positive instances are read off the diagram (there are ``odd.count()`` of
    them) and each is explained with :func:`~bnx.mc_explanations`.

    Returns
    -------
    Counter
    """
    positive = positives(odd)
    counter: Counter = Counter()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=odd.count(), desc="MC-explanations of positive instances",
                   unit="inst", leave=False)
    for x in positive:
        for e in mc_explanations(odd, x):
            counter[frozenset(e.items())] += 1
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return counter


def paper_comparison(study: VotesStudy) -> list[tuple[str, str, str]]:
    """Rows ``(figure, paper, bnx)`` of the paper's figures beside ours.

    Returns
    -------
    list
    """
    mc_lens = study.mc.lengths()
    pi_lens = study.pi.lengths()
    shortest_len = min(pi_lens) if pi_lens else None
    top = study.most_frequent_mc
    rows = [
        ("training accuracy", f"{PAPER['accuracy']:.1%}", f"{study.accuracy:.1%}"),
        ("ODD size (nodes)", f"{PAPER['odd_size']:,}", f"{study.odd.size:,}"),
        ("positive instances of 2^16", f"{PAPER['positives']:,}", f"{study.positives:,}"),
        ("Congressman: MC-explanations", f"{PAPER['congressman_mc_count']}",
         f"{study.mc.count}"),
        ("Congressman: MC cardinality", f"{PAPER['congressman_mc_cardinality']}",
         ", ".join(map(str, mc_lens))),
        ("Congressman: PI-explanations", f"{PAPER['congressman_pi_count']:,}",
         f"{study.pi.count:,}"),
        ("Congressman: shortest PI-explanations",
         f"{PAPER['congressman_pi_shortest_count']} of length "
         f"{PAPER['congressman_pi_shortest_length']}",
         f"{pi_lens.get(shortest_len, 0)} of length {shortest_len}"),
        ("PI-explanations of all decisions", f"{PAPER['all_pi_count']:,}",
         f"{study.all_pi_count:,}"),
        ("most frequent MC-explanation (yes votes)",
         ", ".join(PAPER["most_frequent_mc_yes"]),
         ", ".join(study.yes_votes(top[0])) if top else "(not computed)"),
    ]
    return rows


def votes_tan_classifier(*, prior: str = "K2", threshold: float = 0.5,
                         root: str | None = None) -> Classifier:
    """Learn a TAN from the votes data with :func:`bnx.learn_tan`.

    Class ``party``, positive ``republican``, the 16 votes as features, K2 parameters by
    default.

    Returns
    -------
    Classifier

    Examples
    --------
    >>> from bnx.tabular.case_study import votes_tan_classifier
    >>> clf = votes_tan_classifier()
    >>> clf.structure, len(clf.features), len(clf.network.edges())
    ('tan', 16, 31)
    """
    from ..network.learning import learn_tan
    from .datasets import VOTES_FEATURES, load_votes
    net = learn_tan(load_votes(), "party", root=root, prior=prior)
    return Classifier(net, "party", "republican", threshold=threshold,
                      features=list(VOTES_FEATURES))


def model_figures(clf: Classifier, *, backend: str = "auto") -> dict:
    """Compute the case study's figures for one votes classifier.

    Returns
    -------
    dict
        ``odd`` (the compiled ODD), ``accuracy`` (training accuracy, missing votes
        unobserved), ``odd_size``, ``positives``, ``congressman`` (the instance of
        :data:`CONGRESSMAN_ROW`), ``posterior``, ``decision``, ``mc`` and ``pi`` (its
        explanations), ``all_pi`` (the PI-explanations of all decisions: prime
        implicants of the function and of its complement).
    """
    from .datasets import load_votes
    data = load_votes()
    odd = _compile(clf, backend=backend)
    row = data.iloc[CONGRESSMAN_ROW]
    x = {f: row[f] for f in clf.features}
    return {
        "odd": odd, "accuracy": accuracy(clf, data), "odd_size": odd.size,
        "positives": odd.count(), "congressman": x, "posterior": clf.posterior(x),
        "decision": odd.decide(x), "mc": mc_explanations(odd, x), "pi": pi_explanations(odd, x),
        "all_pi": (prime_implicants(odd, decision=True).count
                   + prime_implicants(odd, decision=False).count),
    }


def tan_comparison(nb: dict, tan: dict) -> list[tuple[str, str, str]]:
    """Rows ``(figure, naive Bayes, TAN)`` from two :func:`model_figures` results.

    Returns
    -------
    list

    Examples
    --------
    >>> from bnx.tabular.case_study import (model_figures, tan_comparison, votes_classifier,
    ...                             votes_tan_classifier)
    >>> rows = tan_comparison(model_figures(votes_classifier()),
    ...                       model_figures(votes_tan_classifier()))
    >>> rows[0][0], len(rows)
    ('training accuracy', 8)
    """
    def shortest(expl: Explanations) -> str:
        lengths = expl.lengths()
        if not lengths:
            return "(none)"
        k = min(lengths)
        return f"{lengths[k]} of length {k}"

    def column(f: dict) -> list[str]:
        return [f"{f['accuracy']:.1%}", f"{f['odd_size']:,}", f"{f['positives']:,}",
                f"{f['posterior']:.4f} ({'republican' if f['decision'] else 'democrat'})",
                f"{f['mc'].count} of cardinality {', '.join(map(str, f['mc'].lengths()))}",
                f"{f['pi'].count:,}", shortest(f["pi"]), f"{f['all_pi']:,}"]

    names = ["training accuracy", "ODD size (nodes)", "positive instances of 2^16",
             "Congressman: Pr(republican | votes)", "Congressman: MC-explanations",
             "Congressman: PI-explanations", "Congressman: shortest PI-explanations",
             "PI-explanations of all decisions"]
    return list(zip(names, column(nb), column(tan)))
