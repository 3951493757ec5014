"""Data and pictures: whole data sets explained, plots, shipped data and examples.

- :mod:`.batch`: :func:`~bnx.explain_data`, a data frame of answers, one row an instance;
- :mod:`._engine`: the per-row engine behind it (pandas, joblib, Dask);
- :mod:`.plot`: plots of a data set's answers;
- :mod:`.datasets`: data shipped with bnx (the votes);
- :mod:`.examples`: the paper's examples and the shipped network files;
- :mod:`.case_study`: the paper's votes case study.
"""
