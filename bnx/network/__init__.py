"""Networks: reading them from files and other libraries, and learning them from data.

- :mod:`.readers`: BIF, XMLBIF, Hugin NET and UAI files through pgmpy's readers;
- :mod:`.pyagrum`: networks from and to pyAgrum;
- :mod:`.sklearn`: fitted scikit-learn naive Bayes models as networks;
- :mod:`.learning`: naive Bayes and TAN networks learned from data.

The lowest floor of the house beside :mod:`bnx.diagram`: neither knows the other.
"""
