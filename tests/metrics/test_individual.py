"""Tests of kNN consistency (seed 000 Eqs. 6 and 9)."""

import numpy as np
import pytest
from sklearn.neighbors import NearestNeighbors

from fairbook.metrics.individual import (
    consistency,
    consistency_by_group,
    individual_fairness,
    nearest_neighbors,
    scale_features,
)


def brute_neighbors(X, k):
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(d2, np.inf)
    return np.argsort(d2, axis=1, kind="stable")[:, :k]


@pytest.mark.parametrize("scale", ["standard", "minmax", "none"])
def test_neighbors_match_brute_force_and_scikit_learn(scale):
    X = np.random.default_rng(0).normal(size=(300, 4)) * [1, 10, 100, 0.1]
    ours = nearest_neighbors(X, k=7, scale=scale, chunk_size=64)
    scaled = scale_features(X, scale=scale)
    np.testing.assert_array_equal(ours, brute_neighbors(scaled, 7))
    sk = NearestNeighbors(n_neighbors=8).fit(scaled).kneighbors(scaled)[1][:, 1:]
    np.testing.assert_array_equal(ours, sk)


def test_ties_are_broken_by_row_order_and_self_is_excluded():
    X = np.array([[0.0], [0.0], [0.0], [5.0], [0.0]])
    nn = nearest_neighbors(X, k=3, scale="none")
    assert nn[0].tolist() == [1, 2, 4]
    assert nn[2].tolist() == [0, 1, 4]
    assert nn[3].tolist() == [0, 1, 2]
    assert all(i not in row for i, row in enumerate(nn))


def test_consistency_by_hand():
    X = [[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]]
    y_pred = [1, 1, 0, 0, 0, 0]
    scores = consistency(y_pred, X, k=2, scale="none")
    # row 0: neighbours 1, 2 -> 1 - |1 - .5| = .5; row 2: neighbours 1, 0 -> 1 - |0 - 1| = 0
    np.testing.assert_allclose(scores, [0.5, 0.5, 0.0, 1.0, 1.0, 1.0])
    u = [0.1, 0.1, 0.1, 0.3, 0.3, 0.5]
    np.testing.assert_allclose(consistency(u, X, k=2, scale="none"), [1, 1, 1, 0.9, 0.9, 0.8])


def test_by_group_and_table():
    scores = [1.0, 0.5, 0.0, 1.0]
    series = consistency_by_group(scores, ["B", "B", "W", "W"], [1, 1, 0, 1], keep=["B", "W"])
    assert series.to_dict() == {"B(+)": 0.75, "W(+)": 1.0, "W(-)": 0.0}
    counts = consistency_by_group(scores, ["B", "B", "W", "W"], [1, 1, 0, 1], statistic="count")
    assert counts.to_dict() == {"B(+)": 2, "W(+)": 1, "W(-)": 1}
    table = individual_fairness(
        [[0.0], [0.1], [5.0], [5.1]],
        [1, 1, 0, 0],
        {"U_a": [0.1, 0.2, 0.3, 0.3]},
        ["B", "B", "W", "W"],
        [1, 1, 0, 0],
        k=1,
        scale="none",
    )
    assert list(table.columns) == ["n", "F_y", "F_U_a"]
    assert table.loc["B(+)", "F_U_a"] == pytest.approx(0.9)
    assert table["n"].tolist() == [2, 2]


def test_bad_inputs():
    with pytest.raises(ValueError, match="k must"):
        nearest_neighbors([[0.0], [1.0]], k=2)
    with pytest.raises(ValueError, match="scale"):
        scale_features([[0.0]], scale="robust")
    with pytest.raises(ValueError, match="finite"):
        scale_features([[np.nan]])
    with pytest.raises(ValueError, match="X"):
        consistency([1, 0])
    with pytest.raises(ValueError, match="rows"):
        consistency([1, 0, 1], [[0.0], [1.0]], k=1)
    with pytest.raises(ValueError, match="0 and 1"):
        consistency_by_group([1.0], ["a"], [2])
    with pytest.raises(ValueError, match="one length"):
        consistency_by_group([1.0, 2.0], ["a"], [1])
