"""The decision-diagram backends: ``dd.autoref`` (pure Python) and ``dd.cudd`` (CUDD).

bnx fixes the variable order of every manager it creates: dynamic reordering is
switched off, so an ODD's order is the one it was compiled with, and a node's
``level`` is its feature's position in that order on both backends.

This module also hides the two places where the backends differ for traversals:
the level of a terminal (CUDD reports ``2**31 - 1``) and ``find_or_add`` with equal
children (CUDD does not reduce it).

It is bnx's one contact with ``dd``'s internals: every ``import dd`` is here, and so is
every use of what ``dd.autoref`` keeps private, each for a measured reason:

* reading a diagram (:func:`autoref_table`): ``dd.autoref``'s public ``succ`` wraps both
  children in reference-counted ``Function`` objects (microseconds a node); the integer
  table of the ``dd.bdd.BDD`` inside it is read instead, one dict lookup a node;
* writing one (:func:`write_nodes`): one integer ``find_or_add`` a node on that inner
  manager, and one ``Function`` for the root only (the public ``find_or_add`` takes and
  returns a ``Function`` per node);
* the manager (:func:`new_manager`): a subclass of ``dd.autoref.BDD`` whose inner manager
  does not complain at shutdown (:class:`_QuietBDD`).

Other modules call the managers' public methods only.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from .._util.types import Manager, Node
from ..errors import BackendError

# is_cudd, autoref_table and write_nodes serve bnx's own modules (this module holds all of
# bnx's contact with dd); they are not part of the public API.
__all__ = ["BACKENDS", "available_backends", "resolve_backend", "new_manager",
           "branches", "level", "make_node"]

BACKENDS = ("autoref", "cudd")


def _cudd_available() -> bool:
    try:
        importlib.import_module("dd.cudd")
    except ImportError:
        return False
    return True


def available_backends() -> tuple[str, ...]:
    """Return the backends that import on this machine, ``"autoref"`` first.

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
    """Make a new ``dd`` manager with ``variables`` declared in this order and reordering off.

    Returns
    -------
    dd manager
    """
    name = resolve_backend(backend)
    if name == "cudd":
        mod = importlib.import_module("dd.cudd")
        # CUDD's default computed table (262,144 slots) costs ~8 ms to allocate; it
        # grows on demand, so start small: explanation diagrams are small.
        bdd = mod.BDD(initial_cache_size=2 ** 12)
    else:
        bdd = _quiet_bdd_class()()
    bdd.configure(reordering=False)
    if variables:
        bdd.declare(*variables)
    return bdd


_QUIET = None


def _quiet_bdd_class():
    """Make ``dd.autoref.BDD`` over a ``dd.bdd.BDD`` whose finaliser does not check for live nodes.

    Made on first use: it imports ``dd``.

    dd's finaliser raises (printed as "Exception ignored ... nodes still referenced
    upon shutdown") when the manager is finalised before the ``Function`` objects
    that refer to it. That happens whenever both become garbage together, e.g.
    at interpreter exit or through a reference cycle in user code, and the garbage
    collector finalises them in arbitrary order. Nothing is wrong then: the nodes
    go with the manager.
    """
    global _QUIET
    if _QUIET is None:
        autoref = importlib.import_module("dd.autoref")
        import dd.bdd

        class _QuietCore(dd.bdd.BDD):
            def __del__(self) -> None:
                pass

        class _QuietBDD(autoref.BDD):
            """``dd.autoref.BDD`` over a :class:`_QuietCore`.

            Its ``__init__`` makes a ``dd.bdd.BDD`` and takes its ``vars``.
            """

            def __init__(self, levels=None) -> None:
                self._bdd = _QuietCore(levels)
                self.vars = self._bdd.vars

        _QUIET = _QuietBDD
    return _QUIET


def branches(u: Node) -> tuple[Node, Node]:
    """Return the (low, high) cofactors of a non-terminal node, complemented edges applied.

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
    """Return the level of ``u``; terminals are at level ``nvars`` on both backends.

    Returns
    -------
    int
    """
    return nvars if u.var is None else u.level


def make_node(bdd: Manager, var: str, low: Node, high: Node) -> Node:
    """Make the reduced node ``ite(var, high, low)``; ``var`` must precede the children.

    ``dd.autoref`` normalises ``find_or_add``; ``dd.cudd``'s ``find_or_add`` neither
    reduces equal children nor moves a complement off the high edge (both crash
    CUDD later), so CUDD nodes are made with ``ite``.

    Returns
    -------
    dd node
    """
    return node_maker(bdd, var)(low, high)


def node_maker(bdd: Manager, var: str):
    """Make :func:`make_node` for one variable, as a function ``(low, high) -> node``.

    The variable is looked up once (many nodes of one variable in a row).
    """
    if is_cudd(bdd):
        v, ite = bdd.var(var), bdd.ite
        return lambda low, high: low if low == high else ite(v, high, low)
    find = bdd.find_or_add
    return lambda low, high: low if low == high else find(var, low, high)


def is_cudd(bdd: Manager) -> bool:
    """Whether ``bdd`` is a ``dd.cudd`` manager (else ``dd.autoref``)."""
    return type(bdd).__module__ == "dd.cudd"


def autoref_table(root: Node) -> tuple[int, dict]:
    """Return ``(ref, table)`` of a ``dd.autoref`` node.

    Its signed integer reference (negative: negated; ``1`` true, ``-1`` false) and the
    manager's table ``{node: (level, low, high)}`` (signed references; read only). See the
    module docstring for why.
    """
    return root.node, root.bdd._bdd._succ


def write_nodes(bdd: Manager, names: Sequence[str], var, lo, hi, root: int) -> Node:
    """Write nodes ``2 .. root`` into ``bdd`` and return ``root``'s.

    Node ``0`` is false, ``1`` true, node ``u`` tests the variable ``names[var[u]]`` with
    children ``lo[u]`` and ``hi[u]`` (made before ``u``). One ``ite`` (CUDD) or one integer
    ``find_or_add`` (autoref) per node.
    """
    root = int(root)
    if root <= 1:
        return bdd.true if root else bdd.false
    if is_cudd(bdd):
        made: list = [bdd.false, bdd.true]
        ite = bdd.ite
        vs = [bdd.var(v) for v in names]
        for u in range(2, root + 1):
            made.append(ite(vs[var[u]], made[hi[u]], made[lo[u]]))
        return made[root]
    core = bdd._bdd
    mlevel = [core.vars[v] for v in names]  # the caller's level -> the manager's level
    fa = core.find_or_add
    ref = [-1, 1]
    for u in range(2, root + 1):
        ref.append(fa(mlevel[var[u]], ref[lo[u]], ref[hi[u]]))
    return bdd._wrap(ref[root])


def collect_grown(bdd: Manager, live: int, slack: int) -> int | None:
    """Collect the dead nodes of a ``dd.autoref`` manager once it holds too many.

    That is, more than ``2 * live + slack`` nodes (``live``: its size after the last
    collection); returns its size after collecting, or ``None`` when nothing was done (CUDD
    collects by itself).
    """
    if is_cudd(bdd) or len(bdd) <= 2 * live + slack:
        return None
    bdd.collect_garbage()
    return len(bdd)
