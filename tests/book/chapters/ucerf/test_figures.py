"""Tests of the UCerF chapter's computations — the figures module."""

import pytest

from fairbook_book.chapters import ucerf as uc

# pro right & sure, anti wrong & sure; pro right & unsure, anti right & sure; ...


def test_temperature_variants_keep_eo_and_move_ucerf(toy_scored, LOGPROBS):
    variants = uc.temperature_variants(toy_scored(LOGPROBS), temperatures=(0.5, 1.0, 4.0))
    assert variants["EO difference"].nunique() == 1
    assert variants["accuracy"].nunique() == 1
    assert variants["UCerF"].nunique() == 3
    assert (variants["EO rank"] == 1).all()
    assert sorted(variants["UCerF rank"]) == [1, 2, 3]
    ax = uc.plot_temperatures(variants)
    assert ax.get_xscale() == "log"


def test_occupation_table_and_plot(toy_scored, LOGPROBS):
    table = uc.occupation_table(toy_scored(LOGPROBS))
    assert set(table.index) == {"driver", "nurse"}
    assert table.loc["driver", "pairs"] == 1 and table.loc["nurse", "pairs"] == 3
    assert table["D gap"].is_monotonic_increasing
    assert uc.plot_occupations(table).get_xlim() == (-1.05, 1.05)
    with pytest.raises(ValueError, match="no rows"):
        uc.occupation_table(toy_scored(LOGPROBS), fmt="mcq")
