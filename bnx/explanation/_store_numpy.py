"""The large strategy of :class:`~.store.Store`.

Its nodes in numpy buffers, conjunctions breadth first, many pairs at once.

A store past the one limit (:func:`~.store.in_python`) holds the ODD's nodes (the arrays,
copied once into growable buffers) and the new nodes its conjunctions make, reduced and
canonical (a unique table per level: sorted keys in numpy), so a node number names one
function. Conjunctions are computed breadth first: the pairs of operands are expanded level
by level top-down (numpy gathers, one ``unique`` per level), then the results are made
bottom-up, one vectorised unique-table lookup per level. Stars are made a feature at a
time, counts one feature's nodes at a time, bottom-up. Each function here takes the store
(``st``) and is called by its method of the same name.
"""

from __future__ import annotations

import math

import lazy_loader

from ..diagram import _arrays
from ..diagram._arrays import DiagramArrays, cofactor, unique

np = lazy_loader.load("numpy")  # imported on first use

__all__ = ["start", "nodes", "conj", "cofactors", "make_stars", "star_of", "close", "count"]

_INT = "int64"  # (a dtype name: numpy is imported on first use)
_B = 1 << 31  # pair keys: a * _B + b (node numbers stay below 2 ** 31)
#: Counts reach this (the number of instances) and are kept as Python integers.
BIG = 1 << 62


