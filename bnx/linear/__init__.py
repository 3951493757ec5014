"""Exact explanations of naive Bayes and TAN decisions at any width, without compiling.

A naive Bayes classifier with a two-state class decides by a linear threshold over
per-feature log-likelihood ratios (Marques-Silva, Gerspacher, Cooper, Ignatiev and
Narodytska, NeurIPS 2020). Several questions about one decision then have exact
polynomial answers that need no decision diagram, so they work for thousands of
features where :func:`bnx.compile` cannot go:

* :func:`pi_explanations`: every PI-explanation, one after the other, with
  polynomial delay;
* :func:`shortest_pi_explanation` (one of the shortest);
* :func:`mc_explanations`: every MC-explanation, as the diagram's set;
* :func:`robustness` (``math.inf`` when no change flips the decision),
  :func:`counterfactuals` (every closest one, as the diagram's set; empty then),
  :func:`shortest_contrastive_explanation` (:class:`~bnx.ExplanationError` then);
* :func:`check_explanation`: is a partial instance sufficient, minimal, redundant?

The names are those of the questions on the compiled diagram, and so are the answers: a
name answers what the diagram's question of that name answers (:func:`mc_explanations` the
same :class:`~bnx.Explanations` set as :func:`bnx.mc_explanations`, :func:`counterfactuals`
the same :class:`~bnx.Counterfactuals` as :func:`bnx.counterfactuals`, most probable first;
:func:`pi_explanations` lists the members of :func:`bnx.pi_explanations`, as dicts;
:func:`robustness` is :func:`bnx.robustness`; :func:`check_explanation` returns the same
:class:`~bnx.ExplanationCheck` as :func:`bnx.check_explanation`), and ``shortest_`` one of
its shortest members (:func:`shortest_pi_explanation`, :func:`shortest_contrastive_explanation`
of :func:`bnx.contrastive_explanations`). Every question takes the classifier first
(``clf``), or an ODD that holds it.

Answers are exact: comparisons are made on rounded logarithms with a proven error
bound, and redone on the exact rational CPT entries when those cannot settle
them; zero entries (infinite weights) are handled symbolically. Questions with no
polynomial answer (counting the PI-explanations, the prime implicants of the whole
classifier) need the compiled ODD: :func:`bnx.compile` with :func:`bnx.pi_explanations`,
:func:`bnx.prime_implicants`. The sets :func:`mc_explanations` and :func:`counterfactuals`
return are built as diagrams without compiling (:mod:`bnx.linear._every`), which may give up
(:class:`~bnx.StructureError`) when the set's diagram is too large.

The classifier must be naive Bayes or a TAN with a two-state class (the threshold rule
or, where the classifier has it, ``rule="argmax"``), or a TAN with more class states
under ``rule="argmax"`` for positive decisions (all but the MC- and shortest
explanations); anything else raises :class:`~bnx.StructureError`. On a TAN the race is a sum over
the feature tree's edges, and the questions are min-sums over that tree (:mod:`bnx.linear._tan`):
the same answers, but the PI-explanations come without a polynomial delay guarantee (one would list
the minimal transversals of any hypergraph output-polynomially, an open problem), the
sets of :func:`mc_explanations` and :func:`counterfactuals` are listed member by member
(each after polynomially many steps; given up when there are too many), and the
search for a shortest one may give up (:class:`~bnx.StructureError`) on wide TANs (it is
NP-complete, even with binary features). Instances are mappings from every feature to a
state.
See ``docs/explanations.md`` for the algorithms and why they are exact.

Examples
--------
>>> import bnx
>>> clf = bnx.examples.admissions()
>>> x = {"WorkExperience": "+", "FirstTimeApplicant": "+", "EntranceExam": "+", "GPA": "+"}
>>> bnx.linear.shortest_pi_explanation(clf, x)
{'WorkExperience': '+', 'GPA': '+'}
"""

from ._changes import counterfactuals, robustness, shortest_contrastive_explanation
from ._decision import decide
from ._mc import mc_explanations
from ._pi import check_explanation, pi_explanations, shortest_pi_explanation
from .xlc import read_xlc

__all__ = ["check_explanation", "counterfactuals", "decide", "mc_explanations", "pi_explanations",
           "read_xlc", "robustness", "shortest_contrastive_explanation", "shortest_pi_explanation"]
