"""Bad input: a ValueError that says what is wrong, or the documented handling."""


import numpy as np
import pandas as pd
import pytest

from grader import ConFold


def data():
    X = pd.DataFrame({"concept:gap": ["present", "absent", "present", "absent", "present", "negated"],
                      "length": [10, 3, 12, 4, 8, 5]})
    return X, pd.Series(["2", "0", "2", "0", "2", "1"], name="mark")


def test_empty_data():
    with pytest.raises(ValueError, match="empty"):
        ConFold().fit(pd.DataFrame({"a": []}), pd.Series([], dtype=object))


def test_single_class():
    X, _ = data()
    with pytest.raises(ValueError, match="single class .*'2'"):
        ConFold().fit(X, ["2"] * len(X))


def test_lengths_differ():
    X, y = data()
    with pytest.raises(ValueError, match="6 rows but y has 5 labels"):
        ConFold().fit(X, y[:5])


@pytest.mark.parametrize("missing", [None, np.nan])
def test_missing_label(missing):
    X, y = data()
    y = y.astype(object)
    y[3] = missing
    with pytest.raises(ValueError, match="missing labels .* row\\(s\\) 3"):
        ConFold().fit(X, y)


def test_duplicate_column_names():
    X, y = data()
    X.columns = ["length", "length"]
    with pytest.raises(ValueError, match="duplicate column names: length"):
        ConFold().fit(X, y)


def test_not_a_dataframe():
    with pytest.raises(ValueError, match="must be a pandas DataFrame"):
        ConFold().fit([[1, 2]], [1])


def test_column_of_only_missing_values_is_ignored_with_a_warning():
    X, y = data()
    X["value:g"] = np.nan
    with pytest.warns(UserWarning, match="value:g .*only missing"):
        model = ConFold().fit(X, y)
    assert all(l.feature != "value:g" for r in model.rules_ for l in r.body)
    assert list(model.predict(X)) == list(y)


def test_unseen_category_matches_no_equality():
    X, y = data()
    model = ConFold().fit(X, y)
    new = pd.DataFrame({"concept:gap": ["unheard-of"], "length": [10]})
    # no `==` literal holds for the unseen value; rules made of `==` on it do not apply
    labels = model.predict(new)
    gap_rules = [r for r in model.rules_ if any(l.feature == "concept:gap" and l.op == "==" for l in r.body)]
    assert gap_rules
    _, _, index = model.predict_rules(new)
    assert index[0] == -1 or model.rules_[index[0]] not in gap_rules
    assert labels.shape == (1,)


def test_missing_column_at_predict_time_is_named():
    X, y = data()
    model = ConFold().fit(X, y)
    used = {l.feature for r in model.rules_ for l in r.body}
    with pytest.raises(ValueError, match="'concept:gap'"):
        model.predict(X.drop(columns=["concept:gap"]))
    assert "concept:gap" in used


def test_unfitted_model():
    with pytest.raises(ValueError, match="not fitted"):
        ConFold().predict(pd.DataFrame({"a": [1]}))


@pytest.mark.parametrize("params, match", [({"ratio": -1}, "ratio"), ({"z": 0}, "z must"),
                                           ({"confidence_threshold": 1.5}, "confidence_threshold"),
                                           ({"improvement_threshold": "x"}, "improvement_threshold"),
                                           ({"min_initial_precision": 2}, "min_initial_precision"),
                                           ({"min_initial_precision": None}, "min_initial_precision"),
                                           ({"fold_rm_update": "yes"}, "fold_rm_update must be True or False"),
                                           ({"default_rule": 1}, "default_rule must be True or False")])
def test_bad_parameters(params, match):
    X, y = data()
    with pytest.raises(ValueError, match=match):
        ConFold(**params).fit(X, y)


def test_init_learns_nothing():
    model = ConFold(ratio=0.7)
    assert not hasattr(model, "rules_") and model.get_params()["ratio"] == 0.7


def test_pandas_nullable_and_categorical_dtypes():
    X = pd.DataFrame({"flag": pd.array([True, False, None, True, False, True], dtype="boolean"),
                      "word": pd.array(["a", "b", None, "a", "c", "a"], dtype="string"),
                      "count": pd.array([1, 2, None, 4, 5, 6], dtype="Int64"),
                      "kind": pd.Categorical(["x", "y", "x", None, "y", "x"])})
    y = ["1", "0", "0", "1", "0", "1"]
    model = ConFold().fit(X, y)
    assert list(model.predict(X)) == y
    assert [e.kind for e in model.encodings_] == ["boolean", "categorical", "numeric", "categorical"]
    # the missing flag is the category "?": it satisfies `flag != True`
    (e,) = model.explain(X.iloc[[2]])
    assert e.literals[0].actual is None and "'?' (missing)" in e.text()


def test_set_params():
    model = ConFold().set_params(ratio=0.3, confidence_threshold=0.6)
    assert model.get_params()["ratio"] == 0.3 and model.confidence_threshold == 0.6
    with pytest.raises(ValueError, match="unknown parameter.*depth"):
        ConFold().set_params(depth=3)


def test_unhashable_cells():
    X = pd.DataFrame({"tokens": [["a"], ["b"], ["a"], ["c"]]})
    with pytest.raises(ValueError, match="column 'tokens': cells must be text, numbers or booleans"):
        ConFold().fit(X, [1, 0, 1, 0])
