"""Tests of seed 000's synthetic data (SD1–SD3) and the truncated-sequence stand-in."""

import numpy as np
import pytest

from fairbook.data.synthetic import (
    SD_CELLS,
    make_sd,
    make_truncated_sequences,
    sd_table,
    split_train_test,
)


def test_shapes_and_cells():
    X, y, g = make_sd(2, n_per_cell=100, seed=0)
    assert X.shape == (400, 2)
    cells = np.bincount(2 * g + y)
    assert cells.tolist() == [100, 100, 100, 100]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_moments_match_the_corrected_equations(k):
    X, y, g = make_sd(k, n_per_cell=40_000, seed=1)
    for (gg, yy), (kind, loc, cov) in SD_CELLS[k].items():
        cell = X[(g == gg) & (y == yy)]
        if kind == "beta":  # Beta(.5, .5): mean .5, variance 1/8 per coordinate
            np.testing.assert_allclose(cell.mean(axis=0), [0.5 * loc] * 2, atol=0.01)
            np.testing.assert_allclose(np.cov(cell.T), np.eye(2) / 8, atol=0.01)
        else:
            np.testing.assert_allclose(cell.mean(axis=0), [loc, loc], atol=0.08)
            np.testing.assert_allclose(np.cov(cell.T), cov, rtol=0.05)


def test_sd1_orientation():
    X, y, g = make_sd(1, n_per_cell=50, seed=0)
    assert (X[(g == 0) & (y == 1)] >= 0).all() and (X[(g == 0) & (y == 0)] <= 0).all()
    assert X[(g == 1) & (y == 1)].mean() > 0  # G = 1, like corrected G = 0: class 1 positive
    Xp, yp, gp = make_sd(1, n_per_cell=50, seed=0, orientation="printed")
    np.testing.assert_array_equal(Xp[gp == 0], -X[g == 0])
    np.testing.assert_array_equal(Xp[gp == 1], X[g == 1])


def test_printed_and_corrected_cells_table():
    table = sd_table()
    assert len(table) == 12
    assert table.loc[(2, 1, 0), "printed"].startswith("N([−7,−7], [5,1; 5,1])")
    assert table["differs"].sum() == 5  # SD1 G0 ×2, SD2 G1 ×2, SD3 G1 Y0


def test_seeded_and_bad_arguments():
    np.testing.assert_array_equal(make_sd(3, seed=4)[0], make_sd(3, seed=4)[0])
    assert not np.array_equal(make_sd(3, seed=4)[0], make_sd(3, seed=5)[0])
    with pytest.raises(ValueError, match="k must"):
        make_sd(4)
    with pytest.raises(ValueError, match="orientation"):
        make_sd(1, orientation="flipped")
    with pytest.raises(ValueError, match="n_per_cell"):
        make_sd(1, n_per_cell=0)


def test_split_sizes_and_stratification():
    X, y, g = make_sd(1, seed=0)
    X_tr, X_te, y_tr, y_te, g_tr, g_te = split_train_test(X, y, g, seed=0)
    assert (len(X_tr), len(X_te)) == (320, 80)
    parts = split_train_test(X, y, g, seed=0, stratify=2 * g + y)
    assert np.bincount(2 * parts[5] + parts[3]).tolist() == [20, 20, 20, 20]
    # the parts partition the rows
    assert sorted(np.r_[X_tr[:, 0], X_te[:, 0]].tolist()) == sorted(X[:, 0].tolist())
    with pytest.raises(ValueError, match="differ in length"):
        split_train_test(X, y[:-1])
    with pytest.raises(ValueError, match="test_size"):
        split_train_test(X, test_size=1.0)


def test_truncated_sequences():
    whole = make_truncated_sequences(t_max=None, seed=3, scale=0.5)
    cut = make_truncated_sequences(t_max=596, seed=3, scale=0.5)
    assert cut["X"].shape[1] == 59 and (cut["lengths"] <= 59).all()
    assert not whole["episode_lost"].any()
    # the same recordings, cut: kept steps agree, the rest is zero padding
    for i in range(len(cut["y"])):
        n = cut["lengths"][i]
        np.testing.assert_array_equal(cut["X"][i, :n], whole["X"][i, :n])
        assert not cut["X"][i, n:].any()
    female = cut["g"] == "F"
    assert cut["episode_lost"][female].mean() > cut["episode_lost"][~female].mean()
    counts = {
        (g, y): int(((cut["g"] == g) & (cut["y"] == y)).sum()) for g in ("F", "M") for y in (0, 1)
    }
    assert counts == {("F", 0): 133, ("F", 1): 186, ("M", 0): 70, ("M", 1): 91}
    with pytest.raises(ValueError, match="t_max"):
        make_truncated_sequences(t_max=0)


def test_true_posterior_is_calibrated_and_bayes_accuracy_is_analytic():
    from scipy.stats import norm

    from fairbook.data.synthetic import sd_bayes, sd_posterior

    X, y, g = make_sd(3, n_per_cell=20_000, seed=2)
    p = sd_posterior(3, X)
    bins = np.digitize(p, np.linspace(0, 1, 11)[1:-1])
    for b in np.unique(bins):
        in_bin = bins == b
        if in_bin.sum() > 2000:  # calibration: frequency of Y = 1 matches the posterior
            assert y[in_bin].mean() == pytest.approx(p[in_bin].mean(), abs=0.02)
    bayes = sd_bayes(2, n_per_cell=20_000)
    # SD2's G0 classes differ by (20, 20) under Σ = [100, 30; 30, 100]: Mahalanobis
    # distance sqrt(800 / 130); G1's posterior barely involves G0 there
    assert bayes["ACC"][0] == pytest.approx(norm.cdf(np.sqrt(800 / 130) / 2), abs=0.01)
    corrected = sd_posterior(1, [[0.5, 0.5]])[0]
    printed = sd_posterior(1, [[0.5, 0.5]], orientation="printed")[0]
    assert corrected > 0.99 and printed < 0.01