def start(st, arrays: DiagramArrays) -> None:
    """Hold the nodes of ``arrays`` in numpy buffers (``st.py`` is ``None``)."""
    n = st._n = arrays.size
    cap = n + max(1024, n // 4)
    st.level = st.var = np.empty(cap, dtype=_INT)
    st.lo = np.empty(cap, dtype=_INT)
    st.hi = np.empty(cap, dtype=_INT)
    st.star = np.full(cap, -1, dtype=_INT)
    st.level[:n], st.lo[:n], st.hi[:n] = arrays.level, arrays.lo, arrays.hi
    st.star[:2] = (0, 1)
    st.py = None
    st._blocks = [arrays.block(lv) for lv in range(arrays.nvars)]
    st._tables = {}  # level -> (sorted keys, node numbers)
    st._extra = {}  # level -> list of arrays of new nodes at that level
    st._memo = {}  # level -> (sorted pair keys, their conjunctions)
    st.feature_of = np.asarray(st.feature_of, dtype=_INT)
    st.memoise = n <= _arrays.SMALL  # keep conj's memo (a large store gains little)
    dtype = object if math.prod(st.nstates) >= BIG else _INT
    st._skip = np.array(st.skip, dtype=dtype)
    st._nc = np.array([0, 1], dtype=dtype)  # per node: its count (see count)
    st._counted = np.array([True, True])


def _grow(st, k: int) -> None:
    need = st._n + k
    if need <= len(st.level):
        return
    cap = max(need, 2 * len(st.level))
    for name in ("level", "lo", "hi", "star"):
        old = getattr(st, name)
        new = np.full(cap, -1, dtype=_INT)
        new[:st._n] = old[:st._n]
        setattr(st, name, new)
    st.var = st.level


def _table(st, lvl: int) -> tuple:
    got = st._tables.get(lvl)
    if got is None:
        s = st._blocks[lvl]
        ids = np.arange(s.start, s.stop, dtype=_INT)
        extra = st._extra.get(lvl)
        if extra:
            ids = np.concatenate([ids, *extra])
        keys = st.lo[ids] * _B + st.hi[ids]
        order = np.argsort(keys, kind="stable")
        got = st._tables[lvl] = (keys[order], ids[order])
    return got


def nodes(st, lvl: int, lo, hi) -> np.ndarray:
    """Return the reduced, canonical nodes ``(lvl, lo, hi)`` (made where missing)."""
    lo = np.asarray(lo, dtype=_INT)
    hi = np.asarray(hi, dtype=_INT)
    out = lo.copy()
    inner = lo != hi
    if not inner.any():
        return out
    keys = lo[inner] * _B + hi[inner]
    sk, ids = _table(st, lvl)
    if len(sk):
        pos = np.minimum(np.searchsorted(sk, keys), len(sk) - 1)
        found = sk[pos] == keys
        got = np.where(found, ids[pos], -1)
    else:
        found = np.zeros(len(keys), dtype=bool)
        got = np.full(len(keys), -1, dtype=_INT)
    if not found.all():
        new_keys, inv = unique(keys[~found], inverse=True)
        k = len(new_keys)
        _grow(st, k)
        n = st._n
        new_ids = np.arange(n, n + k, dtype=_INT)
        st.level[n:n + k] = lvl
        st.lo[n:n + k] = new_keys // _B
        st.hi[n:n + k] = new_keys % _B
        st.star[n:n + k] = -1
        st._n += k
        st._extra.setdefault(lvl, []).append(new_ids)
        at = np.searchsorted(sk, new_keys)  # both sorted: a merge, no sort
        st._tables[lvl] = (np.insert(sk, at, new_keys), np.insert(ids, at, new_ids))
        got[~found] = new_ids[inv.ravel()]
    out[inner] = got
    return out


def _terminal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r = np.full(len(a), -1, dtype=_INT)
    r = np.where((a == 1) & (r < 0), b, r)
    r = np.where(((b == 1) | (a == b)) & (r < 0), a, r)
    return np.where((a == 0) | (b == 0), 0, r)


def conj(st, a, b) -> np.ndarray:
    """``a[k] and b[k]`` for every ``k``, as node numbers (new nodes made as needed).

    On a store of at most :data:`~bnx.diagram._arrays.SMALL` nodes, pairs already
    conjoined by an earlier call are looked up (a memo per level, sorted keys in numpy),
    not expanded again.
    """
    a = np.asarray(a, dtype=_INT)
    b = np.asarray(b, dtype=_INT)
    res = _terminal(a, b)
    todo = res < 0
    if not todo.any():
        return res
    level, lo, hi = st.level, st.lo, st.hi
    x, y = np.minimum(a[todo], b[todo]), np.maximum(a[todo], b[todo])
    # Every distinct pair gets a number (its index in ``made``, level by level top-down
    # in the order met); a pair's children refer to their pairs by -2 - that number,
    # written in when their level is reached, so no search is needed to resolve them.
    buckets: dict = {}  # level -> [(pair keys, parent entry or -1, side, positions)]

    def push(keys, x, y, parent, side, pos):
        top = np.minimum(level[x], level[y])
        t0, t1 = int(top.min()), int(top.max())
        if t0 == t1:
            buckets.setdefault(t0, []).append((keys, parent, side, pos))
            return
        order = np.argsort(top, kind="stable")
        top, keys, pos = top[order], keys[order], pos[order]
        cuts = np.flatnonzero(np.diff(top)) + 1
        for s0, s1 in zip(np.r_[0, cuts].tolist(), np.r_[cuts, len(top)].tolist()):
            buckets.setdefault(int(top[s0]), []).append(
                (keys[s0:s1], parent, side, pos[s0:s1]))

    first = np.empty(len(x), dtype=_INT)  # the number of each first pair
    push(x * _B + y, x, y, -1, 0, np.arange(len(x)))
    done = []  # per level top-down: (level, numbers, keys, child 0, child 1)
    hits = []  # (numbers, results) of the pairs the memo answers
    numbered = 0
    # (a large store keeps no memo: its merges cost more than its hits save there)
    memo = st._memo if st.memoise else {}
    while buckets:
        lv = min(buckets)
        parts = buckets.pop(lv)
        keys, inv = unique(np.concatenate([p[0] for p in parts]) if len(parts) > 1
                           else parts[0][0], inverse=True)
        inv += numbered
        at = 0
        for k, parent, side, pos in parts:
            ids = inv[at:at + len(k)]
            at += len(k)
            if parent < 0:
                first[pos] = ids
            else:
                done[parent][3 + side][pos] = -2 - ids
        ids = np.arange(numbered, numbered + len(keys), dtype=_INT)
        numbered += len(keys)
        got = memo.get(lv)
        if got is not None:
            mk, mr = got
            pos = np.minimum(np.searchsorted(mk, keys), len(mk) - 1)
            hit = mk[pos] == keys
            if hit.any():
                hits.append((ids[hit], mr[pos[hit]]))
                keys, ids = keys[~hit], ids[~hit]
                if not len(keys):
                    continue
        p, q = keys // _B, keys % _B
        lp, lq = level[p] == lv, level[q] == lv
        entry = [lv, ids, keys]
        for side, arr in enumerate((lo, hi)):
            u = np.where(lp, arr[p], p)
            v = np.where(lq, arr[q], q)
            r = _terminal(u, v)
            pend = np.flatnonzero(r < 0)
            if len(pend):
                u2, v2 = np.minimum(u[pend], v[pend]), np.maximum(u[pend], v[pend])
                push(u2 * _B + v2, u2, v2, len(done), side, pend)
            entry.append(r)
        done.append(entry)
    made = np.empty(numbered, dtype=_INT)
    for ids, r in hits:
        made[ids] = r

    def resolve(v):
        pend = v < 0
        if pend.any():
            v = v.copy()
            v[pend] = made[-2 - v[pend]]
        return v

    for lv, ids, keys, c0, c1 in reversed(done):
        out = made[ids] = nodes(st, lv, resolve(c0), resolve(c1))
        if not st.memoise:
            continue
        old = memo.get(lv)
        if old is None:
            memo[lv] = (keys, out.copy())  # keys come sorted from unique
        else:
            mk = np.concatenate([old[0], keys])
            mo = np.argsort(mk, kind="stable")  # two sorted runs: a merge
            memo[lv] = (mk[mo], np.concatenate([old[1], out])[mo])
    res[todo] = made[first]
    return res


# ---------------------------------------------------------------------- stars
def cofactors(st, us, i: int) -> np.ndarray:
    """Return the cofactors of nodes ``us`` (all testing feature ``i``) over each state of ``i``.

    One row per node, one column per state.
    """
    us = np.asarray(us, dtype=_INT)
    out = np.empty((len(us), st.nstates[i]), dtype=_INT)
    for j in range(st.nstates[i]):
        out[:, j] = cofactor(st.level, st.lo, st.hi, us, st.first[i], st.nbits[i], j)
    return out


def _stars(st, us: np.ndarray, i: int) -> np.ndarray:
    """Return the stars of nodes ``us`` of feature ``i`` (conjunctions made as needed)."""
    if st.least is not None:
        return cofactor(st.level, st.lo, st.hi, us, st.first[i], st.nbits[i], st.least[i])
    cof = cofactors(st, us, i)
    s = cof[:, 0]
    for j in range(1, cof.shape[1]):
        s = conj(st, s, cof[:, j])
    return s


def make_stars(st, us, i: int) -> None:
    """Make the stars of nodes ``us`` of feature ``i``."""
    us = np.asarray(us, dtype=_INT)
    if len(us):
        st.star[us] = _stars(st, us, i)


def star_of(st, u: int) -> int:
    """Return the star of node ``u`` (made on first use)."""
    got = int(st.star[u])
    if got < 0:
        make_stars(st, [u], int(st.feature_of[st.level[u]]))
        got = int(st.star[u])
    return got


def close(st) -> None:
    """Make the star of every node.

    The stars of all the nodes without one in one breadth-first conjunction (one per further
    state), then those of the nodes that made, until none is left.
    """
    while True:
        us = np.flatnonzero(st.star[:st._n] < 0)
        if not len(us):
            return
        feats = st.feature_of[st.level[us]]
        if st.least is not None:  # cofactor gathers, one feature at a time
            for i in np.unique(feats).tolist():
                make_stars(st, us[feats == i], i)
            continue
        width = max(st.nstates[i] for i in np.unique(feats).tolist())
        cof = np.full((len(us), width), -1, dtype=_INT)
        for i in np.unique(feats).tolist():
            sel = feats == i
            cof[sel, :st.nstates[i]] = cofactors(st, us[sel], i)
        s = cof[:, 0].copy()
        for j in range(1, width):
            more = cof[:, j] >= 0
            if more.any():
                s[more] = conj(st, s[more], cof[more, j])
        st.star[us] = s


# ---------------------------------------------------------------------- counts
def _feature(st, us: np.ndarray) -> np.ndarray:
    return st.feature_of[st.level[us]]


def reached(st, root: int, known: np.ndarray) -> list:
    """List the nodes below ``root`` that ``known`` does not mark, top-down.

    Reached at feature boundaries: a list of ``(feature, nodes, cofactors)``, the cofactors
    one row per node and one column per state.
    """
    out = []
    if known[root]:
        return out
    pending: dict = {int(_feature(st, np.array([root]))[0]): [np.array([root], dtype=_INT)]}
    while pending:
        i = min(pending)
        parts = pending.pop(i)
        us = unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]
        kids = cofactors(st, us, i)
        out.append((i, us, kids))
        nxt = unique(kids.ravel())
        nxt = nxt[~known[nxt]]
        if not len(nxt):
            continue
        feats = _feature(st, nxt)
        for j in np.unique(feats).tolist():
            pending.setdefault(j, []).append(nxt[feats == j])
    return out


def count(st, root: int) -> int:
    """Count the complete instances (valid codes) on which ``root`` is true.

    One feature's nodes at a time, bottom-up (memoised per node).
    """
    have = len(st._nc)
    if st._n > have:
        more = max(st._n, 2 * have) - have
        st._nc = np.concatenate([st._nc, np.zeros(more, dtype=st._nc.dtype)])
        st._counted = np.concatenate([st._counted, np.zeros(more, dtype=bool)])
    counts, skip = st._nc, st._skip
    for i, us, kids in reversed(reached(st, root, st._counted)):
        width = skip[i + 1] // skip[_feature(st, kids)]
        counts[us] = (counts[kids] * width).sum(axis=1)
        st._counted[us] = True
    return int(counts[root]) * int(skip[0] // skip[int(st.feature_of[st.level[root]])])
