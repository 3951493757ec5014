"""The unate shortcut of pi-inst (bnx.classifier._unate): on every binary-class naive Bayes, the
cofactor on each feature's least state is the conjunction of all its cofactors, at every
node of the decision function and of its complement; saved and loaded with the ODD."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from bnx.classifier._unate import least_pair, least_states  # private: read off the CPTs
from bnx.diagram._arrays import negate  # private: the negative decision's arrays
from bnx.diagram.store import Store
from tests._support import oracle
from tests._support.legacy_files import resign
from tests._support.strategies import classifier_of, instances, naive_bayes


def _argmax_or_threshold(case, argmax: bool):
    if argmax and len(case.net.get_cpds(case.class_var).state_names[case.class_var]) == 2:
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return classifier_of(case)


@settings(max_examples=60, deadline=None)
@given(case=naive_bayes(max_features=4, max_instances=64), argmax=st.booleans())
def test_least_state_cofactor_is_the_conjunction_of_all(case, argmax):
    clf = _argmax_or_threshold(case, argmax)
    odd = bnx.compile(clf, backend="autoref")
    pair = least_pair(clf, odd.encoding.features)
    if len(clf.class_states) != 2:
        assert pair is None
        return
    assert odd.meta["least_states"] == pair
    enc = odd.encoding
    for decision, arrays in ((True, odd.arrays), (False, negate(odd.arrays))):
        least = least_states(clf, enc.features, decision)
        assert least == pair[0 if decision else 1]
        plain = Store.from_arrays(arrays, enc)  # stars by conjunction
        plain.close()
        fast = Store.from_arrays(arrays, enc, least=least)
        fast.close()
        # same function at every node pi-inst can meet (reached at a feature boundary; a
        # node inside a multi-bit feature only is no function of whole states)
        for u in _at_boundaries(plain, enc, arrays.root):
            assert _table(plain, int(plain.star[u])) == _table(fast, int(fast.star[u]))


def _at_boundaries(store: Store, enc, root: int) -> set:
    """The inner nodes reached from ``root`` through whole features."""
    out, reached = set(), {root}
    for i in range(len(enc.features)):
        end = enc.first_level[i + 1]
        test = {u for u in reached if u > 1 and store.level[u] < end}
        out |= test
        reached = (reached - test) | {int(store.cofactor(u, i, j)) for u in test
                                      for j in range(len(enc.states[i]))}
    return out


def _table(store: Store, u: int) -> tuple:
    """The truth table of store node ``u`` over all the variables."""
    out = []
    for bits in itertools.product((0, 1), repeat=store.nvars):
        v = u
        while v > 1:
            v = int(store.hi[v] if bits[store.level[v]] else store.lo[v])
        out.append(v)
    return tuple(out)


@settings(max_examples=40, deadline=None)
@given(case=naive_bayes(max_features=4, max_instances=48), argmax=st.booleans(),
       data=st.data())
def test_pi_explanations_after_save_and_load_match_the_oracle(tmp_path_factory, case, argmax,
                                                              data):
    clf = _argmax_or_threshold(case, argmax)
    odd = bnx.compile(clf, backend="autoref")
    path = tmp_path_factory.mktemp("unate") / "nb.bnx"
    back = bnx.ODD.load(odd.save(str(path)), backend="autoref")
    assert back.meta.get("least_states") == odd.meta["least_states"]
    x = data.draw(instances(case))
    want = oracle.pi_explanations(case.net, case.class_var, case.positive, clf.threshold,
                                  case.features, x, rule=clf.rule)
    for o in (odd, back):
        assert bnx.pi_explanations(o, x).to_set() == want


def test_general_networks_have_no_least_states():
    clf = bnx.case_study.votes_tan_classifier()
    assert least_pair(clf, clf.features) is None


def test_a_file_without_least_states_still_uses_them(tmp_path):
    """An ODD whose metadata does not say (a file from before) finds them from its
    classifier."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    meta = dict(odd.meta)
    del meta["least_states"]
    bare = bnx.ODD(odd.classifier, odd.encoding, backend="autoref", arrays=odd.arrays,
                   meta=meta)
    from bnx.question import _cache  # private: the fallback a file without the key takes
    assert _cache.least_states(bare, True) == (0, 0, 0, 0)
    assert np.array_equal(bare.arrays.lo, odd.arrays.lo)
    # a file without the key: the loaded ODD's metadata lacks it, so _cache takes the
    # classifier's (the fallback), and every instance's PI-explanations stay the same
    path = odd.save(str(tmp_path / "old.bnx"))
    resign(path, lambda doc: doc.pop("least_states"))
    back = bnx.ODD.load(path, backend="autoref")
    assert "least_states" not in back.meta
    assert _cache.least_states(back, True) == (0, 0, 0, 0)
    assert back.arrays.cache.get("least_pair") is not None  # found through the fallback
    for combo in itertools.product(*(back.states(f) for f in back.features)):
        x = dict(zip(back.features, combo))
        assert bnx.pi_explanations(back, x).to_set() == bnx.pi_explanations(odd, x).to_set()


@pytest.mark.parametrize("bad", [[[0, 0, 0, 0]], [[0, 0, 0], [1, 1, 1]],
                                 [[0, 0, 0, 2], [1, 1, 1, 1]], [[0, 0, 0, "0"], [1, 1, 1, 1]],
                                 "yes", [[0, 0, 0, True], [1, 1, 1, 1]]])
def test_a_malformed_least_states_key_is_refused(tmp_path, bad):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    path = odd.save(str(tmp_path / "a.bnx"))
    resign(path, lambda doc: doc.__setitem__("least_states", bad))
    with pytest.raises(bnx.ODDFileError, match="least_states"):
        bnx.ODD.load(path, backend="autoref")


def test_a_file_with_null_least_states_loads(tmp_path):
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    path = odd.save(str(tmp_path / "a.bnx"))
    resign(path, lambda doc: doc.__setitem__("least_states", None))
    back = bnx.ODD.load(path, backend="autoref")
    assert back.meta["least_states"] is None
    x = dict.fromkeys(back.features, "+")
    assert bnx.pi_explanations(back, x).to_set() == bnx.pi_explanations(odd, x).to_set()
