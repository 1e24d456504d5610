"""The fast path for text labels gives the classes and codes of the general one."""

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from grader.confold.estimator import _class_codes, _labels, _text_label_codes


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=4), min_size=1, max_size=6, unique=True), st.integers(0, 2 ** 31),
       st.sampled_from(["str", "string"]))
def test_text_labels_are_coded_as_the_general_way_codes_them(values, seed, dtype):
    y = pd.Series(np.random.default_rng(seed).choice(np.array(values, dtype=object), 40), dtype=dtype)
    codes, classes = _text_label_codes(y, len(y))
    expected_codes, expected_classes = _class_codes(_labels(y, len(y)))
    assert np.array_equal(codes, expected_codes)
    assert classes == expected_classes and all(type(c) is str for c in classes)


def test_other_labels_go_the_general_way():
    assert _text_label_codes(pd.Series(["a", 1], dtype=object), 2) is None
    assert _text_label_codes(pd.Series(["a", None], dtype="str"), 2) is None
    assert _text_label_codes(["a", "b"], 2) is None
    assert _text_label_codes(pd.Series(["a", "b"], dtype="str"), 3) is None
