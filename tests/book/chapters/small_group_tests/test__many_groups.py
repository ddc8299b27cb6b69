"""Tests of :mod:`fairbook_book.chapters.small_group_tests._many_groups` (chapter 11, Sec. 2).

Oracles: intersections counted by hand; the family-wise table against the exact Bonferroni
product (within four Monte Carlo standard errors) and the global-null identities (FWER =
FDR, Holm = Bonferroni); the largest gap of a toy table by hand; the curve's one-group value
by direct summation of the binomial law; the real data sets' published sizes.
"""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fairbook.stats import many_groups as mg
from fairbook_book.chapters.small_group_tests import _many_groups as m


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def toy_groups():
    """Reference a·F·y (40 people, 30 positive); b·F·y 10 (0 positive); a·F·o 8 (4); c·M·y 1."""
    predicted = [1] * 30 + [0] * 10 + [0] * 10 + [1] * 4 + [0] * 4 + [1]
    race = ["a"] * 40 + ["b"] * 10 + ["a"] * 8 + ["c"]
    sex = ["F"] * 58 + ["M"]
    age = ["y"] * 50 + ["o"] * 8 + ["y"]
    return m.intersection_table(predicted, race, sex, age)


def test_intersection_table_by_hand():
    table = toy_groups()
    assert table["group"].tolist() == ["a · F · y", "b · F · y", "a · F · o", "c · M · y"]
    assert table["n"].tolist() == [40, 10, 8, 1]
    assert table["positives"].tolist() == [30, 0, 4, 1]
    np.testing.assert_allclose(table["ppr"], [0.75, 0.0, 0.5, 1.0])
    assert table["reference"].tolist() == [True, False, False, False]
    with pytest.raises(ValueError, match="same length"):
        m.intersection_table([1, 0], ["a"], ["F", "F"], ["y", "y"])
    with pytest.raises(ValueError, match="0 or 1"):
        m.intersection_table([2], ["a"], ["F"], ["y"])


def test_adult_age_bands_at_their_edges():
    bands = m._adult_age_band([17, 24, 25, 44, 45, 64, 65, 90])
    assert bands.tolist() == ["<25", "<25", "25–44", "25–44", "45–64", "45–64", "65+", "65+"]


def test_familywise_table_agrees_with_the_exact_product():
    groups = toy_groups()
    table = m.familywise_table(
        {"toy": groups}, tests=["match", "score"], n_sims=4000, seed=1, min_size=2
    )
    assert len(table) == 2 * len(mg.PROCEDURES)
    assert (table["groups"] == 2).all()  # the group of one person is left out
    np.testing.assert_array_equal(table["fwer"], table["fdr"])  # global null
    for test, part in table.groupby("test"):
        part = part.set_index("procedure")
        assert part.loc["holm", "fwer"] == part.loc["bonferroni", "fwer"]
        exact = mg.bonferroni_fwer_exact(test, [10, 8], p=0.75)
        assert part.loc["bonferroni", "fwer_exact"] == pytest.approx(exact)
        assert part.loc["holm", "fwer_exact"] == pytest.approx(exact)
        assert math.isnan(part.loc["benjamini_hochberg", "fwer_exact"])
        for procedure in ("none", "bonferroni"):
            row = part.loc[procedure]
            assert abs(row["fwer"] - row["fwer_exact"]) <= 4 * max(row["fwer_se"], 1e-3)
    with_singleton = m.familywise_table(groups, tests=["match"], n_sims=100, min_size=1)
    assert (with_singleton["groups"] == 3).all()


def test_tables_refuse_bad_groups():
    groups = toy_groups()
    no_reference = groups.assign(reference=False)
    with pytest.raises(ValueError, match="exactly one reference"):
        m.familywise_table(no_reference, tests=["match"], n_sims=10)
    with pytest.raises(ValueError, match="at least 50"):
        m.max_disparity_table(groups, min_size=50)
    with pytest.raises(ValueError, match="lacks column"):
        m.max_disparity_table(groups.drop(columns="positives"))
    with pytest.raises(ValueError, match="mapping"):
        m.familywise_table({}, tests=["match"])
    with pytest.raises(ValueError, match="unknown dataset"):
        m.intersection_groups("german")


def test_max_disparity_table_by_hand():
    groups = toy_groups()
    table = m.max_disparity_table({"toy": groups}, n_boot=400, seed=2)
    row = table.loc["toy"]
    assert row["groups"] == 2 and row["reference"] == "a · F · y"
    assert row["observed_max"] == pytest.approx(0.75)  # b·F·y: 0/10 against 30/40
    assert row["observed_group"] == "b · F · y"
    assert row["expected_max"] == pytest.approx(mg.expected_max_disparity([10, 8], p=0.75))
    # only x = 0 reaches a gap of 0.75, in either group
    assert row["p_chance"] == pytest.approx(1 - (1 - 0.25**10) * (1 - 0.25**8))
    kept = np.array([0.75, 0.0, 0.5])
    assert row["variance_naive"] == pytest.approx(np.var(kept, ddof=1))
    lum = np.var(kept, ddof=1) - np.mean(kept * (1 - kept) / np.array([40, 10, 8]))
    assert row["variance_lum"] == pytest.approx(lum)
    assert row["variance_lum_lower"] < row["variance_lum_upper"]
    assert row["variance_lum_se"] > 0
    assert row["variance_unbiased"] < row["variance_lum"] < row["variance_naive"]


def test_max_disparity_curve_one_group_is_the_mean_absolute_deviation():
    curve = m.max_disparity_curve(sizes=[10, 30], max_groups=6, p=0.4)
    assert curve.shape[0] == 12
    for size, part in curve.groupby("size"):
        x = np.arange(size + 1)
        direct = stats.binom.pmf(x, size, 0.4) @ np.abs(x / size - 0.4)
        assert part["expected_max"].iloc[0] == pytest.approx(direct)
        assert part["expected_max"].is_monotonic_increasing
        assert (part["quantile"] >= part["expected_max"]).all()
    by_size = curve.pivot(index="groups", columns="size", values="expected_max")
    assert (by_size[10] > by_size[30]).all()
    with pytest.raises(ValueError, match="max_groups"):
        m.max_disparity_curve(max_groups=0, p=0.4)


def test_plot_max_disparity_curve():
    curve = m.max_disparity_curve(sizes=[10, 30, 100], max_groups=4, p=0.55)
    ax = m.plot_max_disparity_curve(curve)
    assert len(ax.lines) == 6 and ax.get_xlabel() == "number of groups K"
    _, given = plt.subplots()
    assert m.plot_max_disparity_curve(curve, ax=given) is given


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_intersections():
    groups = m.intersection_groups("compas")
    assert groups["n"].sum() == 6172 and groups.attrs["dataset"] == "compas"
    reference = groups.loc[groups["reference"]].iloc[0]
    assert reference["group"] == "African-American · Male · 25–45" and reference["n"] == 1563
    assert isinstance(groups, pd.DataFrame) and len(groups) == 34


@pytest.mark.skipif(
    not (_cached("adult_train") and _cached("adult_test")), reason="Adult not in the data cache"
)
def test_real_adult_intersections():
    groups = m.intersection_groups("adult")
    assert groups["n"].sum() == 15060
    assert set(groups["age"]) <= {"<25", "25–44", "45–64", "65+"}
    assert groups.loc[groups["reference"], "group"].item() == "White · Male · 25–44"
