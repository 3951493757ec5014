"""The decision-diagram backends: ``dd.autoref`` (pure Python) and ``dd.cudd`` (CUDD).

bnx fixes the variable order of every manager it creates: dynamic reordering is
switched off, so an ODD's order is the one it was compiled with, and a node's
``level`` is its feature's position in that order on both backends.

This module also hides the two places where the backends differ for traversals:
the level of a terminal (CUDD reports ``2**31 - 1``) and ``find_or_add`` with equal
children (CUDD does not reduce it).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._types import Manager, Node
from ..errors import BackendError

__all__ = ["BACKENDS", "available_backends", "resolve_backend", "new_manager",
           "branches", "level", "make_node"]

BACKENDS = ("autoref", "cudd")


def _import_dd(name: str):
    """Import the ``dd`` module ``name`` without letting ``dd`` import networkx.

    ``dd`` imports networkx whenever it is installed (pgmpy installs it), only for its
    optional conversion of diagrams to networkx graphs, which bnx never uses; that
    costs a third of a second of every start-up. When neither ``dd`` nor networkx is
    loaded yet, ``dd`` is imported with networkx hidden (dd then leaves that
    conversion off), and networkx imports normally afterwards.
    """
    import importlib
    import sys
    if "dd" not in sys.modules and "networkx" not in sys.modules:
        sys.modules["networkx"] = None  # makes "import networkx" raise ImportError
        try:
            import dd  # noqa: F401
        except ImportError:
            pass
        finally:
            if sys.modules.get("networkx", 0) is None:
                del sys.modules["networkx"]
    return importlib.import_module(name)


def _cudd_available() -> bool:
    try:
        _import_dd("dd.cudd")
    except ImportError:
        return False
    return True


def available_backends() -> tuple[str, ...]:
    """The backends that import on this machine, ``"autoref"`` first.

    Returns
    -------
    tuple

    Examples
    --------
    >>> "autoref" in available_backends()
    True
    """
    return ("autoref", "cudd") if _cudd_available() else ("autoref",)


def resolve_backend(backend: str) -> str:
    """Turn ``"auto"``, ``"autoref"`` or ``"cudd"`` into the name of an importable backend.

    Returns
    -------
    str
    """
    if backend == "auto":
        return "cudd" if _cudd_available() else "autoref"
    if backend not in BACKENDS:
        raise BackendError(
            f"unknown backend {backend!r}: expected 'auto', 'autoref' or 'cudd'")
    if backend == "cudd" and not _cudd_available():
        raise BackendError("backend 'cudd' is not available: dd.cudd does not import "
                           "(install a dd wheel that ships CUDD, or use backend='autoref')")
    return backend


def new_manager(backend: str, variables: Sequence[str]) -> Manager:
    """A new ``dd`` manager with ``variables`` declared in this order and reordering off.

    Returns
    -------
    dd manager
    """
    name = resolve_backend(backend)
    if name == "cudd":
        mod = _import_dd("dd.cudd")
        # CUDD's default computed table (262,144 slots) costs ~8 ms to allocate; it
        # grows on demand, so start small: explanation diagrams are small.
        bdd = mod.BDD(initial_cache_size=2 ** 12)
    else:
        mod = _import_dd("dd.autoref")
        bdd = mod.BDD()
        bdd._bdd.__class__ = _quiet_bdd_class()
    bdd.configure(reordering=False)
    if variables:
        bdd.declare(*variables)
    return bdd


_QUIET = None


def _quiet_bdd_class():
    """``dd.bdd.BDD`` with a finaliser that does not check for live nodes.

    dd's finaliser raises (printed as "Exception ignored ... nodes still referenced
    upon shutdown") when the manager is finalised before the ``Function`` objects
    that refer to it. That happens whenever both become garbage together, e.g.
    at interpreter exit or through a reference cycle in user code, and the garbage
    collector finalises them in arbitrary order. Nothing is wrong then: the nodes
    go with the manager.
    """
    global _QUIET
    if _QUIET is None:
        import dd.bdd

        class _QuietBDD(dd.bdd.BDD):
            def __del__(self) -> None:
                pass

        _QUIET = _QuietBDD
    return _QUIET


def branches(u: Node) -> tuple[Node, Node]:
    """The (low, high) cofactors of a non-terminal node, complemented edges applied.

    On a negated reference ``dd`` gives the children of the un-negated node, so
    both are negated here.

    Returns
    -------
    tuple
    """
    if u.negated:
        return ~u.low, ~u.high
    return u.low, u.high


def level(u: Node, nvars: int) -> int:
    """The level of ``u``; terminals are at level ``nvars`` on both backends.

    Returns
    -------
    int
    """
    return nvars if u.var is None else u.level


def make_node(bdd: Manager, var: str, low: Node, high: Node) -> Node:
    """The reduced node ``ite(var, high, low)``; ``var`` must precede the children.

    ``dd.autoref`` normalises ``find_or_add``; ``dd.cudd``'s ``find_or_add`` neither
    reduces equal children nor moves a complement off the high edge (both crash
    CUDD later), so CUDD nodes are made with ``ite``.

    Returns
    -------
    dd node
    """
    if low == high:
        return low
    if type(bdd).__module__ == "dd.cudd":
        return bdd.ite(bdd.var(var), high, low)
    return bdd.find_or_add(var, low, high)
