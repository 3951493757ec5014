"""Data sets shipped with bnx.

The only data set is the 1984 United States Congressional Voting Records, the
running example of naive Bayes classifier explanation papers. The raw UCI file is
shipped byte for byte as ``bnx/data/house-votes-84.data``.
"""

from __future__ import annotations

from importlib.resources import files

import pandas as pd

from ..errors import DataError

__all__ = ["load_votes", "VOTES_FEATURES"]

#: The 16 key votes, named and ordered as in the UCI ``house-votes-84.names`` file.
VOTES_FEATURES: tuple[str, ...] = (
    "handicapped-infants",
    "water-project-cost-sharing",
    "adoption-of-the-budget-resolution",
    "physician-fee-freeze",
    "el-salvador-aid",
    "religious-groups-in-schools",
    "anti-satellite-test-ban",
    "aid-to-nicaraguan-contras",
    "mx-missile",
    "immigration",
    "synfuels-corporation-cutback",
    "education-spending",
    "superfund-right-to-sue",
    "crime",
    "duty-free-exports",
    "export-administration-act-south-africa",
)

_VOTES_FILE = "house-votes-84.data"
_VOTES_ROWS = 435


def load_votes() -> pd.DataFrame:
    """Load the 1984 United States Congressional Voting Records.

    Each row is one member of the U.S. House of Representatives in the 98th
    Congress, 2nd session (1984): the party and the position on the 16 key votes
    identified by the Congressional Quarterly Almanac (CQA).

    Returns
    -------
    pandas.DataFrame
        435 rows, index ``0 .. 434`` in the order of the lines of the raw file
        (row ``i`` is line ``i + 1``), and 17 columns: ``party`` first, with the
        values ``'democrat'`` (267 rows) and ``'republican'`` (168 rows), then one
        column per vote, named and ordered as in :data:`VOTES_FEATURES`. A vote is
        ``'y'`` (yea: voted, paired or announced for) or ``'n'`` (nay: voted,
        paired or announced against). The raw file's ``'?'`` (voted present,
        present to avoid a conflict of interest, or did not vote) is read as a
        missing value (``NaN``). Every call returns a new frame.

    See Also
    --------
    bnx.learn_naive_bayes : Learn a naive Bayes classifier from this frame.
    bnx.learn_tan : Learn a TAN classifier from this frame.

    Notes
    -----
    Source: UCI Machine Learning Repository, *Congressional Voting Records*
    (1987), donated by Jeff Schlimmer, from the Congressional Quarterly Almanac,
    98th Congress, 2nd session 1984, Volume XL, Congressional Quarterly Inc.,
    Washington, D.C., 1985.
    https://archive.ics.uci.edu/dataset/105/congressional+voting+records
    (DOI 10.24432/C5C01P). The data set is licensed under a Creative Commons
    Attribution 4.0 International (CC BY 4.0) licence,
    https://creativecommons.org/licenses/by/4.0/.

    As the UCI documentation stresses, ``'?'`` does not mean that the position is
    unknown, only that it was neither yea nor nay. The per-attribute table of
    missing values in the UCI ``house-votes-84.names`` file is shifted by one
    attribute; the file itself has 12 ``'?'`` for ``handicapped-infants`` up to 104
    for ``export-administration-act-south-africa`` (392 in all), and none for
    ``party``.

    Examples
    --------
    >>> from bnx.tabular.datasets import load_votes
    >>> votes = load_votes()
    >>> votes.shape
    (435, 17)
    >>> list(votes.columns[:3])
    ['party', 'handicapped-infants', 'water-project-cost-sharing']
    >>> votes["party"].value_counts().to_dict()
    {'democrat': 267, 'republican': 168}
    >>> int(votes["export-administration-act-south-africa"].isna().sum())
    104
    >>> votes.loc[369].tolist()  # line 370 of the raw file
    ['republican', 'n', 'y', 'n', 'y', 'y', 'y', 'n', 'n', 'n', 'n', 'n', 'n', 'y', 'y', 'n', 'y']
    """
    resource = files("bnx") / "data" / _VOTES_FILE
    with resource.open("r", encoding="ascii", newline="") as handle:
        frame = pd.read_csv(
            handle,
            header=None,
            names=["party", *VOTES_FEATURES],
            dtype=str,
            na_values=["?"],
            keep_default_na=False,
        )
    if frame.shape != (_VOTES_ROWS, 1 + len(VOTES_FEATURES)):  # pragma: no cover - damaged install
        raise DataError(f"bnx/data/{_VOTES_FILE} is damaged: read a frame of shape "
                        f"{frame.shape}; reinstall bnx")
    return frame
