"""Tests of bnx.datasets: the shipped voting records and load_votes()."""

from __future__ import annotations

import csv
import hashlib
import io
import math
from importlib.resources import files

import pandas as pd

import bnx.tabular.datasets
from bnx.tabular.datasets import VOTES_FEATURES, load_votes

SHA256 = "c87c14110a5ba91d4a1e313ec7392824458152bf071fa5f5452340488337936e"

# Attribute list of the UCI house-votes-84.names file, in its order (written out
# here on purpose, independently of VOTES_FEATURES).
NAMES_FILE_ATTRIBUTES = [
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
]

# The example Congressman of the paper: a republican voting n y n y y y n n n n n n y y n y.
PAPER_CONGRESSMAN = ["republican", *"n y n y y y n n n n n n y y n y".split()]


def raw_bytes() -> bytes:
    return (files("bnx") / "data" / "house-votes-84.data").read_bytes()


def raw_rows() -> list[list[str]]:
    """The shipped file parsed with the csv module only (no pandas)."""
    return list(csv.reader(io.StringIO(raw_bytes().decode("ascii"))))


def test_shipped_file_is_byte_exact_copy():
    data = raw_bytes()
    assert hashlib.sha256(data).hexdigest() == SHA256
    assert data.count(b"\n") == 435


def test_public_names():
    assert bnx.datasets.__all__ == ["load_votes", "VOTES_FEATURES"]
    assert list(VOTES_FEATURES) == NAMES_FILE_ATTRIBUTES
    assert isinstance(VOTES_FEATURES, tuple)


def test_shape_columns_and_index():
    votes = load_votes()
    assert isinstance(votes, pd.DataFrame)
    assert votes.shape == (435, 17)
    assert list(votes.columns) == ["party", *NAMES_FILE_ATTRIBUTES]
    assert list(votes.index) == list(range(435))


def test_party_counts():
    votes = load_votes()
    assert votes["party"].value_counts().to_dict() == {"democrat": 267, "republican": 168}
    assert not votes["party"].isna().any()


def test_states_are_y_n_or_missing():
    votes = load_votes()
    for feature in NAMES_FILE_ATTRIBUTES:
        assert set(votes[feature].dropna()) == {"y", "n"}, feature


def test_matches_csv_module_cell_by_cell():
    votes = load_votes()
    rows = raw_rows()
    assert len(rows) == len(votes)
    for i, row in enumerate(rows):
        assert len(row) == 17
        for j, cell in enumerate(row):
            value = votes.iat[i, j]
            if cell == "?":
                assert isinstance(value, float) and math.isnan(value), (i, j, value)
            else:
                assert value == cell, (i, j, value)


def test_missing_counts_per_column():
    votes = load_votes()
    rows = raw_rows()
    expected = [sum(row[j] == "?" for row in rows) for j in range(17)]
    assert votes.isna().sum().tolist() == expected
    # The counts of the file (the .names file's own table is shifted by one attribute).
    assert expected == [0, 12, 48, 11, 11, 15, 11, 14, 15, 22, 7, 21, 31, 25, 17, 28, 104]


def test_paper_congressman_is_row_369():
    rows = raw_rows()
    line_numbers = [i + 1 for i, row in enumerate(rows) if row == PAPER_CONGRESSMAN]
    assert line_numbers == [370]
    votes = load_votes()
    matches = votes.index[(votes == PAPER_CONGRESSMAN).all(axis=1)].tolist()
    assert matches == [369]
    assert votes.loc[369].tolist() == PAPER_CONGRESSMAN


def test_each_call_returns_a_new_frame():
    first = load_votes()
    first.loc[0, "party"] = "whig"
    del first["crime"]
    second = load_votes()
    assert second.loc[0, "party"] == "republican"
    assert "crime" in second.columns
