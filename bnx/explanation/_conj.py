"""Conjunctions of an ODD's nodes, computed on its arrays: the "star" nodes of pi-inst.

pi-inst and pi-cover (:mod:`.pi`) follow, below a node that tests feature ``i``, the
conjunction of its cofactors over all states of ``i`` (the function left when ``i`` is
dropped): a function the ODD may not hold. A :class:`Store` holds the ODD's nodes (the
arrays, copied once into growable buffers) and the new nodes such conjunctions make,
reduced and canonical (a unique table per level: sorted keys in numpy), so a node number
names one function. Conjunctions are computed breadth first, many pairs at once: the pairs
of operands are expanded level by level top-down (numpy gathers, one ``unique`` per level),
then the results are made bottom-up, one vectorised unique-table lookup per level.

Each node's star (the conjunction of its cofactors) does not depend on the instance: the
store keeps it once made. Where the function is known to be unate in a feature
(``least``, from :mod:`.unate`: every binary-class naive Bayes), the star is the cofactor
on the feature's least state, a node the store already holds: no conjunction is made;
a small function unate in every feature gets a :class:`~._unate_store.UnateStore`, in
Python lists only. Otherwise, on a small ODD every star is made at once
(:meth:`Store.close`); on a large one, only the stars a question reaches.

Examples
--------
>>> import bnx
>>> from bnx.diagram.encoding import Encoding
>>> from bnx.diagram._arrays import Builder
>>> enc = Encoding(("a", "b"), (("0", "1"), ("0", "1")))
>>> bld = Builder(2)
>>> b = bld.nodes(1, [0], [1])
>>> f = bld.nodes(0, b, [1])                 # a or b
>>> s = Store(bld.finish(int(f[0])), enc)
>>> s.star_of(s.root) == s.root - 1          # (a or b) with a dropped: b
True
>>> s.conj([s.root], [s.root - 1]).tolist()  # (a or b) and b = b
[2]
"""

from __future__ import annotations

from .._lazy import numpy_on_first_use
from ..diagram._arrays import DiagramArrays, unique
from ..diagram.encoding import Encoding
from ._unate_store import UnateStore

np = numpy_on_first_use(globals())

__all__ = ["Store", "store_for"]

_INT = "int64"  # (a dtype name: numpy is imported on first use)
_B = 1 << 31  # pair keys: a * _B + b (node numbers stay below 2 ** 31)


