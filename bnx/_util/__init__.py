"""Helpers below everything else in bnx (no bnx imports).

The type aliases (:mod:`.types`), imports made on first use (:mod:`.lazy`) and how answers are
worded for people (:mod:`.wording`).
"""
