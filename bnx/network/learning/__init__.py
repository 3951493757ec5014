"""Learning naive Bayes and TAN classifiers from data with pgmpy's own estimators.

:mod:`.naive_bayes` (:func:`learn_naive_bayes` and the parameter estimation both
learners use), :mod:`.tan` (:func:`learn_tan`) and :mod:`.data` (reading and checking
the training data).
"""

from .naive_bayes import learn_naive_bayes
from .tan import learn_tan

__all__ = ["learn_naive_bayes", "learn_tan"]
