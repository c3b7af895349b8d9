"""Tests of mlcore.datasets: the shipped files load like scikit-learn's data sets."""

import numpy as np
import pytest
from sklearn.datasets import load_wine

from mlcore.datasets import load_wholesale, load_wine_quality, read_data_file


def test_wholesale_shapes_and_class_counts_match_the_uci_description():
    for target, counts in [("channel", [298, 142]), ("region", [77, 47, 316])]:
        bunch = load_wholesale(target)
        assert bunch.data.shape == (440, 6)
        assert np.bincount(bunch.target).tolist() == counts
        assert len(bunch.target_names) == len(counts)
    assert load_wholesale().feature_names == ["Fresh", "Milk", "Grocery", "Frozen",
                                              "Detergents_Paper", "Delicassen"]


def test_wholesale_data_are_the_spending_columns_of_the_file():
    frame = read_data_file("wholesale_customers.csv")
    X, y = load_wholesale("region", return_X_y=True)
    np.testing.assert_array_equal(X, frame.iloc[:, 2:].to_numpy(dtype=float))
    np.testing.assert_array_equal(y, frame["Region"].to_numpy() - 1)
    assert X.sum() == pytest.approx(frame.iloc[:, 2:].to_numpy().sum())


@pytest.mark.parametrize("color, m, counts", [
    ("red", 1599, {3: 10, 4: 53, 5: 681, 6: 638, 7: 199, 8: 18}),
    ("white", 4898, {3: 20, 4: 163, 5: 1457, 6: 2198, 7: 880, 8: 175, 9: 5}),
])
def test_wine_quality_shapes_and_quality_counts(color, m, counts):
    X, y = load_wine_quality(color, return_X_y=True)
    assert X.shape == (m, 11)
    values, found = np.unique(y, return_counts=True)
    assert dict(zip(values.tolist(), found.tolist())) == counts
    X2, y2 = load_wine_quality(color, binary=True, return_X_y=True)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, (y > 5).astype(int))


def test_loaders_return_the_same_kind_of_bunch_as_scikit_learn():
    reference = set(load_wine().keys())
    for bunch in (load_wholesale(), load_wine_quality("white")):
        assert reference <= set(bunch.keys()), reference - set(bunch.keys())
        assert bunch.data.dtype == float and bunch.data.shape[1] == len(bunch.feature_names)
        assert "CC BY 4.0" in bunch.DESCR
    assert load_wine_quality("red").frame.shape == (1599, 12)


def test_wine_quality_means_agree_with_the_published_summary():
    # Cortez et al. (2009), Table 1: mean alcohol 10.4 (red) and 10.5 (white)
    assert load_wine_quality("red").data[:, 10].mean() == pytest.approx(10.42, abs=0.01)
    assert load_wine_quality("white").data[:, 10].mean() == pytest.approx(10.51, abs=0.01)


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="target must be one of 'channel', 'region', got target='Channel'"):
        load_wholesale("Channel")
    with pytest.raises(ValueError, match="color must be one of"):
        load_wine_quality("rose")
    with pytest.raises(TypeError, match="binary must be True or False"):
        load_wine_quality("red", binary="yes")
    with pytest.raises(ValueError, match="name must be a file of mlcore/data"):
        read_data_file("missing.csv")