class Store:
    """An ODD's nodes and the conjunctions made of them, as numpy buffers.

    Attributes
    ----------
    level, lo, hi : numpy.ndarray
        Per node (the first :attr:`n` entries are in use): level and children; nodes
        ``0 .. arrays.size - 1`` are the ODD's.
    star : numpy.ndarray
        Per node, the conjunction of its cofactors over the feature it tests (``-1``:
        not made yet).
    py : tuple of list or None
        ``(level, lo, hi, star)`` as Python lists on a small store (kept in step).
    """

    def __init__(self, arrays: DiagramArrays, enc: Encoding, *, lists: bool = False,
                 least: tuple | None = None) -> None:
        n = arrays.size
        cap = n + max(1024, n // 4)
        self.nvars = arrays.nvars
        self.root = arrays.root
        self.n = n
        self.level = np.empty(cap, dtype=_INT)
        self.lo = np.empty(cap, dtype=_INT)
        self.hi = np.empty(cap, dtype=_INT)
        self.star = np.full(cap, -1, dtype=_INT)
        self.level[:n], self.lo[:n], self.hi[:n] = arrays.level, arrays.lo, arrays.hi
        self.star[:2] = (0, 1)
        self._blocks = [arrays.block(lv) for lv in range(arrays.nvars)]
        self._tables: dict = {}  # level -> (sorted keys, node numbers)
        self._extra: dict = {}  # level -> list of arrays of new nodes at that level
        self._memo: dict = {}  # level -> (sorted pair keys, their conjunctions)
        self.first = enc.first_level
        self.nbits = [len(b) for b in enc.bits]
        self.nstates = [len(s) for s in enc.states]
        self.least = least  # per feature, the state whose cofactor is the star (or None)
        self.feature_of = np.searchsorted(np.asarray(self.first), np.arange(self.nvars + 1),
                                          side="right") - 1
        self.feature_of[self.nvars] = len(enc.features)
        self.py = ((*arrays.lists(), [0, 1] + [-1] * (n - 2)) if lists else None)
        self.closed = False
        self.memoise = lists  # keep conj's memo (a large store gains little from it)

    # ------------------------------------------------------------------ nodes
    def _grow(self, k: int) -> None:
        need = self.n + k
        if need <= len(self.level):
            return
        cap = max(need, 2 * len(self.level))
        for name in ("level", "lo", "hi", "star"):
            old = getattr(self, name)
            new = np.full(cap, -1, dtype=_INT)
            new[:self.n] = old[:self.n]
            setattr(self, name, new)

    def _table(self, lvl: int) -> tuple:
        got = self._tables.get(lvl)
        if got is None:
            s = self._blocks[lvl]
            ids = np.arange(s.start, s.stop, dtype=_INT)
            extra = self._extra.get(lvl)
            if extra:
                ids = np.concatenate([ids, *extra])
            keys = self.lo[ids] * _B + self.hi[ids]
            order = np.argsort(keys, kind="stable")
            got = self._tables[lvl] = (keys[order], ids[order])
        return got

    def nodes(self, lvl: int, lo, hi) -> np.ndarray:
        """The reduced, canonical nodes ``(lvl, lo, hi)`` (made where missing)."""
        lo = np.asarray(lo, dtype=_INT)
        hi = np.asarray(hi, dtype=_INT)
        out = lo.copy()
        inner = lo != hi
        if not inner.any():
            return out
        keys = lo[inner] * _B + hi[inner]
        sk, ids = self._table(lvl)
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
            self._grow(k)
            new_ids = np.arange(self.n, self.n + k, dtype=_INT)
            a, b = new_keys // _B, new_keys % _B
            self.level[self.n:self.n + k] = lvl
            self.lo[self.n:self.n + k] = a
            self.hi[self.n:self.n + k] = b
            self.star[self.n:self.n + k] = -1
            self.n += k
            if self.py is not None:
                self.py[0].extend([lvl] * k)
                self.py[1].extend(a.tolist())
                self.py[2].extend(b.tolist())
                self.py[3].extend([-1] * k)
            self._extra.setdefault(lvl, []).append(new_ids)
            at = np.searchsorted(sk, new_keys)  # both sorted: a merge, no sort
            self._tables[lvl] = (np.insert(sk, at, new_keys), np.insert(ids, at, new_ids))
            got[~found] = new_ids[inv.ravel()]
        out[inner] = got
        return out

    # ------------------------------------------------------------------ conjunction
    @staticmethod
    def _terminal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        r = np.full(len(a), -1, dtype=_INT)
        r = np.where((a == 1) & (r < 0), b, r)
        r = np.where(((b == 1) | (a == b)) & (r < 0), a, r)
        return np.where((a == 0) | (b == 0), 0, r)

    def conj(self, a, b) -> np.ndarray:
        """``a[k] and b[k]`` for every ``k``, as node numbers (new nodes made as needed).

        On a small store, pairs already conjoined by an earlier call are looked up (a
        memo per level, sorted keys in numpy), not expanded again.
        """
        a = np.asarray(a, dtype=_INT)
        b = np.asarray(b, dtype=_INT)
        res = self._terminal(a, b)
        todo = res < 0
        if not todo.any():
            return res
        level, lo, hi = self.level, self.lo, self.hi
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
        memo = self._memo if self.memoise else {}
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
                r = self._terminal(u, v)
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
            out = made[ids] = self.nodes(lv, resolve(c0), resolve(c1))
            if not self.memoise:
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

    # ------------------------------------------------------------------ stars
    def cofactor(self, us: np.ndarray, i: int, j: int) -> np.ndarray:
        """The cofactors of nodes ``us`` (all testing feature ``i``) on state ``j``."""
        a, m = self.first[i], self.nbits[i]
        level, lo, hi = self.level, self.lo, self.hi
        u = np.asarray(us, dtype=_INT)
        for bit in range(m):
            at = level[u] == a + bit
            u = np.where(at, hi[u] if (j >> (m - 1 - bit)) & 1 else lo[u], u)
        return u

    def cofactors(self, us: np.ndarray, i: int) -> np.ndarray:
        """The cofactors of nodes ``us`` (all testing feature ``i``) over each state of
        ``i``: one row per node, one column per state."""
        us = np.asarray(us, dtype=_INT)
        out = np.empty((len(us), self.nstates[i]), dtype=_INT)
        for j in range(self.nstates[i]):
            out[:, j] = self.cofactor(us, i, j)
        return out

    def _stars(self, us: np.ndarray, i: int) -> np.ndarray:
        """The stars of nodes ``us`` of feature ``i`` (conjunctions made as needed)."""
        if self.least is not None:
            return self.cofactor(us, i, self.least[i])
        cof = self.cofactors(us, i)
        s = cof[:, 0]
        for j in range(1, cof.shape[1]):
            s = self.conj(s, cof[:, j])
        return s

    def make_stars(self, us, i: int) -> None:
        """Make the stars of nodes ``us`` of feature ``i``."""
        us = np.asarray(us, dtype=_INT)
        if not len(us):
            return
        self._set_stars(us, self._stars(us, i))

    def _set_stars(self, us: np.ndarray, s: np.ndarray) -> None:
        self.star[us] = s
        if self.py is not None:
            st = self.py[3]
            for u, v in zip(us.tolist(), s.tolist()):
                st[u] = v

    def star_of(self, u: int) -> int:
        """The star of node ``u`` (made on first use)."""
        got = int(self.star[u])
        if got < 0:
            self.make_stars([u], int(self.feature_of[self.level[u]]))
            got = int(self.star[u])
        return got

    def close(self) -> None:
        """Make the star of every node: the stars of all the nodes without one in one
        breadth-first conjunction (one per further state), then those of the nodes that
        made, until none is left."""
        while True:
            us = np.flatnonzero(self.star[:self.n] < 0)
            if not len(us):
                break
            feats = self.feature_of[self.level[us]]
            if self.least is not None:  # cofactor gathers, one feature at a time
                for i in np.unique(feats).tolist():
                    self.make_stars(us[feats == i], i)
                continue
            width = max(self.nstates[i] for i in np.unique(feats).tolist())
            cof = np.full((len(us), width), -1, dtype=_INT)
            for i in np.unique(feats).tolist():
                sel = feats == i
                cof[sel, :self.nstates[i]] = self.cofactors(us[sel], i)
            s = cof[:, 0].copy()
            for j in range(1, width):
                more = cof[:, j] >= 0
                if more.any():
                    s[more] = self.conj(s[more], cof[more, j])
            self._set_stars(us, s)
        self.closed = True


#: ODDs with at most this many nodes have all their stars made at once, and their store
#: kept as Python lists too.
CLOSE_LIMIT = 20_000


def store_for(arrays: DiagramArrays, enc: Encoding,
              least: tuple | None = None) -> Store | UnateStore:
    """The :class:`Store` of the function ``arrays`` (kept in ``arrays.cache``);
    ``least``: per feature, the state whose cofactor is the star, where the function is
    known to be unate (:func:`.unate.least_states`). A small unate function gets an
    :class:`~._unate_store.UnateStore`."""
    key = (enc.first_level, tuple(len(s) for s in enc.states), least)
    got = arrays.cache.get("conj_store", key)
    if got is None:
        small = arrays.size <= CLOSE_LIMIT
        if small and least is not None:
            got = arrays.cache.put("conj_store", key, UnateStore(arrays, enc, least))
            return got
        got = arrays.cache.put("conj_store", key, Store(arrays, enc, lists=small, least=least))
        if small:
            got.close()
    return got
