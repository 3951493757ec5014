"""The unate shortcut of pi-inst: on every binary-class naive Bayes each feature's least
state (``odd.meta["least_states"]``) is saved and loaded with the ODD, found from the
classifier when a file lacks it, and the PI-explanations match the oracle. That its
cofactor is the conjunction of all cofactors at every node: tests/explanation/test_units.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnx
from tests._support import oracle
from tests._support.legacy_files import resign
from tests._support.strategies import classifier_of, naive_bayes, possible_instances


def _argmax_or_threshold(case, argmax: bool):
    if argmax and len(case.net.get_cpds(case.class_var).state_names[case.class_var]) == 2:
        return bnx.Classifier(case.net, case.class_var, case.positive, features=case.features,
                              rule="argmax")
    return classifier_of(case)


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
    x = data.draw(possible_instances(case))
    want = oracle.pi_explanations(case.net, case.class_var, case.positive, clf.threshold,
                                  case.features, x, rule=clf.rule)
    for o in (odd, back):
        assert bnx.pi_explanations(o, x, within="all").to_set() == want


def test_a_file_without_least_states_still_uses_them(tmp_path):
    """An ODD whose metadata does not say (a file from before) finds them from its
    classifier."""
    odd = bnx.compile(bnx.examples.admissions(), backend="autoref")
    meta = dict(odd.meta)
    del meta["least_states"]
    bare = bnx.ODD(odd.classifier, odd.encoding, backend="autoref", arrays=odd.arrays,
                   meta=meta)
    assert np.array_equal(bare.arrays.lo, odd.arrays.lo)
    assert bnx.pi_explanations(bare, dict.fromkeys(bare.features, "+")).count == 3
    # a file without the key: the loaded ODD's metadata lacks it, so the questions take
    # the classifier's (the fallback), and every instance's PI-explanations stay the same
    path = odd.save(str(tmp_path / "old.bnx"))
    resign(path, lambda doc: doc.pop("least_states"))
    back = bnx.ODD.load(path, backend="autoref")
    assert "least_states" not in back.meta
    for combo in itertools.product(*(back.states(f) for f in back.features)):
        x = dict(zip(back.features, combo))
        assert bnx.pi_explanations(back, x).to_set() == bnx.pi_explanations(odd, x).to_set()
        assert back.arrays.cache.get("least_pair") is not None  # found through the fallback


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
