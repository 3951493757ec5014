"""The classifier: a network, its class node, its features and its decision rule.

- :mod:`._classifier`: :class:`~bnx.Classifier` (a network with a class and a rule), with
  its exact decisions and posteriors on instances;
- :mod:`._interop`: its constructors from network files, pyAgrum and scikit-learn, and
  its network handed to pyAgrum;
- :mod:`._checks`: its features and declared on states, checked;
- :mod:`._rules`: the threshold and argmax rules, decided exactly (and the default
  threshold);
- :mod:`._inference`: the one inference path on networks (elimination orders, contractions
  in floats with a proven bound or exact, plans per pattern of observed nodes);
- :mod:`._relevance`: which nodes matter to the class;
- :mod:`._tree`: latent-tree structure;
- :mod:`._instances`: rows and mappings read as instances;
- :mod:`._unate`: unate features and their least states;
- :mod:`._restricted`: a classifier conditioned on evidence (its factors reduced).
"""
