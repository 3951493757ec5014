"""The version of bnx (one place, read by the package and the files it writes)."""

__version__ = "0.1.0"
