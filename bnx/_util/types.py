"""Type aliases shared across bnx (the library's protocol module)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, TypeAlias

__all__ = ["Feature", "State", "Instance", "PartialInstance", "Manager", "Node"]

#: A feature is a node name of the pgmpy network.
Feature: TypeAlias = Hashable
#: A state is one of pgmpy's ``state_names`` of a node (usually ``str``, ``int`` for UAI files).
State: TypeAlias = Hashable
#: A complete instance maps every feature to one of its states.
Instance: TypeAlias = Mapping[Feature, State]
#: A partial instance maps some features to states.
PartialInstance: TypeAlias = Mapping[Feature, State]
#: A ``dd`` manager: ``dd.autoref.BDD`` or ``dd.cudd.BDD``.
Manager: TypeAlias = Any
#: A ``dd`` node reference (``Function``) of either backend.
Node: TypeAlias = Any
